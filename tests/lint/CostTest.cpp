// The cost estimate of a finding (docs/cost-model.md): the device models and
// their loader, the facts the checks hand over, the estimate and its note,
// and what the reports and --min-cost/--sort make of it.
#include "IntegrationSupport.h"

#include "findings/CostNotes.h"
#include "report/Cost.h"
#include "support/DeviceModel.h"
#include "validate/Calibration.h"

#include <nlohmann/json.hpp>

#include <set>
#include <unistd.h>

namespace mlperf::test {
namespace {

using clang::tidy::mlperf::CostFacts;
using clang::tidy::mlperf::Quantity;
using lint::CostEstimate;
using lint::DeviceModel;

const DeviceModel &device(llvm::StringRef Name) {
  for (const DeviceModel &D : lint::builtinDevices())
    if (D.Name == Name)
      return D;
  ADD_FAILURE() << "no device " << Name.str();
  return lint::builtinDevices().front();
}

TEST(CostModel, BuiltinDevicesAreThePublishedOnes) {
  std::set<std::string> Names;
  for (const DeviceModel &D : lint::builtinDevices()) {
    EXPECT_TRUE(Names.insert(D.Name).second) << D.Name;
    EXPECT_FALSE(D.Measured) << D.Name << ": the built-in models come from published figures";
    EXPECT_GT(D.HostToDeviceBytesPerSecond, 1e9) << D.Name;
    EXPECT_GT(D.MemoryBytes, 1e9) << D.Name;
  }
  for (const char *Name : {"generic-pcie4-gpu", "generic-pcie5-gpu", "a100-sxm", "h100-pcie", "h100-sxm", "h200",
                           "gh200-nvlink-c2c", "rtx-4090"})
    EXPECT_TRUE(Names.count(Name)) << Name;
  EXPECT_DOUBLE_EQ(device("h100-pcie").SyncSeconds, 20e-6);
  EXPECT_DOUBLE_EQ(device("h100-pcie").HostToDeviceBytesPerSecond, 50e9);
}

class DeviceFileTest : public ProjectTest {};

TEST_F(DeviceFileTest, BadFilesAreOneLineNamingTheFile) {
  auto Load = [&](const std::string &Text) {
    std::string Path = write("d.json", Text);
    auto D = lint::loadDeviceModel(Path);
    return D ? std::string("loaded") : llvm::toString(D.takeError());
  };
  std::string Good = readFile(MLPERF_SOURCE_DIR "/profiles/devices/h100-pcie.json");
  EXPECT_EQ(Load(Good), "loaded");
  std::string Prefix = Root + "/d.json: invalid device model: ";
  EXPECT_EQ(Load("{"), Prefix + "not valid JSON");
  EXPECT_EQ(Load("[]"), Prefix + "the top level must be an object");
  std::string Unknown = Good;
  Unknown.insert(1, "\"colour\": 1,");
  EXPECT_EQ(Load(Unknown), Prefix + "unknown field 'colour'");
  std::string Negative = Good;
  Negative.replace(Negative.find("\"sync_latency_us\": 20"), 21, "\"sync_latency_us\": -1");
  EXPECT_EQ(Load(Negative), Prefix + "'sync_latency_us' must be between 0 and 10000000, not -1");
  std::string Source = Good;
  Source.replace(Source.find("\"published\""), 11, "\"guessed\"");
  EXPECT_EQ(Load(Source), Prefix + "'source' must be \"measured\" or \"published\", not \"guessed\"");
  EXPECT_EQ(Load(std::string(300, '[') + std::string(300, ']')).find(Root + "/d.json"), 0u);
}

#ifdef MLPERF_DEVICE_MODEL_BINARY
TEST_F(DeviceFileTest, TheMeasuredModelLoadsAndBecomesTheDefault) {
  // The reference backend: the quickest to measure; the figures are not asserted.
  std::string Path = Root + "/device.json";
  ProcessResult R = runProcess(MLPERF_DEVICE_MODEL_BINARY, {"reference", "this-box", Path}, Root);
  ASSERT_EQ(R.Exit, 0) << R.Out << R.Err;
  auto D = lint::loadDeviceModel(Path);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_EQ(D->Name, "this-box");
  EXPECT_TRUE(D->Measured);
  EXPECT_NE(D->Description.find("no GPU"), std::string::npos) << D->Description;
  EXPECT_GT(D->SyncSeconds, 0);
  // Without a path it writes where the linter looks by default.
  ProcessResult Default =
      runProcess(MLPERF_DEVICE_MODEL_BINARY, {"reference"}, Root, {{"MLPERF_LINT_DEVICE", Root + "/default.json"}});
  ASSERT_EQ(Default.Exit, 0) << Default.Err;
  write("a.cc", syncLoopSource());
  ProcessResult Lint = runProcess(MLPERF_LINT_BINARY, {"--no-cache", "a.cc", "--", "-std=c++17"}, Root,
                                  {{"MLPERF_LINT_DEVICE", Root + "/default.json"}});
  EXPECT_NE(Lint.Out.find("per step on local-reference-runtime"), std::string::npos) << Lint.Out << Lint.Err;
}
#endif

TEST(CostModel, FactsTravelInANoteAndBack) {
  CostFacts F;
  F.Syncs = 1;
  F.DeviceToHost = 1;
  F.Bytes = Quantity::unknown("logits \"x\"");
  F.Repeats = Quantity::known(64);
  F.Steps = Quantity::known(1000);
  std::string Note = clang::tidy::mlperf::costFactsNote(F);
  std::optional<CostFacts> Back = clang::tidy::mlperf::parseCostFactsNote(Note);
  ASSERT_TRUE(Back) << Note;
  EXPECT_TRUE(*Back == F) << Note;
  EXPECT_FALSE(clang::tidy::mlperf::parseCostFactsNote("this loop runs a model step on every iteration"));
  EXPECT_FALSE(clang::tidy::mlperf::parseCostFactsNote(clang::tidy::mlperf::CostFactsPrefix.str() + "{\"syncs\":-1}"));
}

TEST(CostModel, EstimateNamesTermsDeviceAndRun) {
  CostFacts F = clang::tidy::mlperf::readFacts(Quantity::known(4));
  F.Steps = Quantity::known(100000);
  std::optional<CostEstimate> C = lint::estimateCost(F, device("h100-pcie"));
  ASSERT_TRUE(C);
  // 20 µs for the wait, 10 µs latency plus 4 B at 50 GB/s for the copy.
  EXPECT_NEAR(C->PerStep, 30e-6, 1e-9);
  EXPECT_EQ(C->note(), "≈ 30 µs per step on h100-pcie: 1 sync (20 µs) + 4 B D2H (10 µs); ≈ 3 s over 100,000 steps");
  EXPECT_NEAR(*C->perRun(), 3.0, 1e-4);
  EXPECT_NEAR(C->rank(), 10 * (std::log10(3.0) + 7), 1e-4);
  // The same on a PCIe 4 consumer card: bandwidth halves, 4 B does not notice.
  EXPECT_NEAR(lint::estimateCost(F, device("rtx-4090"))->PerStep, 30e-6, 1e-9);
}

TEST(CostModel, EventsCountTheWorkPerStepRepeatsIncluded) {
  CostFacts F = clang::tidy::mlperf::readFacts(Quantity::known(4));
  F.Repeats = Quantity::known(64);
  std::optional<CostEstimate> C = lint::estimateCost(F, device("h100-pcie"));
  ASSERT_TRUE(C);
  std::map<std::string, double> Expected = {{"syncs", 64}, {"d2h_copies", 64}, {"d2h_bytes", 256}};
  EXPECT_EQ(C->Events, Expected);
  EXPECT_EQ(lint::costJson(*C)["events"]["d2h_bytes"], 256);
  // Unknown bytes: the copies count, their bytes are not claimed.
  CostFacts Copy;
  Copy.HostToDevice = 1;
  Copy.Bytes = Quantity::unknown("x");
  Copy.Compilations = 2;
  C = lint::estimateCost(Copy, device("h100-pcie"));
  ASSERT_TRUE(C);
  Expected = {{"h2d_copies", 1}, {"compilations", 2}};
  EXPECT_EQ(C->Events, Expected);
}

TEST(CostModel, UnknownSizesStaySymbolic) {
  CostFacts F = clang::tidy::mlperf::readFacts(Quantity::unknown("logits"));
  F.Steps = Quantity::unknown("epochs");
  std::optional<CostEstimate> C = lint::estimateCost(F, device("generic-pcie4-gpu"));
  ASSERT_TRUE(C);
  EXPECT_TRUE(C->lowerBound());
  EXPECT_EQ(C->DependsOn, std::vector<std::string>{"logits"});
  EXPECT_EQ(C->note(), "≥ 30 µs per step on generic-pcie4-gpu: 1 sync (20 µs) + 1 D2H copy (10 µs + the bytes of "
                       "'logits'); the number of steps depends on 'epochs'");
  EXPECT_FALSE(C->perRun());

  CostFacts Copy;
  Copy.HostToDevice = 1;
  Copy.Bytes = Quantity::known(64.0 * 1024 * 1024);
  Copy.Repeats = Quantity::unknown("n");
  C = lint::estimateCost(Copy, device("generic-pcie4-gpu"));
  ASSERT_TRUE(C);
  EXPECT_EQ(C->note(), "≥ 2.7 ms on generic-pcie4-gpu: (64 MiB H2D (2.7 ms)) per trip of a loop bounded by 'n'");
  EXPECT_FALSE(lint::estimateCost(CostFacts{}, device("h200")));
}

/// A handle leaked on every step: its allocation each time, and memory that
/// grows until the device is full; a graph kept alive grows by a size the
/// analysis does not know.
TEST(CostModel, MemoryThatGrowsEveryStepRanksByWhenItFillsTheDevice) {
  using clang::tidy::mlperf::Retention;
  CostFacts Leak;
  Leak.Allocations = 1;
  Leak.Retained = Retention{Quantity::known(1 << 20), "the allocation 'scratch'"};
  Leak.Steps = Quantity::known(100000);
  std::optional<CostFacts> Back = clang::tidy::mlperf::parseCostFactsNote(clang::tidy::mlperf::costFactsNote(Leak));
  ASSERT_TRUE(Back);
  EXPECT_TRUE(*Back == Leak);
  const DeviceModel &H100 = device("h100-pcie");
  std::optional<CostEstimate> C = lint::estimateCost(Leak, H100);
  ASSERT_TRUE(C && C->Memory);
  double Fill = std::ceil(H100.MemoryBytes / (1 << 20));
  EXPECT_EQ(C->Memory->stepsToFill(), Fill);
  EXPECT_EQ(C->rank(), 100); // 100,000 steps of 1 MiB do not fit in 80 GiB
  EXPECT_NE(C->note().find("keeps the allocation 'scratch' alive on every step: device memory grows by ≈ 1 MiB per "
                           "step; h100-pcie's 80 GiB are full after ≈ 81,920 steps"),
            std::string::npos)
      << C->note();
  EXPECT_NE(C->note().find("≈ 98 GiB kept over 100,000 steps: the run runs out of device memory"), std::string::npos)
      << C->note();
  EXPECT_EQ(lint::costJson(*C)["memory"]["bytes_per_step"], 1 << 20);
  // Fewer steps: ranked by the share of the device the run fills (1%: 70).
  Leak.Steps = Quantity::known(Fill / 100);
  EXPECT_NEAR(lint::estimateCost(Leak, H100)->rank(), 70, 0.01);
  // Unknown steps: by how soon it fills (81,920 steps: 90 - 10 log10(81.92)).
  Leak.Steps = Quantity::unknown("epochs");
  C = lint::estimateCost(Leak, H100);
  EXPECT_NEAR(C->rank(), 90 - 10 * std::log10(Fill / 1000), 0.01);
  EXPECT_GT(C->weight(), C->timeWeight()); // it outranks the allocation's time
  // A graph of unknown size: a lower bound naming what it depends on, and
  // no time of its own.
  CostFacts Graph;
  Graph.Retained = Retention{Quantity::unknown("model->forward(x)"), "the autograd graph of 'loss'"};
  Graph.Steps = Quantity::unknown("epochs");
  C = lint::estimateCost(Graph, H100);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->PerStep, 0);
  EXPECT_TRUE(C->lowerBound());
  EXPECT_EQ(C->rank(), 60);
  EXPECT_EQ(C->note(), "keeps the autograd graph of 'loss' alive on every step: device memory grows by its size "
                       "every step (unknown here: it depends on 'model->forward(x)'); the number of steps depends "
                       "on 'epochs'");
  // Host memory is not the device's: no time to fill.
  Graph.Retained = Retention{Quantity::known(4096), "what the handle 'batch' holds", true};
  C = lint::estimateCost(Graph, H100);
  EXPECT_FALSE(C->Memory->stepsToFill());
  EXPECT_EQ(lint::costJson(*C)["memory"]["memory"], "host");
}

TEST(CostModel, Durations) {
  EXPECT_EQ(lint::parseDuration("500us"), 500e-6);
  EXPECT_EQ(lint::parseDuration("2ms"), 2e-3);
  EXPECT_EQ(lint::parseDuration("1.5s"), 1.5);
  EXPECT_EQ(lint::parseDuration("3min"), 180.0);
  EXPECT_EQ(lint::parseDuration("1h"), 3600.0);
  EXPECT_FALSE(lint::parseDuration("fast"));
  EXPECT_FALSE(lint::parseDuration("-1s"));
  EXPECT_FALSE(lint::parseDuration("3"));
  EXPECT_EQ(lint::formatDuration(2.1e-4), "0.21 ms");
  EXPECT_EQ(lint::formatDuration(21), "21 s");
  EXPECT_EQ(lint::formatBytes(1536), "1.5 KiB");
}

/// A measured pair as validate stores it: 21 vs 1 waits over 20 steps, 4 vs
/// 1 compilations over 4 steps, 3 ms vs 1 ms per step, from \p Runs runs.
validate::PairResult measuredPair(unsigned Runs) {
  validate::PairResult R;
  R.Check = "mlperf-sync-in-loop";
  R.Engine = "runtime";
  R.Backend = "cpu";
  R.Metric = "syncs";
  R.BadFile = "bad.cc";
  R.Runs = Runs;
  R.Outcome = validate::Verdict::Confirmed;
  R.Bad = validate::SideResult{1.05, 1, {{"syncs", 1.05}, {"compilations", 4}, {"d2h_bytes", 4}}, 20.0, 3.0};
  R.Good = validate::SideResult{0.05, 1, {{"syncs", 0.05}, {"compilations", 1}, {"d2h_bytes", 4}}, 20.0, 1.0};
  return R;
}

TEST(CostCalibration, PredictedEventsAndTimeAgainstTheMeasuredDifference) {
  // Two findings of the check (one priced), one of another check.
  nlohmann::json Report = nlohmann::json::parse(R"({"diagnostics": [
    {"check": "mlperf-sync-in-loop", "cost": {"device": "local-cpu-runtime", "per_step_seconds": 0.0015,
      "lower_bound": false, "events": {"syncs": 1, "compilations": 1}}},
    {"check": "mlperf-sync-in-loop"},
    {"check": "mlperf-materialize-in-loop", "cost": {"per_step_seconds": 1, "events": {"syncs": 5}}}]})");
  validate::CalibrationRow Row = validate::calibrate(measuredPair(5), Report, "local-cpu-runtime");
  EXPECT_EQ(Row.Findings, 2u);
  EXPECT_EQ(Row.Priced, 1u);
  ASSERT_EQ(Row.Events.size(), 2u) << "syncs and compilations; no bytes were predicted";
  EXPECT_EQ(Row.Events[0].Kind, "syncs");
  EXPECT_DOUBLE_EQ(Row.Events[0].Predicted, 1);
  EXPECT_NEAR(*Row.Events[0].Measured, 1.0, 1e-12);
  EXPECT_NEAR(*Row.Events[0].ratio(), 1.0, 1e-12);
  // Compilations are counted per run: (4 - 1) over 20 steps.
  EXPECT_EQ(Row.Events[1].Kind, "compilations");
  EXPECT_NEAR(*Row.Events[1].Measured, 0.15, 1e-12);
  EXPECT_NEAR(*Row.Events[1].ratio(), 1 / 0.15, 1e-9);
  EXPECT_NEAR(*Row.MeasuredSeconds, 2e-3, 1e-12);
  EXPECT_NEAR(*Row.timeRatio(), 0.75, 1e-12);
  EXPECT_EQ(validate::formatCalibration({Row}), "mlperf-sync-in-loop (runtime, cpu, syncs pair): syncs 1 vs 1 per step "
                                                "(1x); compilations 1 vs 0.15 per step (6.67x); "
                                                "time 1.5 ms vs 2 ms per step on local-cpu-runtime (0.75x)\n");
  auto J = validate::toJson(Row);
  EXPECT_EQ(J["events"][0]["kind"], "syncs");
  EXPECT_DOUBLE_EQ(J["time_ratio"].get<double>(), 0.75);
  // A time from one run is no evidence: no ratio.
  validate::CalibrationRow Quick = validate::calibrate(measuredPair(1), Report, "local-cpu-runtime");
  EXPECT_FALSE(Quick.timeRatio());
  EXPECT_TRUE(validate::toJson(Quick)["time_ratio"].is_null());
  EXPECT_NE(validate::formatCalibration({Quick}).find("(– from fewer than 3 runs)"), std::string::npos);
}

