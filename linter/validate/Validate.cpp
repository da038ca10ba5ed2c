#include "validate/Validate.h"

#include "BuildInfo.h"
#include "support/SafeIO.h"
#include "validate/Calibration.h"
#include "validate/HtmlReport.h"
#include "validate/Manifest.h"
#include "validate/Measure.h"
#include "validate/ResultStore.h"
#include "validate/Results.h"

#include "clang-tidy/GlobList.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <optional>

namespace mlperf::validate {

namespace cl = llvm::cl;

namespace {
/// validate's command line. The options unregister themselves, so the
/// parser can run more than once in a process.
struct CommandLine {
  cl::OptionCategory Category{"mlperf-lint validate options"};
  cl::opt<std::string> Backend{"backend", cl::desc("Runtime backend: reference, cpu or cuda (default: the runtime's)"),
                               cl::cat(Category)};
  cl::opt<std::string> Engine{"engine", cl::desc("Only pairs on this engine: runtime, libtorch or cuda"),
                              cl::cat(Category)};
  cl::opt<std::string> Checks{"checks", cl::desc("Check globs, as the linter's --checks"), cl::init("*"),
                              cl::cat(Category)};
  cl::opt<unsigned> Repeat{"repeat", cl::desc("Measured runs per side (default 5)"), cl::init(5), cl::cat(Category)};
  cl::opt<bool> Quick{"quick", cl::desc("One run per side on the small sizes, no warm-up"), cl::cat(Category)};
  cl::opt<std::string> Json{"json", cl::desc("Write the results as JSON"), cl::value_desc("file"), cl::cat(Category)};
  cl::opt<std::string> Html{"html", cl::desc("Write the results as a self-contained HTML page"), cl::value_desc("file"),
                            cl::cat(Category)};
  cl::opt<std::string> Results{"results", cl::desc("Results store (default: $MLPERF_LINT_RESULTS, else the cache)"),
                               cl::value_desc("file"), cl::init(defaultResultsPath()), cl::cat(Category)};
  cl::opt<bool> NoStore{"no-store", cl::desc("Do not store the results for the linter"), cl::cat(Category)};
  cl::opt<bool> NoFixCheck{"no-fix-check", cl::desc("Do not run the programs fixed by mlperf-lint --fix"),
                           cl::cat(Category)};
  cl::opt<std::string> BuildDir{"build-dir", cl::desc("Build directory holding fixtures/bin"), cl::value_desc("dir"),
                                cl::init(MLPERF_BUILD_DIR), cl::cat(Category)};
  cl::opt<std::string> Fixtures{"fixtures", cl::desc("Directory of the fixture manifests"), cl::value_desc("dir"),
                                cl::init(MLPERF_SOURCE_DIR "/fixtures"), cl::cat(Category)};
  cl::opt<bool> Calibrate{"calibrate",
                          cl::desc("Compare the linter's cost estimate of each anti-pattern with the measurement"),
                          cl::cat(Category)};
  cl::opt<std::string> Device{"device",
                              cl::desc("Device model of the estimates --calibrate compares (as the linter's)"),
                              cl::value_desc("name|file.json"), cl::cat(Category)};
  cl::opt<std::string> Recorded{
      "recorded",
      cl::desc("Take the programs' runs from this record made on another machine (scripts/record-fixture-runs.py) "
               "instead of running them; no fix-it check"),
      cl::value_desc("file"), cl::cat(Category)};

