// tests/support/process.hpp: run a program, capture its stdout, stderr and exit status.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace glint::test {

struct ProcessResult {
    int exit_code = -1;  // -1 when killed by a signal (signal in term_signal)
    int term_signal = 0;
    std::string out;
    std::string err;
};

// Runs argv[0] with argv (no shell). extra_env entries are "KEY=VALUE" added to the environment.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& extra_env = {});

// A program running in the background while the test watches it (and signals it). Its stdout
// and stderr are collected by a thread; stdout goes to `stdout_path` instead when given.
class BackgroundProcess {
  public:
    BackgroundProcess(const std::vector<std::string>& argv,
                      const std::vector<std::string>& extra_env = {},
                      const std::string& stdout_path = "");
    ~BackgroundProcess();  // kills it (SIGKILL) when it is still running
    BackgroundProcess(const BackgroundProcess&) = delete;
    BackgroundProcess& operator=(const BackgroundProcess&) = delete;

    int pid() const { return pid_; }
    std::string out() const;  // what it wrote so far
    std::string err() const;
    // Closes the read end of its stdout pipe: its next write to stdout fails with EPIPE.
    void close_stdout();
    // Waits for it to end (at most `timeout_s`, then SIGKILL) and returns everything.
    ProcessResult wait(double timeout_s = 60);

  private:
    struct State;
    State* state_;
    int pid_ = -1;
};

// Polls `ready` every 10 ms for up to `timeout_s`; true once it holds.
bool wait_until(const std::function<bool()>& ready, double timeout_s = 30);

// Path of a fixture executable built from tests/e2e/fixtures/<name>.cpp.
std::string fixture_path(const std::string& name);

#ifdef GLINT_TEST_BINARY_DIR
// Path of the built glint-compare tool (the test binaries define GLINT_TEST_BINARY_DIR).
inline std::string compare_path() {
    return std::string(GLINT_TEST_BINARY_DIR) + "/tools/glint-compare";
}
#endif

std::string read_file(const std::string& path);

// A run of a program that writes a --bench-json document, and the document read back (Doc: a
// JSON type with a static parse(std::string), engine::Json or nlohmann::json; null when the
// program wrote none).
template <class Doc>
struct DocumentRun {
    ProcessResult result;
    Doc doc;
};
// Runs argv with --bench-json=`path` appended; returns what it wrote there ("" when nothing).
std::string run_writing_document(std::vector<std::string> argv, const std::string& path,
                                 const std::vector<std::string>& extra_env, ProcessResult& result);
template <class Doc>
DocumentRun<Doc> run_with_document(std::vector<std::string> argv, const std::string& path,
                                   const std::vector<std::string>& extra_env = {}) {
    DocumentRun<Doc> run;
    const std::string text = run_writing_document(std::move(argv), path, extra_env, run.result);
    if (!text.empty()) run.doc = Doc::parse(text);
    return run;
}

// Whether `text` (a captured output, a file) contains `part`.
inline bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

// `text` with the header's wrapped lines joined again: a line break followed by the two-space
// continuation indent and a word becomes one space (report::wrap_to_width undone), so a check
// of a whole sentence holds whatever width it was wrapped at.
inline std::string unwrapped(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n' && text.substr(i + 1, 2) == "  " && i + 3 < text.size() &&
            text[i + 3] != ' ') {
            out += ' ';
            i += 2;
            continue;
        }
        out += text[i];
    }
    return out;
}

// <stem>.json in this process's own temporary directory (temp_path: an unpredictable name).
std::string temp_json_path(const std::string& stem);

}  // namespace glint::test