TEST(CostCalibration, StoredSidesKeepStepsAndStepTime) {
  validate::ValidationRun Run;
  Run.Results.push_back(measuredPair(5));
  auto Back = validate::runFromJson(validate::toJson(Run));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->Results[0].Bad->Steps, 20.0);
  EXPECT_EQ(Back->Results[0].Good->StepMs, 1.0);
  // Results stored before these were recorded still load, without them.
  nlohmann::json Old = validate::toJson(Run);
  Old["results"][0]["bad"].erase("steps");
  Old["results"][0]["bad"].erase("step_ms");
  auto OldBack = validate::runFromJson(Old);
  ASSERT_TRUE(bool(OldBack)) << llvm::toString(OldBack.takeError());
  EXPECT_FALSE(OldBack->Results[0].Bad->Steps);
}

TEST(CostCalibration, DeviceIsOnlyForCalibrate) {
  ProcessResult R = runProcess(MLPERF_LINT_BINARY, {"validate", "--no-store", "--device=h100-pcie"});
  EXPECT_EQ(R.Exit, 2) << R.Out << R.Err;
  EXPECT_NE(R.Err.find("--device is for --calibrate"), std::string::npos) << R.Err;
}

TEST(CostCalibration, QuickValidateCountsAgreeWithinTwofold) {
  // The runtime pairs whose anti-pattern the linter prices and whose programs
  // count the priced events; counts only, the times are reported, never asserted.
  std::string Dir = ::testing::TempDir() + "/mlperf-calibrate-" + std::to_string(::getpid());
  llvm::sys::fs::create_directories(Dir);
  std::string Json = Dir + "/v.json";
  ProcessResult R =
      runProcess(MLPERF_LINT_BINARY, {"validate", "--quick", "--no-store", "--no-fix-check", "--backend", "reference",
                                      "--engine", "runtime", "--calibrate", "--device=h100-pcie", "--json", Json,
                                      "--checks=mlperf-sync-in-loop,mlperf-materialize-in-loop,mlperf-loop-invariant-"
                                      "transfer,mlperf-compile-in-loop"});
  ASSERT_EQ(R.Exit, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("calibration: "), std::string::npos) << R.Out;
  nlohmann::json J = nlohmann::json::parse(readFile(Json));
  std::set<std::string> Compared;
  for (const auto &Row : J["calibration"]) {
    std::string Name = Row["check"].get<std::string>() + " (" + Row["bad_file"].get<std::string>() + ")";
    EXPECT_GE(Row["priced"].get<unsigned>(), 1u) << Name;
    EXPECT_EQ(Row["device"], "h100-pcie") << Name;
    for (const auto &E : Row["events"]) {
      ASSERT_FALSE(E["ratio"].is_null()) << Name << " " << E.dump();
      double Ratio = E["ratio"].get<double>();
      EXPECT_GE(Ratio, 0.5) << Name << " " << E.dump();
      EXPECT_LE(Ratio, 2.0) << Name << " " << E.dump();
      Compared.insert(Row["check"].get<std::string>() + ":" + E["kind"].get<std::string>());
    }
  }
  for (const char *Expected : {"mlperf-sync-in-loop:syncs", "mlperf-materialize-in-loop:syncs",
                               "mlperf-loop-invariant-transfer:h2d_bytes", "mlperf-compile-in-loop:compilations"})
    EXPECT_TRUE(Compared.count(Expected)) << Expected << " was not compared\n" << R.Out;
  llvm::sys::fs::remove_directories(Dir);
}

