// `mlperf-lint validate` end to end in quick mode, and the measured figure
// appearing with each finding. Counters, not times: timings are reported by
// validate, never asserted.
#include "HtmlTestSupport.h"
#include "LintTestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <unistd.h>

namespace mlperf::test {
namespace {

std::string tempDir(const char *Prefix) {
  llvm::SmallString<128> Dir;
  llvm::sys::fs::createUniqueDirectory(Prefix, Dir);
  return std::string(Dir);
}

std::vector<std::string> backends() {
  std::vector<std::string> B = {"reference"};
#ifdef MLPERF_HAVE_CPU_BACKEND
  B.push_back("cpu");
#endif
  return B;
}

/// What every quick run must show: nothing failed, both sides computed the
/// same thing, counter metrics are worse on the anti-pattern, fix-its hold.
void expectSoundResults(const nlohmann::json &J, llvm::StringRef Backend) {
  ASSERT_FALSE(J["results"].empty());
  for (const auto &Res : J["results"]) {
    std::string Name = Res["check"].get<std::string>() + " (" + Res["engine"].get<std::string>() + ")";
    EXPECT_NE(Res["verdict"], "failed") << Name << ": " << Res.value("problem", "");
    if (Res["verdict"] == "failed")
      continue;
    if (Res.value("runs", 0) == 0) { // cannot run here: says why, claims nothing
      EXPECT_EQ(Res["verdict"], "not measurable here") << Name;
      EXPECT_NE(Res.value("note", ""), "") << Name;
      EXPECT_FALSE(Res.contains("bad")) << Name;
      continue;
    }
    EXPECT_TRUE(llvm::StringRef(Res["backend"].get<std::string>()).starts_with(Backend)) << Name;
    double Bad = Res["bad"]["checksum"].get<double>(), Good = Res["good"]["checksum"].get<double>();
    EXPECT_LE(std::fabs(Bad - Good), 1e-3 * std::max({1.0, std::fabs(Bad), std::fabs(Good)}))
        << Name << ": both sides compute the same thing";
    // Counter metrics are deterministic: the anti-pattern must be worse.
    if (Res["metric"] != "step_time")
      EXPECT_GT(Res["bad"]["metric"].get<double>(), Res["good"]["metric"].get<double>())
          << Name << " (" << Res["metric"] << ")";
    if (Res.contains("fix_check"))
      EXPECT_TRUE(Res["fix_check"]["ok"].get<bool>()) << Name << ": " << Res["fix_check"]["summary"];
  }
}

class ValidateBackendTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ValidateBackendTest, QuickRunConfirmsCountersAndWritesReports) {
  std::string Dir = tempDir("mlperf-validate");
  std::string Json = Dir + "/v.json", Html = Dir + "/v.html";
  ProcessResult R = runProcess(MLPERF_LINT_BINARY, {"validate", "--quick", "--no-store", "--backend", GetParam(),
                                                    "--engine", "runtime", "--json", Json, "--html", Html});
  ASSERT_EQ(R.Exit, 0) << R.Out << R.Err;
  nlohmann::json J = nlohmann::json::parse(readFile(Json));
  expectSoundResults(J, GetParam());
  std::string Page = readFile(Html);
  EXPECT_EQ(Page.rfind("<!DOCTYPE html>", 0), 0u);
  HtmlDoc Doc(Page);
  EXPECT_EQ(Doc.errors(), "") << "the page of a real run is well-formed";
  EXPECT_EQ(Doc.count("//*[@id='summary']/*[local-name()='rect']"), J["results"].size()) << "a bar per pair";
  EXPECT_NE(Page.find("<svg"), std::string::npos);
  EXPECT_EQ(Page.find("src=\"http"), std::string::npos) << "the page must be self-contained";
  EXPECT_EQ(Page.find("href=\"http"), std::string::npos);
  // The summary chart links each bar to the check's section.
  for (const auto &Res : J["results"]) {
    std::string Check = Res["check"].get<std::string>();
    EXPECT_NE(Page.find("href=\"#" + Check + "\""), std::string::npos) << Check;
    EXPECT_NE(Page.find("id=\"" + Check + "\""), std::string::npos) << Check;
  }
  llvm::sys::fs::remove_directories(Dir);
}

INSTANTIATE_TEST_SUITE_P(Backends, ValidateBackendTest, ::testing::ValuesIn(backends()));

TEST(ValidateTest, LibtorchPairsCountWithLibtorchsObservers) {
  if (std::string(MLPERF_TORCH_INCLUDE).empty())
    GTEST_SKIP() << "libtorch is not installed: its fixture programs are not built";
  std::string Dir = tempDir("mlperf-validate-torch");
  std::string Json = Dir + "/v.json";
  ProcessResult R =
      runProcess(MLPERF_LINT_BINARY, {"validate", "--quick", "--no-store", "--engine", "libtorch", "--json", Json});
  ASSERT_EQ(R.Exit, 0) << R.Out << R.Err;
  nlohmann::json J = nlohmann::json::parse(readFile(Json));
  expectSoundResults(J, "libtorch-");
  // Every check whose pattern exists in libtorch (all but missing-finalize:
  // libtorch's tensors are reference-counted) has a libtorch pair.
  std::set<std::string> Checks;
  for (const auto &Res : J["results"])
    Checks.insert(Res["check"].get<std::string>());
  for (const char *C : {"mlperf-backend-choice", "mlperf-batch-size-pow2", "mlperf-compile-in-loop",
                        "mlperf-create-on-device", "mlperf-loop-invariant-transfer", "mlperf-materialize-in-loop",
                        "mlperf-no-grad-inference", "mlperf-per-element-read", "mlperf-retained-graph-accumulation",
                        "mlperf-sync-in-loop", "mlperf-variable-batch-shape"})
    EXPECT_TRUE(Checks.count(C)) << C;
  for (const auto &Res : J["results"])
    if (Res["check"] == "mlperf-materialize-in-loop")
      EXPECT_EQ(Res["metric_description"], "host reads of tensor values per step");
  llvm::sys::fs::remove_directories(Dir);
}

/// A fake fixture (sync-in-loop's manifest) whose programs are shell
/// scripts; each run leaves a mark in the directory.
struct FakeFixture {
  std::string Dir = tempDir("mlperf-validate-fake");
  FakeFixture() {
    llvm::sys::fs::create_directories(Dir + "/fixtures/broken");
    llvm::sys::fs::create_directories(Dir + "/build/fixtures/bin");
    std::ofstream(Dir + "/fixtures/broken/manifest.json")
        << R"({"check": "mlperf-sync-in-loop", "metric": "syncs", "pairs": [
               {"engine": "runtime", "bad": "bad.cc", "good": "good.cc", "tolerance": 1e-6}]})";
    std::ofstream(Dir + "/fixtures/broken/bad.cc") << "\n";
    std::ofstream(Dir + "/fixtures/broken/good.cc") << "\n";
    script("fx_broken_bad", "1.0", 10);
    script("fx_broken_good", "1.0", 1);
  }
  ~FakeFixture() { llvm::sys::fs::remove_directories(Dir); }
  void script(const std::string &Name, const char *Checksum, int Waits) {
    std::string Path = Dir + "/build/fixtures/bin/" + Name;
    std::ofstream(Path) << "#!/bin/sh\ntouch '" << Dir << "/ran'\necho '{\"checksum\": " << Checksum
                        << ", \"steps\": 10, \"stats\": {\"waits\": " << Waits << "}}'\n";
    llvm::sys::fs::setPermissions(Path, llvm::sys::fs::all_exe | llvm::sys::fs::owner_all);
  }
  ProcessResult validate(std::vector<std::string> Args,
                         const std::vector<std::pair<std::string, std::string>> &Env = {}) {
    Args.insert(Args.begin(), {"validate", "--quick", "--fixtures", Dir + "/fixtures", "--build-dir", Dir + "/build"});
    return runProcess(MLPERF_LINT_BINARY, Args, "", Env);
  }
  bool ran() const { return llvm::sys::fs::exists(Dir + "/ran"); }
};

