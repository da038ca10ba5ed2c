// The figure `mlperf-lint validate` measured for a check, added to each of
// its findings as a note. The results come from one explicit file (by
// default the stored results of `validate`), read once per run.
#pragma once

#include "validate/Results.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlperf::lint {

class MeasuredNotes {
public:
  MeasuredNotes() = default;
  explicit MeasuredNotes(::mlperf::validate::ValidationRun Results) : Results(std::move(Results)) {}
  /// The results in \p Path ("": the stored results); none, with a warning on
  /// \p Warnings, when the file exists but cannot be used.
  static MeasuredNotes load(const std::string &Path, llvm::raw_ostream &Warnings);

  /// Adds the measurement of each finding's check, preferring the one on the
  /// engine the file uses.
  void add(std::vector<clang::tidy::ClangTidyError> &Errors);
  const ::mlperf::validate::ValidationRun &results() const { return Results; }

private:
  ::mlperf::validate::ValidationRun Results;
  std::map<std::string, std::string> Engines;                                      // by file
  std::map<std::pair<std::string, std::string>, std::optional<std::string>> Notes; // by check and engine
};

} // namespace mlperf::lint