// The runs recorded on an H200 (bench/results/h200-2026-12-04), reported and calibrated here as
// validate --recorded does: the verdicts those runs give, and every counted event within 2x of
// what the GPU counted. Recorded runs are fixed data, so this is exact; times are not asserted.
TEST(CostCalibration, TheH200RecordAgreesInItsCounts) {
  const std::string Results = MLPERF_SOURCE_DIR "/bench/results/h200-2026-12-04";
  std::string Dir = ::testing::TempDir() + "/mlperf-calibrate-h200-" + std::to_string(::getpid());
  llvm::sys::fs::create_directories(Dir);
  std::string Json = Dir + "/v.json";
  ProcessResult R = runProcess(
      MLPERF_LINT_BINARY,
      {"validate", "--backend=cuda", "--repeat=5", "--no-store", "--calibrate",
       "--recorded=" + Results + "/runs-cuda.jsonl", "--device=" + Results + "/device-cuda.json", "--json", Json,
       "--checks=mlperf-sync-in-loop,mlperf-materialize-in-loop,mlperf-compile-in-loop,mlperf-per-element-read"});
  ASSERT_EQ(R.Exit, 0) << R.Out << R.Err;
  nlohmann::json J = nlohmann::json::parse(readFile(Json));
  EXPECT_NE(J["machine"].get<std::string>().find("recorded on Intel(R) Xeon(R) Processor, 16 cpus; GPU NVIDIA H200"),
            std::string::npos)
      << J["machine"];
  std::map<std::string, std::string> Verdicts;
  for (const auto &Res : J["results"])
    Verdicts[Res["check"].get<std::string>() + "/" + Res["engine"].get<std::string>() + "/" +
             Res["metric"].get<std::string>()] = Res["verdict"];
  std::map<std::string, std::string> Expected = {{"mlperf-sync-in-loop/runtime/syncs", "confirmed"},
                                                 {"mlperf-materialize-in-loop/runtime/syncs", "confirmed"},
                                                 {"mlperf-materialize-in-loop/libtorch/syncs", "confirmed"},
                                                 {"mlperf-compile-in-loop/runtime/compilations", "confirmed"},
                                                 {"mlperf-compile-in-loop/runtime/step_time", "confirmed"},
                                                 {"mlperf-compile-in-loop/libtorch/step_time", "confirmed"},
                                                 {"mlperf-per-element-read/libtorch/step_time", "confirmed"},
                                                 // libtorch's sync is a torch::cuda::synchronize the observers do not
                                                 // count; its time difference is within the noise of five runs.
                                                 {"mlperf-sync-in-loop/libtorch/step_time", "not measurable here"}};
  EXPECT_EQ(Verdicts, Expected);
  std::set<std::string> Compared;
  for (const auto &Row : J["calibration"]) {
    std::string Name = Row["check"].get<std::string>() + " (" + Row["engine"].get<std::string>() + ")";
    EXPECT_EQ(Row["device"], "measured-cuda") << Name;
    for (const auto &E : Row["events"]) {
      if (E["ratio"].is_null())
        continue; // an event the programs do not count (d2h bytes in libtorch)
      EXPECT_GE(E["ratio"].get<double>(), 0.5) << Name << " " << E.dump();
      EXPECT_LE(E["ratio"].get<double>(), 2.0) << Name << " " << E.dump();
      Compared.insert(Name + ":" + E["kind"].get<std::string>());
    }
  }
  EXPECT_EQ(Compared,
            (std::set<std::string>{"mlperf-sync-in-loop (runtime):syncs", "mlperf-materialize-in-loop (runtime):syncs",
                                   "mlperf-materialize-in-loop (libtorch):syncs",
                                   "mlperf-compile-in-loop (runtime):compilations",
                                   "mlperf-per-element-read (libtorch):syncs"}));
  llvm::sys::fs::remove_directories(Dir);
}

