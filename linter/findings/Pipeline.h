// The one way findings reach a report. Every file's result, parsed or
// replayed from the cache, passes once through the same stages, in input
// order: findings another file already reported are dropped (a header's
// finding is reported by every file that includes it), then those in
// another linted source file that this one includes (`#include "train_gpt2.cu"` in a
// test program: that file reports its own, as its own translation unit, so it
// gives the same findings whatever else is linted), then those in library
// code (vendored headers, files outside the project roots); then every finding
// left is recorded for --write-baseline and matched against the baseline, and
// only then are those outside --line-filter and --diff dropped (a baseline
// composes with them: it records and accepts the whole file's findings); the
// survivors carry their estimated cost on the chosen device (those under
// --min-cost are dropped) and the figure `validate` measured for their check.
#pragma once

#include "findings/CostNotes.h"
#include "findings/Filters.h"
#include "findings/Findings.h"
#include "findings/MeasuredNotes.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace mlperf::lint {

struct PipelineOptions {
  std::vector<std::string> Inputs; // the linted files, absolute
  std::vector<std::string> Units;  // those that are translation units of their own (not headers)
  std::vector<std::string> Roots;  // the project roots, absolute: findings outside them are dropped
  bool DropVendored = true;        // false when a header filter was configured
  std::optional<FindingFilter> Filter;
  std::string WriteBaseline; // --write-baseline
  MeasuredNotes Notes;
  CostNotes Costs; // the estimates on --device, and --min-cost
};

/// What the run as a whole reports once every file went through.
struct RunFindings {
  std::vector<clang::tidy::ClangTidyError> Errors; // in input order
  clang::tidy::ClangTidyStats Stats;
  std::vector<std::string> Incomplete; // one line per file with includes not found
  std::vector<std::string> Crashes;    // "<file>: clang crashed while parsing (...)"
  std::set<std::string> Uncompilable;  // normalized: inputs that did not compile, files with compile errors
  /// Findings per (file, check) before --line-filter, --diff and the
  /// baseline: what a verified --fix compares.
  std::map<std::pair<std::string, std::string>, unsigned> Counts;
};

class FindingsPipeline {
public:
  explicit FindingsPipeline(PipelineOptions O) : O(std::move(O)), Units(this->O.Units.begin(), this->O.Units.end()) {}

  /// Passes one file's result through the stages and adds it to the run's;
  /// returns the findings that survive, in the order reported.
  std::vector<clang::tidy::ClangTidyError> add(FileFindings F);
  /// After the last file: writes the baseline and says what the baseline hid
  /// and which of its entries are stale.
  void finish(std::vector<std::string> &Messages, std::vector<std::string> &Problems);

  RunFindings &result() { return Run; }
  const ::mlperf::validate::ValidationRun &measured() const { return O.Notes.results(); }
  std::shared_ptr<const CostTable> costs() const { return O.Costs.table(); }

private:
  std::vector<clang::tidy::ClangTidyError> dropRepeated(std::vector<clang::tidy::ClangTidyError> Errors);
  void recordStatus(const FileFindings &F);

  PipelineOptions O;
  std::set<std::string> Units; // O.Units, searched once per finding
  RunFindings Run;
  std::set<std::tuple<std::string, unsigned, std::string, std::string>> Seen;
  std::vector<clang::tidy::ClangTidyError> ForBaseline; // the findings --write-baseline records
  unsigned Hidden = 0;                                  // by the baseline
};

} // namespace mlperf::lint