size_t lines(const std::string &Text) { return std::count(Text.begin(), Text.end(), '\n'); }

size_t occurrences(const std::string &Text, const std::string &Part) {
  size_t N = 0;
  for (size_t At = Text.find(Part); At != std::string::npos; At = Text.find(Part, At + 1))
    ++N;
  return N;
}

TEST(ValidateTest, DifferentResultsFailLoudly) {
  FakeFixture F;
  F.script("fx_broken_good", "2.0", 1);
  std::string Json = F.Dir + "/v.json";
  ProcessResult R = F.validate({"--no-store", "--json", Json});
  EXPECT_EQ(R.Exit, 1) << R.Out << R.Err;
  EXPECT_NE(R.Err.find("the two sides compute different results"), std::string::npos) << R.Err;
  nlohmann::json J = nlohmann::json::parse(readFile(Json));
  EXPECT_EQ(J["results"][0]["verdict"], "failed");

  F.script("fx_broken_good", "oops-not-json", 1);
  ProcessResult Crash = F.validate({"--no-store"});
  EXPECT_EQ(Crash.Exit, 1);
  EXPECT_NE(Crash.Err.find("printed no JSON report"), std::string::npos) << Crash.Err;

  F.script("fx_broken_good", "\"1.0\"", 1);
  ProcessResult Text = F.validate({"--no-store"});
  EXPECT_EQ(Text.Exit, 1);
  EXPECT_NE(Text.Err.find("reported a checksum that is not a number: \"1.0\""), std::string::npos) << Text.Err;
}

