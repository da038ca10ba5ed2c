// Which findings a run reports: clang-tidy's --line-filter, the lines
// changed since a git ref (--diff), and a baseline of accepted findings
// (--baseline, written by --write-baseline) matched by check, file and the
// finding's line text with an occurrence count, never by line number.
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace mlperf::lint {

struct FilterRequest {
  std::string LineFilter;          // --line-filter JSON
  std::optional<std::string> Diff; // --diff[=ref]
  std::string Baseline;            // --baseline
  bool active() const { return !LineFilter.empty() || Diff || !Baseline.empty(); }
};

class FindingFilter {
public:
  /// Parses the line filter, runs `git diff`, reads the baseline.
  static llvm::Expected<FindingFilter> create(const FilterRequest &R);

  /// The findings on the lines of --line-filter and --diff; the dropped ones
  /// are counted in \p Stats as clang-tidy counts its line filter's.
  /// Compiler errors always pass.
  std::vector<clang::tidy::ClangTidyError> applyLines(std::vector<clang::tidy::ClangTidyError> Errors,
                                                      clang::tidy::ClangTidyStats &Stats) const;
  /// The findings the baseline does not accept; those it accepts are moved to
  /// \p Accepted.
  std::vector<clang::tidy::ClangTidyError> applyBaseline(std::vector<clang::tidy::ClangTidyError> Errors,
                                                         std::vector<clang::tidy::ClangTidyError> &Accepted);
  const std::string &baselinePath() const { return BaselinePath; }
  /// Entries for \p Linted files that matched no finding, one line each.
  std::vector<std::string> staleEntries(llvm::ArrayRef<std::string> Linted) const;
  /// With --diff: the changed C++ and CUDA files that still exist (absolute).
  const std::vector<std::string> &changedFiles() const { return Changed; }

private:
  using Key = std::tuple<std::string, std::string, std::string>; // check, file, normalised text
  bool passesLines(const std::string &File, unsigned Line) const;
  llvm::Error readLineFilter(const std::string &Json);
  /// The lines changed since \p Ref ("": HEAD) in the repository around the
  /// working directory, or those of a diff on standard input ("-", or "" and
  /// a pipe).
  llvm::Error readDiff(const std::string &Ref);
  /// The changed lines of \p Diff (`diff -U0`), paths relative to \p Top.
  llvm::Error useDiff(llvm::StringRef Diff, llvm::StringRef Top);
  llvm::Error readBaseline(const std::string &Path);

  std::vector<clang::tidy::FileFilter> Lines; // empty: every line
  bool HaveLines = false;
  std::vector<std::string> Changed;
  std::string BaselinePath, BaselineDir;
  std::map<Key, unsigned> Accepted; // remaining counts
  std::map<Key, std::string> Shown; // an entry's text as written
};

/// Writes the findings of \p Errors as a baseline to \p Path; paths are
/// relative to the baseline's directory. Entries of a baseline already at
/// \p Path for existing files not in \p Linted are kept.
llvm::Error writeBaseline(const std::string &Path, llvm::ArrayRef<clang::tidy::ClangTidyError> Errors,
                          llvm::ArrayRef<std::string> Linted);

} // namespace mlperf::lint
