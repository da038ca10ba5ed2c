#include "Validate.h"

#include "HtmlReport.h"
#include "Manifest.h"
#include "Measure.h"
#include "ResultStore.h"

#include "clang-tidy/GlobList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <optional>

namespace mlperf::validate {

namespace {
struct Options {
  std::string Backend, Engine, Checks = "*", Json, Html, Results, BuildDir = MLPERF_BUILD_DIR,
                                              Fixtures = MLPERF_SOURCE_DIR "/fixtures";
  unsigned Repeat = 5;
  bool Quick = false, Store = true, FixCheck = true;
};

int usage(const std::string &Problem) {
  llvm::errs() << "mlperf-lint validate: error: " << Problem << "\n"
               << "usage: mlperf-lint validate [--backend reference|cpu|cuda] [--engine runtime|libtorch] "
                  "[--checks=<globs>] [--repeat N] [--json FILE] [--html FILE] [--quick] [--build-dir DIR] "
                  "[--results FILE] [--no-store] [--no-fix-check]\n";
  return 2;
}

std::optional<Options> parse(int Argc, const char **Argv, std::string &Error) {
  Options O;
  for (int I = 0; I < Argc; ++I) {
    llvm::StringRef A(Argv[I]);
    auto [Name, Inline] = A.split('=');
    bool HasInline = A.contains('=');
    auto Value = [&]() -> std::optional<std::string> {
      if (HasInline)
        return Inline.str();
      if (I + 1 < Argc)
        return std::string(Argv[++I]);
      Error = Name.str() + " needs a value";
      return std::nullopt;
    };
    std::optional<std::string> V;
    if (Name == "--quick")
      O.Quick = true;
    else if (Name == "--no-store")
      O.Store = false;
    else if (Name == "--no-fix-check")
      O.FixCheck = false;
    else if (Name == "--backend" || Name == "--engine" || Name == "--checks" || Name == "--json" ||
             Name == "--html" || Name == "--results" || Name == "--build-dir" || Name == "--fixtures" ||
             Name == "--repeat") {
      if (!(V = Value()))
        return std::nullopt;
      if (Name == "--backend")
        O.Backend = *V;
      else if (Name == "--engine")
        O.Engine = *V;
      else if (Name == "--checks")
        O.Checks = *V;
      else if (Name == "--json")
        O.Json = *V;
      else if (Name == "--html")
        O.Html = *V;
      else if (Name == "--results")
        O.Results = *V;
      else if (Name == "--build-dir")
        O.BuildDir = *V;
      else if (Name == "--fixtures")
        O.Fixtures = *V;
      else if (llvm::StringRef(*V).getAsInteger(10, O.Repeat) || O.Repeat == 0) {
        Error = "--repeat needs a positive number, not '" + *V + "'";
        return std::nullopt;
      }
    } else {
      Error = "unknown argument '" + A.str() + "'";
      return std::nullopt;
    }
  }
  if (!O.Backend.empty() && O.Backend != "reference" && O.Backend != "cpu" && O.Backend != "cuda") {
    Error = "--backend must be reference, cpu or cuda, not '" + O.Backend + "'";
    return std::nullopt;
  }
  if (!O.Engine.empty() && O.Engine != "runtime" && O.Engine != "libtorch") {
    Error = "--engine must be runtime or libtorch, not '" + O.Engine + "'";
    return std::nullopt;
  }
  if (O.Quick)
    O.Repeat = 1;
  if (O.Results.empty())
    O.Results = defaultResultsPath();
  return O;
}

std::string now() {
  std::time_t T = std::time(nullptr);
  char Buf[64];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&T));
  return Buf;
}

std::string program(const Options &O, const Manifest &M, const FixturePair &P, bool Bad) {
  return O.BuildDir + "/fixtures/bin/" + programName(M, P, Bad);
}