// The pipelined CUDA pairs recorded on the H200 (bench/results/h200-2026-12-04-pipeline): both
// confirmed, and their two waits per request priced (the times are not asserted).
TEST(CostCalibration, ThePipelinedH200RecordConfirmsTheCudaPairs) {
  const std::string Results = MLPERF_SOURCE_DIR "/bench/results/";
  std::string Dir = ::testing::TempDir() + "/mlperf-calibrate-pipeline-" + std::to_string(::getpid());
  llvm::sys::fs::create_directories(Dir);
  std::string Json = Dir + "/v.json";
  ProcessResult R =
      runProcess(MLPERF_LINT_BINARY, {"validate", "--backend=cuda", "--repeat=5", "--no-store", "--calibrate",
                                      "--recorded=" + Results + "h200-2026-12-04-pipeline/runs-cuda.jsonl",
                                      "--device=" + Results + "h200-2026-12-04/device-cuda.json", "--json", Json,
                                      "--checks=mlperf-alloc-in-loop,mlperf-pageable-async-copy"});
  ASSERT_EQ(R.Exit, 0) << R.Out << R.Err;
  nlohmann::json J = nlohmann::json::parse(readFile(Json));
  std::map<std::string, std::string> Verdicts;
  for (const auto &Res : J["results"]) {
    Verdicts[Res["check"].get<std::string>() + "/" + Res["engine"].get<std::string>()] = Res["verdict"];
    EXPECT_EQ(Res["bad"]["checksum"], Res["good"]["checksum"]) << Res.dump();
    EXPECT_GT(Res["bad"]["checksum"].get<double>(), 1.0) << "a checksum near 0 would match anything";
  }
  EXPECT_EQ(Verdicts, (std::map<std::string, std::string>{{"mlperf-alloc-in-loop/cuda", "confirmed"},
                                                          {"mlperf-pageable-async-copy/cuda", "confirmed"}}));
  std::map<std::string, double> Syncs;
  for (const auto &Row : J["calibration"])
    for (const auto &E : Row["events"])
      if (E["kind"] == "syncs")
        Syncs[Row["check"].get<std::string>()] = E["predicted"].get<double>();
  EXPECT_EQ(Syncs, (std::map<std::string, double>{{"mlperf-alloc-in-loop", 2}, {"mlperf-pageable-async-copy", 2}}))
      << J["calibration"].dump();
  llvm::sys::fs::remove_directories(Dir);
}

