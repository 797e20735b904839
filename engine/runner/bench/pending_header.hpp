// engine/runner/bench/pending_header.hpp: the run header and the provenance lines not printed
// yet; a bench run prints them before its next table begins (never inside a live table).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "engine/registry/registry.hpp"

namespace glint::engine {

class PendingHeader {
  public:
    void set(std::vector<std::string> header) { header_ = std::move(header); }
    // The lines to print now: the header the first time, then the provenance lines registered
    // since the last call ("provenance: LINE").
    std::vector<std::string> take() {
        std::vector<std::string> lines;
        if (!printed_) lines = header_;
        printed_ = true;
        const auto& provenance = provenance_lines();
        for (; provenance_printed_ < provenance.size(); ++provenance_printed_)
            lines.push_back("provenance: " + provenance[provenance_printed_]);
        return lines;
    }

  private:
    std::vector<std::string> header_;
    bool printed_ = false;
    std::size_t provenance_printed_ = 0;
};

}  // namespace glint::engine