/// alloc-in-loop's CUDA pair on a machine without a device (its programs
/// exit with status 77), decode-batching's pair without programs, and a CUDA
/// pair in a build that found no toolkit: each is in the report, "not
/// measurable here" with what it needs, and nothing failed.
TEST(ValidateTest, PairsThatCannotRunHereSayWhatTheyNeed) {
  FakeFixture F;
  llvm::sys::fs::create_directories(F.Dir + "/fixtures/alloc");
  std::ofstream(F.Dir + "/fixtures/alloc/manifest.json")
      << R"({"check": "mlperf-alloc-in-loop", "metric": "step_time", "pairs": [
             {"engine": "cuda", "bad": "cuda_bad.cc", "good": "cuda_good.cc", "needs": "a CUDA device"}]})";
  std::ofstream(F.Dir + "/fixtures/alloc/cuda_bad.cc") << "\n";
  std::ofstream(F.Dir + "/fixtures/alloc/cuda_good.cc") << "\n";
  for (const char *Side : {"fx_alloc_cuda_bad", "fx_alloc_cuda_good"}) {
    std::string Path = F.Dir + "/build/fixtures/bin/" + Side;
    std::ofstream(Path) << "#!/bin/sh\necho 'starting' >&2\necho 'needs a CUDA device: no CUDA-capable device is "
                           "detected' >&2\nexit 77\n";
    llvm::sys::fs::setPermissions(Path, llvm::sys::fs::all_exe | llvm::sys::fs::owner_all);
  }
  llvm::sys::fs::create_directories(F.Dir + "/fixtures/decode");
  std::ofstream(F.Dir + "/fixtures/decode/manifest.json")
      << R"({"check": "mlperf-decode-batching", "metric": "step_time", "pairs": [
             {"engine": "llama.cpp", "needs": "a llama.cpp build and a GGUF model"}]})";
  std::string Json = F.Dir + "/v.json", Html = F.Dir + "/v.html";
  ProcessResult R = F.validate({"--no-store", "--json", Json, "--html", Html});
  ASSERT_EQ(R.Exit, 0) << R.Out << R.Err;
  std::string Stored = F.Dir + "/stored.json";
  std::ofstream(Stored) << readFile(Json);
  nlohmann::json J = nlohmann::json::parse(readFile(Json));
  std::map<std::string, nlohmann::json> ByCheck;
  for (const auto &Res : J["results"])
    ByCheck[Res["check"].get<std::string>()] = Res;
  ASSERT_EQ(ByCheck.size(), 3u) << J.dump(1);
  const nlohmann::json &Alloc = ByCheck["mlperf-alloc-in-loop"], &Decode = ByCheck["mlperf-decode-batching"];
  EXPECT_EQ(Alloc["verdict"], "not measurable here");
  EXPECT_EQ(Alloc["engine"], "cuda");
  EXPECT_EQ(Alloc.value("note", ""), "needs a CUDA device: no CUDA-capable device is detected") << Alloc.dump();
  EXPECT_FALSE(Alloc.contains("bad")) << "nothing was measured";
  EXPECT_EQ(Decode["verdict"], "not measurable here");
  EXPECT_EQ(Decode.value("note", ""), "needs a llama.cpp build and a GGUF model");
  EXPECT_EQ(ByCheck["mlperf-sync-in-loop"]["verdict"], "confirmed") << "the runnable pair still runs";
  EXPECT_NE(R.Out.find("not run: needs a CUDA device: no CUDA-capable device is detected"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("not run: needs a llama.cpp build"), std::string::npos) << R.Out;
  std::string Page = readFile(Html);
  EXPECT_NE(Page.find("mlperf-decode-batching"), std::string::npos);
  EXPECT_NE(Page.find("not run here"), std::string::npos);

  // A build configured without the CUDA toolkit never built the programs:
  // not a failure, and validate does not try to build them.
  std::ofstream(F.Dir + "/build/fixtures/bin/engines.txt") << "runtime\nlibtorch\n";
  for (const char *Side : {"fx_alloc_cuda_bad", "fx_alloc_cuda_good"})
    llvm::sys::fs::remove(F.Dir + "/build/fixtures/bin/" + Side);
  ProcessResult NoToolkit = F.validate({"--no-store", "--json", Json});
  ASSERT_EQ(NoToolkit.Exit, 0) << NoToolkit.Err;
  EXPECT_EQ(NoToolkit.Err.find("building the fixture programs"), std::string::npos) << NoToolkit.Err;
  // Named: a range-for over a member of a temporary reads freed memory (C++17).
  nlohmann::json Report = nlohmann::json::parse(readFile(Json));
  for (const auto &Res : Report["results"])
    if (Res["check"] == "mlperf-alloc-in-loop")
      EXPECT_EQ(Res.value("note", ""), "needs a CUDA device; this build found no cuda to build its programs with");

  // What a finding says when the stored result never ran.
  std::string Src = F.Dir + "/s.cc";
  std::ofstream(Src) << "extern \"C\" int cudaMalloc(void **p, unsigned long n);\n"
                        "extern \"C\" int cudaFree(void *p);\nextern \"C\" int cuLaunchKernel(void *k);\n"
                        "void f(void *k) { for (int i = 0; i < 3; ++i) { void *p; cudaMalloc(&p, 64); "
                        "cuLaunchKernel(k); cudaFree(p); } }\n";
  ProcessResult Lint =
      runProcess(MLPERF_LINT_BINARY, {"--format=json", Src, "--", "-std=c++17"}, "", {{"MLPERF_LINT_RESULTS", Stored}});
  ASSERT_EQ(Lint.Exit, 1) << Lint.Err;
  EXPECT_NE(Lint.Out.find("not measured on the fixture here: needs a CUDA device: no CUDA-capable device is "
                          "detected (cuda)"),
            std::string::npos)
      << Lint.Out;
}

