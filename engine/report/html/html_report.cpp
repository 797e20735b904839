#include "engine/report/html/html_report.hpp"

#include <cmath>

#include "engine/model/json.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/model/unstable_codes.hpp"
#include "engine/report/html/svg_plot.hpp"
#include "engine/report/json_report.hpp"
#include "engine/report/layout.hpp"

namespace glint::engine::report::html {
namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em;margin:0 0 .4em} p.note{margin:.1em 0;color:#555;font-size:.9em}
table{border-collapse:collapse;margin-top:1em}
th,td{padding:3px 8px;border-bottom:1px solid #ddd;vertical-align:middle;white-space:nowrap}
th{cursor:pointer;background:#f4f4f4;position:sticky;top:0;user-select:none}
th.sorted-asc::after{content:" ▲"} th.sorted-desc::after{content:" ▼"}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr[data-verdict=slower] td.verdict{color:#b00020;font-weight:600}
tr[data-verdict=faster] td.verdict{color:#0a7d20;font-weight:600}
tr[data-verdict=noisy] td.verdict{color:#946200}
svg.dist .lane-new .box{fill:#cfe0f7;stroke:#2a5db0} svg.dist .lane-new .dot{fill:#2a5db0;opacity:.55}
svg.dist .lane-base .box{fill:#e6e6e6;stroke:#777} svg.dist .lane-base .dot{fill:#777;opacity:.5}
svg.dist .median{stroke:#111;stroke-width:2} svg.dist .whisker{stroke:#555}
svg.dist .beyond{fill:#c05000} svg.dist .axis{font-size:10px;fill:#444} svg.dist .tick{stroke:#888}
td.unstable{color:#8a5a00} td.unstable .why{font-size:.78em;color:#946200;text-align:right}
tr.extra td{border-bottom:1px solid #ddd;padding:2px 8px 8px}
svg.flame{display:block;width:100%;height:auto} svg.flame text{pointer-events:none}
.legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px;vertical-align:middle}
)";

// Sorting: click a header (again: reverse); "#sort=KEY" / "#sort=-KEY" sorts on load. Cells
// carry data-sort (a number, or text for the name); cells without one sort last both ways. A
// row's full-width extra row (tr.extra) moves with it.
constexpr const char* kScript = R"(
(function(){
  var table=document.getElementById('results'), body=table.tBodies[0];
  var heads=table.tHead.rows[0].cells;
  function key(row,c){var v=row.cells[c].getAttribute('data-sort');
    if(v===null||v==='')return null; var n=Number(v); return isNaN(n)?v:n;}
  function sortBy(c,desc){
    var rows=Array.prototype.filter.call(body.rows,function(r){return r.className==='row';});
    rows.sort(function(a,b){var x=key(a,c),y=key(b,c);
      if(x===null&&y===null)return 0; if(x===null)return 1; if(y===null)return -1;
      var r=x<y?-1:x>y?1:0; return desc?-r:r;});
    var extras=rows.map(function(r){var e=r.nextElementSibling;return e&&e.className==='extra'?e:null;});
    rows.forEach(function(r,i){body.appendChild(r);if(extras[i])body.appendChild(extras[i]);});
    for(var i=0;i<heads.length;i++)heads[i].className='';
    heads[c].className=desc?'sorted-desc':'sorted-asc';
    table.setAttribute('data-sorted',heads[c].getAttribute('data-key')+(desc?':desc':':asc'));
  }
  Array.prototype.forEach.call(heads,function(h,c){h.addEventListener('click',function(){
    sortBy(c,h.className==='sorted-asc');});});
  var m=/sort=(-?)([^&]+)/.exec(location.hash);
  if(m)for(var c=0;c<heads.length;c++)if(heads[c].getAttribute('data-key')===decodeURIComponent(m[2]))sortBy(c,m[1]==='-');
})();
)";

std::string sort_attr(const Cell& c) {
    if (!c.has_sort || !std::isfinite(c.sort)) return "";
    return " data-sort=\"" + format_json_number(c.sort) + "\"";
}

std::string joined(const std::vector<std::string>& parts, const char* separator) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : separator) + p;
    return out;
}

// One value cell; an unstable value reads "~VALUE" with its reasons' codes beneath (the table's,
// engine/model/unstable_codes.hpp), their meaning as the tooltip.
std::string cell_html(const Column& column, const Cell& cell) {
    std::string cls = column.numeric ? "num" : "";
    if (column.key.rfind("verdict", 0) == 0) cls += cls.empty() ? "verdict" : " verdict";
    if (!cell.unstable.empty()) cls += cls.empty() ? "unstable" : " unstable";
    std::string out =
        "<td class=\"" + cls + "\" data-col=\"" + escape(column.key) + "\"" + sort_attr(cell);
    if (cell.unstable.empty()) return out + ">" + escape(cell.text) + "</td>";
    std::vector<std::string> named;
    for (const auto& reason : cell.unstable) named.push_back(code_of_reason(reason));
    const std::string title =
        cell.unstable_title.empty() ? "unstable: " + joined(named, ", ") : cell.unstable_title;
    return out + " title=\"" + escape(title) + "\"><span class=\"mark\">" + kUnstableMark +
           "</span>" + escape(cell.text) + "<div class=\"why\">" + kUnstableMark + " " +
           escape(unstable_cell(cell.unstable)) + "</div></td>";
}

}  // namespace

std::string escape(const std::string& text) { return sanitize::html(text); }

std::string render_page(const Report& report) {
    bool any_base = false, any_unstable = false;
    for (const auto& row : report.rows) {
        any_base = any_base || !row.base_samples_ns.empty();
        for (const auto& cell : row.cells) any_unstable = any_unstable || !cell.unstable.empty();
    }
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
                      escape(report.title) + "</title><style>" + kStyle + "</style></head><body>\n";
    out += "<h1>" + escape(report.title) + "</h1>\n";
    for (const auto& note : report.notes) out += "<p class=\"note\">" + escape(note) + "</p>\n";
    out +=
        "<p class=\"legend\">distribution per iteration:<span "
        "style=\"background:#2a5db0\"></span>" +
        escape(report.sample_label);
    if (any_base) out += "<span style=\"background:#777\"></span>" + escape(report.base_label);
    out += " (box: quartiles, bar: median, whiskers: 1.5 IQR, ▸: beyond the axis)";
    if (any_unstable)
        out += std::string(" · ") + kUnstableMark +
               ": measured unstably, the reasons' codes under the value (hover: what they mean)";
    out += "</p>\n";
    out +=
        "<table id=\"results\"><thead><tr><th data-key=\"name\">benchmark</th>"
        "<th data-key=\"plot\">distribution</th>";
    for (const auto& c : report.columns)
        out += "<th data-key=\"" + escape(c.key) + "\">" + escape(c.header) + "</th>";
    out += "</tr></thead>\n<tbody>\n";
    for (const auto& row : report.rows) {
        out += "<tr class=\"row\" data-verdict=\"" + escape(row.verdict) +
               "\"><td class=\"name\" data-sort=\"" + escape(row.name) + "\">" + escape(row.name) +
               "</td>";
        std::vector<PlotLane> lanes;
        if (!row.base_samples_ns.empty())
            lanes.push_back({report.base_label, "lane-base", row.base_samples_ns});
        lanes.push_back({report.sample_label, "lane-new", row.samples_ns});
        out += "<td class=\"plot\">" + distribution_svg(lanes) + "</td>";
        for (std::size_t i = 0; i < report.columns.size(); ++i)
            out += cell_html(report.columns[i], i < row.cells.size() ? row.cells[i] : Cell{"—"});
        out += "</tr>\n";
        if (!row.extra_html.empty())
            out += "<tr class=\"extra\"><td colspan=\"" +
                   std::to_string(report.columns.size() + 2) + "\">" + row.extra_html +
                   "</td></tr>\n";
    }
    out += "</tbody></table>\n<script>" + std::string(kScript) + "</script>\n</body></html>\n";
    return out;
}

std::optional<std::string> write_page(const os::OutputTarget& target, const Report& report) {
    return os::write_output(target, render_page(report));
}

}  // namespace glint::engine::report::html