  ~CommandLine() {
    for (cl::Option *O : std::initializer_list<cl::Option *>{&Backend, &Engine, &Checks, &Repeat, &Quick, &Json, &Html,
                                                             &Results, &NoStore, &NoFixCheck, &BuildDir, &Fixtures,
                                                             &Calibrate, &Device, &Recorded})
      O->removeArgument();
  }
};

struct Options {
  std::string Backend, Engine, Checks, Json, Html, Results, BuildDir, Fixtures;
  unsigned Repeat = 5;
  bool Quick = false, Store = true, FixCheck = true, Calibrate = false;
  std::string Device;
  /// --recorded: the programs' runs come from this record, not from running them.
  std::shared_ptr<RecordedRuns> Recorded;
  /// The engines BuildDir's configuration found (fixtures/bin/engines.txt);
  /// none when it does not say.
  std::optional<std::vector<std::string>> Engines;
};

/// Exit status 2 with one line; an empty \p Problem was already printed (by
/// LLVM's option parser, for a bad option value).
int usage(const std::string &Problem) {
  if (!Problem.empty())
    llvm::errs() << "mlperf-lint validate: error: " << Problem
                 << (llvm::StringRef(Problem).contains("--help") ? "" : " (see mlperf-lint validate --help)") << "\n";
  return 2;
}

llvm::Expected<Options> parse(int Argc, const char **Argv) {
  auto Fail = [](const std::string &Problem) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Problem.c_str());
  };
  CommandLine CL;
  cl::HideUnrelatedOptions(CL.Category);
  std::vector<const char *> Args = {"mlperf-lint validate"};
  Args.insert(Args.end(), Argv, Argv + Argc);
  std::string Errors;
  llvm::raw_string_ostream ErrOS(Errors);
  bool Parsed = cl::ParseCommandLineOptions(
      Args.size(), Args.data(), "mlperf-lint validate: measures what each check's anti-pattern costs\n", &ErrOS);
  if (!Parsed) {
    llvm::StringRef First = llvm::StringRef(Errors).split('\n').first;
    First.consume_front("mlperf-lint validate: ");
    First = First.split(".  Try:").first;
    return Fail(First.trim().str() + (First.empty() ? "" : " (see mlperf-lint validate --help)"));
  }
  Options O{CL.Backend,  CL.Engine, CL.Checks, CL.Json,     CL.Html,        CL.Results,   CL.BuildDir,
            CL.Fixtures, CL.Repeat, CL.Quick,  !CL.NoStore, !CL.NoFixCheck, CL.Calibrate, CL.Device};
  if (!O.Device.empty() && !O.Calibrate)
    return Fail("--device is for --calibrate");
  if (!O.Backend.empty() && O.Backend != "reference" && O.Backend != "cpu" && O.Backend != "cuda")
    return Fail("--backend must be reference, cpu or cuda, not '" + O.Backend + "'");
  if (!O.Engine.empty() && O.Engine != "runtime" && O.Engine != "libtorch" && O.Engine != "cuda")
    return Fail("--engine must be runtime, libtorch or cuda, not '" + O.Engine + "'");
  if (O.Repeat == 0)
    return Fail("--repeat needs a positive number");
  if (O.Quick)
    O.Repeat = 1;
  if (!CL.Recorded.empty()) {
    auto Runs = RecordedRuns::load(CL.Recorded);
    if (!Runs)
      return Fail(llvm::toString(Runs.takeError()));
    O.Recorded = std::make_shared<RecordedRuns>(std::move(*Runs));
    O.FixCheck = false; // the fixed programs are built here, by this linter
  }
  O.Engines = builtEngines(O.BuildDir);
  // An installed binary has no fixtures: they are programs built with the
  // checkout they come from.
  if (!llvm::sys::fs::is_directory(O.Fixtures))
    return Fail(O.Fixtures + ": no fixtures here; validate runs the fixture programs of a source checkout and its "
                             "build: pass --fixtures=<checkout>/fixtures --build-dir=<build directory>, or run "
                             "<build directory>/linter/mlperf-lint validate");
  return O;
}

/// "" when \p Path can be written (its directory exists and is writable, and
/// the file, if present, is a writable regular file), else the problem.
std::string checkOutput(const std::string &Path) {
  llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
  if (Parent.empty())
    Parent = ".";
  if (!llvm::sys::fs::is_directory(Parent))
    return Path + ": cannot write: directory " + Parent.str() + " does not exist";
  if (llvm::sys::fs::is_directory(Path))
    return Path + ": cannot write: is a directory";
  if (llvm::sys::fs::access(llvm::sys::fs::exists(Path) ? llvm::StringRef(Path) : Parent,
                            llvm::sys::fs::AccessMode::Write))
    return Path + ": cannot write: permission denied";
  return "";
}

/// Records every file of the fixture tree as an input: no output replaces one.
void noteFixtureFiles(const std::string &Dir) {
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator I(Dir, EC), End; I != End && !EC; I.increment(EC))
    if (I->type() == llvm::sys::fs::file_type::regular_file)
      lint::noteInput(I->path());
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

