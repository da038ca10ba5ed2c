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
  auto Buf = lint::readStructuredFile(Path, "stored results", /*Record=*/false); // validate rewrites it
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

ValidationRun storedResults(llvm::raw_ostream &Warnings, const std::string &Path) {
  auto Run = loadResults(Path.empty() ? defaultResultsPath() : Path);
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
