// --fix writes only what it re-linted: the fixed code compiles, the fixed
// findings are gone and nothing new is reported (project/FixCheck.h).
#include "IntegrationSupport.h"

#include "project/FixCheck.h"
#include "support/FileGuard.h"

#include "llvm/Support/MemoryBuffer.h"

namespace mlperf::test {
namespace {

using clang::tidy::ClangTidyError;
using lint::LintOutcome;

ClangTidyError finding(const std::string &File, const std::string &Check, bool WithFix) {
  ClangTidyError E(Check, ClangTidyError::Warning, "", false);
  E.Message.FilePath = File;
  E.Message.Message = "a finding";
  if (WithFix) {
    clang::tooling::Replacement R(File, 0, 0, "x");
    llvm::cantFail(E.Message.Fix[File].add(R));
  }
  return E;
}

LintOutcome outcome(std::vector<ClangTidyError> Errors) {
  LintOutcome O;
  for (const ClangTidyError &E : Errors)
    if (E.DiagLevel != ClangTidyError::Error)
      ++O.Counts[{lint::normalizedPath(E.Message.FilePath), E.DiagnosticName}];
  O.Errors = std::move(Errors);
  return O;
}

const std::map<std::string, std::string> FixedA = {{"/p/a.cc", "fixed"}};

TEST(FixVerifyTest, AFixThatRemovesItsFindingIsAccepted) {
  LintOutcome Before = outcome({finding("/p/a.cc", "mlperf-x", true), finding("/p/a.cc", "mlperf-y", false)});
  LintOutcome After = outcome({finding("/p/a.cc", "mlperf-y", false)});
  EXPECT_EQ(lint::refutation(Before, After, FixedA), "");
}

TEST(FixVerifyTest, AFindingStillThereAfterItsFixIsRefused) {
  LintOutcome Before = outcome({finding("/p/a.cc", "mlperf-x", true), finding("/p/a.cc", "mlperf-x", false)});
  LintOutcome After = outcome({finding("/p/a.cc", "mlperf-x", false), finding("/p/a.cc", "mlperf-x", false)});
  EXPECT_NE(lint::refutation(Before, After, FixedA).find("mlperf-x is still reported in /p/a.cc"), std::string::npos);
}

TEST(FixVerifyTest, ANewFindingIsRefused) {
  LintOutcome Before = outcome({finding("/p/a.cc", "mlperf-x", true)});
  LintOutcome After = outcome({finding("/p/b.h", "mlperf-z", false)});
  EXPECT_NE(lint::refutation(Before, After, FixedA).find("new mlperf-z finding in /p/b.h"), std::string::npos);
}

TEST(FixVerifyTest, ACompileErrorIsRefusedUnlessTheFileHadOne) {
  LintOutcome Before = outcome({finding("/p/a.cc", "mlperf-x", true)});
  ClangTidyError Err("clang-diagnostic-error", ClangTidyError::Error, "", false);
  Err.Message.FilePath = "/p/a.cc";
  Err.Message.Message = "redefinition of 'w'";
  LintOutcome After = outcome({Err});
  EXPECT_NE(lint::refutation(Before, After, FixedA).find("does not compile (/p/a.cc: redefinition of 'w')"),
            std::string::npos);
  Before.Uncompilable.insert("/p/a.cc"); // --fix-errors on a file that did not compile
  EXPECT_EQ(lint::refutation(Before, After, FixedA), "");
}

/// A runtime program whose loop uploads the same host vector every step:
/// mlperf-loop-invariant-transfer hoists the upload.
const char *Upload = R"(#include <mlperf/rt/runtime.h>
#include <vector>
using namespace mlperf::rt;
int main() {
  auto backend = Backend::create();
  Context ctx(backend, 1);
  Exec step(backend, ctx, [&](Context &c, Graph &g, Node x, Node s) { return reduce_mean(x * s); });
  std::vector<float> xs(4, 1.0f), scale(4, 2.0f);
  for (int i = 0; i < 10; ++i)
    step.run(Tensor::from_host(backend, xs, Shape{4}), Tensor::from_host(backend, scale, Shape{4}));
}
)";

class FixVerifyRunTest : public ProjectTest {
protected:
  ProcessResult fix(const std::string &Flag) {
    return lint({Flag, "--no-cache", "--checks=-*,mlperf-loop-invariant-transfer", "a.cc", "--", "-std=c++20",
                 "-I" MLPERF_SOURCE_DIR "/runtime/include"});
  }
  std::string read(const std::string &Rel) {
    auto Buf = llvm::MemoryBuffer::getFile(Root + "/" + Rel);
    return Buf ? (*Buf)->getBuffer().str() : "";
  }
};

TEST_F(FixVerifyRunTest, AVerifiedFixIsWritten) {
  write("a.cc", Upload);
  ProcessResult R = fix("--fix");
  EXPECT_NE(R.Err.find("applied 2 fix(es) to 1 file(s)"), std::string::npos) << R.Err;
  EXPECT_NE(read("a.cc").find("_on_device"), std::string::npos) << read("a.cc");
  ProcessResult Again = fix("--fix");
  EXPECT_EQ(Again.Exit, 0) << Again.Out << Again.Err;
}

TEST_F(FixVerifyRunTest, AFixThatBreaksTheBuildIsNotWritten) {
  // The names the hoist declares are macros here: the fixed code would not
  // compile, so nothing is written, and --fix-unverified writes it anyway.
  std::string Src = std::string("#define xs_on_device )\n#define scale_on_device )\n") + Upload;
  write("a.cc", Src);
  ProcessResult R = fix("--fix");
  EXPECT_EQ(read("a.cc"), Src);
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Err.find("a.cc: fixes not applied: the fixed code does not compile"), std::string::npos) << R.Err;
  fix("--fix-unverified");
  EXPECT_NE(read("a.cc"), Src);
}

} // namespace
} // namespace mlperf::test