/// One run of \p Program: run here, or taken from the recorded runs.
RunOutput run(const Options &O, const std::string &Program, const std::vector<std::string> &Args) {
  return O.Recorded ? O.Recorded->take(Program, Args, O.Backend) : runFixture(Program, Args, O.Backend, 600);
}

/// Whether the build directory builds \p P's programs: a pair with programs
/// whose engine its configuration found (all engines, when it does not say).
bool engineBuilt(const Options &O, const FixturePair &P) {
  if (P.Bad.empty())
    return false;
  return !O.Engines || llvm::is_contained(*O.Engines, P.Engine);
}

/// Builds the fixture programs when some are missing; "" or the problem.
std::string ensureBuilt(const Options &O, const std::vector<Manifest> &Ms) {
  bool Missing = false;
  if (O.Recorded)
    return "";
  for (const Manifest &M : Ms)
    for (const FixturePair &P : M.Pairs)
      if (engineBuilt(O, P))
        Missing |= !llvm::sys::fs::exists(program(O, M, P, true)) || !llvm::sys::fs::exists(program(O, M, P, false));
  if (!Missing)
    return "";
  llvm::errs() << "mlperf-lint validate: building the fixture programs in " << O.BuildDir << "\n";
  auto CMake = llvm::sys::findProgramByName("cmake");
  if (!CMake)
    return "cannot build the fixture programs: cmake is not on PATH";
  llvm::StringRef Args[] = {*CMake, "--build", O.BuildDir, "--target", "mlperf_fixtures"};
  std::string ExecError;
  int Status = llvm::sys::ExecuteAndWait(*CMake, Args, std::nullopt, {}, 0, 0, &ExecError);
  if (Status < 0)
    return "cannot build the fixture programs: cmake could not run: " + ExecError;
  if (Status != 0)
    return "building the fixture programs in " + O.BuildDir + " failed (cmake exited with status " +
           std::to_string(Status) + "); pairs whose programs are missing fail";
  return "";
}

/// The build applies mlperf-lint's own fixes to each anti-pattern program and
/// builds the result as <program>_fixed (fixtures/CMakeLists.txt); this runs
/// it and compares it with the hand-written fix.
std::optional<FixCheck> verifyFix(const Options &O, const Manifest &M, const FixturePair &P,
                                  const std::vector<std::string> &RunArgs, double GoodChecksum, double BadMetric) {
  std::string Check = llvm::sys::path::filename(M.Dir).str();
  std::string FixedSource = O.BuildDir + "/fixtures/fixed/" + Check + "/" + P.Bad;
  auto Fixed = llvm::MemoryBuffer::getFile(FixedSource);
  auto Original = llvm::MemoryBuffer::getFile(M.Dir + "/" + P.Bad);
  if (!Fixed || !Original || (*Fixed)->getBuffer() == (*Original)->getBuffer())
    return std::nullopt; // the check made no fix for this fixture
  FixCheck F;
  F.Source = FixedSource;
  std::string Bin = program(O, M, P, true) + "_fixed";
  if (!llvm::sys::fs::exists(Bin)) {
    F.Summary = "the fixed program " + Bin + " was not built: the fixed source does not compile";
    return F;
  }
  RunOutput Run = run(O, Bin, RunArgs);
  if (!Run.Ok) {
    F.Summary = "the fixed program failed: " + Run.Problem;
    return F;
  }
  bool Same = sameResult(Run.Checksum, GoodChecksum, P.Tolerance);
  double Metric = metricOf(Run.Report, P.Metric).value_or(0);
  double Ratio = Metric > 0 ? BadMetric / Metric : 0;
  F.SameResult = Same;
  F.Ratio = Ratio;
  F.Ok = Same;
  F.Summary = std::string("mlperf-lint --fix output compiled and ran; ") +
              (Same ? "same result as the hand-written fix" : "DIFFERENT result from the hand-written fix");
  // One run of a time is noise (PairResult::ratioIsEvidence()).
  if (P.Metric != "step_time" || O.Repeat >= 3) {
    char Buf[200];
    std::snprintf(Buf, sizeof Buf, "; anti-pattern / fixed = %.3gx %s", Ratio,
                  describeMetric(P.Metric, P.Engine).c_str());
    F.Summary += Buf;
  }
  return F;
}