/// The facts a check hands over, read back from its note.
std::vector<CostFacts> factsOf(const std::string &Source, const std::string &Checks, bool On) {
  std::map<std::string, std::string> Options;
  if (On)
    Options["CostFacts"] = "true";
  std::vector<CostFacts> Out;
  for (const auto &E : runChecks("/tmp/cost.cc", Source, "-*," + Checks, Options, {"-std=c++17"}))
    for (const auto &N : E.Notes)
      if (auto F = clang::tidy::mlperf::parseCostFactsNote(N.Message))
        Out.push_back(*F);
      else
        EXPECT_FALSE(llvm::StringRef(N.Message).starts_with(clang::tidy::mlperf::CostFactsPrefix)) << N.Message;
  return Out;
}

TEST(CostFactsOfChecks, SyncCountsTheLoopsSteps) {
  std::vector<CostFacts> F = factsOf(syncLoopSource(), "mlperf-sync-in-loop", true);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Syncs, 1u);
  ASSERT_TRUE(F[0].Steps && F[0].Steps->Value);
  EXPECT_EQ(*F[0].Steps->Value, 10);
  // clang-tidy with the plugin, and every fixture: no such note.
  EXPECT_TRUE(factsOf(syncLoopSource(), "mlperf-sync-in-loop", false).empty());
}

TEST(CostFactsOfChecks, NestedConstantLoopsMultiplyAndABoundNamesItself) {
  std::string Source = "extern \"C\" int cudaDeviceSynchronize();\n"
                       "extern \"C\" int cuLaunchKernel(void *f);\n"
                       "void train(void *k, int epochs) {\n"
                       "  for (int e = 0; e < 3; ++e)\n"
                       "    for (int i = 0; i <= 99; i += 2) {\n"
                       "      cuLaunchKernel(k);\n"
                       "      cudaDeviceSynchronize();\n"
                       "    }\n"
                       "  for (int e = 0; e < epochs; ++e) {\n"
                       "    cuLaunchKernel(k);\n"
                       "    cudaDeviceSynchronize();\n"
                       "  }\n"
                       "}\n";
  std::vector<CostFacts> F = factsOf(Source, "mlperf-sync-in-loop", true);
  ASSERT_EQ(F.size(), 2u);
  ASSERT_TRUE(F[0].Steps && F[0].Steps->Value);
  EXPECT_EQ(*F[0].Steps->Value, 150); // 3 epochs of 50 steps
  ASSERT_TRUE(F[1].Steps);
  EXPECT_FALSE(F[1].Steps->Value);
  EXPECT_EQ(F[1].Steps->DependsOn, "epochs");
}

