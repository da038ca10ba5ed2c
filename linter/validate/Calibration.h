// The static cost estimate checked against measurement (docs/cost-model.md):
// for a measured fixture pair, what the linter predicts the anti-pattern adds
// per step (its findings' events and time on a device model) next to what the
// pair measured (the anti-pattern's counters and step time minus the fix's).
#pragma once

#include "validate/Results.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mlperf::validate {

/// One kind of work compared: predicted and measured per step, or per run
/// for a finding whose cost is paid once (a new shape compiled).
struct EventComparison {
  std::string Kind; // a validate counter id: "syncs", "h2d_bytes", "d2h_bytes", "compilations"
  bool PerRun = false;
  double Predicted = 0;
  std::optional<double> Measured; // none when the programs do not report the counter
  /// predicted / measured; none when nothing was measured or the measured difference is not positive.
  std::optional<double> ratio() const;
};

struct CalibrationRow {
  std::string Check, Engine, Backend, Metric, Device, BadFile; // Metric: the pair's
  unsigned Findings = 0, Priced = 0; // findings of the check in the anti-pattern; those with an estimate
  bool LowerBound = false;           // an estimate depends on an unknown size
  std::vector<EventComparison> Events;
  double PredictedSeconds = 0;             // per step, on Device
  std::optional<double> MeasuredSeconds;   // per step, anti-pattern minus fix (medians)
  bool TimeIsEvidence = false;             // measured from 3 runs or more
  std::optional<double> timeRatio() const; // predicted / measured, when the time is evidence
};

/// The row for the measured pair \p R from the linter's JSON report of its
/// anti-pattern (`mlperf-lint --format=json --device=<Device>`): the findings
/// of R's check, their `cost.events` and `cost.per_step_seconds` summed.
CalibrationRow calibrate(const PairResult &R, const nlohmann::json &LintReport, const std::string &Device);

nlohmann::json toJson(const CalibrationRow &Row);
/// One line per row: "sync-in-loop (runtime, cpu): syncs 1 vs 1 per step (1x); time 20 µs vs 25 µs per step (0.8x)".
std::string formatCalibration(const std::vector<CalibrationRow> &Rows);

} // namespace mlperf::validate