std::string explain(const FixturePair &P, const SideResult &Bad, const SideResult &Good) {
  // The metric itself is named next to the ratio; its values say enough.
  if (P.Metric != "step_time")
    return formatCounter(P.Metric, Bad.Metric) + " vs " + formatCounter(P.Metric, Good.Metric);
  // A counter explains a slower anti-pattern only if it is higher there.
  std::string Best;
  double BestChange = 0;
  for (const auto &[K, V] : Bad.Counters) {
    double G = Good.Counters.count(K) ? Good.Counters.at(K) : 0;
    if (V <= G || K == "compile_seconds")
      continue;
    double Change = std::fabs(V - G) / std::max({std::fabs(V), std::fabs(G), 1e-12});
    if (Change > BestChange + 1e-9 && Change > 0.2) {
      BestChange = Change;
      Best = formatCounter(K, V) + " vs " + formatCounter(K, G) + " " + describeMetric(K, P.Engine);
    }
  }
  return Best;
}

/// Medians over the runs of one side.
SideResult side(const std::vector<RunOutput> &Runs, const std::vector<double> &Metric) {
  SideResult S;
  S.Metric = summarize(Metric).Median;
  S.Checksum = Runs.front().Checksum;
  std::map<std::string, std::vector<double>> All;
  std::vector<double> Steps, StepMs;
  for (const RunOutput &Run : Runs) {
    for (const auto &[K, V] : countersOf(Run.Report))
      All[K].push_back(V);
    if (auto It = Run.Report.find("steps"); It != Run.Report.end() && It->is_number())
      Steps.push_back(It->get<double>());
    if (std::optional<double> T = metricOf(Run.Report, "step_time"))
      StepMs.push_back(*T);
  }
  for (const auto &[K, V] : All)
    S.Counters[K] = summarize(V).Median;
  if (!Steps.empty())
    S.Steps = summarize(Steps).Median;
  if (!StepMs.empty())
    S.StepMs = summarize(StepMs).Median;
  return S;
}

/// A result for \p P with what is known before anything runs.
PairResult newResult(const Options &O, const Manifest &M, const FixturePair &P) {
  PairResult R;
  R.Check = M.Check;
  R.Engine = P.Engine;
  R.Backend = P.Engine == "libtorch"  ? "libtorch-cpu"
              : P.Engine == "runtime" ? (O.Backend.empty() ? "default" : O.Backend)
                                      : P.Engine;
  R.Metric = P.Metric;
  R.MetricDescription = describeMetric(P.Metric, P.Engine);
  R.Workload = P.Workload;
  R.BadFile = P.Bad;
  R.GoodFile = P.Good;
  if (!P.Bad.empty()) {
    R.BadPath = M.Dir + "/" + P.Bad;
    R.GoodPath = M.Dir + "/" + P.Good;
  }
  R.Date = now();
  return R;
}

/// The two sides' runs, alternated, and their metrics.
struct Runs {
  std::vector<double> BadM, GoodM, Ratios;
  std::vector<RunOutput> BadRuns, GoodRuns;
};

RunOutput failedRun(std::string Problem) {
  RunOutput R;
  R.Problem = std::move(Problem);
  return R;
}

/// Runs both sides O.Repeat times, checking they compute the same thing;
/// the failed run when one fails.
std::optional<RunOutput> runBoth(const Options &O, const FixturePair &P, const std::string &Bad,
                                 const std::string &Good, const std::vector<std::string> &Args, PairResult &R,
                                 Runs &Out) {
  for (unsigned I = 0; I < O.Repeat; ++I) {
    RunOutput B = run(O, Bad, Args);
    if (!B.Ok)
      return B;
    RunOutput G = run(O, Good, Args);
    if (!G.Ok)
      return G;
    if (!sameResult(B.Checksum, G.Checksum, P.Tolerance)) {
      char Buf[200];
      std::snprintf(Buf, sizeof Buf, "the two sides compute different results: checksum %.9g vs %.9g (tolerance %g)",
                    B.Checksum, G.Checksum, P.Tolerance);
      return failedRun(Buf);
    }
    auto MB = metricOf(B.Report, P.Metric), MG = metricOf(G.Report, P.Metric);
    if (!MB || !MG)
      return failedRun("the programs report no " + describeMetric(P.Metric, P.Engine));
    Out.BadM.push_back(*MB);
    Out.GoodM.push_back(*MG);
    Out.Ratios.push_back(*MG > 0 ? std::min(*MB / *MG, 1e6) : (*MB > 0 ? 1e6 : 1.0));
    if (P.Engine == "libtorch" || R.Backend == "default")
      if (auto It = B.Report.find("backend"); It != B.Report.end() && It->is_string())
        R.Backend = It->get<std::string>();
    Out.BadRuns.push_back(std::move(B));
    Out.GoodRuns.push_back(std::move(G));
  }
  return std::nullopt;
}

