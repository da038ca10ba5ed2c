// A finding's facts (checks/analysis/Cost.h) priced on a device model: the
// time per step, per run when the steps are known, the note that says so,
// and the rank JSON and SARIF carry (docs/cost-model.md).
#pragma once

#include "analysis/Cost.h"
#include "support/DeviceModel.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace mlperf::lint {

struct CostEstimate {
  std::string Device;
  double PerStep = 0;                 // seconds; a lower bound when DependsOn is not empty
  std::string Breakdown;              // "1 sync (20 µs) + 4 B D2H (10 µs)"
  std::vector<std::string> DependsOn; // inputs an unknown count or size depends on
  std::optional<double> Steps;        // steps the run makes, when constant
  std::string StepsDependOn;          // else the bound they depend on ("" for a one-off cost)
  bool PerStepFinding = true;         // false: the cost is paid once, not per step
  /// The work priced, per step, the repeats included, by kind: "syncs",
  /// "h2d_copies", "d2h_copies", "h2d_bytes" and "d2h_bytes" (when known),
  /// "allocations", "compilations". What validate's calibration compares
  /// with the counters the fixtures report (docs/cost-model.md).
  std::map<std::string, double> Events;

  bool lowerBound() const { return !DependsOn.empty(); }
  std::optional<double> perRun() const;
  /// What the finding costs the run: per run when known, else per step.
  double weight() const { return perRun().value_or(PerStep); }
  /// 0-100, logarithmic in weight() (1 µs: 10, 1 ms: 40, 1 s: 70), the
  /// same for a finding whatever else the run reports (SARIF's rank).
  double rank() const;
  /// "≈ 30 µs per step on h100-pcie: 1 sync (20 µs) + 4 B D2H (10 µs); ≈ 3 s over 100,000 steps"
  std::string note() const;
};

/// The `cost` object of JSON and SARIF (docs/json-output.md).
nlohmann::json costJson(const CostEstimate &C);

/// The estimate of \p F on \p D; none when the facts say nothing costs time.
std::optional<CostEstimate> estimateCost(const clang::tidy::mlperf::CostFacts &F, const DeviceModel &D);

/// "20 µs", "0.21 ms", "21 s", "1.5 h".
std::string formatDuration(double Seconds);
/// "4 B", "1.5 MiB".
std::string formatBytes(double Bytes);
/// A duration on the command line ("500us", "0.2ms", "3s", "2min", "1h"), in seconds.
std::optional<double> parseDuration(llvm::StringRef Text);

/// The estimates of a run's findings, by finding.
class CostTable {
public:
  void add(const clang::tidy::ClangTidyError &E, CostEstimate C);
  const CostEstimate *find(const clang::tidy::ClangTidyError &E) const;
  bool empty() const { return Costs.empty(); }

private:
  using Key = std::tuple<std::string, unsigned, std::string, std::string>;
  static Key keyOf(const clang::tidy::ClangTidyError &E);
  std::map<Key, CostEstimate> Costs;
};

/// \p Errors ordered by their estimate, the costliest first; findings
/// without one follow in their order.
void sortByCost(std::vector<clang::tidy::ClangTidyError> &Errors, const CostTable &Costs);

} // namespace mlperf::lint