TEST(ValidateTest, OptionsAreLlvmCommandLineOptions) {
  ProcessResult Usage = runProcess(MLPERF_LINT_BINARY, {"validate", "--backend", "tpu"});
  EXPECT_EQ(Usage.Exit, 2);
  EXPECT_NE(Usage.Err.find("--backend must be reference, cpu or cuda"), std::string::npos);
  ProcessResult Installed = runProcess(MLPERF_LINT_BINARY, {"validate", "--fixtures=/nonexistent/fixtures"});
  EXPECT_EQ(Installed.Exit, 2) << "as an installed binary without a checkout";
  EXPECT_EQ(lines(Installed.Err), 1u) << Installed.Err;
  EXPECT_NE(Installed.Err.find("/nonexistent/fixtures: no fixtures here; validate runs the fixture programs of a "
                               "source checkout"),
            std::string::npos)
      << Installed.Err;
  for (std::vector<std::string> Bad : {std::vector<std::string>{"validate", "--repeat=abc"},
                                       {"validate", "--repeat=0"},
                                       {"validate", "--frob"},
                                       {"validate", "extra"}}) {
    ProcessResult R = runProcess(MLPERF_LINT_BINARY, Bad);
    EXPECT_EQ(R.Exit, 2) << Bad.back();
    EXPECT_EQ(lines(R.Err), 1u) << Bad.back() << ": one line\n" << R.Err;
  }
  EXPECT_NE(runProcess(MLPERF_LINT_BINARY, {"validate", "--frob"}).Err.find("Unknown command line argument '--frob'"),
            std::string::npos);
  ProcessResult Help = runProcess(MLPERF_LINT_BINARY, {"validate", "--help"});
  EXPECT_EQ(Help.Exit, 0);
  for (const char *Option : {"--build-dir=<dir>", "--fixtures=<dir>", "--results=<file>", "--quick", "--no-store"})
    EXPECT_NE(Help.Out.find(Option), std::string::npos) << Option;
  // `--opt value` and `--opt=value` both work.
  FakeFixture F;
  std::string Json = F.Dir + "/v.json";
  ProcessResult R =
      runProcess(MLPERF_LINT_BINARY, {"validate", "--quick", "--no-store", "--fixtures=" + F.Dir + "/fixtures",
                                      "--build-dir", F.Dir + "/build", "--json=" + Json});
  EXPECT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(nlohmann::json::parse(readFile(Json))["results"][0]["verdict"], "confirmed");
}