PairResult measurePair(const Options &O, const Manifest &M, const FixturePair &P) {
  PairResult R = newResult(O, M, P);
  std::string Bad = program(O, M, P, true), Good = program(O, M, P, false);
  const std::vector<std::string> &Args = O.Quick ? P.QuickArgs : P.Args;
  auto Fail = [&](const std::string &Problem) {
    R.Outcome = Verdict::Failed;
    R.Problem = Problem;
    llvm::errs() << "mlperf-lint validate: " << M.Check << " (" << P.Engine << "): FAILED: " << Problem << "\n";
    return R;
  };
  auto NotHere = [&](const std::string &Why) {
    R.Outcome = Verdict::NotMeasurable;
    R.Note = Why;
    llvm::errs() << "mlperf-lint validate: " << M.Check << " (" << P.Engine << "): not measurable here: " << Why
                 << "\n";
    return R;
  };
  if (P.Bad.empty())
    return NotHere("needs " + P.Needs);
  if (O.Recorded) {
    if (!O.Recorded->has(programName(M, P, true), O.Backend))
      return NotHere("its programs' runs were not recorded" +
                     (O.Backend.empty() ? std::string() : " on backend " + O.Backend));
  } else {
    if (!engineBuilt(O, P))
      return NotHere("needs " + (P.Needs.empty() ? P.Engine : P.Needs) + "; this build found no " + P.Engine +
                     " to build its programs with");
    for (const std::string &Prog : {Bad, Good})
      if (!llvm::sys::fs::exists(Prog))
        return Fail("fixture program " + Prog + " was not built (see the build output of target mlperf_fixtures)");
  }
  auto Stop = [&](const RunOutput &Run) { return Run.NotHere ? NotHere(Run.Problem) : Fail(Run.Problem); };
  if (!O.Quick)
    for (const std::string &Prog : {Bad, Good})
      if (RunOutput W = run(O, Prog, Args); !W.Ok)
        return Stop(W);
  Runs Measured;
  if (std::optional<RunOutput> Failed = runBoth(O, P, Bad, Good, Args, R, Measured))
    return Stop(*Failed);
  R.Runs = O.Repeat;
  R.Ratio = summarize(Measured.Ratios);
  R.Bad = side(Measured.BadRuns, Measured.BadM);
  R.Good = side(Measured.GoodRuns, Measured.GoodM);
  R.Explain = explain(P, *R.Bad, *R.Good);
  // Counters are exact; a time needs several runs before a gain is more
  // than noise on a shared machine.
  bool Confirmed = R.Ratio.Median >= 1 + M.MinEffect && R.Ratio.Min > 1 && R.ratioIsEvidence();
  R.Outcome = Confirmed ? Verdict::Confirmed : Verdict::NotMeasurable;
  if (!R.ratioIsEvidence())
    R.Note = R.noRatioReason();
  if (O.FixCheck)
    if (std::optional<FixCheck> F = verifyFix(O, M, P, Args, R.Good->Checksum, R.Bad->Metric)) {
      R.Fix = std::move(F);
      if (!R.Fix->Ok)
        return Fail("fix-it verification: " + R.Fix->Summary);
    }
  return R;
}

void printReport(const ValidationRun &Run) {
  llvm::outs() << "mlperf-lint validate — " << Run.Machine << "\n";
  llvm::outs() << llvm::format("%-36s %-9s %-13s %9s %9s %9s  %s\n", (const char *)"check", (const char *)"engine",
                               (const char *)"backend", (const char *)"median", (const char *)"min",
                               (const char *)"max", (const char *)"verdict");
  for (const PairResult &R : Run.Results) {
    llvm::outs() << llvm::format("%-36s %-9s %-13s ", R.Check.c_str(), R.Engine.c_str(), R.Backend.c_str());
    if (R.ratioIsEvidence())
      llvm::outs() << llvm::format("%8.3gx %8.3gx %8.3gx", R.Ratio.Median, R.Ratio.Min, R.Ratio.Max);
    else
      llvm::outs() << "        –         –         –";
    llvm::outs() << "  " << verdictName(R.Outcome) << " (" << R.MetricDescription << ")";
    if (!R.ratioIsEvidence())
      llvm::outs() << "; " << R.noRatioReason();
    else if (!R.Explain.empty())
      llvm::outs() << "; " << R.Explain;
    if (R.Fix)
      llvm::outs() << "\n    fix-it: " << R.Fix->Summary;
    llvm::outs() << "\n";
  }
}

