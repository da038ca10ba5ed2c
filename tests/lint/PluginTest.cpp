// The same checks loaded into the real clang-tidy-19 give the driver's findings.
#include "LintTestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

namespace mlperf::test {
namespace {

std::set<std::string> tidyFindings(const std::string &Out) {
  std::set<std::string> Found;
  llvm::Regex Line("^[^ ]*:([0-9]+):([0-9]+): warning: .* \\[(mlperf-[a-z0-9-]+)\\]$");
  llvm::SmallVector<llvm::StringRef, 4> M;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  llvm::StringRef(Out).split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (Line.match(L, &M))
      Found.insert((M[1] + ":" + M[2] + " " + M[3]).str());
  return Found;
}

TEST(PluginTest, ClangTidyWithPluginMatchesDriver) {
  if (!llvm::sys::fs::exists(MLPERF_CLANG_TIDY))
    GTEST_SKIP() << "clang-tidy-19 not installed (apt-get install clang-tidy-19)";
  if (!torchAvailable())
    GTEST_SKIP() << "libtorch headers not found (install libtorch-dev)";
  std::string File = MLPERF_SOURCE_DIR "/examples/train_loop.cc";
  std::vector<std::string> Args = fixtureArgs(/*NeedsTorch=*/true);

  std::vector<std::string> TidyArgs = {"--load=" MLPERF_PLUGIN, "--checks=-*,mlperf-*", File, "--"};
  TidyArgs.insert(TidyArgs.end(), Args.begin(), Args.end());
  ProcessResult Tidy = runProcess(MLPERF_CLANG_TIDY, TidyArgs);
  ASSERT_NE(Tidy.Exit, 127) << Tidy.Err;
  std::set<std::string> FromTidy = tidyFindings(Tidy.Out);

  std::vector<std::string> LintArgs = {"--checks=-*,mlperf-*", "--format=json", File, "--"};
  LintArgs.insert(LintArgs.end(), Args.begin(), Args.end());
  ProcessResult Lint = runProcess(MLPERF_LINT_BINARY, LintArgs);
  ASSERT_EQ(Lint.Exit, 1) << Lint.Err;
  std::set<std::string> FromLint;
  nlohmann::json Report = nlohmann::json::parse(Lint.Out);
  for (const auto &D : Report["diagnostics"])
    FromLint.insert(std::to_string(D["line"].get<int>()) + ":" + std::to_string(D["column"].get<int>()) + " " +
                    D["check"].get<std::string>());
  EXPECT_GE(FromLint.size(), 5u);
  EXPECT_EQ(FromTidy, FromLint) << "clang-tidy said:\n" << Tidy.Out << Tidy.Err;
}

} // namespace
} // namespace mlperf::test
