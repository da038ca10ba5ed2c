// Issue 26, the run as a whole: a file with tens of thousands of errors or
// a 70,000-term expression costs what clang-tidy costs. Inputs are
// generated; nothing here needs libtorch.
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

size_t count(const std::string &Text, const std::string &What) {
  size_t N = 0;
  for (size_t P = Text.find(What); P != std::string::npos; P = Text.find(What, P + 1))
    ++N;
  return N;
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
  std::string Calls = "void broken() {";
  for (int I = 0; I < 20000; ++I)
    Calls += " undeclared_fn(" + std::to_string(I) + ");";
  write("missing.cc", "#include <not/installed.h>\n" + syncLoop("train") + Calls + " }\n");
  ProcessResult R = lint({"--no-cache", "missing.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_NE(R.Out.find("missing.cc:7:5: warning:"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("error:"), std::string::npos) << R.Out.substr(0, 2000);
  EXPECT_NE(R.Err.find("missing.cc: 1 include not found (not/installed.h); results may be incomplete"),
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

} // namespace
} // namespace mlperf::test
