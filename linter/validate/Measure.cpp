#include "validate/Measure.h"

#include "support/SafeIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
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

namespace {
/// What a run that ended with \p Status (as ExecuteAndWait returns it) says.
RunOutput outcome(const std::string &Program, int Status, const std::string &ExecError, const std::string &Stdout,
                  const std::string &Stderr) {
  RunOutput Out;
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
} // namespace

RunOutput runFixture(const std::string &Program, const std::vector<std::string> &Args, const std::string &Backend,
                     unsigned TimeoutSeconds) {
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
  return outcome(Program, Status, ExecError, Stdout, Stderr);
}

namespace {
std::string runKey(llvm::StringRef Name, const std::vector<std::string> &Args, llvm::StringRef Backend) {
  std::string Key = (Name + "\n" + Backend).str();
  for (const std::string &A : Args)
    Key += "\n" + A;
  return Key;
}

std::string describeRun(llvm::StringRef Name, const std::vector<std::string> &Args, llvm::StringRef Backend) {
  std::string Text = Name.str();
  for (const std::string &A : Args)
    Text += " " + A;
  return Text + " (" + (Backend.empty() ? std::string("no backend named") : "backend " + Backend.str()) + ")";
}
} // namespace

llvm::Expected<RecordedRuns> RecordedRuns::load(const std::string &Path) {
  auto Buf = lint::readInputFile(Path, "recorded fixture runs", lint::MaxSourceBytes);
  if (!Buf)
    return Buf.takeError();
  auto Fail = [&](unsigned Line, const std::string &Problem) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s:%u: %s", Path.c_str(), Line, Problem.c_str());
  };
  RecordedRuns R;
  R.Path = Path;
  llvm::StringRef Rest = (*Buf)->getBuffer();
  for (unsigned Line = 1; !Rest.empty(); ++Line) {
    auto [Text, Tail] = Rest.split('\n');
    Rest = Tail;
    if (Text.trim().empty())
      continue;
    if (llvm::Error E = lint::checkNesting(Text, Path))
      return std::move(E);
    nlohmann::json J = nlohmann::json::parse(Text.begin(), Text.end(), nullptr, false);
    if (J.is_discarded() || !J.is_object())
      return Fail(Line, "not a JSON object");
    if (J.contains("machine")) {
      if (!J["machine"].is_string())
        return Fail(Line, "\"machine\" is not a string");
      R.Machine = J["machine"].get<std::string>();
      continue;
    }
    auto String = [&](const char *Key) -> const nlohmann::json * {
      auto It = J.find(Key);
      return It != J.end() && It->is_string() ? &*It : nullptr;
    };
    auto Args = J.find("args");
    auto Status = J.find("status");
    if (!String("program") || !String("backend") || !String("stdout") || !String("stderr") || Args == J.end() ||
        !Args->is_array() || Status == J.end() || !Status->is_number_integer())
      return Fail(Line, "a run needs \"program\", \"backend\", \"stdout\" and \"stderr\" (strings), \"args\" "
                        "(an array of strings) and \"status\" (an integer)");
    std::vector<std::string> A;
    for (const nlohmann::json &X : *Args) {
      if (!X.is_string())
        return Fail(Line, "\"args\" holds something other than a string");
      A.push_back(X.get<std::string>());
    }
    std::string Program = J["program"].get<std::string>();
    if (Program.empty() || Program.find('/') != std::string::npos)
      return Fail(Line, "\"program\" must be a program's file name, not '" + Program + "'");
    std::string Backend = J["backend"].get<std::string>();
    R.Runs[runKey(Program, A, Backend)].push_back(
        {Status->get<int>(), J["stdout"].get<std::string>(), J["stderr"].get<std::string>()});
    R.Programs.insert(runKey(Program, {}, Backend));
  }
  if (R.Runs.empty())
    return Fail(1, "no recorded runs");
  return R;
}

bool RecordedRuns::has(llvm::StringRef Name, llvm::StringRef Backend) const {
  return Programs.count(runKey(Name, {}, Backend));
}

RunOutput RecordedRuns::take(const std::string &Program, const std::vector<std::string> &Args,
                             const std::string &Backend) {
  std::string Name = llvm::sys::path::filename(Program).str();
  std::string Key = runKey(Name, Args, Backend);
  auto It = Runs.find(Key);
  unsigned &Next = Taken[Key];
  if (It == Runs.end() || Next >= It->second.size()) {
    RunOutput Out;
    Out.Problem = Path + " holds " + std::to_string(It == Runs.end() ? 0 : It->second.size()) + " runs of " +
                  describeRun(Name, Args, Backend) +
                  "; validate asked for more (record with the same --backend, "
                  "--repeat and --quick as this run)";
    return Out;
  }
  const Run &R = It->second[Next++];
  return outcome(Program, R.Status, "", R.Stdout, R.Stderr);
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