/// Builds the fixture programs when some are missing.
void ensureBuilt(const Options &O, const std::vector<Manifest> &Ms) {
  for (const Manifest &M : Ms)
    for (const FixturePair &P : M.Pairs)
      if (!llvm::sys::fs::exists(program(O, M, P, true)) || !llvm::sys::fs::exists(program(O, M, P, false))) {
        llvm::errs() << "mlperf-lint validate: building the fixture programs in " << O.BuildDir << "\n";
        auto CMake = llvm::sys::findProgramByName("cmake");
        if (CMake) {
          llvm::StringRef Args[] = {*CMake, "--build", O.BuildDir, "--target", "mlperf_fixtures"};
          llvm::sys::ExecuteAndWait(*CMake, Args);
        }
        return;
      }
}

/// The build applies mlperf-lint's own fixes to each anti-pattern program and
/// builds the result as <program>_fixed (fixtures/CMakeLists.txt); this runs
/// it and compares it with the hand-written fix.
nlohmann::json verifyFix(const Options &O, const Manifest &M, const FixturePair &P,
                         const std::vector<std::string> &RunArgs, double GoodChecksum, double BadMetric) {
  nlohmann::json R;
  std::string Check = llvm::sys::path::filename(M.Dir).str();
  std::string FixedSource = O.BuildDir + "/fixtures/fixed/" + Check + "/" + P.Bad;
  auto Fixed = llvm::MemoryBuffer::getFile(FixedSource);
  auto Original = llvm::MemoryBuffer::getFile(M.Dir + "/" + P.Bad);
  if (!Fixed || !Original || (*Fixed)->getBuffer() == (*Original)->getBuffer())
    return R;  // the check made no fix for this fixture
  std::string Bin = program(O, M, P, true) + "_fixed";
  R["source"] = FixedSource;
  if (!llvm::sys::fs::exists(Bin)) {
    R["ok"] = false;
    R["summary"] = "the fixed program " + Bin + " was not built: the fixed source does not compile";
    return R;
  }
  RunOutput Run = runFixture(Bin, RunArgs, O.Backend, 600);
  if (!Run.Ok) {
    R["ok"] = false;
    R["summary"] = "the fixed program failed: " + Run.Problem;
    return R;
  }
  double Checksum = Run.Report["checksum"].get<double>();
  bool Same = sameResult(Checksum, GoodChecksum, P.Tolerance);
  double Metric = metricOf(Run.Report, P.Metric).value_or(0);
  double Ratio = Metric > 0 ? BadMetric / Metric : 0;
  R["same_result"] = Same;
  R["ratio"] = Ratio;
  R["ok"] = Same;
  char Buf[200];
  std::snprintf(Buf, sizeof Buf, "mlperf-lint --fix output compiled and ran; %s; anti-pattern / fixed = %.3gx %s",
                Same ? "same result as the hand-written fix" : "DIFFERENT result from the hand-written fix", Ratio,
                describeMetric(P.Metric, P.Engine).c_str());
  R["summary"] = Buf;
  return R;
}

std::string explain(const FixturePair &P, const std::map<std::string, double> &Bad,
                    const std::map<std::string, double> &Good, double BadMetric, double GoodMetric) {
  // The metric itself is named next to the ratio; its values say enough.
  if (P.Metric != "step_time") {
    std::string Name = describeMetric(P.Metric, P.Engine);
    return formatCounter(Name, BadMetric) + " vs " + formatCounter(Name, GoodMetric);
  }
  // A counter explains a slower anti-pattern only if it is higher there.
  std::string Best;
  double BestChange = 0;
  for (const auto &[K, V] : Bad) {
    double G = Good.count(K) ? Good.at(K) : 0;
    if (V <= G)
      continue;
    double Change = std::fabs(V - G) / std::max({std::fabs(V), std::fabs(G), 1e-12});
    if (K != "compile seconds" && Change > BestChange + 1e-9 && Change > 0.2) {
      BestChange = Change;
      Best = formatCounter(K, V) + " vs " + formatCounter(K, G) + " " + K;
    }
  }
  return Best;
}

