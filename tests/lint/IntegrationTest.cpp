// The ways in besides the plain command line: headers as C++ (what a
// pre-commit run on staged headers does), and the pre-commit hook itself,
// run by Debian's pre-commit in a throwaway git repository.
#include "IntegrationSupport.h"

#include "llvm/Support/Program.h"

namespace mlperf::test {
namespace {

std::string headerSource() {
  // C++ only: a namespace and a template, which a C parse rejects.
  return "#pragma once\nnamespace model { template <class T> T twice(T x) { return x + x; } }\n" + syncLoopSource();
}

class HeaderTest : public ProjectTest {};

TEST_F(HeaderTest, HeadersParseAsCxxWithFallbackFlags) {
  for (const char *Name : {"model.h", "model.hh", "model.hpp"}) {
    write(Name, headerSource());
    ProcessResult R = lint({"--quiet", Name});
    EXPECT_EQ(R.Exit, 1) << Name << "\n" << R.Err << R.Out;
    EXPECT_EQ(R.Err.find("not allowed with 'C'"), std::string::npos) << R.Err;
    EXPECT_NE(R.Out.find(std::string(Name) + ":8:5: warning:"), std::string::npos) << R.Out;
    EXPECT_NE(R.Out.find("[mlperf-sync-in-loop]"), std::string::npos) << R.Out;
    // Under --quiet too, once: the reason a project header would not be found.
    EXPECT_EQ(count(R.Err, "no compilation database found; using fallback flags"), 1u) << R.Err;
  }
}

TEST_F(HeaderTest, HeadersParseAsCxxWithGivenFlagsAndFromDirectories) {
  write("include/model.h", headerSource());
  ProcessResult Given = lint({"include/model.h", "--", "-std=c++20"});
  EXPECT_EQ(Given.Exit, 1) << Given.Err;
  EXPECT_EQ(Given.Err.find("not allowed with 'C'"), std::string::npos) << Given.Err;
  ProcessResult Walked = lint({"--headers", "--format=json", "include"});
  EXPECT_EQ(Walked.Exit, 1) << Walked.Err;
  EXPECT_NE(Walked.Out.find("mlperf-sync-in-loop"), std::string::npos) << Walked.Out;
  // A database that compiles the project as C++ covers its headers too.
  write("build/compile_commands.json", "[{\"directory\": \"" + Root + "\", \"file\": \"main.cc\", " +
                                           "\"command\": \"clang++ -std=c++20 -c main.cc\"}]");
  write("main.cc", "#include \"include/model.h\"\n");
  ProcessResult Db = lint({"include/model.h"});
  EXPECT_EQ(Db.Exit, 1) << Db.Err;
  EXPECT_EQ(Db.Err.find("not allowed with 'C'"), std::string::npos) << Db.Err;
}

TEST_F(HeaderTest, CHeadersOfACProjectStayC) {
  write("c/api.h", "int add(int a, int b);\n");
  ProcessResult R = lint({"c/api.h", "--", "-std=c11"});
  EXPECT_EQ(R.Exit, 0) << R.Err;
}

/// The PATH the hook sees: the freshly built mlperf-lint first.
std::string hookPath() {
  llvm::StringRef Bin = llvm::sys::path::parent_path(MLPERF_LINT_BINARY);
  const char *Path = std::getenv("PATH");
  return Bin.str() + ":" + (Path ? Path : "/usr/bin:/bin");
}

class PreCommitTest : public ProjectTest {
protected:
  void SetUp() override {
    ProjectTest::SetUp();
    auto PreCommit = llvm::sys::findProgramByName("pre-commit");
    auto Git = llvm::sys::findProgramByName("git");
    if (!PreCommit || !Git)
      GTEST_SKIP() << "pre-commit or git is not installed (scripts/setup.sh installs both)";
    PreCommitBin = *PreCommit;
    GitBin = *Git;
    ProcessResult Rev = runProcess(GitBin, {"-C", MLPERF_SOURCE_DIR, "rev-parse", "HEAD"});
    if (Rev.Exit != 0)
      GTEST_SKIP() << MLPERF_SOURCE_DIR << " is not a git checkout: " << Rev.Err;
    SourceRev = llvm::StringRef(Rev.Out).trim().str();
    Env = {{"PATH", hookPath()},
           {"HOME", Root},
           {"PRE_COMMIT_HOME", Root + "/pre-commit-cache"},
           {"GIT_CONFIG_NOSYSTEM", "1"}};
    ASSERT_EQ(git({"init", "-q", "repo"}, "").Exit, 0);
    git({"config", "user.email", "dev@example.com"});
    git({"config", "user.name", "Dev"});
  }
  ProcessResult git(const std::vector<std::string> &Args, const std::string &Dir = "repo") {
    return runProcess(GitBin, Args, Root + "/" + Dir, Env);
  }
  std::string PreCommitBin, GitBin, SourceRev;
  std::vector<std::pair<std::string, std::string>> Env;
};

TEST_F(PreCommitTest, HookBlocksACommitWithAFindingInAHeader) {
  // The README's .pre-commit-config.yaml, with this checkout as the repo.
  write("repo/.pre-commit-config.yaml", "repos:\n"
                                        "  - repo: " MLPERF_SOURCE_DIR "\n"
                                        "    rev: " +
                                            SourceRev +
                                            "\n"
                                            "    hooks:\n"
                                            "      - id: mlperf-lint\n"
                                            "        args: [--extra-arg=-DMODEL_CONFIG=1]\n");
  write("repo/src/model.h", headerSource());
  ASSERT_EQ(git({"add", "."}).Exit, 0);
  ProcessResult Install = runProcess(PreCommitBin, {"install"}, Root + "/repo", Env);
  ASSERT_EQ(Install.Exit, 0) << Install.Out << Install.Err;

  ProcessResult Blocked = git({"commit", "-q", "-m", "model"});
  std::string Log = Blocked.Out + Blocked.Err;
  EXPECT_NE(Blocked.Exit, 0) << Log;
  EXPECT_NE(Log.find("mlperf-lint"), std::string::npos) << Log;
  EXPECT_NE(Log.find("src/model.h:8:5: warning:"), std::string::npos) << Log;
  EXPECT_NE(Log.find("[mlperf-sync-in-loop]"), std::string::npos) << Log;
  EXPECT_EQ(Log.find("not allowed with 'C'"), std::string::npos) << Log;
  EXPECT_EQ(count(Log, "no compilation database found; using fallback flags"), 1u) << Log;

  std::string Fixed = headerSource();
  const std::string InLoop = "    cudaDeviceSynchronize();\n  }\n";
  Fixed.replace(Fixed.find(InLoop), InLoop.size(), "  }\n  cudaDeviceSynchronize();\n");
  write("repo/src/model.h", Fixed);
  ASSERT_EQ(git({"add", "."}).Exit, 0);
  ProcessResult Passed = git({"commit", "-q", "-m", "model"});
  EXPECT_EQ(Passed.Exit, 0) << Passed.Out << Passed.Err;
  EXPECT_EQ(git({"rev-list", "--count", "HEAD"}).Out, "1\n");
}

} // namespace
} // namespace mlperf::test

