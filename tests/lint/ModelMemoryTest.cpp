// mlperf-model-memory against the runtime: the estimate of a training step
// stays within 25% of the peak device memory the fixture programs measure, and
// under a device memory limit the F32 model runs out of memory where the F16
// one fits. Counters, not times.
#include "LintTestSupport.h"
#include "ModelMemoryCheck.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace mlperf::test {
namespace {

using clang::tidy::mlperf::ModelMemoryCheck;

const char *const Programs[] = {"bad", "good", "sgd_bad", "sgd_good"};

std::string fixturePath(const std::string &Stem) {
  return std::string(MLPERF_SOURCE_DIR) + "/fixtures/model-memory/" + Stem + ".cc";
}

/// The fixture programs, built next to mlperf-lint (build/fixtures/bin).
std::string programPath(const std::string &Stem) {
  llvm::StringRef Build = llvm::sys::path::parent_path(llvm::sys::path::parent_path(MLPERF_LINT_BINARY));
  return (Build + "/fixtures/bin/fx_model-memory_" + Stem).str();
}

/// The check's estimate in bytes, from its verbose breakdown.
std::optional<double> estimatedBytes(const std::string &Stem) {
  std::string Error;
  Fixture F = parseFixture(fixturePath(Stem), Error);
  EXPECT_TRUE(Error.empty()) << Error;
  auto Errors = runChecks(F.Path, F.Source, "-*,mlperf-model-memory",
                          {{"mlperf-model-memory.DeviceMemory", "1KiB"}, {"mlperf-model-memory.Verbose", "true"}},
                          fixtureArgs(false, true));
  for (const auto &E : Errors)
    for (const auto &N : E.Notes)
      if (llvm::StringRef M(N.Message); M.consume_front("estimate: total ")) {
        double Bytes;
        if (!M.split('(').second.split(' ').first.getAsDouble(Bytes))
          return Bytes;
      }
  return std::nullopt;
}

std::vector<std::string> backends() {
  std::vector<std::string> B = {"reference"};
#ifdef MLPERF_HAVE_CPU_BACKEND
  B.push_back("cpu");
#endif
  return B;
}

nlohmann::json lastReport(const std::string &Out) {
  size_t Start = Out.rfind("\n{");
  return nlohmann::json::parse(Out.substr(Start == std::string::npos ? 0 : Start + 1), nullptr, false);
}

TEST(ModelMemoryTest, EstimateIsWithinAQuarterOfTheMeasuredPeak) {
  for (const char *Stem : Programs) {
    std::optional<double> Estimate = estimatedBytes(Stem);
    ASSERT_TRUE(Estimate) << Stem << ": no estimate reported";
    for (const std::string &Backend : backends()) {
      ProcessResult R = runProcess(programPath(Stem), {"--steps", "2"}, "", {{"MLPERF_BACKEND", Backend}});
      ASSERT_EQ(R.Exit, 0) << Stem << " on " << Backend << ": " << R.Err;
      nlohmann::json J = lastReport(R.Out);
      ASSERT_TRUE(J.is_object() && J["stats"]["peak_bytes"].is_number()) << R.Out;
      double Peak = J["stats"]["peak_bytes"].get<double>();
      EXPECT_NEAR(*Estimate / Peak, 1.0, 0.25)
          << Stem << " on " << Backend << ": estimated " << *Estimate << " bytes, measured " << Peak;
    }
  }
}

TEST(ModelMemoryTest, F32RunsOutOfDeviceMemoryWhereF16Fits) {
  const std::string Limit = "32MiB";
  for (const std::string &Backend : backends()) {
    std::vector<std::pair<std::string, std::string>> Env = {{"MLPERF_BACKEND", Backend},
                                                            {"MLPERF_DEVICE_MEMORY_LIMIT", Limit}};
    ProcessResult F32 = runProcess(programPath("bad"), {"--steps", "2"}, "", Env);
    EXPECT_NE(F32.Exit, 0) << Backend << ": the F32 model fits under " << Limit;
    EXPECT_NE(F32.Err.find("out of device memory"), std::string::npos) << Backend << ": " << F32.Err;
    ProcessResult F16 = runProcess(programPath("good"), {"--steps", "2"}, "", Env);
    ASSERT_EQ(F16.Exit, 0) << Backend << ": " << F16.Err;
    nlohmann::json J = lastReport(F16.Out);
    ASSERT_TRUE(J.is_object()) << F16.Out;
    EXPECT_LE(J["stats"]["peak_bytes"].get<double>(), 32.0 * 1024 * 1024);
    EXPECT_EQ(J["stats"]["memory_limit"].get<double>(), 32.0 * 1024 * 1024);
  }
}

TEST(ModelMemoryTest, DeviceMemoryReadsSizesWithBinaryUnits) {
  EXPECT_EQ(ModelMemoryCheck::parseByteSize("16GiB"), 16ull << 30);
  EXPECT_EQ(ModelMemoryCheck::parseByteSize("16G"), 16ull << 30);
  EXPECT_EQ(ModelMemoryCheck::parseByteSize("16gb"), 16ull << 30);
  EXPECT_EQ(ModelMemoryCheck::parseByteSize(" 512 MiB "), 512ull << 20);
  EXPECT_EQ(ModelMemoryCheck::parseByteSize("1.5K"), 1536u);
  EXPECT_EQ(ModelMemoryCheck::parseByteSize("1000000"), 1000000u);
  EXPECT_EQ(ModelMemoryCheck::parseByteSize("80B"), 80u);
  for (const char *Bad : {"", "GiB", "16 GiBs", "-1G", "0", "1e9", "16 PiB", "1..5G", "sixteen"})
    EXPECT_EQ(ModelMemoryCheck::parseByteSize(Bad), std::nullopt) << Bad;
}

TEST(ModelMemoryTest, MalformedOptionsAreReportedByName) {
  ProcessResult R = runProcess(MLPERF_LINT_BINARY,
                               {"--checks=-*,mlperf-model-memory",
                                "--config={CheckOptions: {mlperf-model-memory.DeviceMemory: 16 GiBs, "
                                "mlperf-model-memory.Fraction: 1.5}}",
                                fixturePath("good"), "--", "-std=c++20", "-I" MLPERF_SOURCE_DIR "/runtime/include",
                                "-I" MLPERF_SOURCE_DIR "/fixtures/common"});
  std::string All = R.Out + R.Err;
  EXPECT_NE(All.find("invalid value '16 GiBs' for option 'mlperf-model-memory.DeviceMemory': expected a size such "
                     "as 16GiB"),
            std::string::npos)
      << All;
  EXPECT_NE(All.find("invalid value '1.5' for option 'mlperf-model-memory.Fraction'"), std::string::npos) << All;
}

TEST(ModelMemoryTest, ProfileKeysAreValidated) {
  struct Case {
    std::string Json, Want;
  } Cases[] = {
      {R"({"role": "optimizer-state", "constructs": "O"})", "role 'optimizer-state' needs 'state_copies'"},
      {R"({"role": "optimizer-state", "constructs": "O", "state_copies": 9})",
       "'state_copies' must be a number of copies from 0 to 8, not 9"},
      {R"({"role": "optimizer-state", "constructs": "O", "state_copies": 0, "out_of_place": 1})",
       "'out_of_place' must be true or false, not 1"},
      {R"({"role": "layer", "constructs": "L", "size_args": [0], "momentum_arg": 1})",
       "'momentum_arg' does not apply to role 'layer'"},
      {R"({"role": "layer", "constructs": "L", "size_args": [0], "output_arg": 8})",
       "'output_arg' must be an argument index from 0 to 7, not 8"},
  };
  for (const Case &C : Cases) {
    clang::tidy::mlperf::ApiProfiles P;
    std::string Error = llvm::toString(P.addJson(R"({"name": "t", "entries": [)" + C.Json + "]}", "my.json"));
    EXPECT_NE(Error.find(C.Want), std::string::npos) << Error;
  }
  for (auto [Memory, Want] : std::initializer_list<std::pair<std::string, std::string>>{
           {R"({"dtype_bytes": {"F16": "two"}})", "'memory': 'dtype_bytes.F16' must be a size in bytes from 1 to 16"},
           {R"({"bytes": 4})", "'memory': unknown key 'bytes'"},
           {R"("4 bytes")", "'memory' must be an object with"}}) {
    clang::tidy::mlperf::ApiProfiles P;
    std::string Error =
        llvm::toString(P.addJson(R"({"name": "t", "entries": [], "memory": )" + Memory + "}", "my.json"));
    EXPECT_NE(Error.find(Want), std::string::npos) << Error;
  }
}

TEST(ModelMemoryTest, ListedExplainedAndInThePlugin) {
  ProcessResult L = runProcess(MLPERF_LINT_BINARY, {"--list-checks"});
  EXPECT_NE(L.Out.find("mlperf-model-memory  [on]"), std::string::npos) << L.Out;
  ProcessResult E = runProcess(MLPERF_LINT_BINARY, {"--explain=mlperf-model-memory"});
  EXPECT_EQ(E.Out, readFile(MLPERF_SOURCE_DIR "/docs/checks/model-memory.md"));
  if (!llvm::sys::fs::exists(MLPERF_CLANG_TIDY))
    GTEST_SKIP() << "clang-tidy-19 not installed (apt-get install clang-tidy-19)";
  std::vector<std::string> Args = {"--load=" MLPERF_PLUGIN, "--checks=-*,mlperf-model-memory",
                                   "--config={CheckOptions: {mlperf-model-memory.DeviceMemory: 48MiB}}",
                                   fixturePath("bad"), "--"};
  for (const std::string &A : fixtureArgs(false, true))
    Args.push_back(A);
  ProcessResult Tidy = runProcess(MLPERF_CLANG_TIDY, Args);
  EXPECT_NE(Tidy.Out.find("bad.cc:25:31: warning: one training step of this model needs about 41.4 MiB"),
            std::string::npos)
      << Tidy.Out << Tidy.Err;
}

} // namespace
} // namespace mlperf::test
