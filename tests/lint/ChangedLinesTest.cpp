// Reporting less than everything: clang-tidy's --line-filter, --diff against
// a git ref, and baselines matched by check, file and line text.
#include "IntegrationSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <nlohmann/json.hpp>

namespace mlperf::test {
namespace {

/// The sync loop again, in a second function (its finding on line 14 when
/// appended to syncLoopSource()).
const char *SecondLoop = "\n\nvoid g(void *k) {\n"
                         "  for (int i = 0; i < 3; ++i) {\n"
                         "    cuLaunchKernel(k);\n"
                         "    cudaDeviceSynchronize();\n"
                         "  }\n"
                         "}\n";

class ChangedLinesTest : public ProjectTest {
protected:
  ProcessResult run(std::vector<std::string> Args) {
    Args.insert(Args.end(), {"--", "-std=c++17"});
    return lint(Args);
  }
};

TEST_F(ChangedLinesTest, LineFilterHasClangTidysMeaning) {
  write("a.cc", syncLoopSource());
  ProcessResult Out = run({"--line-filter=[{\"name\":\"a.cc\",\"lines\":[[1,5],[7,9]]}]", "a.cc"});
  EXPECT_EQ(Out.Exit, 0) << Out.Out;
  EXPECT_NE(Out.Err.find("Suppressed 1 warnings (1 due to line filter)."), std::string::npos) << Out.Err;
  ProcessResult In = run({"--line-filter=[{\"name\":\"a.cc\",\"lines\":[[6,6]]}]", "a.cc"});
  EXPECT_EQ(In.Exit, 1);
  EXPECT_NE(In.Out.find("a.cc:6:5: warning:"), std::string::npos);
  EXPECT_EQ(run({"--line-filter=[{\"name\":\"a.cc\"}]", "a.cc"}).Exit, 1) << "a file without lines: all of it";
  EXPECT_EQ(run({"--line-filter=[{\"name\":\"other.cc\"}]", "a.cc"}).Exit, 0) << "files not named: none of them";
  ProcessResult Bad = run({"--line-filter=[{oops", "a.cc"});
  EXPECT_EQ(Bad.Exit, 2);
  EXPECT_NE(Bad.Err.find("--line-filter: invalid JSON"), std::string::npos) << Bad.Err;
}

TEST_F(ChangedLinesTest, DiffReportsOnlyChangedLinesOfChangedFiles) {
  auto Git = llvm::sys::findProgramByName("git");
  if (!Git)
    GTEST_SKIP() << "git is not installed";
  auto G = [&](std::vector<std::string> Args) {
    Args.insert(Args.begin(), {"-c", "user.email=dev@example.com", "-c", "user.name=Dev"});
    return runProcess(*Git, Args, Root);
  };
  ASSERT_EQ(G({"init", "-q", "."}).Exit, 0);
  write("a.cc", syncLoopSource());
  write("b.cc", syncLoopSource());
  write("notes.txt", "not C++\n");
  G({"add", "."});
  ASSERT_EQ(G({"commit", "-q", "-m", "base"}).Exit, 0);
  std::string Base = llvm::StringRef(G({"rev-parse", "HEAD"}).Out).trim().str();

  write("a.cc", "// a new first line\n" + syncLoopSource()); // its finding moves, unchanged
  write("b.cc", syncLoopSource() + SecondLoop);              // a new finding
  write("notes.txt", "still not C++\n");
  ProcessResult R = run({"--diff"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(count(R.Out, "warning:"), 1u) << R.Out;
  EXPECT_NE(R.Out.find("b.cc:14:5: warning:"), std::string::npos) << R.Out;
  EXPECT_NE(R.Err.find("Suppressed 2 warnings (2 due to line filter)."), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("in 2 file(s)"), std::string::npos) << "notes.txt is not linted: " << R.Err;

  G({"commit", "-q", "-am", "more"});
  ProcessResult Clean = run({"--diff"});
  EXPECT_EQ(Clean.Exit, 0) << Clean.Out << Clean.Err;
  EXPECT_EQ(Clean.Out, "");
  ProcessResult SinceBase = run({"--diff=" + Base});
  EXPECT_EQ(SinceBase.Exit, 1);
  EXPECT_EQ(count(SinceBase.Out, "warning:"), 1u) << SinceBase.Out;
  ProcessResult BadRef = run({"--diff=no-such-ref"});
  EXPECT_EQ(BadRef.Exit, 2);
  EXPECT_EQ(BadRef.Err, "mlperf-lint: error: --diff: 'no-such-ref' is not a commit of this repository\n");
}

TEST_F(ChangedLinesTest, DiffReadsAUnifiedDiffOnStandardInput) {
  // No git repository: the diff comes on stdin, as for clang-tidy-diff.
  write("a.cc", syncLoopSource());
  write("b.cc", syncLoopSource() + SecondLoop);
  const std::string Diff = "diff --git a/b.cc b/b.cc\n--- a/b.cc\n+++ b/b.cc\n@@ -12,0 +13,6 @@ void f() {\n"
                           "+void g(void *k) {\n";
  auto Lint = [&](const std::string &Input, std::vector<std::string> Args) {
    Args.insert(Args.end(), {"--", "-std=c++17"});
    return runProcessWithInput(Input, MLPERF_LINT_BINARY, Args, Root);
  };
  for (const char *Option : {"--diff", "--diff=-"}) {
    ProcessResult R = Lint(Diff, {Option});
    EXPECT_EQ(R.Exit, 1) << Option << ": " << R.Err;
    EXPECT_EQ(count(R.Out, "warning:"), 1u) << Option << ": " << R.Out;
    EXPECT_NE(R.Out.find("b.cc:14:5: warning:"), std::string::npos) << Option << ": " << R.Out;
    EXPECT_NE(R.Err.find("in 1 file(s)"), std::string::npos) << "only b.cc is in the diff: " << R.Err;
  }
  ProcessResult Untouched = Lint("--- a/b.cc\n+++ b/b.cc\n@@ -1,0 +2,1 @@\n+// comment\n", {"--diff=-", "b.cc"});
  EXPECT_EQ(Untouched.Exit, 0) << Untouched.Out;
  ProcessResult NotADiff = Lint("hello\n", {"--diff=-"});
  EXPECT_EQ(NotADiff.Exit, 2);
  EXPECT_NE(NotADiff.Err.find("standard input is not a unified diff"), std::string::npos) << NotADiff.Err;
  ProcessResult Empty = Lint("", {"--diff"});
  EXPECT_EQ(Empty.Exit, 2) << "nothing piped in: git is asked, and this is no repository";
  EXPECT_NE(Empty.Err.find("--diff: git"), std::string::npos) << Empty.Err;
}

TEST_F(ChangedLinesTest, BaselineMatchesByTextNotLineNumber) {
  write("a.cc", syncLoopSource());
  write("b.cc", syncLoopSource());
  ProcessResult Write = run({"--write-baseline=base.json", "a.cc", "b.cc"});
  EXPECT_EQ(Write.Exit, 1) << "writing a baseline still reports: " << Write.Err;
  EXPECT_NE(Write.Err.find("wrote 2 finding(s) to the baseline base.json"), std::string::npos) << Write.Err;
  std::string Baseline = readFile(Root + "/base.json");
  auto J = nlohmann::json::parse(Baseline);
  ASSERT_EQ(J["findings"].size(), 2u);
  EXPECT_EQ(J["findings"][0]["file"], "a.cc");
  EXPECT_EQ(J["findings"][0]["check"], "mlperf-sync-in-loop");
  EXPECT_EQ(J["findings"][0]["text"], "cudaDeviceSynchronize();");
  EXPECT_EQ(J["findings"][0]["count"], 1);

  ProcessResult Same = run({"--baseline=base.json", "a.cc", "b.cc"});
  EXPECT_EQ(Same.Exit, 0) << Same.Out;
  EXPECT_NE(Same.Err.find("2 finding(s) hidden by the baseline base.json"), std::string::npos) << Same.Err;

  // Unrelated edits move and reindent the finding: still accepted. A second
  // occurrence of the same text in b.cc is new.
  std::string Moved = "// header comment\n\n" + syncLoopSource();
  Moved.replace(Moved.find("    cudaDeviceSynchronize();"), 28, "\tcudaDeviceSynchronize( );");
  write("a.cc", Moved);
  write("b.cc", syncLoopSource() + SecondLoop);
  ProcessResult New = run({"--baseline=base.json", "a.cc", "b.cc"});
  EXPECT_EQ(New.Exit, 1);
  EXPECT_EQ(count(New.Out, "warning:"), 1u) << New.Out;
  EXPECT_NE(New.Out.find("b.cc:14:5: warning:"), std::string::npos) << New.Out;

  write("a.cc", "void train() {}\n");
  ProcessResult Stale = run({"--baseline=base.json", "a.cc"});
  EXPECT_EQ(Stale.Exit, 0);
  EXPECT_NE(Stale.Err.find("base.json: 1 stale entry no longer found"), std::string::npos) << Stale.Err;
  EXPECT_NE(Stale.Err.find("  stale: a.cc: [mlperf-sync-in-loop] cudaDeviceSynchronize();"), std::string::npos)
      << Stale.Err;
  EXPECT_EQ(readFile(Root + "/base.json"), Baseline) << "only --write-baseline writes the baseline";

  write("broken.json", "{\"findings\": 3}");
  ProcessResult Bad = run({"--baseline=broken.json", "a.cc"});
  EXPECT_EQ(Bad.Exit, 2);
  EXPECT_NE(Bad.Err.find("broken.json: not a mlperf-lint baseline"), std::string::npos) << Bad.Err;
}

TEST_F(ChangedLinesTest, BaselineComposesWithLineFiltersAndPartialRuns) {
  write("a.cc", syncLoopSource());
  write("b.cc", syncLoopSource());
  const std::string OnlyB = "--line-filter=[{\"name\":\"b.cc\"}]";
  ProcessResult Write = run({"--write-baseline=base.json", OnlyB, "a.cc", "b.cc"});
  EXPECT_NE(Write.Err.find("wrote 2 finding(s) to the baseline base.json"), std::string::npos)
      << "a line filter narrows the report, not the baseline: " << Write.Err;

  ProcessResult Filtered = run({"--baseline=base.json", OnlyB, "a.cc", "b.cc"});
  EXPECT_EQ(Filtered.Exit, 0) << Filtered.Out;
  EXPECT_NE(Filtered.Err.find("1 finding(s) hidden by the baseline base.json"), std::string::npos) << Filtered.Err;
  EXPECT_EQ(Filtered.Err.find("stale"), std::string::npos)
      << "a.cc's entry is outside the filter, not stale: " << Filtered.Err;

  // Rewriting the baseline from a run over b.cc alone keeps a.cc's entry.
  write("b.cc", syncLoopSource() + SecondLoop);
  ProcessResult Partial = run({"--write-baseline=base.json", "b.cc"});
  EXPECT_NE(Partial.Err.find("wrote 2 finding(s)"), std::string::npos) << Partial.Err;
  auto J = nlohmann::json::parse(readFile(Root + "/base.json"));
  ASSERT_EQ(J["findings"].size(), 2u) << J.dump();
  EXPECT_EQ(J["findings"][0]["file"], "a.cc");
  EXPECT_EQ(J["findings"][1]["file"], "b.cc");
  EXPECT_EQ(J["findings"][1]["count"], 2);
  EXPECT_EQ(run({"--baseline=base.json", "a.cc", "b.cc"}).Exit, 0);

  // ... unless a.cc is gone.
  ASSERT_FALSE(llvm::sys::fs::remove(Root + "/a.cc"));
  run({"--write-baseline=base.json", "b.cc"});
  J = nlohmann::json::parse(readFile(Root + "/base.json"));
  ASSERT_EQ(J["findings"].size(), 1u) << J.dump();
  EXPECT_EQ(J["findings"][0]["file"], "b.cc");
}

} // namespace
} // namespace mlperf::test
