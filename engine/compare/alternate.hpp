// engine/compare/alternate.hpp: glint-compare --alternate=K, the alternating A/B recipe as one
// command: BASE_PROGRAM and NEW_PROGRAM run in turn (base, new, base, new, ...) K times each,
// each as `PROGRAM --bench --bench-repeat=R --bench-json=DIR/<side>-<i>.json FLAGS`, then the
// two sides are compared as `glint-compare DIR/base-1.json,... DIR/new-1.json,...` would be.
//
// Bad input is refused before anything runs (UsageError, exit 2). A run that fails (non-zero
// exit, a signal, no document) stops the command with exit 2, naming the program, the run and
// the tail of its log (DIR/<side>-<i>.log: its standard output and error). DIR is --keep=DIR
// or a fresh temporary directory, removed at the end unless something failed. An interrupt
// (SIGINT, SIGTERM, SIGHUP) is passed on to the running program, then ends the command.
// Rationale: docs/rationale.md, "engine/compare/alternate.hpp"; the CI recipe: docs/ci.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/compare/document.hpp"

namespace glint::engine {

struct AlternateRequest {
    int runs = 0;                    // K (--alternate=K); 0: not alternating
    std::optional<int> repeat;       // --repeat=R (--bench-repeat of every run; 3 by default)
    std::string keep;                // --keep=DIR; "" for a temporary directory
    std::vector<std::string> flags;  // FLAGS, everything after "--"
    bool active() const { return runs > 0; }
};

// glint-compare's arguments with --alternate, --repeat, --keep and "-- FLAGS" taken out: `rest`
// (argv[0] first) goes to the comparison's own parser. Throws UsageError for a bad value, one
// of them without --alternate, FLAGS naming --bench-json or --bench-baseline (the command owns
// them), and with --alternate anything but two program arguments (documents are refused).
struct AlternateArgs {
    AlternateRequest request;
    std::vector<char*> rest;
};
AlternateArgs take_alternate_flags(int argc, char** argv);

// What run `json` of `program` is given: PROGRAM --bench --bench-repeat=R --bench-json=JSON FLAGS
// (--bench and --bench-repeat left out when FLAGS give them).
std::vector<std::string> program_argv(const AlternateRequest& request, const std::string& program,
                                      const std::string& json);

// The text --help adds for --alternate.
const char* alternate_usage();

class Alternation {
  public:
    explicit Alternation(AlternateRequest request) : request_(std::move(request)) {}
    ~Alternation();  // removes a temporary DIR after finish(status != 2), else says it is kept
    Alternation(const Alternation&) = delete;
    Alternation& operator=(const Alternation&) = delete;

    // `files` holds BASE_PROGRAM and NEW_PROGRAM: checks them and DIR, runs the alternation
    // (progress on stderr) and replaces them with the two sides' documents. 0, or 2 after
    // printing why (nothing runs when an input is bad).
    int run(std::vector<std::string>& files);
    // The sides' names in the report: "base (K runs)", "new (K runs)".
    void name_sides(std::vector<RunDocument>& documents) const;
    // The comparison's exit status: 2 keeps DIR.
    void finish(int status) { status_ = status; }

  private:
    bool prepare_dir(std::string& problem);
    // 0, -1 after printing why the run failed, or the interrupt that stopped it.
    int run_one(const std::string& program, const std::string& side, int index, double& seconds);
    // An interrupt during `where`: removes a temporary DIR and ends the command by `sig`.
    void stop_by(int sig, const std::string& where);

    AlternateRequest request_;
    std::string dir_;
    bool temporary_ = false;
    int lock_ = -1;  // DIR's marker, locked while this alternation uses DIR
    std::optional<int> status_;
};

}  // namespace glint::engine
