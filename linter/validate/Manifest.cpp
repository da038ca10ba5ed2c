#include "validate/Manifest.h"
#include "validate/Measure.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace mlperf::validate {

namespace {
llvm::Error fail(const std::string &Path, const std::string &Problem) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: invalid manifest: %s", Path.c_str(),
                                 Problem.c_str());
}
} // namespace

bool isKnownMetric(const std::string &Metric) {
  const MetricInfo *M = findMetric(Metric);
  return M && M->Selectable;
}

llvm::Expected<Manifest> loadManifest(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "%s: cannot read manifest: %s", Path.c_str(),
                                   Buf.getError().message().c_str());
  llvm::StringRef Text = (*Buf)->getBuffer();
  nlohmann::json J = nlohmann::json::parse(Text.begin(), Text.end(), nullptr, false);
  if (J.is_discarded() || !J.is_object())
    return fail(Path, "not a JSON object");
  Manifest M;
  M.Dir = llvm::sys::path::parent_path(Path).str();
  try {
    M.Check = J.at("check").get<std::string>();
    M.Metric = J.at("metric").get<std::string>();
    M.Workload = J.value("workload", "");
    M.MinEffect = J.value("min_effect", 0.05);
    for (const auto &P : J.at("pairs")) {
      FixturePair FP;
      FP.Engine = P.at("engine").get<std::string>();
      FP.Needs = P.value("needs", "");
      bool Programs = P.contains("bad") || P.contains("good") || FP.Needs.empty();
      if (Programs) {
        FP.Bad = P.at("bad").get<std::string>();
        FP.Good = P.at("good").get<std::string>();
      }
      FP.Args = P.value("args", std::vector<std::string>{});
      FP.QuickArgs = P.value("quick_args", FP.Args);
      FP.Tolerance = P.value("tolerance", 1e-4);
      FP.Metric = P.value("metric", M.Metric);
      FP.Workload = P.value("workload", M.Workload);
      if (!isKnownMetric(FP.Metric))
        return fail(Path, "unknown metric '" + FP.Metric + "'");
      bool Buildable = FP.Engine == "runtime" || FP.Engine == "libtorch" || FP.Engine == "cuda";
      if (Programs && !Buildable)
        return fail(Path, "engine must be \"runtime\", \"libtorch\" or \"cuda\" for a pair with programs, not \"" +
                              FP.Engine + "\"");
      if (FP.Engine.empty())
        return fail(Path, "a pair names no engine");
      for (const std::string *F : {&FP.Bad, &FP.Good})
        if (Programs && !llvm::sys::fs::exists(M.Dir + "/" + *F))
          return fail(Path, "no such fixture file '" + *F + "'");
      M.Pairs.push_back(std::move(FP));
    }
  } catch (const std::exception &E) {
    return fail(Path, E.what());
  }
  if (!isKnownMetric(M.Metric))
    return fail(Path, "unknown metric '" + M.Metric + "'");
  if (M.Pairs.empty())
    return fail(Path, "no fixture pairs");
  return M;
}

llvm::Expected<std::vector<Manifest>> discoverManifests(const std::string &FixturesDir) {
  std::vector<Manifest> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(FixturesDir, EC), End; It != End && !EC; It.increment(EC)) {
    std::string Path = It->path() + "/manifest.json";
    if (!llvm::sys::fs::exists(Path))
      continue;
    auto M = loadManifest(Path);
    if (!M)
      return M.takeError();
    Out.push_back(std::move(*M));
  }
  if (EC)
    return llvm::createStringError(EC, "%s: cannot list fixtures: %s", FixturesDir.c_str(), EC.message().c_str());
  std::sort(Out.begin(), Out.end(), [](const Manifest &A, const Manifest &B) { return A.Check < B.Check; });
  return Out;
}

std::optional<std::vector<std::string>> builtEngines(const std::string &BuildDir) {
  auto Buf = llvm::MemoryBuffer::getFile(BuildDir + "/fixtures/bin/engines.txt", /*IsText=*/true);
  if (!Buf)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Out;
  for (llvm::StringRef L : Lines)
    if (!L.trim().empty())
      Out.push_back(L.trim().str());
  return Out;
}

std::string programName(const Manifest &M, const FixturePair &P, bool BadSide) {
  std::string Check = llvm::sys::path::filename(M.Dir).str();
  std::string Stem = llvm::sys::path::stem(BadSide ? P.Bad : P.Good).str();
  return "fx_" + Check + "_" + Stem;
}

} // namespace mlperf::validate