namespace mlperf::test {
namespace {

class StreamingTest : public ProjectTest {};

TEST_F(StreamingTest, QuietSilencesClangsCounts) {
  write("w.cc", "#warning from the preprocessor\nint x;\n");
  ProcessResult Loud = lint({"w.cc", "--", "-std=c++17"});
  EXPECT_EQ(Loud.Exit, 0) << Loud.Err;
  EXPECT_NE(Loud.Err.find("1 warning generated."), std::string::npos) << Loud.Err;
  EXPECT_NE(Loud.Err.find("Suppressed 1 warnings (1 with check filters).\n"), std::string::npos) << Loud.Err;
  ProcessResult Quiet = lint({"--quiet", "w.cc", "--", "-std=c++17"});
  EXPECT_EQ(Quiet.Exit, 0);
  EXPECT_EQ(Quiet.Err, "");
  // The other way round: what a quiet run stored still has clang's counts, and
  // a run that prints them replays them.
  write("v.cc", "#warning from the preprocessor\nint y;\n");
  EXPECT_EQ(lint({"--quiet", "v.cc", "--", "-std=c++17"}).Err, "");
  ProcessResult Replayed = lint({"v.cc", "--", "-std=c++17"});
  EXPECT_NE(Replayed.Err.find("1 of 1 file(s) from the result cache"), std::string::npos) << Replayed.Err;
  EXPECT_NE(Replayed.Err.find("1 warning generated."), std::string::npos) << Replayed.Err;
}

TEST_F(StreamingTest, HeaderFindingsDroppedByTheFilterAreCounted) {
  // A vendored header: the project's own headers are reported by default.
  write("third_party/lib/model.h", headerSource());
  write("main.cc", "#include \"third_party/lib/model.h\"\n");
  ProcessResult Filtered = lint({"main.cc", "--", "-std=c++17"});
  EXPECT_EQ(Filtered.Exit, 0) << Filtered.Err;
  EXPECT_EQ(Filtered.Out, "");
  EXPECT_NE(Filtered.Err.find("Suppressed 1 warnings (1 in non-user code).\n"
                              "Use -header-filter=.* to display errors from all non-system headers."),
            std::string::npos)
      << Filtered.Err;
  ProcessResult Shown = lint({"--header-filter=.*", "main.cc", "--", "-std=c++17"});
  EXPECT_EQ(Shown.Exit, 1);
  EXPECT_NE(Shown.Out.find("model.h:8:5: warning:"), std::string::npos) << Shown.Out;
  EXPECT_EQ(Shown.Err.find("Suppressed"), std::string::npos) << Shown.Err;
}

TEST_F(StreamingTest, ALintedFileAnotherIncludesReportsOnlyItsOwnFindings) {
  // llm.c's test_gpt2.cu includes train_gpt2.cu and calls its step in a loop
  // of its own: the step's wait is reported in the library file when the test
  // program alone is linted, and not when the library file is linted too (it
  // is its own translation unit, whose program calls the step once).
  auto Library = [](const char *Calls) {
    return std::string("extern \"C\" int cudaDeviceSynchronize();\n"
                       "extern \"C\" int cuLaunchKernel(void *f);\n"
                       "void step(void *k) {\n"
                       "  cuLaunchKernel(k);\n"
                       "  cudaDeviceSynchronize();\n"
                       "}\n"
                       "#ifndef TESTING\n"
                       "int main() { ") +
           Calls + " }\n#endif\n";
  };
  const std::string Test = "#define TESTING\n#include \"lib.cc\"\n"
                           "int main() { for (int i = 0; i < 10; ++i) step(nullptr); }\n";
  write("once/lib.cc", Library("step(nullptr);"));
  write("once/test.cc", Test);
  ProcessResult Alone = lint({"once/test.cc", "--", "-std=c++17"});
  EXPECT_EQ(Alone.Exit, 1) << Alone.Err;
  EXPECT_NE(Alone.Out.find("lib.cc:5:3: warning:"), std::string::npos) << Alone.Out;
  ProcessResult Both = lint({"once/test.cc", "once/lib.cc", "--", "-std=c++17"});
  EXPECT_EQ(Both.Out.find("lib.cc:5:3"), std::string::npos) << Both.Out;
  EXPECT_EQ(Both.Out, lint({"once/lib.cc", "--", "-std=c++17"}).Out);
  // The library's own program steps in a loop: its own finding, once, though
  // the including file comes first.
  write("loop/lib.cc", Library("for (int i = 0; i < 10; ++i) step(nullptr);"));
  write("loop/test.cc", Test);
  ProcessResult Own = lint({"loop/test.cc", "loop/lib.cc", "--", "-std=c++17"});
  EXPECT_EQ(Own.Exit, 1) << Own.Err;
  EXPECT_EQ(count(Own.Out, "lib.cc:5:3: warning:"), 1u) << Own.Out;
}

TEST_F(StreamingTest, FindingsComeInInputOrderWhenNotATerminal) {
  std::vector<std::string> Files;
  for (const char *Name : {"c.cc", "a.cc", "b.cc", "d.cc"}) {
    write(Name, syncLoopSource());
    Files.push_back(Name);
  }
  std::vector<std::string> Args = {"-j4", "a.cc", "b.cc", "c.cc", "d.cc", "--", "-std=c++17"};
  ProcessResult R = lint(Args);
  EXPECT_EQ(R.Exit, 1) << R.Err;
  size_t A = R.Out.find("a.cc:6:5"), B = R.Out.find("b.cc:6:5"), C = R.Out.find("c.cc:6:5"), D = R.Out.find("d.cc:6:5");
  ASSERT_NE(D, std::string::npos) << R.Out;
  EXPECT_LT(A, B);
  EXPECT_LT(B, C);
  EXPECT_LT(C, D);
  Args[0] = "-j1";
  EXPECT_EQ(lint(Args).Out, R.Out) << "the same report whatever the parallelism";
}

TEST_F(StreamingTest, ProgressLineOnATerminal) {
  auto Script = llvm::sys::findProgramByName("script");
  if (!Script)
    GTEST_SKIP() << "util-linux's script (a pseudo-terminal) is not installed";
  write("src/a.cc", syncLoopSource());
  write("src/b.cc", "int clean;\n");
  std::string Command = std::string(MLPERF_LINT_BINARY) + " -j1 --use-color=false src/a.cc src/b.cc -- -std=c++17";
  ProcessResult R = runProcess(*Script, {"-q", "-e", "-c", Command, "/dev/null"}, Root);
  EXPECT_EQ(R.Exit, 1) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("[1/2] src/a.cc \u2014 1 finding, "), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("[2/2] src/b.cc \u2014 0 findings, 0:00 left"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("src/a.cc:6:5: warning:"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("warning generated"), std::string::npos) << R.Out;
  std::string Colored = std::string(MLPERF_LINT_BINARY) + " src/a.cc -- -std=c++17";
  ProcessResult C = runProcess(*Script, {"-q", "-e", "-c", Colored, "/dev/null"}, Root);
  EXPECT_NE(C.Out.find("\x1b["), std::string::npos) << "colors by default on a terminal";
}

} // namespace
} // namespace mlperf::test