/// One recorded run of \p Program (scripts/record-fixture-runs.py's format).
std::string recordedRun(const std::string &Program, int Waits, int Status = 0, const std::string &Backend = "cuda") {
  nlohmann::json Stdout = {{"checksum", 1.0}, {"steps", 10}, {"stats", {{"waits", Waits}}}};
  return nlohmann::json({{"program", Program},
                         {"args", nlohmann::json::array()},
                         {"backend", Backend},
                         {"status", Status},
                         {"stdout", Status ? std::string("") : "starting\n" + Stdout.dump() + "\n"},
                         {"stderr", Status == 77 ? "needs a CUDA device: none here\n" : ""}})
             .dump() +
         "\n";
}

// Runs recorded on another machine (a GPU one without the linter) are reported and calibrated
// here as if the programs had run: none of them runs here.
TEST(ValidateTest, RecordedRunsAreReportedAsIfTheProgramsRanHere) {
  FakeFixture F;
  std::string Record = F.Dir + "/runs.jsonl", Json = F.Dir + "/v.json";
  std::ofstream(Record) << R"({"machine": "Xeon, 16 cpus; GPU NVIDIA H200"})" << "\n"
                        << recordedRun("fx_broken_bad", 30) << recordedRun("fx_broken_good", 2);
  ProcessResult R = F.validate({"--no-store", "--backend=cuda", "--recorded=" + Record, "--json", Json});
  EXPECT_EQ(R.Exit, 0) << R.Out << R.Err;
  EXPECT_FALSE(F.ran()) << "a recorded program was run";
  nlohmann::json J = nlohmann::json::parse(readFile(Json));
  EXPECT_EQ(J["machine"], "recorded on Xeon, 16 cpus; GPU NVIDIA H200") << J.dump(2);
  EXPECT_EQ(J["results"][0]["verdict"], "confirmed");
  EXPECT_DOUBLE_EQ(J["results"][0]["ratio"]["median"].get<double>(), 15.0);

  // Runs are taken in order and not reused: a second measured run of each side is not there.
  ProcessResult More = runProcess(MLPERF_LINT_BINARY, {"validate", "--repeat=2", "--no-store", "--backend=cuda",
                                                       "--fixtures", F.Dir + "/fixtures", "--recorded=" + Record});
  EXPECT_EQ(More.Exit, 1) << More.Out << More.Err;
  EXPECT_NE(More.Err.find(Record + " holds 1 runs of fx_broken_bad (backend cuda); validate asked for more"),
            std::string::npos)
      << More.Err;
  // Another backend's runs were not recorded: not measurable, not failed.
  ProcessResult Other = F.validate({"--no-store", "--backend=reference", "--recorded=" + Record});
  EXPECT_EQ(Other.Exit, 0) << Other.Err;
  EXPECT_NE(Other.Err.find("not measurable here: its programs' runs were not recorded on backend reference"),
            std::string::npos)
      << Other.Err;
  // A program that said "not on this machine" there says so here.
  std::ofstream(Record) << recordedRun("fx_broken_bad", 0, 77) << recordedRun("fx_broken_good", 0, 77);
  ProcessResult NotThere = F.validate({"--no-store", "--backend=cuda", "--recorded=" + Record});
  EXPECT_EQ(NotThere.Exit, 0) << NotThere.Err;
  EXPECT_NE(NotThere.Err.find("not measurable here: needs a CUDA device: none here"), std::string::npos)
      << NotThere.Err;
  EXPECT_FALSE(F.ran());
}

