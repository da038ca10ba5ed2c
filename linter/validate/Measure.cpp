#include "Measure.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace mlperf::validate {

RunOutput runFixture(const std::string &Program, const std::vector<std::string> &Args, const std::string &Backend,
                     unsigned TimeoutSeconds) {
  RunOutput Out;
  llvm::SmallString<128> OutFile, ErrFile;
  llvm::sys::fs::createTemporaryFile("mlperf-fixture", "out", OutFile);
  llvm::sys::fs::createTemporaryFile("mlperf-fixture", "err", ErrFile);
  std::vector<llvm::StringRef> Argv = {Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::vector<std::string> EnvStrings;
  for (char **E = environ; *E; ++E)
    if (!llvm::StringRef(*E).starts_with("MLPERF_BACKEND="))
      EnvStrings.push_back(*E);
  if (!Backend.empty())
    EnvStrings.push_back("MLPERF_BACKEND=" + Backend);
  std::vector<llvm::StringRef> Env(EnvStrings.begin(), EnvStrings.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(OutFile),
                                                llvm::StringRef(ErrFile)};
  std::string ExecError;
  int Status = llvm::sys::ExecuteAndWait(Program, Argv, Env, Redirects, TimeoutSeconds, 0, &ExecError);
  auto Read = [](llvm::StringRef Path) {
    auto B = llvm::MemoryBuffer::getFile(Path);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  std::string Stdout = Read(OutFile), Stderr = Read(ErrFile);
  llvm::sys::fs::remove(OutFile);
  llvm::sys::fs::remove(ErrFile);
  if (Status != 0) {
    Out.Problem = Program + (Status == -2 ? " timed out" : Status < 0 ? " could not run: " + ExecError
                                                                        : " exited with status " + std::to_string(Status)) +
                  "\n" + Stdout + Stderr;
    return Out;
  }
  llvm::StringRef Rest(Stdout);
  std::string Last;
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    if (Line.trim().starts_with("{"))
      Last = Line.trim().str();
    Rest = Tail;
  }
  nlohmann::json J = nlohmann::json::parse(Last, nullptr, false);
  if (Last.empty() || J.is_discarded() || !J.contains("checksum")) {
    Out.Problem = Program + " printed no JSON report with a \"checksum\"\n" + Stdout + Stderr;
    return Out;
  }
  Out.Ok = true;
  Out.Report = std::move(J);
  return Out;
}

static double number(const nlohmann::json &J, std::initializer_list<const char *> Path, double Default = 0) {
  const nlohmann::json *Cur = &J;
  for (const char *Key : Path) {
    if (!Cur->is_object() || !Cur->contains(Key))
      return Default;
    Cur = &(*Cur)[Key];
  }
  return Cur->is_number() ? Cur->get<double>() : Default;
}

std::optional<double> metricOf(const nlohmann::json &R, const std::string &Metric) {
  double Steps = std::max(1.0, number(R, {"steps"}, 1));
  if (Metric == "step_time") {
    if (R.contains("step_ms") && R["step_ms"].is_array() && !R["step_ms"].empty()) {
      std::vector<double> V = R["step_ms"].get<std::vector<double>>();
      return summarize(V).Median;
    }
    if (R.contains("total_ms"))
      return number(R, {"total_ms"}) / Steps;
    return std::nullopt;
  }
  if (Metric == "syncs")
    return number(R, {"stats", "waits"}) / Steps;
  if (Metric == "h2d_bytes")
    return number(R, {"stats", "h2d_bytes"}) / Steps;
  if (Metric == "d2h_bytes")
    return number(R, {"stats", "d2h_bytes"}) / Steps;
  if (Metric == "compilations")
    return number(R, {"stats", "compilations"});
  if (Metric == "peak_memory")
    return number(R, {"stats", "peak_bytes"});
  return std::nullopt;
}

std::map<std::string, double> countersOf(const nlohmann::json &R, const std::string &Engine) {
  double Steps = std::max(1.0, number(R, {"steps"}, 1));
  std::map<std::string, double> C;
  if (!R.contains("stats") || !R["stats"].is_object())
    return C;
  const nlohmann::json &S = R["stats"];
  auto Put = [&](const char *Key, const std::string &Name, double Divisor) {
    if (S.contains(Key) && S[Key].is_number())
      C[Name] = S[Key].get<double>() / Divisor;
  };
  Put("waits", describeMetric("syncs", Engine), Steps);
  Put("h2d_bytes", describeMetric("h2d_bytes", Engine), Steps);
  Put("d2h_bytes", describeMetric("d2h_bytes", Engine), Steps);
  Put("compilations", describeMetric("compilations", Engine), 1);
  Put("compile_seconds", "compile seconds", 1);
  Put("peak_bytes", describeMetric("peak_memory", Engine), 1);
  return C;
}

std::string formatCounter(const std::string &Name, double Value) {
  char Buf[48];
  bool Bytes = Name.find("bytes") != std::string::npos || Name.find("memory") != std::string::npos;
  if (!Bytes) {
    std::snprintf(Buf, sizeof Buf, "%.3g", Value);
    return Buf;
  }
  static const char *Units[] = {"B", "KB", "MB", "GB", "TB"};
  unsigned U = 0;
  while (std::fabs(Value) >= 1000 && U + 1 < std::size(Units)) {
    Value /= 1000;
    ++U;
  }
  std::snprintf(Buf, sizeof Buf, "%.3g %s", Value, Units[U]);
  return Buf;
}

std::string describeMetric(const std::string &Metric, const std::string &Engine) {
  // libtorch's counters come from its operator observers (fixtures/common/torch_counters.h).
  bool Torch = Engine == "libtorch";
  if (Metric == "step_time")
    return "step time";
  if (Metric == "syncs")
    return Torch ? "host reads of tensor values per step" : "device syncs per step";
  if (Metric == "h2d_bytes")
    return Torch ? "bytes copied by Tensor::to per step" : "host-to-device bytes per step";
  if (Metric == "d2h_bytes")
    return "device-to-host bytes per step";
  if (Metric == "compilations")
    return "compilations";
  if (Metric == "peak_memory")
    return Torch ? "peak host memory (RSS)" : "peak device memory";
  return Metric;
}

Summary summarize(std::vector<double> V) {
  Summary S;
  if (V.empty())
    return S;
  std::sort(V.begin(), V.end());
  S.Min = V.front();
  S.Max = V.back();
  S.Median = V.size() % 2 ? V[V.size() / 2] : (V[V.size() / 2 - 1] + V[V.size() / 2]) / 2;
  return S;
}

bool sameResult(double A, double B, double Tolerance) {
  if (std::isnan(A) || std::isnan(B))
    return false;
  return std::fabs(A - B) <= Tolerance * std::max({1.0, std::fabs(A), std::fabs(B)});
}

} // namespace mlperf::validate
