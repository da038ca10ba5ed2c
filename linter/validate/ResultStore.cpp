#include "ResultStore.h"

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

std::string defaultResultsPath() {
  if (const char *P = std::getenv("MLPERF_LINT_RESULTS"))
    return P;
  std::string Base;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    Base = X;
  else if (const char *H = std::getenv("HOME"))
    Base = std::string(H) + "/.cache";
  else
    Base = "/tmp";
  return Base + "/mlperf-lint/validation.json";
}

nlohmann::json loadResults(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return nlohmann::json::object();
  llvm::StringRef Text = (*Buf)->getBuffer();
  nlohmann::json J = nlohmann::json::parse(Text.begin(), Text.end(), nullptr, false);
  if (J.is_discarded() || !J.is_object() || !J.contains("results") || !J["results"].is_array())
    return nlohmann::json::object();
  return J;
}

std::string storeResults(const std::string &Path, const nlohmann::json &Run) {
  nlohmann::json Stored = loadResults(Path);
  nlohmann::json Merged = nlohmann::json::array();
  auto Key = [](const nlohmann::json &R) {
    return R.value("check", "") + "|" + R.value("engine", "") + "|" + R.value("backend", "");
  };
  std::set<std::string> Fresh;
  for (const auto &R : Run["results"])
    Fresh.insert(Key(R));
  if (Stored.contains("results"))
    for (const auto &R : Stored["results"])
      if (!Fresh.count(Key(R)))
        Merged.push_back(R);
  for (const auto &R : Run["results"])
    Merged.push_back(R);
  nlohmann::json Out = Run;
  Out["results"] = Merged;
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  llvm::Error E = llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    OS << Out.dump(2) << "\n";
    return llvm::Error::success();
  });
  return E ? Path + ": cannot store results: " + llvm::toString(std::move(E)) : "";
}

static std::string compact(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.3g", V);
  return Buf;
}

std::optional<std::string> measuredNote(const nlohmann::json &Results, const std::string &Check,
                                        const std::string &Engine) {
  if (!Results.contains("results"))
    return std::nullopt;
  auto Usable = [&](const nlohmann::json &R) {
    return R.value("check", "") == Check && R.value("verdict", "") != "failed";
  };
  bool HaveEngine = llvm::any_of(Results["results"], [&](const nlohmann::json &R) {
    return Usable(R) && R.value("engine", "") == Engine;
  });
  const nlohmann::json *Best = nullptr, *Any = nullptr;
  for (const auto &R : Results["results"]) {
    if (!Usable(R) || (HaveEngine && R.value("engine", "") != Engine))
      continue;
    Any = &R;
    if (R.value("verdict", "") == "confirmed" &&
        (!Best || R["ratio"].value("median", 0.0) > (*Best)["ratio"].value("median", 0.0)))
      Best = &R;
  }
  if (!Any)
    return std::nullopt;
  const nlohmann::json &R = Best ? *Best : *Any;
  std::string Where = R.value("backend", "") + " backend";
  if (R.value("engine", "") == "libtorch")
    Where = R.value("backend", "") == "libtorch-cuda" ? "libtorch, CUDA" : "libtorch, CPU";
  if (!Best)
    return "measured on the fixture: no measurable effect on " + R.value("metric_description", "") + " (" +
           Where + ")";
  std::string Text = "measured on the fixture: " + compact(R["ratio"].value("median", 0.0)) + "x " +
                     R.value("metric_description", "");
  if (R.contains("explain") && !R["explain"].get<std::string>().empty())
    Text += ", " + R["explain"].get<std::string>();
  return Text + " (" + Where + ")";
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