bool write(const std::string &Path, llvm::StringRef Option, const std::string &Text) {
  if (llvm::Error E = lint::writeOutputFile(Path, Option, "", [&](llvm::raw_ostream &OS) { OS << Text; })) {
    llvm::errs() << "mlperf-lint validate: error: " << llvm::toString(std::move(E)) << "\n";
    return false;
  }
  return true;
}
} // namespace

namespace {
/// The linter's JSON report on \p R's anti-pattern, its check only, priced
/// on --device: this binary run on the fixture with the build's compile
/// commands, as the build's fix-it step runs it (cmake/ApplyFixes.cmake).
llvm::Expected<nlohmann::json> lintAntiPattern(const Options &O, const PairResult &R) {
  auto Fail = [&](const std::string &Problem) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", R.BadPath.c_str(), Problem.c_str());
  };
  std::string Self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (Self.empty())
    return Fail("cannot find the mlperf-lint binary to lint it with");
  llvm::SmallString<128> Out, Err;
  llvm::sys::fs::createTemporaryFile("mlperf-calibrate", "json", Out);
  llvm::sys::fs::createTemporaryFile("mlperf-calibrate", "err", Err);
  std::vector<std::string> Args = {Self, "--quiet", "--format=json", "-o", std::string(Out), "--checks=-*," + R.Check,
                                   "-p", O.BuildDir};
  if (!O.Device.empty())
    Args.push_back("--device=" + O.Device);
  Args.push_back(R.BadPath);
  std::vector<llvm::StringRef> Argv(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(""), llvm::StringRef(Err)};
  std::string ExecError;
  int Status = llvm::sys::ExecuteAndWait(Self, Argv, std::nullopt, Redirects, 600, 0, &ExecError);
  auto Text = llvm::MemoryBuffer::getFile(Out);
  auto Errors = llvm::MemoryBuffer::getFile(Err);
  std::string Report = Text ? (*Text)->getBuffer().str() : "", Stderr = Errors ? (*Errors)->getBuffer().str() : "";
  llvm::sys::fs::remove(Out);
  llvm::sys::fs::remove(Err);
  nlohmann::json J = nlohmann::json::parse(Report, nullptr, /*allow_exceptions=*/false);
  // Findings make the status 1; a report is what counts.
  if (Status == 2 && J.is_object())
    for (const nlohmann::json &D : J.value("diagnostics", nlohmann::json::array()))
      if (D.is_object() && D.value("severity", "") == "error")
        return Fail("it does not compile with the compile commands of " + O.BuildDir + " (" +
                    D.value("file", std::string("?")) + ":" + std::to_string(D.value("line", 0)) + ": " +
                    D.value("message", std::string()) + "); a build that builds its fixture programs has them");
  if (Status < 0 || Status > 1 || J.is_discarded())
    return Fail("mlperf-lint " + (Status < 0 ? "could not run: " + ExecError
                                             : "exited with status " + std::to_string(Status) + ": " + Stderr));
  return J;
}

/// A calibration row per measured pair (docs/cost-model.md); true when the
/// linter could not lint one.
bool calibrateAll(const Options &O, const ValidationRun &Run, std::vector<CalibrationRow> &Rows) {
  bool Failed = false;
  for (const PairResult &R : Run.Results) {
    if (R.Outcome == Verdict::Failed || !R.Bad)
      continue;
    auto Report = lintAntiPattern(O, R);
    if (!Report) {
      llvm::errs() << "mlperf-lint validate: --calibrate: " << llvm::toString(Report.takeError()) << "\n";
      Failed = true;
      continue;
    }
    std::string Device = O.Device;
    for (const nlohmann::json &D : Report->value("diagnostics", nlohmann::json::array()))
      if (D.contains("cost") && D["cost"].contains("device"))
        Device = D["cost"]["device"].get<std::string>();
    Rows.push_back(calibrate(R, *Report, Device.empty() ? "the default device" : Device));
  }
  return Failed;
}

