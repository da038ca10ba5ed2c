// The cost estimate of a finding (docs/cost-model.md): the device models and
// their loader, the facts the checks hand over, the estimate and its note,
// and what the reports and --min-cost/--sort make of it.
#include "IntegrationSupport.h"

#include "findings/CostNotes.h"
#include "report/Cost.h"
#include "support/DeviceModel.h"

#include <nlohmann/json.hpp>

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
  EXPECT_NE(H.Out.find("a fix saves (estimate per run)"), std::string::npos);
  EXPECT_LT(H.Out.find("a.cc:12:5"), H.Out.find("a.cc:6:5")) << "the 100,000-step loop first";
}

} // namespace
} // namespace mlperf::test
