// Shared by the tests of the ways in (SARIF, headers, pre-commit, LSP): a
// throwaway project directory and a small file with a finding.
#pragma once

#include "LintTestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <fstream>

namespace mlperf::test {

/// A CUDA-API loop with one `mlperf-sync-in-loop` finding at 6:5 (the call
/// is 21 characters long) and its note at 4:3; quick to parse.
inline std::string syncLoopSource() {
  return "extern \"C\" int cudaDeviceSynchronize();\n"
         "extern \"C\" int cuLaunchKernel(void *f);\n"
         "void train(void *k) {\n"
         "  for (int i = 0; i < 10; ++i) {\n"
         "    cuLaunchKernel(k);\n"
         "    cudaDeviceSynchronize();\n"
         "  }\n"
         "}\n";
}

class ProjectTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mlperf-integration", Dir));
    llvm::SmallString<128> Real;
    llvm::sys::fs::real_path(Dir, Real);
    Root = std::string(Real);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  std::string write(const std::string &Rel, const std::string &Text) {
    std::string Path = Root + "/" + Rel;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::ofstream(Path, std::ios::binary) << Text;
    return Path;
  }
  ProcessResult lint(const std::vector<std::string> &Args, const std::string &Dir = "") {
    return runProcess(MLPERF_LINT_BINARY, Args, Dir.empty() ? Root : Root + "/" + Dir);
  }
  std::string Root;
};

} // namespace mlperf::test