nlohmann::json measurePair(const Options &O, const Manifest &M, const FixturePair &P) {
  nlohmann::json R;
  R["check"] = M.Check;
  R["engine"] = P.Engine;
  R["backend"] = P.Engine == "libtorch" ? "libtorch-cpu" : (O.Backend.empty() ? "default" : O.Backend);
  R["metric"] = P.Metric;
  R["metric_description"] = describeMetric(P.Metric, P.Engine);
  R["workload"] = P.Workload;
  R["bad_file"] = P.Bad;
  R["good_file"] = P.Good;
  R["bad_path"] = M.Dir + "/" + P.Bad;
  R["good_path"] = M.Dir + "/" + P.Good;
  R["ratio"] = {{"median", 1.0}, {"min", 1.0}, {"max", 1.0}};
  std::string Bad = program(O, M, P, true), Good = program(O, M, P, false);
  const std::vector<std::string> &Args = O.Quick ? P.QuickArgs : P.Args;
  auto Fail = [&](const std::string &Problem) {
    R["verdict"] = "failed";
    R["problem"] = Problem;
    llvm::errs() << "mlperf-lint validate: " << M.Check << " (" << P.Engine << "): FAILED: " << Problem << "\n";
    return R;
  };
  for (const std::string &Prog : {Bad, Good})
    if (!llvm::sys::fs::exists(Prog))
      return Fail("fixture program " + Prog + " was not built (see the build output of target mlperf_fixtures)");
  if (!O.Quick)
    for (const std::string &Prog : {Bad, Good})
      if (RunOutput W = runFixture(Prog, Args, O.Backend, 600); !W.Ok)
        return Fail(W.Problem);
  std::vector<double> BadM, GoodM, Ratios;
  std::vector<nlohmann::json> BadRuns, GoodRuns;
  for (unsigned I = 0; I < O.Repeat; ++I) {
    RunOutput B = runFixture(Bad, Args, O.Backend, 600);
    if (!B.Ok)
      return Fail(B.Problem);
    RunOutput G = runFixture(Good, Args, O.Backend, 600);
    if (!G.Ok)
      return Fail(G.Problem);
    double CB = B.Report["checksum"].get<double>(), CG = G.Report["checksum"].get<double>();
    if (!sameResult(CB, CG, P.Tolerance)) {
      char Buf[200];
      std::snprintf(Buf, sizeof Buf, "the two sides compute different results: checksum %.9g vs %.9g (tolerance %g)",
                    CB, CG, P.Tolerance);
      return Fail(Buf);
    }
    auto MB = metricOf(B.Report, P.Metric), MG = metricOf(G.Report, P.Metric);
    if (!MB || !MG)
      return Fail("the programs report no " + describeMetric(P.Metric, P.Engine));
    BadM.push_back(*MB);
    GoodM.push_back(*MG);
    Ratios.push_back(*MG > 0 ? std::min(*MB / *MG, 1e6) : (*MB > 0 ? 1e6 : 1.0));
    if ((P.Engine == "libtorch" || R["backend"] == "default") && B.Report.contains("backend"))
      R["backend"] = B.Report["backend"];
    BadRuns.push_back(B.Report);
    GoodRuns.push_back(G.Report);
  }
  Summary S = summarize(Ratios);
  R["ratio"] = {{"median", S.Median}, {"min", S.Min}, {"max", S.Max}};
  auto Counters = [&](const std::vector<nlohmann::json> &Runs) {
    std::map<std::string, std::vector<double>> All;
    for (const auto &Run : Runs)
      for (const auto &[K, V] : countersOf(Run, P.Engine))
        All[K].push_back(V);
    std::map<std::string, double> Med;
    for (const auto &[K, V] : All)
      Med[K] = summarize(V).Median;
    return Med;
  };
  auto BC = Counters(BadRuns), GC = Counters(GoodRuns);
  double BadMetric = summarize(BadM).Median, GoodMetric = summarize(GoodM).Median;
  R["bad"] = {{"metric", BadMetric}, {"counters", BC}, {"checksum", BadRuns.front()["checksum"]}};
  R["good"] = {{"metric", GoodMetric}, {"counters", GC}, {"checksum", GoodRuns.front()["checksum"]}};
  R["explain"] = explain(P, BC, GC, BadMetric, GoodMetric);
  // Counters are exact; a time needs several runs before a gain is more
  // than noise on a shared machine.
  bool Timed = P.Metric == "step_time";
  bool Confirmed = S.Median >= 1 + M.MinEffect && S.Min > 1 && (!Timed || O.Repeat >= 3);
  R["verdict"] = Confirmed ? "confirmed" : "not measurable here";
  if (Timed && O.Repeat < 3)
    R["note"] = "a time from fewer than 3 runs is not taken as evidence; run without --quick";
  if (O.FixCheck) {
    nlohmann::json F = verifyFix(O, M, P, Args, GoodRuns.front()["checksum"].get<double>(), BadMetric);
    if (!F.is_null()) {
      R["fix_check"] = F;
      if (!F.value("ok", false))
        return Fail("fix-it verification: " + F.value("summary", ""));
    }
  }
  return R;
}