TEST(ValidateTest, ABadRecordIsOneLineNamingItsLine) {
  FakeFixture F;
  std::string Record = F.Dir + "/runs.jsonl";
  auto Run = [&](const std::string &Text) {
    std::ofstream(Record) << Text;
    return F.validate({"--no-store", "--backend=cuda", "--recorded=" + Record});
  };
  std::pair<std::string, std::string> Cases[] = {
      {recordedRun("fx_broken_bad", 1) + "{not json\n", Record + ":2: not a JSON object"},
      {R"({"program": "fx_broken_bad", "args": [], "backend": "cuda"})", Record + ":1: a run needs \"program\""},
      {R"({"program": "../fx_broken_bad", "args": [], "backend": "", "status": 0, "stdout": "", "stderr": ""})",
       Record + ":1: \"program\" must be a program's file name, not '../fx_broken_bad'"},
      {R"({"program": "p", "args": [1], "backend": "", "status": 0, "stdout": "", "stderr": ""})",
       Record + ":1: \"args\" holds something other than a string"},
      {std::string(300, '[') + "\n", Record}, // nested too deep for the parser
      {"\n\n", Record + ":1: no recorded runs"},
  };
  for (const auto &[Text, Expected] : Cases) {
    ProcessResult R = Run(Text);
    EXPECT_EQ(R.Exit, 2) << Text;
    EXPECT_EQ(lines(R.Err), 1u) << R.Err;
    EXPECT_NE(R.Err.find(Expected), std::string::npos) << Expected << "\n" << R.Err;
  }
  ProcessResult Missing = F.validate({"--no-store", "--recorded=" + F.Dir + "/absent.jsonl"});
  EXPECT_EQ(Missing.Exit, 2);
  EXPECT_NE(Missing.Err.find(F.Dir + "/absent.jsonl: cannot read recorded fixture runs"), std::string::npos)
      << Missing.Err;
  EXPECT_FALSE(F.ran());
}

// scripts/record-fixture-runs.py runs the programs as validate would and writes what validate
// --recorded reads back.
TEST(ValidateTest, TheRecorderWritesWhatValidateReplays) {
  auto Python = llvm::sys::findProgramByName("python3");
  if (!Python)
    GTEST_SKIP() << "python3 is not installed";
  FakeFixture F;
  std::string Record = F.Dir + "/runs.jsonl";
  ProcessResult Rec =
      runProcess(*Python, {MLPERF_SOURCE_DIR "/scripts/record-fixture-runs.py", "--build-dir", F.Dir + "/build",
                           "--fixtures", F.Dir + "/fixtures", "--backend", "cuda", "--quick", "-o", Record});
  ASSERT_EQ(Rec.Exit, 0) << Rec.Err;
  EXPECT_NE(Rec.Err.find("2 runs in " + Record), std::string::npos) << Rec.Err;
  ASSERT_TRUE(F.ran());
  llvm::sys::fs::remove(F.Dir + "/ran");
  ProcessResult R = F.validate({"--no-store", "--backend=cuda", "--recorded=" + Record});
  EXPECT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("mlperf-sync-in-loop"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("confirmed"), std::string::npos) << R.Out;
  EXPECT_FALSE(F.ran());
}

// Issue 26: no output of validate replaces a fixture file (or writes through a link to one).
TEST(ValidateTest, OutputsNeverReplaceAFixtureFile) {
  FakeFixture F;
  std::string Bad = F.Dir + "/fixtures/broken/bad.cc", Manifest = F.Dir + "/fixtures/broken/manifest.json";
  std::string Link = F.Dir + "/link.html", Before = readFile(Manifest);
  ASSERT_EQ(::symlink(Bad.c_str(), Link.c_str()), 0);
  struct Case {
    std::vector<std::string> Args;
    std::string Path, Option;
  } Cases[] = {{{"--no-store", "--json", Bad}, Bad, "--json"},
               {{"--no-store", "--html", Link}, Link, "--html"},
               {{"--results", Manifest}, Manifest, "--results"}};
  for (const Case &C : Cases) {
    ProcessResult R = F.validate(C.Args);
    EXPECT_EQ(R.Exit, 2) << C.Option;
    EXPECT_NE(R.Err.find(C.Path + ": " + C.Option + " names an input file; it is not overwritten"), std::string::npos)
        << R.Err;
    EXPECT_FALSE(F.ran()) << C.Option;
  }
  EXPECT_EQ(readFile(Bad), "\n");
  EXPECT_EQ(readFile(Manifest), Before);
}