/// A method's constant member or an invariant parameter copied on every call
/// of a per-step function: one copy per step whose bytes are the value's,
/// unknown here, so the estimate is a lower bound that names it.
TEST(CostFactsOfChecks, CopiesOnEveryCallOfAStepFunctionNameTheirValue) {
  if (!torchAvailable())
    GTEST_SKIP() << "libtorch headers not found (install libtorch-dev)";
  std::map<std::string, std::string> Options = {{"CostFacts", "true"}};
  std::map<std::string, std::vector<std::string>> Named;
  for (const char *Fixture : {"per_call_constant_transfer.cc", "invariant_argument_transfer.cc"}) {
    std::string Path = std::string(MLPERF_SOURCE_DIR) + "/fixtures/realworld/" + Fixture;
    auto Errors =
        runChecks(Path, readFile(Path), "-*,mlperf-loop-invariant-transfer", Options, fixtureArgs(true, false));
    ASSERT_FALSE(Errors.empty()) << Fixture;
    for (const auto &E : Errors) {
      if (E.Message.Message.find("on every call of") == std::string::npos)
        continue;
      std::optional<CostFacts> F;
      for (const auto &N : E.Notes)
        if (!F)
          F = clang::tidy::mlperf::parseCostFactsNote(N.Message);
      ASSERT_TRUE(F) << Fixture << ": " << E.Message.Message;
      EXPECT_EQ(F->HostToDevice, 1u) << E.Message.Message;
      EXPECT_FALSE(F->Bytes.Value) << E.Message.Message;
      Named[Fixture].push_back(F->Bytes.DependsOn);
    }
  }
  EXPECT_TRUE(llvm::is_contained(Named["per_call_constant_transfer.cc"], "means_"));
  EXPECT_TRUE(llvm::is_contained(Named["invariant_argument_transfer.cc"], "anchors")) << Named.size();
}

/// missing-finalize and retained-graph-accumulation hand over the memory
/// each step keeps: the size a leaked allocation asks for (1 MiB), or the
/// model step whose graph is kept.
TEST(CostFactsOfChecks, LeaksAndRetainedGraphsKeepMemoryEveryStep) {
  std::map<std::string, std::string> Options = {{"CostFacts", "true"}};
  auto FactsIn = [&](const std::string &Fixture, const std::string &Check, bool Torch) {
    std::string Path = std::string(MLPERF_SOURCE_DIR) + "/fixtures/" + Fixture;
    std::vector<std::pair<std::string, CostFacts>> Out;
    for (const auto &E : runChecks(Path, readFile(Path), "-*," + Check, Options, fixtureArgs(Torch, false)))
      for (const auto &N : E.Notes)
        if (auto F = clang::tidy::mlperf::parseCostFactsNote(N.Message))
          Out.emplace_back(E.Message.Message, *F);
    return Out;
  };
  auto Leaks = FactsIn("missing-finalize/handles.cc", "mlperf-missing-finalize", false);
  ASSERT_GE(Leaks.size(), 2u);
  ASSERT_TRUE(Leaks[0].second.Retained) << Leaks[0].first;
  EXPECT_EQ(Leaks[0].second.Retained->Bytes.Value, 1 << 20) << Leaks[0].first;
  EXPECT_EQ(Leaks[0].second.Allocations, 1u);
  EXPECT_FALSE(Leaks[0].second.Retained->Host);
  ASSERT_TRUE(Leaks[1].second.Retained) << Leaks[1].first;
  EXPECT_EQ(Leaks[1].second.Retained->What, "what the handle 'batch' holds");
  EXPECT_TRUE(Leaks[1].second.Retained->Host); // llama_batch_init's arrays
  if (!torchAvailable())
    GTEST_SKIP() << "libtorch headers not found (install libtorch-dev)";
  auto Graphs = FactsIn("retained-graph-accumulation/libtorch_bad.cc", "mlperf-retained-graph-accumulation", true);
  ASSERT_FALSE(Graphs.empty());
  for (const auto &[Message, F] : Graphs) {
    ASSERT_TRUE(F.Retained) << Message;
    EXPECT_FALSE(F.Retained->Bytes.Value);
    EXPECT_TRUE(llvm::StringRef(F.Retained->What).starts_with("the autograd graph of '")) << F.Retained->What;
    EXPECT_EQ(F.Syncs + F.HostToDevice + F.DeviceToHost + F.Allocations, 0u);
  }
}

// A graph kept alive by an accumulator is sized from the file's constant
// layers and batch: per example, each layer output and its activated value.
TEST(CostFactsOfChecks, ARetainedGraphOfConstantLayersAndBatchIsSized) {
  if (!torchAvailable())
    GTEST_SKIP() << "libtorch headers not found (install libtorch-dev)";
  auto GraphBytes = [](const std::string &Width) {
    std::string Source = R"(#include <torch/torch.h>
struct Net : torch::nn::Module {
  explicit Net(int hidden)
      : fc1(register_module("fc1", torch::nn::Linear(784, WIDTH))),
        fc2(register_module("fc2", torch::nn::Linear(WIDTH, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x))); }
  torch::nn::Linear fc1, fc2;
};
double train(Net &net, torch::optim::SGD &opt) {
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>()), 64);
  torch::Tensor total = torch::zeros({});
  for (auto &batch : *loader) {
    opt.zero_grad();
    torch::Tensor loss = torch::nll_loss(net.forward(batch.data), batch.target);
    loss.backward();
    opt.step();
    total += loss;
  }
  return total.item<double>();
}
)";
    for (size_t At; (At = Source.find("WIDTH")) != std::string::npos;)
      Source.replace(At, 5, Width);
    std::vector<std::optional<double>> Out;
    for (const auto &E : runChecks("/tmp/retained.cc", Source, "-*,mlperf-retained-graph-accumulation",
                                   {{"CostFacts", "true"}}, fixtureArgs(true, false)))
      for (const auto &N : E.Notes)
        if (auto F = clang::tidy::mlperf::parseCostFactsNote(N.Message); F && F->Retained)
          Out.push_back(F->Retained->Bytes.Value);
    return Out;
  };
  // Both layers of constant sizes, batches of 64: 64 x (512 + 10) outputs x 2 values x 4 B.
  std::vector<std::optional<double>> Sized = GraphBytes("512");
  ASSERT_EQ(Sized.size(), 1u);
  EXPECT_EQ(Sized[0], 64.0 * (512 + 10) * 2 * 4);
  // A width from a variable: the graph's size is unknown.
  std::vector<std::optional<double>> Unsized = GraphBytes("hidden");
  ASSERT_EQ(Unsized.size(), 1u);
  EXPECT_FALSE(Unsized[0]);
}

