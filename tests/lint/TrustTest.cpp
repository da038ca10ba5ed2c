// Issue 26, the run as a whole: a file with tens of thousands of errors or
// a 70,000-term expression costs what clang-tidy costs, an interrupted tree
// run keeps what it finished, and a cache that cannot be written costs the
// cache, never findings. Inputs are generated; nothing here needs libtorch.
#include "LintTestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/mount.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace mlperf::test {
namespace {

/// A file whose loop synchronizes on every step: one finding (line 6).
std::string syncLoop(const std::string &Name) {
  return "extern \"C\" int cudaDeviceSynchronize();\n"
         "extern \"C\" int cuLaunchKernel(void *f);\n"
         "void " +
         Name +
         "(void *k) {\n"
         "  for (int i = 0; i < 10; ++i) {\n"
         "    cuLaunchKernel(k);\n"
         "    cudaDeviceSynchronize();\n"
         "  }\n"
         "}\n";
}

/// Files under \p Dir whose names contain \p Part.
std::vector<std::string> filesNamed(const std::string &Dir, llvm::StringRef Part) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::sys::path::filename(It->path()).contains(Part))
      Out.push_back(It->path());
  return Out;
}

size_t cacheEntries(const std::string &Dir) {
  size_t N = 0;
  for (const std::string &P : filesNamed(Dir + "/v1", ".json"))
    N += llvm::StringRef(P).ends_with(".json");
  return N;
}

class TrustTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Model, Dir;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Model);
    llvm::sys::path::append(Model, "mlperf-trust");
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory(Model, Dir));
    Root = std::string(Dir);
  }
  void TearDown() override {
    if (!Mounted.empty())
      ::umount2(Mounted.c_str(), MNT_DETACH);
    llvm::sys::fs::remove_directories(Root);
  }
  std::string write(const std::string &Rel, const std::string &Text) {
    std::string Path = Root + "/" + Rel;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::ofstream(Path, std::ios::binary) << Text;
    return Path;
  }
  /// \p N files with one finding each, in tree/.
  void writeTree(int N) {
    for (int I = 0; I < N; ++I)
      write("tree/f" + std::to_string(I) + ".cc", syncLoop("train" + std::to_string(I)));
  }
  ProcessResult lint(std::vector<std::string> Args) {
    Args.insert(Args.end(), {"--", "-std=c++17"});
    return runProcess(MLPERF_LINT_BINARY, Args, Root);
  }
  std::string Root, Mounted;
};

// Error limit ---------------------------------------------------------------

