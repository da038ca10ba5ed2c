// What `validate` measured, as types: one PairResult per fixture pair, a
// ValidationRun per invocation (and in the results store). One to/from-JSON
// pair per type is the only place the JSON keys are spelled.
#pragma once

#include "validate/Measure.h"

#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlperf::validate {

enum class Verdict { Confirmed, NotMeasurable, Failed };
/// "confirmed", "not measurable here", "failed".
llvm::StringRef verdictName(Verdict V);

/// One side (anti-pattern or fix) of a measured pair: medians over the runs.
struct SideResult {
  double Metric = 0;
  double Checksum = 0;                    // of the first run
  std::map<std::string, double> Counters; // keyed by metric id (metricTable())
  // What the calibration needs whatever the pair's metric (docs/cost-model.md):
  // the steps the program reported and its step time, medians; absent in
  // results stored before they were recorded.
  std::optional<double> Steps, StepMs;
};

/// mlperf-lint's own fix-it applied to the anti-pattern, built and run.
struct FixCheck {
  std::string Source; // the fixed source
  bool Ok = false;
  std::optional<bool> SameResult; // absent when the fixed program did not run
  std::optional<double> Ratio;    // anti-pattern / fixed, on the pair's metric
  std::string Summary;
};

struct PairResult {
  std::string Check, Engine, Backend;
  std::string Metric; // a metric id
  std::string MetricDescription, Workload;
  std::string BadFile, GoodFile, BadPath, GoodPath;
  std::string Date;  // when it was measured (UTC, ISO 8601)
  unsigned Runs = 0; // measured runs per side
  Verdict Outcome = Verdict::Failed;
  Summary Ratio{1, 1, 1}; // anti-pattern / fix
  std::string Problem;    // why it failed
  std::string Note;       // a caveat on the verdict
  std::string Explain;    // the counter that explains the ratio
  std::optional<SideResult> Bad, Good;
  std::optional<FixCheck> Fix;

  /// A time from fewer than 3 runs is noise on a shared machine: no ratio is
  /// shown for it.
  /// A pair that never ran (Runs 0, why in Note) has no ratio at all.
  bool ratioIsEvidence() const { return Runs > 0 && (Metric != "step_time" || Runs >= 3); }
  /// Why no ratio is shown, when ratioIsEvidence() is false.
  std::string noRatioReason() const;
};

struct ValidationRun {
  std::string Machine, Date;
  unsigned Repeat = 0;
  std::vector<PairResult> Results;
};

/// The version of the JSON written by toJson(ValidationRun); a store with
/// another version is not read.
constexpr int ResultsSchema = 2;

nlohmann::json toJson(const PairResult &R);
nlohmann::json toJson(const ValidationRun &Run);
/// \p Where names the value in messages ("results[3]").
llvm::Expected<PairResult> pairFromJson(const nlohmann::json &J, const std::string &Where);
llvm::Expected<ValidationRun> runFromJson(const nlohmann::json &J);

/// Report order: confirmed by measured impact (median ratio, highest first),
/// then not measurable here, then failed; stable otherwise.
void sortForReport(std::vector<PairResult> &Results);

} // namespace mlperf::validate