TEST(ValidateTest, OutputPathsAreCheckedBeforeAnyFixtureRuns) {
  FakeFixture F;
  for (const char *Option : {"--json", "--html"}) {
    ProcessResult R = F.validate({"--no-store", Option, F.Dir + "/missing/dir/x.out"});
    EXPECT_EQ(R.Exit, 2) << Option;
    EXPECT_NE(R.Err.find("missing/dir/x.out: cannot write: directory " + F.Dir + "/missing/dir does not exist"),
              std::string::npos)
        << R.Err;
    EXPECT_FALSE(F.ran()) << Option << ": no fixture may run before the outputs are known to be writable";
  }
  ProcessResult Dir = F.validate({"--no-store", "--json", F.Dir});
  EXPECT_EQ(Dir.Exit, 2);
  EXPECT_NE(Dir.Err.find("is a directory"), std::string::npos) << Dir.Err;

  // --results never creates directories outside the cache directory.
  ProcessResult R = F.validate({"--results", F.Dir + "/nonexistent/dir/r.json"});
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("cannot store results: directory " + F.Dir + "/nonexistent/dir does not exist"),
            std::string::npos)
      << R.Err;
  EXPECT_FALSE(llvm::sys::fs::exists(F.Dir + "/nonexistent"));
  EXPECT_FALSE(F.ran());
  // The cache directory itself is created when needed.
  ProcessResult Cache = F.validate({}, {{"MLPERF_LINT_RESULTS", ""}, {"XDG_CACHE_HOME", F.Dir + "/cache"}});
  EXPECT_EQ(Cache.Exit, 0) << Cache.Err;
  std::string Stored = readFile(F.Dir + "/cache/mlperf-lint/validation.json");
  EXPECT_EQ(nlohmann::json::parse(Stored)["schema"], 2) << Stored;
}

TEST(ValidateTest, AFailedFixtureBuildIsReported) {
  FakeFixture F;
  llvm::sys::fs::remove(F.Dir + "/build/fixtures/bin/fx_broken_good");
  ProcessResult R = F.validate({"--no-store"});
  EXPECT_EQ(R.Exit, 1);
  EXPECT_NE(R.Err.find("mlperf-lint validate: error: "), std::string::npos) << R.Err;
  EXPECT_TRUE(R.Err.find("failed (cmake exited with status") != std::string::npos ||
              R.Err.find("cmake is not on PATH") != std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("fx_broken_good was not built"), std::string::npos) << R.Err;
}

