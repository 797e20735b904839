#include "catalog/metric.hpp"

namespace glint::catalog {

std::string_view to_string(Format format) {
    switch (format) {
        case Format::ratio:
            return "ratio";
        case Format::count:
            return "count";
        case Format::percent:
            return "percent";
        case Format::change:
            return "percent";  // the same number; the sign is the text's
        case Format::nanoseconds:
            return "ns";
    }
    return "count";
}

std::string_view to_string(MetricClass cls) {
    return cls == MetricClass::quantitative ? "quantitative" : "diagnostic";
}

MetricCell make_cell(const MetricDescriptor& descriptor, double value, bool estimated) {
    return MetricCell{descriptor.name,   descriptor.header, value,
                      descriptor.format, descriptor.cls,    estimated};
}

}  // namespace glint::catalog
