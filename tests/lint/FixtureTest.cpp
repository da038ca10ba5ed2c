// Runs every fixture under fixtures/ with its inline expectations, the way
// clang-tidy's check_clang_tidy.py does.
#include "LintTestSupport.h"

#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <sstream>

namespace mlperf::test {
namespace {

class FixtureTest : public ::testing::TestWithParam<std::string> {};

std::string describe(const clang::tidy::ClangTidyError &E, const std::string &Source, bool Note, size_t I = 0) {
  const auto &M = Note ? E.Notes[I] : E.Message;
  unsigned Line = 1, Col = 1;
  for (unsigned K = 0; K < M.FileOffset && K < Source.size(); ++K, ++Col)
    if (Source[K] == '\n') {
      ++Line;
      Col = 0;
    }
  std::ostringstream OS;
  OS << Line << ":" << Col << ": "
     << (Note ? "note: " + M.Message : "warning: " + M.Message + " [" + E.DiagnosticName + "]");
  return OS.str();
}

/// Matches expectations to "line:col: text" strings; reports the leftovers.
void matchAll(const std::vector<Expectation> &Expected, std::vector<std::string> Actual, const char *What) {
  for (const Expectation &E : Expected) {
    std::string Prefix = std::to_string(E.Line) + ":" + std::to_string(E.Column) + ": ";
    auto It = std::find_if(Actual.begin(), Actual.end(), [&](const std::string &A) {
      return llvm::StringRef(A).starts_with(Prefix) && A.find(E.Text) != std::string::npos;
    });
    if (It == Actual.end()) {
      std::string Seen;
      for (const std::string &A : Actual)
        Seen += "\n    " + A;
      ADD_FAILURE() << "missing " << What << " at " << Prefix << E.Text << "\n  reported:" << Seen;
    } else {
      Actual.erase(It);
    }
  }
  for (const std::string &A : Actual)
    ADD_FAILURE() << "unexpected " << What << ": " << A;
}

TEST_P(FixtureTest, ExpectationsHold) {
  std::string Error;
  Fixture F = parseFixture(GetParam(), Error);
  ASSERT_TRUE(Error.empty()) << Error;
  if (F.NeedsTorch && !torchAvailable())
    GTEST_SKIP() << "libtorch headers not found (install libtorch-dev); skipping " << F.Path;
  std::vector<std::string> Args = fixtureArgs(F.NeedsTorch, F.NeedsRuntime);
  auto Errors = runChecks(F.Path, F.Source, F.Checks, F.Options, Args);

  std::vector<std::string> Warnings, Notes;
  for (const auto &E : Errors) {
    ASSERT_NE(E.DiagLevel, clang::tidy::ClangTidyError::Error)
        << F.Path << " does not compile: " << describe(E, F.Source, false);
    Warnings.push_back(describe(E, F.Source, false));
    for (size_t I = 0; I < E.Notes.size(); ++I)
      Notes.push_back(describe(E, F.Source, true, I));
  }
  matchAll(F.Messages, Warnings, "warning");
  if (!F.Notes.empty())
    matchAll(F.Notes, Notes, "note");

  bool HasFixes = std::any_of(Errors.begin(), Errors.end(), [](const auto &E) { return !E.Message.Fix.empty(); });
  if (F.Fixes.empty() && !HasFixes)
    return;
  std::string FixError;
  std::string Fixed = applyAll(F.Source, Errors, FixError);
  ASSERT_TRUE(FixError.empty()) << FixError;
  std::istringstream In(Fixed);
  std::vector<std::string> Lines;
  for (std::string L; std::getline(In, L);)
    Lines.push_back(L);
  size_t Next = 0;
  for (const std::string &Want : F.Fixes) {
    size_t I = Next;
    while (I < Lines.size() && Lines[I].find(Want) == std::string::npos)
      ++I;
    if (I == Lines.size()) {
      ADD_FAILURE() << "CHECK-FIXES not found (in order): " << Want << "\n--- fixed file ---\n" << Fixed;
      break;
    }
    Next = I + 1;
  }
  EXPECT_EQ(compileErrors(F.Path, Fixed, Args), "") << "--- fixed file ---\n" << Fixed;
}

std::string testName(const ::testing::TestParamInfo<std::string> &Info) {
  llvm::StringRef P(Info.param);
  std::string Name =
      (llvm::sys::path::filename(llvm::sys::path::parent_path(P)) + "_" + llvm::sys::path::stem(P)).str();
  for (char &C : Name)
    if (!isalnum(static_cast<unsigned char>(C)))
      C = '_';
  return Name;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, FixtureTest, ::testing::ValuesIn(allFixtureFiles()), testName);

} // namespace
} // namespace mlperf::test