class CostProjectTest : public ProjectTest {};

TEST_F(CostProjectTest, AContainerBuiltWithAConstantCountIsSized) {
  write("a.cc", R"(#include <mlperf/rt/runtime.h>
#include <vector>
using namespace mlperf::rt;
int main(int argc, char **) {
  auto backend = Backend::create();
  Context ctx(backend, 1);
  Exec step(backend, ctx, [&](Context &c, Graph &g, Node x, Node s) { return reduce_mean(x * s); });
  const long rows = 64, cols = 128;
  std::vector<float> proj(rows * cols, 0.5f);
  std::vector<double> other(argc);
  for (int i = 0; i < 10; ++i)
    step.run(Tensor::from_host(backend, proj, Shape{rows, cols}), Tensor::from_host(backend, other, Shape{argc}));
}
)");
  ProcessResult R =
      lint({"--no-cache", "--device=h100-pcie", "--format=json", "--checks=-*,mlperf-loop-invariant-transfer", "a.cc",
            "--", "-std=c++20", "-I" MLPERF_SOURCE_DIR "/runtime/include"});
  auto J = nlohmann::json::parse(R.Out);
  ASSERT_EQ(J["diagnostics"].size(), 2u) << R.Out << R.Err;
  const auto &Sized = J["diagnostics"][0]["cost"];
  EXPECT_EQ(Sized["events"]["h2d_bytes"], 64 * 128 * 4) << Sized.dump();
  EXPECT_FALSE(Sized["lower_bound"].get<bool>());
  const auto &Unsized = J["diagnostics"][1]["cost"];
  EXPECT_EQ(Unsized["events"].count("h2d_bytes"), 0u) << Unsized.dump();
  EXPECT_EQ(Unsized["depends_on"], nlohmann::json::array({"other"}));
}

TEST_F(CostProjectTest, AVaryingBatchCostsACompilationPerShapeOncePerRun) {
  write("a.cc", R"(#include <mlperf/rt/runtime.h>
#include <algorithm>
#include <vector>
using namespace mlperf::rt;
int main(int argc, char **) {
  auto backend = Backend::create();
  Exec exec(backend, [](Graph &g, Node x) { return relu(x); });
  std::vector<float> data(1000 * 16);
  const int64_t n = 1000, batch = 64;
  for (int64_t i = 0; i < n; i += batch) {
    int64_t rows = std::min(batch, n - i);
    exec.run(Tensor::from_host(backend, data, Shape{rows, 16}))[0].finalize();
  }
  int64_t served = 0, limit = argc;
  while (served < n) {
    int64_t queued = std::min<int64_t>(32, 1 + served % 37);
    exec.run(Tensor::from_host(backend, data, Shape{queued, 16}))[0].finalize();
    served += queued;
  }
  while (served < 2 * n) {
    int64_t queued = std::min<int64_t>(limit, 1 + served % 37);
    exec.run(Tensor::from_host(backend, data, Shape{queued, 16}))[0].finalize();
    served += queued;
  }
}
)");
  ProcessResult R =
      lint({"--no-cache", "--device=h100-pcie", "--format=json", "--checks=-*,mlperf-variable-batch-shape", "a.cc",
            "--", "-std=c++20", "-I" MLPERF_SOURCE_DIR "/runtime/include"});
  auto J = nlohmann::json::parse(R.Out);
  ASSERT_EQ(J["diagnostics"].size(), 3u) << R.Out << R.Err;
  // Stepping by the cap: the full batch and the remainder, one shape more than the fix.
  const auto &Stepped = J["diagnostics"][0]["cost"];
  EXPECT_FALSE(Stepped["per_step"].get<bool>()) << Stepped.dump();
  EXPECT_EQ(Stepped["events"]["compilations"], 1) << Stepped.dump();
  EXPECT_DOUBLE_EQ(Stepped["per_run_seconds"].get<double>(), 0.5);
  // Whatever is queued, up to 32 rows: up to 31 shapes more.
  EXPECT_EQ(J["diagnostics"][1]["cost"]["events"]["compilations"], 31) << J["diagnostics"][1].dump();
  // A cap the code does not state: no estimate.
  EXPECT_EQ(J["diagnostics"][2].count("cost"), 0u) << J["diagnostics"][2].dump();
}

class CostReportTest : public ProjectTest {
protected:
  /// Two sync loops: 10 steps (line 6), then 100,000 steps (line 12).
  void SetUp() override {
    ProjectTest::SetUp();
    write("a.cc", syncLoopSource() + "void g(void *k) {\n"
                                     "  for (int i = 0; i < 100000; ++i) {\n"
                                     "    cuLaunchKernel(k);\n"
                                     "    cudaDeviceSynchronize();\n"
                                     "  }\n"
                                     "}\n");
  }
  ProcessResult run(std::vector<std::string> Args) {
    Args.insert(Args.end(), {"--no-cache", "a.cc", "--", "-std=c++17"});
    return lint(Args);
  }
};

