// Runs fixture programs and turns what they print into the metric of their
// check: medians and ratios, never a single timing.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mlperf::validate {

enum class Unit { Count, Bytes, Milliseconds, Seconds };

/// One quantity a fixture program reports: where it is in the program's JSON
/// line, whether it is divided by the number of steps, how each engine's
/// counter is described, and its unit.
struct MetricInfo {
  const char *Id;       // name in manifests and results: "syncs"
  const char *Group;    // object of the report holding Key ("stats"), or nullptr for the top level
  const char *Key;      // "waits"
  const char *Samples;  // top-level array of per-step values whose median is preferred, or nullptr
  bool PerStep;         // divided by the report's "steps"
  const char *Runtime;  // what it counts on the bundled runtime
  const char *Libtorch; // what it counts on libtorch (fixtures/common/torch_counters.h)
  Unit U;
  bool Selectable; // a manifest may name it as a pair's metric
};

/// Every metric and counter, step time first.
llvm::ArrayRef<MetricInfo> metricTable();
const MetricInfo *findMetric(llvm::StringRef Id);

/// The exit status with which a fixture program says "not on this machine"
/// (fixtures/common/cuda_fixture.h), as automake's test drivers skip.
constexpr int NotMeasurableHereStatus = 77;

struct RunOutput {
  bool Ok = false;
  /// The program exited with status 77: this machine cannot run it (no CUDA
  /// device); Problem is the reason it gave, its last line on stderr.
  bool NotHere = false;
  std::string Problem;   // why it failed, with the program's output
  nlohmann::json Report; // the program's last JSON line
  double Checksum = 0;   // the report's "checksum", a number
};

/// Runs \p Program with \p Args and MLPERF_BACKEND=\p Backend; the program
/// prints one JSON line with a numeric "checksum", "steps" and its counters,
/// or exits with status 77 and says on stderr what this machine lacks.
RunOutput runFixture(const std::string &Program, const std::vector<std::string> &Args, const std::string &Backend,
                     unsigned TimeoutSeconds);

/// Fixture programs' runs recorded on another machine (one with a GPU but no
/// LLVM: scripts/record-fixture-runs.py), for `validate --recorded=FILE`:
/// JSON lines, an optional {"machine": "..."} and one object per run with
/// "program" (file name), "args", "backend", "status", "stdout" and "stderr".
/// Runs of one program, arguments and backend are taken in recorded order.
class RecordedRuns {
public:
  /// The runs in \p Path, or one line naming the file, the line and the problem.
  static llvm::Expected<RecordedRuns> load(const std::string &Path);
  /// Whether runs of program file \p Name on \p Backend were recorded.
  bool has(llvm::StringRef Name, llvm::StringRef Backend) const;
  /// The next recorded run of \p Program (its file name counts) as runFixture
  /// would return it, or a failed run saying that the record holds no more.
  RunOutput take(const std::string &Program, const std::vector<std::string> &Args, const std::string &Backend);
  const std::string &machine() const { return Machine; }

private:
  struct Run {
    int Status;
    std::string Stdout, Stderr;
  };
  std::map<std::string, std::vector<Run>> Runs; // program, backend, args: one per line
  std::map<std::string, unsigned> Taken;
  std::set<std::string> Programs; // program, backend: of every run
  std::string Path, Machine;
};

/// The metric \p Id of one run (per step where the table says so).
std::optional<double> metricOf(const nlohmann::json &Report, llvm::StringRef Id);
/// The counters of one run (every metric of the table under "stats" that the
/// program reports), keyed by metric id.
std::map<std::string, double> countersOf(const nlohmann::json &Report);
/// A value of metric \p Id as a person reads it, in the metric's unit: bytes
/// in B, KB, MB, GB; times with ms or s; counts to 3 digits.
std::string formatCounter(llvm::StringRef Id, double Value);
/// What metric \p Id measures on \p Engine ("runtime" or "libtorch").
std::string describeMetric(llvm::StringRef Id, llvm::StringRef Engine = "runtime");

struct Summary {
  double Median = 0, Min = 0, Max = 0;
};
Summary summarize(std::vector<double> Values);
bool sameResult(double A, double B, double Tolerance);

} // namespace mlperf::validate
