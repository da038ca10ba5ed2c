// Running checks on fixture files in-process, and the fixture format:
//   // CHECK-MESSAGES: :[[@LINE-1]]:COL: warning: TEXT [check]
//   // CHECK-NOTES:    :[[@LINE-1]]:COL: note: TEXT
//   // CHECK-FIXES: text the fixed file must contain (in order)
//   // RUN-CHECKS: glob                 (default: mlperf-<directory name>)
//   // CHECK-OPTIONS: Key=Value         (CheckOptions for this file)
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <map>
#include <string>
#include <vector>

namespace mlperf::test {

/// A user profile with a method-style transfer (fw::Host::upload) and step
/// (fw::Exec::run): the transfer's finding has a fix-it.
inline const char *const TransferProfile = R"({"name": "p", "device_context": "always", "entries": [
    {"role": "step", "kind": "exec", "callee": "fw::Exec::run"},
    {"role": "to-device", "callee": "fw::Host::upload"}]})";
/// A loop that uploads the same host value on every step: one finding, with
/// a fix, under TransferProfile.
inline const char *const TransferSource = "namespace fw { struct Dev {}; struct Host { Dev upload() const; };\n"
                                          "struct Exec { void run(const Dev &); }; }\n"
                                          "void train(fw::Exec &e, const fw::Host &w) {\n"
                                          "  for (int i = 0; i < 10; ++i) {\n"
                                          "    e.run(w.upload());\n"
                                          "  }\n"
                                          "}\n";

struct Expectation {
  unsigned Line, Column;
  std::string Kind; // "warning" or "note"
  std::string Text; // must be a substring of "KIND: message [check]" (notes: "note: message")
};

struct Fixture {
  std::string Path, Checks;
  std::string Source; // the file with expectation comments blanked to "//"
  std::map<std::string, std::string> Options;
  std::vector<Expectation> Messages, Notes;
  std::vector<std::string> Fixes;
  bool NeedsTorch = false;
  bool NeedsRuntime = false; // the runtime's headers need C++20, libtorch 1.13's C++17
};

Fixture parseFixture(const std::string &Path, std::string &Error);

/// Compiler arguments for fixtures (with the libtorch PCH when it needs torch).
std::vector<std::string> fixtureArgs(bool NeedsTorch, bool NeedsRuntime = false);
bool torchAvailable();

/// Runs \p Checks on \p Source (named \p Path) and returns what clang-tidy reports;
/// the parse stops once \p Cancelled (when given) returns true.
std::vector<clang::tidy::ClangTidyError> runChecks(const std::string &Path, const std::string &Source,
                                                   const std::string &Checks,
                                                   const std::map<std::string, std::string> &Options,
                                                   const std::vector<std::string> &Args,
                                                   std::function<bool()> Cancelled = {});

/// Applies every fix of \p Errors to \p Source.
std::string applyAll(const std::string &Source, const std::vector<clang::tidy::ClangTidyError> &Errors,
                     std::string &Error);
/// Parses \p Source with -fsyntax-only; returns the compiler's errors or "".
std::string compileErrors(const std::string &Path, const std::string &Source, const std::vector<std::string> &Args);

std::vector<std::string> allFixtureFiles();
std::string readFile(const std::string &Path);

struct ProcessResult {
  int Exit;
  std::string Out, Err;
};
/// How many times \p What occurs in \p Text (overlapping occurrences too).
size_t count(const std::string &Text, const std::string &What);
/// Runs a program with arguments; stdin from /dev/null.
ProcessResult runProcess(const std::string &Program, const std::vector<std::string> &Args,
                         const std::string &WorkDir = "",
                         const std::vector<std::pair<std::string, std::string>> &Env = {});
/// Runs a program with \p Input as its standard input (a file).
ProcessResult runProcessWithInput(const std::string &Input, const std::string &Program,
                                  const std::vector<std::string> &Args, const std::string &WorkDir = "");

} // namespace mlperf::test