void printReport(const nlohmann::json &Run) {
  llvm::outs() << "mlperf-lint validate — " << Run.value("machine", "") << "\n";
  llvm::outs() << llvm::format("%-36s %-9s %-13s %9s %9s %9s  %s\n", (const char *)"check", (const char *)"engine",
                               (const char *)"backend", (const char *)"median", (const char *)"min",
                               (const char *)"max", (const char *)"verdict");
  for (const auto &R : Run["results"]) {
    llvm::outs() << llvm::format("%-36s %-9s %-13s %8.3gx %8.3gx %8.3gx  %s", R.value("check", "").c_str(),
                                 R.value("engine", "").c_str(), R.value("backend", "").c_str(),
                                 R["ratio"].value("median", 0.0), R["ratio"].value("min", 0.0),
                                 R["ratio"].value("max", 0.0), R.value("verdict", "").c_str());
    llvm::outs() << " (" << R.value("metric_description", "") << ")";
    if (!R.value("explain", "").empty())
      llvm::outs() << "; " << R.value("explain", "");
    if (R.contains("fix_check"))
      llvm::outs() << "\n    fix-it: " << R["fix_check"].value("summary", "");
    llvm::outs() << "\n";
  }
}
} // namespace

int runValidate(int Argc, const char **Argv) {
  std::string Error;
  std::optional<Options> O = parse(Argc, Argv, Error);
  if (!O)
    return usage(Error);
  auto Manifests = discoverManifests(O->Fixtures);
  if (!Manifests)
    return usage(llvm::toString(Manifests.takeError()));
  clang::tidy::GlobList Checks(O->Checks);
  std::vector<Manifest> Selected;
  for (Manifest &M : *Manifests)
    if (Checks.contains(M.Check)) {
      if (!O->Engine.empty())
        M.Pairs.erase(std::remove_if(M.Pairs.begin(), M.Pairs.end(),
                                     [&](const FixturePair &P) { return P.Engine != O->Engine; }),
                      M.Pairs.end());
      if (!M.Pairs.empty())
        Selected.push_back(std::move(M));
    }
  if (Selected.empty())
    return usage("no fixture matches --checks='" + O->Checks + "'" +
                 (O->Engine.empty() ? "" : " and --engine=" + O->Engine));
  ensureBuilt(*O, Selected);

  nlohmann::json Run;
  Run["machine"] = machineDescription();
  Run["date"] = now();
  Run["repeat"] = O->Repeat;
  Run["results"] = nlohmann::json::array();
  bool Failed = false;
  for (const Manifest &M : Selected)
    for (const FixturePair &P : M.Pairs) {
      nlohmann::json R = measurePair(*O, M, P);
      Failed |= R.value("verdict", "") == "failed";
      Run["results"].push_back(std::move(R));
    }
  std::stable_sort(Run["results"].begin(), Run["results"].end(), [](const nlohmann::json &A, const nlohmann::json &B) {
    return A["ratio"].value("median", 0.0) > B["ratio"].value("median", 0.0);
  });
  printReport(Run);
  auto Write = [&](const std::string &Path, const std::string &Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC) {
      llvm::errs() << "mlperf-lint validate: error: " << Path << ": cannot write: " << EC.message() << "\n";
      Failed = true;
      return;
    }
    OS << Text;
  };
  if (!O->Json.empty())
    Write(O->Json, Run.dump(2) + "\n");
  if (!O->Html.empty())
    Write(O->Html, renderHtml(Run));
  if (O->Store)
    if (std::string E = storeResults(O->Results, Run); !E.empty()) {
      llvm::errs() << "mlperf-lint validate: error: " << E << "\n";
      Failed = true;
    }
  return Failed ? 1 : 0;
}

} // namespace mlperf::validate
