#include "validate/Measure.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace mlperf::validate {

namespace {
/// What a program that exited normally printed: its last JSON line, which
/// must hold a numeric "checksum".
RunOutput readReport(const std::string &Program, const std::string &Stdout, const std::string &Stderr) {
  RunOutput Out;
  llvm::StringRef Rest(Stdout);
  std::string Last;
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    if (Line.trim().starts_with("{"))
      Last = Line.trim().str();
    Rest = Tail;
  }
  nlohmann::json J = nlohmann::json::parse(Last, nullptr, false);
  if (Last.empty() || J.is_discarded() || !J.is_object() || !J.contains("checksum")) {
    Out.Problem = Program + " printed no JSON report with a \"checksum\"\n" + Stdout + Stderr;
    return Out;
  }
  if (!J["checksum"].is_number()) {
    Out.Problem =
        Program + " reported a checksum that is not a number: " + J["checksum"].dump() + "\n" + Stdout + Stderr;
    return Out;
  }
  Out.Checksum = J["checksum"].get<double>();
  Out.Ok = true;
  Out.Report = std::move(J);
  return Out;
}
} // namespace

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
  if (Status == NotMeasurableHereStatus) {
    llvm::StringRef Reason = llvm::StringRef(Stderr).rtrim();
    Reason = Reason.substr(Reason.rfind('\n') + 1);
    Out.NotHere = true;
    Out.Problem = Reason.empty() ? "the program says this machine cannot run it (exit status 77)" : Reason.str();
    return Out;
  }
  if (Status != 0) {
    Out.Problem = Program +
                  (Status == -2 ? " timed out"
                   : Status < 0 ? " could not run: " + ExecError
                                : " exited with status " + std::to_string(Status)) +
                  "\n" + Stdout + Stderr;
    return Out;
  }
  return readReport(Program, Stdout, Stderr);
}

namespace {
// clang-format off
const MetricInfo Metrics[] = {
  // Id               Group    Key                Samples    PerStep Runtime                           Libtorch                                 Unit               Selectable
  {"step_time",       nullptr, "total_ms",        "step_ms", true,  "step time",                       "step time",                             Unit::Milliseconds, true},
  {"syncs",           "stats", "waits",           nullptr,   true,  "device syncs per step",           "host reads of tensor values per step",  Unit::Count,        true},
  {"h2d_bytes",       "stats", "h2d_bytes",       nullptr,   true,  "host-to-device bytes per step",   "bytes copied by Tensor::to per step",   Unit::Bytes,        true},
  {"d2h_bytes",       "stats", "d2h_bytes",       nullptr,   true,  "device-to-host bytes per step",   "device-to-host bytes per step",         Unit::Bytes,        true},
  {"compilations",    "stats", "compilations",    nullptr,   false, "compilations",                    "compilations",                          Unit::Count,        true},
  {"compile_seconds", "stats", "compile_seconds", nullptr,   false, "compile seconds",                 "compile seconds",                       Unit::Seconds,      false},
  {"peak_memory",     "stats", "peak_bytes",      nullptr,   false, "peak device memory",              "peak host memory (RSS)",                Unit::Bytes,        true},
};
// clang-format on

const nlohmann::json *member(const nlohmann::json &J, const char *Key) {
  if (!J.is_object())
    return nullptr;
  auto It = J.find(Key);
  return It == J.end() ? nullptr : &*It;
}

double steps(const nlohmann::json &R) {
  const nlohmann::json *S = member(R, "steps");
  return S && S->is_number() ? std::max(1.0, S->get<double>()) : 1.0;
}

std::optional<double> rawValue(const nlohmann::json &R, const MetricInfo &M) {
  const nlohmann::json *Holder = M.Group ? member(R, M.Group) : &R;
  const nlohmann::json *V = Holder ? member(*Holder, M.Key) : nullptr;
  if (!V || !V->is_number())
    return std::nullopt;
  return V->get<double>();
}
} // namespace

llvm::ArrayRef<MetricInfo> metricTable() { return Metrics; }

const MetricInfo *findMetric(llvm::StringRef Id) {
  for (const MetricInfo &M : Metrics)
    if (Id == M.Id)
      return &M;
  return nullptr;
}

std::optional<double> metricOf(const nlohmann::json &R, llvm::StringRef Id) {
  const MetricInfo *M = findMetric(Id);
  if (!M)
    return std::nullopt;
  if (M->Samples)
    if (const nlohmann::json *S = member(R, M->Samples); S && S->is_array() && !S->empty()) {
      std::vector<double> V;
      for (const nlohmann::json &X : *S)
        if (X.is_number())
          V.push_back(X.get<double>());
      if (V.size() == S->size())
        return summarize(V).Median;
    }
  std::optional<double> V = rawValue(R, *M);
  if (V && M->PerStep)
    *V /= steps(R);
  return V;
}

std::map<std::string, double> countersOf(const nlohmann::json &R) {
  std::map<std::string, double> C;
  for (const MetricInfo &M : Metrics)
    if (M.Group && llvm::StringRef(M.Group) == "stats")
      if (std::optional<double> V = metricOf(R, M.Id))
        C[M.Id] = *V;
  return C;
}

std::string formatCounter(llvm::StringRef Id, double Value) {
  const MetricInfo *M = findMetric(Id);
  Unit U = M ? M->U : Unit::Count;
  char Buf[48];
  switch (U) {
  case Unit::Count:
    std::snprintf(Buf, sizeof Buf, "%.3g", Value);
    return Buf;
  case Unit::Milliseconds:
    std::snprintf(Buf, sizeof Buf, "%.3g ms", Value);
    return Buf;
  case Unit::Seconds:
    std::snprintf(Buf, sizeof Buf, "%.3g s", Value);
    return Buf;
  case Unit::Bytes:
    break;
  }
  static const char *Units[] = {"B", "KB", "MB", "GB", "TB"};
  unsigned I = 0;
  while (std::fabs(Value) >= 1000 && I + 1 < std::size(Units)) {
    Value /= 1000;
    ++I;
  }
  std::snprintf(Buf, sizeof Buf, "%.3g %s", Value, Units[I]);
  return Buf;
}

std::string describeMetric(llvm::StringRef Id, llvm::StringRef Engine) {
  const MetricInfo *M = findMetric(Id);
  if (!M)
    return Id.str();
  return Engine == "libtorch" ? M->Libtorch : M->Runtime;
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