TEST_F(TrustTest, ManyErrorsOnOneLineAreCappedAsClangCapsThem) {
  std::string Line = "void broken() {";
  for (int I = 0; I < 20000; ++I)
    Line += " int x" + std::to_string(I) + " = ;";
  write("errors.cc", syncLoop("train") + Line + " }\n");
  ProcessResult R = lint({"--no-cache", "errors.cc"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  // clang's default -ferror-limit: 20 errors, then one line for the rest;
  // the checks still ran over the file.
  EXPECT_EQ(count(R.Out, "error: expected expression"), 20u);
  EXPECT_NE(R.Out.find("error: too many errors emitted (19980 more not shown; -ferror-limit=0 shows them all)"),
            std::string::npos)
      << R.Out.substr(0, 2000);
  EXPECT_NE(R.Out.find("errors.cc:6:5: warning:"), std::string::npos);
  EXPECT_NE(R.Err.find("20000 errors generated."), std::string::npos) << R.Err;

  // The command's own limit wins; 0 is none.
  R = lint({"--no-cache", "errors.cc", "--extra-arg=-ferror-limit=3"});
  EXPECT_EQ(count(R.Out, "error: expected expression"), 3u);
  EXPECT_NE(R.Out.find("(19997 more not shown"), std::string::npos);
}

TEST_F(TrustTest, ErrorsAfterAMissingHeaderAreCountedAndTheRestIsStillAnalysed) {
  // A braced argument, which no made-up declaration of the name takes: the
  // errors stay (engine/MissingNames.h).
  std::string Calls = "void broken() {";
  for (int I = 0; I < 20000; ++I)
    Calls += " undeclared_fn({" + std::to_string(I) + "});";
  write("missing.cc", "#include <not/installed.h>\n" + syncLoop("train") + Calls + " }\n");
  ProcessResult R = lint({"--no-cache", "missing.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_NE(R.Out.find("missing.cc:7:5: warning:"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("error:"), std::string::npos) << R.Out.substr(0, 2000);
  EXPECT_NE(R.Err.find("missing.cc: 1 include not found (not/installed.h); 20000 compiler errors set aside as "
                       "following from it (the first: missing.cc:10:17: use of undeclared identifier "
                       "'undeclared_fn'); results may be incomplete"),
            std::string::npos)
      << R.Err;
}

TEST_F(TrustTest, AnErrorNoMissingHeaderExplainsIsNamedInTheIncompleteLine) {
  write("h.h", "inline int one() { return 1; }\n}\n");
  write("broken.cc", "#include <not/installed.h>\n#include \"h.h\"\n" + syncLoop("train"));
  ProcessResult R = lint({"--no-cache", "broken.cc"});
  EXPECT_NE(R.Err.find("broken.cc: 1 include not found (not/installed.h); 1 compiler error set aside as following "
                       "from it (h.h:2:1: extraneous closing brace ('}')); results may be incomplete"),
            std::string::npos)
      << R.Err;
}

TEST_F(TrustTest, ASeventyThousandTermExpressionIsLinted) {
  std::string Sum = "int wide(int a) {\n  return a";
  for (int I = 1; I < 70000; ++I)
    Sum += " + a";
  write("wide.cc", syncLoop("train") + Sum + ";\n}\n");
  ProcessResult R = lint({"--no-cache", "wide.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_NE(R.Out.find("wide.cc:6:5: warning:"), std::string::npos) << R.Out;
  EXPECT_NE(R.Err.find("1 finding(s) in 1 file(s)"), std::string::npos) << R.Err;
}

// Found by fuzz/LineFilterFuzzer.cpp: clang's YAML reader of the line filter
// dereferenced a null node for an alias where the list belongs.
TEST_F(TrustTest, ALineFilterThatIsNotJsonIsOneLineNotACrash) {
  writeTree(1);
  for (std::string Filter : {"*\"e", "*x", "&a [1]", "[{name: f0.cc}]"}) {
    ProcessResult R = lint({"--no-cache", "--line-filter=" + Filter, "tree"});
    EXPECT_EQ(R.Exit, 2) << Filter << "\n" << R.Err;
    EXPECT_NE(R.Err.find("--line-filter: invalid JSON"), std::string::npos) << Filter << "\n" << R.Err;
  }
  ProcessResult R = lint({"--no-cache", "--line-filter=[{\"name\":\"f0.cc\",\"lines\":[[6,6]]}]", "tree"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
}

// Found by fuzz/BaselineFuzzer.cpp: a line that is a bare "-" made the
// nesting check of every structured input loop forever.
TEST_F(TrustTest, ABareDashLineInAStructuredInputEndsTheRun) {
  writeTree(1);
  write("dash.json", "-\n");
  write("dash.yaml", "Checks: '*'\n-\n");
  for (std::vector<std::string> Args :
       {std::vector<std::string>{"--baseline=dash.json"}, {"--line-filter=-"}, {"--config-file=dash.yaml"}}) {
    Args.insert(Args.begin(), "--no-cache");
    Args.push_back("tree");
    Args.insert(Args.end(), {"--", "-std=c++17"});
    ProcessResult R = runProcess(
        "/usr/bin/timeout",
        [&] {
          std::vector<std::string> A = {"60", MLPERF_LINT_BINARY};
          A.insert(A.end(), Args.begin(), Args.end());
          return A;
        }(),
        Root);
    EXPECT_EQ(R.Exit, 2) << Args[1] << "\n" << R.Err; // timeout's 124 before
  }
}

// Interrupt -----------------------------------------------------------------

struct Child {
  pid_t Pid;
  std::string Out, Err; // files
};

Child start(const std::vector<std::string> &Args, const std::string &Dir) {
  Child C{-1, Dir + "/child.out", Dir + "/child.err"};
  C.Pid = fork();
  if (C.Pid == 0) {
    int Out = ::open(C.Out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int Err = ::open(C.Err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(Out, 1);
    dup2(Err, 2);
    if (chdir(Dir.c_str()) != 0)
      _exit(127);
    std::vector<char *> Argv = {const_cast<char *>(MLPERF_LINT_BINARY)};
    for (const std::string &A : Args)
      Argv.push_back(const_cast<char *>(A.c_str()));
    Argv.push_back(nullptr);
    execv(MLPERF_LINT_BINARY, Argv.data());
    _exit(127);
  }
  return C;
}

TEST_F(TrustTest, AnInterruptedTreeRunKeepsTheCacheOfTheFilesItFinished) {
  constexpr int Files = 120;
  writeTree(Files);
  std::string Cache = Root + "/cache";
  for (int Sig : {SIGTERM, SIGINT}) {
    llvm::sys::fs::remove_directories(Cache);
    Child C = start({"--cache-dir=" + Cache, "-j1", "tree", "--", "-std=c++17"}, Root);
    ASSERT_GT(C.Pid, 0);
    // Entries appear as files finish: interrupt once two have.
    auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (cacheEntries(Cache) < 2 && std::chrono::steady_clock::now() < Deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_EQ(::kill(C.Pid, Sig), 0);
    int Status = 0;
    ASSERT_EQ(::waitpid(C.Pid, &Status, 0), C.Pid);
    std::string Err = readFile(C.Err);
    // The run ends as the signal asks, after storing what finished (whose
    // findings the live report may have shown).
    ASSERT_TRUE(WIFSIGNALED(Status)) << "exit " << WEXITSTATUS(Status) << "\n" << Err;
    EXPECT_EQ(WTERMSIG(Status), Sig);
    size_t Kept = cacheEntries(Cache);
    EXPECT_GE(Kept, 2u);
    EXPECT_LT(Kept, size_t(Files));
    EXPECT_LE(count(readFile(C.Out), ": warning:"), Kept);
    EXPECT_EQ(filesNamed(Root, ".tmp"), std::vector<std::string>());
    EXPECT_EQ(filesNamed(Root, ".mlperf-lint-"), std::vector<std::string>());
    // The next run replays them.
    ProcessResult R = lint({"--cache-dir=" + Cache, "-j2", "tree"});
    EXPECT_EQ(R.Exit, 1) << R.Err;
    EXPECT_EQ(count(R.Out, ": warning:"), size_t(Files));
    EXPECT_NE(R.Err.find(std::to_string(Kept) + " of " + std::to_string(Files) + " file(s) from the result cache"),
              std::string::npos)
        << "kept " << Kept << "\n"
        << R.Err;
  }
}

// A cache that cannot be written ---------------------------------------------

TEST_F(TrustTest, ACacheDirectoryThatCannotBeWrittenCostsTheCacheNotTheFindings) {
  writeTree(3);
  ProcessResult Want = lint({"--no-cache", "tree"});
  ASSERT_EQ(Want.Exit, 1) << Want.Err;
  // Every place an entry, the summaries or a preamble would go is a file.
  std::string Cache = Root + "/cache";
  for (int I = 0; I < 256; ++I) {
    char Shard[3];
    snprintf(Shard, sizeof Shard, "%02x", I);
    write("cache/v1/" + std::string(Shard), "");
  }
  write("cache/preamble", "");
  for (int Run = 0; Run < 2; ++Run) {
    ProcessResult R = lint({"--cache-dir=" + Cache, "tree"});
    EXPECT_EQ(R.Exit, Want.Exit);
    EXPECT_EQ(R.Out, Want.Out);
    EXPECT_EQ(count(R.Err, "warning:"), 1u) << R.Err;
    EXPECT_NE(R.Err.find("mlperf-lint: warning: " + Cache + ": cannot write the result cache ("), std::string::npos)
        << R.Err;
    EXPECT_EQ(filesNamed(Cache, ".tmp"), std::vector<std::string>());
  }
  // A directory that cannot even be created.
  ProcessResult R = lint({"--cache-dir=" + Root + "/tree/f0.cc/cache", "tree"});
  EXPECT_EQ(R.Exit, Want.Exit);
  EXPECT_EQ(R.Out, Want.Out);
  EXPECT_EQ(count(R.Err, "warning:"), 1u) << R.Err;
  EXPECT_NE(R.Err.find("mlperf-lint: warning: result cache off: "), std::string::npos) << R.Err;
}

TEST_F(TrustTest, AFullDiskCostsTheCacheNotTheFindings) {
  writeTree(3);
  ProcessResult Want = lint({"--no-cache", "tree"});
  ASSERT_EQ(Want.Exit, 1) << Want.Err;
  std::string Cache = Root + "/cache";
  llvm::sys::fs::create_directories(Cache);
  if (::mount("tmpfs", Cache.c_str(), "tmpfs", 0, "size=64k") != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here (" << strerror(errno) << "); the test above covers unwritable caches";
  Mounted = Cache;
  // Fill it: every later write fails with ENOSPC.
  {
    std::ofstream Fill(Cache + "/fill", std::ios::binary);
    std::string Block(4096, 'x');
    while (Fill.write(Block.data(), Block.size()))
      ;
  }
  ProcessResult R = lint({"--cache-dir=" + Cache, "tree"});
  EXPECT_EQ(R.Exit, Want.Exit);
  EXPECT_EQ(R.Out, Want.Out);
  EXPECT_EQ(count(R.Err, "warning:"), 1u) << R.Err;
  EXPECT_NE(R.Err.find("No space left on device"), std::string::npos) << R.Err;
  EXPECT_EQ(filesNamed(Cache, ".tmp"), std::vector<std::string>());
}

} // namespace
} // namespace mlperf::test
