// Runs fixture programs and turns what they print into the metric of their
// check: medians and ratios, never a single timing.
#pragma once

#include "Manifest.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlperf::validate {

struct RunOutput {
  bool Ok = false;
  std::string Problem;  // why it failed, with the program's output
  nlohmann::json Report;  // the program's last JSON line
};

/// Runs \p Program with \p Args and MLPERF_BACKEND=\p Backend; the program
/// prints one JSON line with "checksum", "steps" and its counters.
RunOutput runFixture(const std::string &Program, const std::vector<std::string> &Args, const std::string &Backend,
                     unsigned TimeoutSeconds);

/// The manifest's metric of one run (per step where the metric is a rate).
std::optional<double> metricOf(const nlohmann::json &Report, const std::string &Metric);
/// The counters that explain a metric, per step: syncs, copies, compilations,
/// memory; those the program reports, named as describeMetric names them.
std::map<std::string, double> countersOf(const nlohmann::json &Report, const std::string &Engine);
/// A counter's value as a person reads it: byte counts (a \p Name that
/// mentions bytes or memory) in B, KB, MB, GB; everything else to 3 digits.
std::string formatCounter(const std::string &Name, double Value);
/// What a metric or counter measures on \p Engine ("runtime" or "libtorch").
std::string describeMetric(const std::string &Metric, const std::string &Engine = "runtime");

struct Summary {
  double Median = 0, Min = 0, Max = 0;
};
Summary summarize(std::vector<double> Values);
bool sameResult(double A, double B, double Tolerance);

} // namespace mlperf::validate