TEST_F(CostReportTest, TextNoteJsonAndSarifCarryTheEstimate) {
  ProcessResult T = run({"--device=h100-pcie"});
  EXPECT_EQ(T.Exit, 1) << T.Err;
  EXPECT_NE(T.Out.find("note: ≈ 20 µs per step on h100-pcie: 1 sync (20 µs); ≈ 2 s over 100,000 steps"),
            std::string::npos)
      << T.Out;
  ProcessResult J = run({"--device=h100-pcie", "--format=json"});
  auto Doc = nlohmann::json::parse(J.Out);
  ASSERT_EQ(Doc["diagnostics"].size(), 2u) << J.Out;
  const auto &Cost = Doc["diagnostics"][1]["cost"];
  EXPECT_EQ(Cost["device"], "h100-pcie");
  EXPECT_DOUBLE_EQ(Cost["per_step_seconds"].get<double>(), 20e-6);
  EXPECT_EQ(Cost["steps"], 100000);
  EXPECT_DOUBLE_EQ(Cost["per_run_seconds"].get<double>(), 2.0);
  EXPECT_FALSE(Cost["lower_bound"].get<bool>());
  ProcessResult S = run({"--device=h100-pcie", "--format=sarif"});
  auto Sarif = nlohmann::json::parse(S.Out);
  const auto &Results = Sarif["runs"][0]["results"];
  ASSERT_EQ(Results.size(), 2u);
  EXPECT_GT(Results[1]["rank"].get<double>(), Results[0]["rank"].get<double>());
  EXPECT_EQ(Results[1]["properties"]["cost"]["steps"], 100000);
}

TEST_F(CostReportTest, MinCostAndSortByCost) {
  ProcessResult All = run({"--device=h100-pcie"});
  EXPECT_LT(All.Out.find("a.cc:6:5: warning:"), All.Out.find("a.cc:12:5: warning:")) << All.Out;
  ProcessResult Sorted = run({"--device=h100-pcie", "--sort=cost"});
  EXPECT_LT(Sorted.Out.find("a.cc:12:5: warning:"), Sorted.Out.find("a.cc:6:5: warning:")) << Sorted.Out;
  // 0.2 ms over the first loop, 2 s over the second.
  ProcessResult Costly = run({"--device=h100-pcie", "--min-cost=1s"});
  EXPECT_EQ(count(Costly.Out, "warning:"), 1u) << Costly.Out;
  EXPECT_NE(Costly.Out.find("a.cc:12:5: warning:"), std::string::npos) << Costly.Out;
  ProcessResult Bad = run({"--min-cost=soon"});
  EXPECT_EQ(Bad.Exit, 2);
  EXPECT_NE(Bad.Err.find("--min-cost: 'soon' is not a duration"), std::string::npos) << Bad.Err;
  ProcessResult BadSort = run({"--sort=size"});
  EXPECT_EQ(BadSort.Exit, 2);
}

TEST_F(CostReportTest, DeviceIsChosenOrRefusedInOneLine) {
  ProcessResult Unknown = run({"--device=tpu-v9"});
  EXPECT_EQ(Unknown.Exit, 2);
  EXPECT_EQ(count(Unknown.Err, "\n"), 1u) << Unknown.Err;
  EXPECT_NE(Unknown.Err.find("--device=tpu-v9: no such device model"), std::string::npos) << Unknown.Err;
  write("bad.json", "{\"name\": \"x\"}");
  ProcessResult Bad = run({"--device=bad.json"});
  EXPECT_EQ(Bad.Exit, 2);
  EXPECT_NE(Bad.Err.find("bad.json: invalid device model: "), std::string::npos) << Bad.Err;
  // Without --device: the measured local model when there is one, else the generic PCIe 4 GPU.
  std::string Local = readFile(MLPERF_SOURCE_DIR "/profiles/devices/h200.json");
  write("local.json", Local.replace(Local.find("\"h200\""), 6, "\"this-box\""));
  ProcessResult Measured = runProcess(MLPERF_LINT_BINARY, {"--no-cache", "a.cc", "--", "-std=c++17"}, Root,
                                      {{"MLPERF_LINT_DEVICE", Root + "/local.json"}});
  EXPECT_NE(Measured.Out.find("per step on this-box"), std::string::npos) << Measured.Out << Measured.Err;
  ProcessResult None = run({"--device=none", "--format=json"});
  EXPECT_EQ(nlohmann::json::parse(None.Out)["diagnostics"][0].count("cost"), 0u) << None.Out;
  EXPECT_EQ(None.Out.find("per step on"), std::string::npos) << None.Out;
  ProcessResult Generic = runProcess(MLPERF_LINT_BINARY, {"--no-cache", "a.cc", "--", "-std=c++17"}, Root,
                                     {{"MLPERF_LINT_DEVICE", Root + "/absent.json"}});
  EXPECT_NE(Generic.Out.find("per step on generic-pcie4-gpu"), std::string::npos) << Generic.Out << Generic.Err;
}

TEST_F(CostReportTest, HtmlPutsTheCostliestFirst) {
  ProcessResult H = run({"--device=h100-pcie", "--format=html"});
  EXPECT_EQ(H.Exit, 1) << H.Err;
  EXPECT_NE(H.Out.find("a fix saves (estimate per run, or per step where the steps are not known)"), std::string::npos);
  EXPECT_LT(H.Out.find("a.cc:12:5"), H.Out.find("a.cc:6:5")) << "the 100,000-step loop first";
  EXPECT_NE(H.Out.find("<td class=\"t\">\u2248 2 s on h100-pcie</td>"), std::string::npos)
      << "both loops' steps are known: a cost per run";
  // A loop whose steps are not known adds a cost per step: the sum says so.
  write("a.cc", readFile(Root + "/a.cc") + "void h(void *k, int n) {\n  for (int i = 0; i < n; ++i) {\n"
                                           "    cuLaunchKernel(k);\n    cudaDeviceSynchronize();\n  }\n}\n");
  ProcessResult Mixed = run({"--device=h100-pcie", "--format=html"});
  EXPECT_NE(Mixed.Out.find(" per step on h100-pcie</td>"), std::string::npos) << Mixed.Out;
}

} // namespace
} // namespace mlperf::test
