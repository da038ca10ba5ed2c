#include "validate/ResultStore.h"
#include "support/SafeIO.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <fstream>
#include <set>

namespace mlperf::validate {

std::string cacheDir() {
  std::string Base;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    Base = X;
  else if (const char *H = std::getenv("HOME"); H && *H)
    Base = std::string(H) + "/.cache";
  else
    Base = "/tmp";
  return Base + "/mlperf-lint";
}

std::string defaultResultsPath() {
  if (const char *P = std::getenv("MLPERF_LINT_RESULTS"); P && *P)
    return P;
  return cacheDir() + "/validation.json";
}

llvm::Expected<ValidationRun> loadResults(const std::string &Path) {
  if (!llvm::sys::fs::exists(Path))
    return ValidationRun();
  auto Buf = lint::readStructuredFile(Path, "stored results");
  if (!Buf)
    return Buf.takeError();
  llvm::StringRef Text = (*Buf)->getBuffer();
  nlohmann::json J = nlohmann::json::parse(Text.begin(), Text.end(), nullptr, false);
  if (J.is_discarded())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: stored results are not valid JSON",
                                   Path.c_str());
  auto Run = runFromJson(J);
  if (!Run)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: damaged stored results: %s", Path.c_str(),
                                   llvm::toString(Run.takeError()).c_str());
  return Run;
}

ValidationRun storedResults(llvm::raw_ostream &Warnings) {
  auto Run = loadResults(defaultResultsPath());
  if (Run)
    return std::move(*Run);
  Warnings << "mlperf-lint: warning: " << llvm::toString(Run.takeError())
           << "; ignored (`mlperf-lint validate` writes it again)\n";
  return ValidationRun();
}

std::string checkResultsPath(const std::string &Path) {
  llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
  if (Parent.empty())
    Parent = ".";
  if (llvm::sys::fs::is_directory(Parent) || Parent == cacheDir())
    return "";
  return Path + ": cannot store results: directory " + Parent.str() + " does not exist";
}

std::string storeResults(const std::string &Path, const ValidationRun &Run) {
  if (std::string Problem = checkResultsPath(Path); !Problem.empty())
    return Problem;
  auto Stored = loadResults(Path);
  if (!Stored) {
    llvm::errs() << "mlperf-lint validate: warning: " << llvm::toString(Stored.takeError()) << "; replaced\n";
    Stored = ValidationRun();
  }
  auto Key = [](const PairResult &R) { return R.Check + "|" + R.Engine + "|" + R.Backend; };
  std::set<std::string> Fresh;
  for (const PairResult &R : Run.Results)
    Fresh.insert(Key(R));
  ValidationRun Out = Run;
  Out.Results.clear();
  for (const PairResult &R : Stored->Results)
    if (!Fresh.count(Key(R)))
      Out.Results.push_back(R);
  Out.Results.insert(Out.Results.end(), Run.Results.begin(), Run.Results.end());
  if (llvm::StringRef(Path).starts_with(cacheDir() + "/"))
    llvm::sys::fs::create_directories(cacheDir());
  llvm::Error E = lint::writeOutputFile(Path, "--results", "results",
                                        [&](llvm::raw_ostream &OS) { OS << toJson(Out).dump(2) << "\n"; });
  return E ? llvm::toString(std::move(E)) : "";
}

static std::string compact(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.3g", V);
  return Buf;
}

const PairResult *measuredResult(const ValidationRun &Results, const std::string &Check, const std::string &Engine) {
  auto Usable = [&](const PairResult &R) { return R.Check == Check && R.Outcome != Verdict::Failed; };
  bool HaveEngine =
      llvm::any_of(Results.Results, [&](const PairResult &R) { return Usable(R) && R.Engine == Engine; });
  const PairResult *Best = nullptr, *Any = nullptr;
  for (const PairResult &R : Results.Results) {
    if (!Usable(R) || (HaveEngine && R.Engine != Engine))
      continue;
    Any = &R;
    if (R.Outcome == Verdict::Confirmed && (!Best || R.Ratio.Median > Best->Ratio.Median))
      Best = &R;
  }
  return Best ? Best : Any;
}

std::string whereMeasured(const PairResult &R) {
  if (R.Engine == "libtorch")
    return R.Backend == "libtorch-cuda" ? "libtorch, CUDA" : "libtorch, CPU";
  return R.Backend + " backend";
}

std::optional<std::string> measuredNote(const ValidationRun &Results, const std::string &Check,
                                        const std::string &Engine) {
  const PairResult *R = measuredResult(Results, Check, Engine);
  if (!R)
    return std::nullopt;
  if (R->Outcome != Verdict::Confirmed)
    return "measured on the fixture: no measurable effect on " + R->MetricDescription + " (" + whereMeasured(*R) +
           ")";
  std::string Text = "measured on the fixture: " + compact(R->Ratio.Median) + "x " + R->MetricDescription;
  if (!R->Explain.empty())
    Text += ", " + R->Explain;
  return Text + " (" + whereMeasured(*R) + ")";
}

std::string engineOfSource(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return "";
  llvm::StringRef Rest = (*Buf)->getBuffer();
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    Line = Line.trim();
    if (!Line.consume_front("#") || !Line.ltrim().starts_with("include"))
      continue;
    if (Line.contains("torch/"))
      return "libtorch";
    if (Line.contains("mlperf/rt/"))
      return "runtime";
  }
  return "";
}

std::string machineDescription() {
  std::string Model;
  std::ifstream In("/proc/cpuinfo");
  for (std::string Line; std::getline(In, Line);)
    if (Line.rfind("model name", 0) == 0) {
      Model = Line.substr(Line.find(':') + 2);
      break;
    }
  unsigned Cores = llvm::hardware_concurrency().compute_thread_count();
  return (Model.empty() ? std::string("unknown CPU") : Model) + ", " + std::to_string(Cores) + " hardware threads";
}

} // namespace mlperf::validate