/// The manifests --checks and --engine select, or why none.
llvm::Expected<std::vector<Manifest>> selectManifests(const Options &O, std::vector<Manifest> Manifests) {
  clang::tidy::GlobList Checks(O.Checks);
  std::vector<Manifest> Selected;
  for (Manifest &M : Manifests)
    if (Checks.contains(M.Check)) {
      if (!O.Engine.empty())
        llvm::erase_if(M.Pairs, [&](const FixturePair &P) { return P.Engine != O.Engine; });
      if (!M.Pairs.empty())
        Selected.push_back(std::move(M));
    }
  if (Selected.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no fixture matches --checks='" + O.Checks + "'" +
                                       (O.Engine.empty() ? "" : " and --engine=" + O.Engine));
  return Selected;
}

/// Measures every pair of \p Selected; true when one failed.
bool measureAll(const Options &O, const std::vector<Manifest> &Selected, ValidationRun &Run) {
  bool Failed = false;
  Run.Machine = O.Recorded ? "recorded on " + (O.Recorded->machine().empty() ? std::string("another machine")
                                                                             : O.Recorded->machine())
                           : machineDescription();
  Run.Date = now();
  Run.Repeat = O.Repeat;
  for (const Manifest &M : Selected)
    for (const FixturePair &P : M.Pairs) {
      Run.Results.push_back(measurePair(O, M, P));
      Failed |= Run.Results.back().Outcome == Verdict::Failed;
    }
  sortForReport(Run.Results);
  return Failed;
}
} // namespace

int runValidate(int Argc, const char **Argv) {
  auto O = parse(Argc, Argv);
  if (!O)
    return usage(llvm::toString(O.takeError()));
  for (const std::string *Out : {&O->Json, &O->Html})
    if (!Out->empty())
      if (std::string Problem = checkOutput(*Out); !Problem.empty())
        return usage(Problem);
  if (O->Store)
    if (std::string Problem = checkResultsPath(O->Results); !Problem.empty())
      return usage(Problem);
  auto Manifests = discoverManifests(O->Fixtures);
  if (!Manifests)
    return usage(llvm::toString(Manifests.takeError()));
  noteFixtureFiles(O->Fixtures);
  for (auto [Out, Option] : {std::pair{&O->Json, "--json"}, std::pair{&O->Html, "--html"},
                             std::pair{O->Store ? &O->Results : nullptr, "--results"}})
    if (Out)
      if (std::string Problem = lint::refusedOutput(*Out, Option); !Problem.empty())
        return usage(Problem);
  auto Chosen = selectManifests(*O, std::move(*Manifests));
  if (!Chosen)
    return usage(llvm::toString(Chosen.takeError()));
  std::vector<Manifest> &Selected = *Chosen;
  bool Failed = false;
  if (std::string Problem = ensureBuilt(*O, Selected); !Problem.empty()) {
    llvm::errs() << "mlperf-lint validate: error: " << Problem << "\n";
    Failed = true;
  }
  ValidationRun Run;
  Failed |= measureAll(*O, Selected, Run);
  printReport(Run);
  nlohmann::json Report = toJson(Run);
  if (O->Calibrate) {
    std::vector<CalibrationRow> Rows;
    Failed |= calibrateAll(*O, Run, Rows);
    llvm::outs() << "\ncalibration: the linter's estimate of each anti-pattern vs the measured difference, per step\n"
                 << formatCalibration(Rows);
    Report["calibration"] = nlohmann::json::array();
    for (const CalibrationRow &Row : Rows)
      Report["calibration"].push_back(toJson(Row));
  }
  if (!O->Json.empty())
    Failed |= !write(O->Json, "--json", Report.dump(2) + "\n");
  if (!O->Html.empty())
    Failed |= !write(O->Html, "--html", renderHtml(Run));
  if (O->Store)
    if (std::string E = storeResults(O->Results, Run); !E.empty()) {
      llvm::errs() << "mlperf-lint validate: error: " << E << "\n";
      Failed = true;
    }
  return Failed ? 1 : 0;
}

} // namespace mlperf::validate
