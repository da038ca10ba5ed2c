#include "validate/Lookup.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdio>

namespace mlperf::validate {

static std::string compact(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.3g", V);
  return Buf;
}

const PairResult *measuredResult(const ValidationRun &Results, const std::string &Check, const std::string &Engine) {
  auto Usable = [&](const PairResult &R) { return R.Check == Check && R.Outcome != Verdict::Failed; };
  bool HaveEngine = llvm::any_of(Results.Results, [&](const PairResult &R) { return Usable(R) && R.Engine == Engine; });
  const PairResult *Best = nullptr, *Any = nullptr;
  for (const PairResult &R : Results.Results) {
    if (!Usable(R) || (HaveEngine && R.Engine != Engine))
      continue;
    if (!Any || (Any->Runs == 0 && R.Runs > 0))
      Any = &R;
    if (R.Outcome == Verdict::Confirmed && (!Best || R.Ratio.Median > Best->Ratio.Median))
      Best = &R;
  }
  return Best ? Best : Any;
}

std::string whereMeasured(const PairResult &R) {
  if (R.Engine == "libtorch")
    return R.Backend == "libtorch-cuda" ? "libtorch, CUDA" : "libtorch, CPU";
  if (R.Engine != "runtime")
    return R.Engine;
  return R.Backend + " backend";
}

std::optional<std::string> measuredNote(const ValidationRun &Results, const std::string &Check,
                                        const std::string &Engine) {
  const PairResult *R = measuredResult(Results, Check, Engine);
  if (!R)
    return std::nullopt;
  if (R->Runs == 0)
    return "not measured on the fixture here: " + (R->Note.empty() ? std::string("it did not run") : R->Note) + " (" +
           whereMeasured(*R) + ")";
  if (R->Outcome != Verdict::Confirmed)
    return "measured on the fixture: no measurable effect on " + R->MetricDescription + " (" + whereMeasured(*R) + ")";
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
    if (Line.contains("cuda_runtime") || Line.contains("cublas") || Line.contains("cuda.h"))
      return "cuda";
  }
  return "";
}

} // namespace mlperf::validate
