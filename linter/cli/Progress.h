// What the user sees while a run goes on: each file's text findings as soon
// as the file is done (in input order unless stdout is a terminal), one
// updating progress line on stderr when it is a terminal, and clang-tidy's
// "Suppressed N warnings" summary.
#pragma once

#include "project/Lint.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <set>
#include <tuple>

namespace mlperf::lint {

class LiveReport {
public:
  /// Adjusts \p R for what it shows (no clang counts under the progress line).
  LiveReport(LintRequest &R, llvm::raw_ostream &Out, llvm::raw_ostream &Err, bool OutIsTerminal, bool ErrIsTerminal);
  /// Whether the text findings go out file by file (then not again at the end).
  bool streams() const { return Streams; }
  FileReport callback();
  /// Prints what is still held back and clears the progress line.
  void finish();

private:
  void fileDone(size_t Index, size_t Total, const std::string &File, std::vector<clang::tidy::ClangTidyError> Errors);
  void print(const std::vector<clang::tidy::ClangTidyError> &Errors);
  void drawProgress();
  void clearProgress();

  llvm::raw_ostream &Out, &Err;
  bool Color, Streams, InOrder, Progress;
  std::map<size_t, std::vector<clang::tidy::ClangTidyError>> Pending;
  size_t Next = 0, Done = 0, Total = 0;
  std::string Last;
  size_t LastFindings = 0;
  std::set<std::tuple<std::string, unsigned, std::string, std::string>> Seen;
  std::chrono::steady_clock::time_point Start = std::chrono::steady_clock::now();
};

/// clang-tidy's "Suppressed N warnings (N in non-user code, ...)." lines;
/// nothing when nothing was suppressed.
void printSuppressed(const clang::tidy::ClangTidyStats &Stats, llvm::raw_ostream &OS);

} // namespace mlperf::lint
