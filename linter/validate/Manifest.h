// A fixture's manifest: which metric its check is about, the program pairs
// (anti-pattern and fix) on each engine, their sizes and the tolerance.
#pragma once

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlperf::validate {

struct FixturePair {
  std::string Engine;    // "runtime", "libtorch", "cuda", or one this repository cannot build ("llama.cpp")
  std::string Bad, Good; // source files, relative to the fixture directory; empty for a pair without programs
  /// What the pair needs that a machine may lack ("a CUDA device"): shown
  /// with "not measurable here" when its programs were not built, cannot run
  /// here (they exit with status 77), or do not exist (an engine this
  /// repository cannot build: then the pair has only this).
  std::string Needs;
  std::vector<std::string> Args, QuickArgs;
  double Tolerance = 1e-4; // relative, on the checksum
  std::string Metric;      // the manifest's, unless the pair names its own
  std::string Workload;    // likewise
};

struct Manifest {
  std::string Check;    // "mlperf-materialize-in-loop"
  std::string Dir;      // absolute fixture directory
  std::string Metric;   // step_time, syncs, h2d_bytes, d2h_bytes, compilations, peak_memory
  std::string Workload; // one line: what the programs do
  // A pair may name its own metric and workload: what an engine can count
  // differs (libtorch on a CPU has no device syncs to count).
  double MinEffect = 0.05; // smallest ratio - 1 that counts as confirmed
  std::vector<FixturePair> Pairs;
};

llvm::Expected<Manifest> loadManifest(const std::string &Path);
/// Every fixtures/*/manifest.json below \p FixturesDir, sorted by check.
llvm::Expected<std::vector<Manifest>> discoverManifests(const std::string &FixturesDir);
/// The engines whose fixture programs the build directory's configuration
/// builds (fixtures/bin/engines.txt, written by fixtures/CMakeLists.txt), or
/// nullopt when it does not say (a build directory configured before it did).
std::optional<std::vector<std::string>> builtEngines(const std::string &BuildDir);
/// Name of the built program for one side, as fixtures/CMakeLists.txt names it.
std::string programName(const Manifest &M, const FixturePair &P, bool BadSide);
bool isKnownMetric(const std::string &Metric);

} // namespace mlperf::validate