TEST(ValidateTest, ADamagedStoreIsOneWarningAndLintingContinues) {
  std::string Dir = tempDir("mlperf-validate-damaged");
  std::string Src = Dir + "/s.cc", Results = Dir + "/validation.json";
  std::ofstream(Src)
      << "extern \"C\" int cudaDeviceSynchronize();\nextern \"C\" int cuLaunchKernel(void *);\n"
         "void f(void *k) { for (int i = 0; i < 3; ++i) { cuLaunchKernel(k); cudaDeviceSynchronize(); } }\n";
  for (const char *Store : {R"({"schema": 2, "results": [{"check": "mlperf-sync-in-loop", "engine": 5, "backend": "cpu",
            "metric": "syncs", "metric_description": "d", "runs": 1, "verdict": "confirmed",
            "ratio": {"median": 2, "min": 2, "max": 2}}]})",
                            "{not json", R"({"machine": "written by an older mlperf-lint", "results": []})"}) {
    std::ofstream(Results) << Store;
    ProcessResult R = runProcess(MLPERF_LINT_BINARY, {"--format=json", "--quiet", Src, "--", "-std=c++17"}, "",
                                 {{"MLPERF_LINT_RESULTS", Results}});
    EXPECT_EQ(R.Exit, 1) << Store << "\n" << R.Err;
    EXPECT_EQ(occurrences(R.Err, "mlperf-lint: warning: "), 1u) << R.Err;
    EXPECT_EQ(occurrences(R.Err, "error"), 0u) << R.Err;
    EXPECT_NE(R.Err.find("mlperf-lint: warning: " + Results + ": "), std::string::npos) << R.Err;
    EXPECT_NE(R.Err.find("; ignored"), std::string::npos) << R.Err;
    nlohmann::json J = nlohmann::json::parse(R.Out, nullptr, false);
    ASSERT_FALSE(J.is_discarded()) << R.Out;
    EXPECT_EQ(J["diagnostics"].size(), 1u);
    EXPECT_EQ(R.Out.find("measured on the fixture"), std::string::npos);
  }
  ProcessResult Engine5 =
      runProcess(MLPERF_LINT_BINARY, {"--format=html", "-o", Dir + "/r.html", Src, "--", "-std=c++17"}, "",
                 {{"MLPERF_LINT_RESULTS", Results}});
  EXPECT_EQ(Engine5.Exit, 1) << Engine5.Err;
  // validate replaces a damaged store.
  FakeFixture F;
  ProcessResult V = F.validate({"--results", Results});
  EXPECT_EQ(V.Exit, 0) << V.Err;
  EXPECT_NE(V.Err.find("replaced"), std::string::npos) << V.Err;
  EXPECT_EQ(nlohmann::json::parse(readFile(Results))["results"].size(), 1u);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(ValidateTest, FindingsCarryTheStoredMeasurement) {
  std::string Dir = tempDir("mlperf-validate-note");
  std::string Results = Dir + "/results.json";
  std::ofstream(Results) << R"({"schema": 2, "machine": "test", "results": [
      {"check": "mlperf-sync-in-loop", "engine": "runtime", "backend": "cpu", "metric": "syncs", "runs": 5,
       "metric_description": "device syncs per step", "verdict": "confirmed",
       "ratio": {"median": 21.0, "min": 20.0, "max": 22.0}, "explain": "1.05 vs 0.05"}]})";
  std::string Src = Dir + "/s.cc";
  std::ofstream(Src)
      << "extern \"C\" int cudaDeviceSynchronize();\nextern \"C\" int cuLaunchKernel(void *);\n"
         "void f(void *k) { for (int i = 0; i < 3; ++i) { cuLaunchKernel(k); cudaDeviceSynchronize(); } }\n";
  ProcessResult R = runProcess(MLPERF_LINT_BINARY, {"--format=json", Src, "--", "-std=c++17"}, "",
                               {{"MLPERF_LINT_RESULTS", Results}});
  ASSERT_EQ(R.Exit, 1) << R.Err;
  nlohmann::json J = nlohmann::json::parse(R.Out);
  ASSERT_EQ(J["diagnostics"].size(), 1u);
  bool Found = false;
  for (const auto &N : J["diagnostics"][0]["notes"])
    Found |= N["message"] == "measured on the fixture: 21x device syncs per step, 1.05 vs 0.05 (cpu backend)";
  EXPECT_TRUE(Found) << R.Out;

  ProcessResult Sarif = runProcess(MLPERF_LINT_BINARY, {"--format=sarif", Src, "--", "-std=c++17"}, "",
                                   {{"MLPERF_LINT_RESULTS", Results}});
  EXPECT_NE(Sarif.Out.find("measured on the fixture: 21x"), std::string::npos);

  ProcessResult None = runProcess(MLPERF_LINT_BINARY, {"--format=json", Src, "--", "-std=c++17"}, "",
                                  {{"MLPERF_LINT_RESULTS", Dir + "/absent.json"}});
  EXPECT_EQ(None.Out.find("measured on the fixture"), std::string::npos) << "no stored results, nothing claimed";

  // A file that uses libtorch gets libtorch's measurement, even when another
  // engine's is stronger.
  std::ofstream(Results) << R"({"schema": 2, "machine": "test", "results": [
      {"check": "mlperf-sync-in-loop", "engine": "runtime", "backend": "cpu", "metric": "syncs", "runs": 5,
       "metric_description": "device syncs per step", "verdict": "confirmed",
       "ratio": {"median": 21.0, "min": 20.0, "max": 22.0}, "explain": "1.05 vs 0.05"},
      {"check": "mlperf-sync-in-loop", "engine": "libtorch", "backend": "libtorch-cpu", "metric": "step_time", "runs": 5,
       "metric_description": "step time", "verdict": "not measurable here",
       "ratio": {"median": 0.99, "min": 0.9, "max": 1.05}}]})";
  llvm::sys::fs::create_directories(Dir + "/torch");
  std::ofstream(Dir + "/torch/torch.h") << "extern \"C\" int cudaDeviceSynchronize();\n"
                                           "extern \"C\" int cuLaunchKernel(void *);\n";
  std::string TorchSrc = Dir + "/t.cc";
  std::ofstream(TorchSrc) << "#include <torch/torch.h>\n"
                             "void f(void *k) { for (int i = 0; i < 3; ++i) { cuLaunchKernel(k); "
                             "cudaDeviceSynchronize(); } }\n";
  ProcessResult Torch = runProcess(MLPERF_LINT_BINARY, {"--format=json", TorchSrc, "--", "-std=c++17", "-I" + Dir}, "",
                                   {{"MLPERF_LINT_RESULTS", Results}});
  EXPECT_NE(Torch.Out.find("measured on the fixture: no measurable effect on step time (libtorch, CPU)"),
            std::string::npos)
      << Torch.Out;
  ProcessResult Plain = runProcess(MLPERF_LINT_BINARY, {"--format=json", Src, "--", "-std=c++17"}, "",
                                   {{"MLPERF_LINT_RESULTS", Results}});
  EXPECT_NE(Plain.Out.find("measured on the fixture: 21x"), std::string::npos) << Plain.Out;
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
} // namespace mlperf::test
