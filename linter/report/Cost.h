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

/// Memory a finding keeps alive on every step: it grows with the steps.
struct MemoryGrowth {
  std::optional<double> BytesPerStep; // else unknown:
  std::string DependsOn;              // what the bytes depend on
  std::string What;                   // what each step keeps: "the autograd graph of 'loss'"
  bool Host = false;                  // host memory: not compared with the device's
  double DeviceBytes = 0;             // the device's memory

  /// Steps until the device's memory is full, when the bytes are known.
  std::optional<double> stepsToFill() const;
};

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
  std::optional<MemoryGrowth> Memory; // memory kept alive per step, if any

  bool lowerBound() const { return !DependsOn.empty(); }
  /// The time per run when the steps are known (or a one-off cost).
  std::optional<double> perRun() const;
  /// The time the finding costs the run: per run when known, else per step.
  double timeWeight() const { return perRun().value_or(PerStep); }
  /// 0-100: for time, logarithmic in timeWeight() (1 µs: 10, 1 ms: 40, 1 s:
  /// 70); for memory that grows every step, by how soon it fills the device
  /// (100: within the run's known steps); the larger of the two. The same
  /// for a finding whatever else the run reports (SARIF's rank).
  double rank() const;
  /// What orders findings: timeWeight(), or the time of the same rank when
  /// memory growth ranks higher (docs/cost-model.md).
  double weight() const;
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
