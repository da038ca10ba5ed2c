#include "Lint.h"

#include "Fixes.h"
#include "Inputs.h"
#include "MeasuredNotes.h"
#include "ProjectScope.h"
#include "Runner.h"
#include "WholeProject.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

size_t countFindings(llvm::ArrayRef<ClangTidyError> Errors) {
  size_t N = 0;
  for (const ClangTidyError &E : Errors)
    N += E.DiagLevel != ClangTidyError::Error || E.IsWarningAsError;
  return N;
}

bool hasCompilerErrors(llvm::ArrayRef<ClangTidyError> Errors) {
  for (const ClangTidyError &E : Errors)
    if (E.DiagLevel == ClangTidyError::Error && !E.IsWarningAsError)
      return true;
  return false;
}

LintOutcome runLint(LintRequest R) {
  LintOutcome Out;
  InputSet Inputs = collectInputs(R.Paths, R.Headers);
  Out.Problems = Inputs.Errors;
  Out.Files = Inputs.Files;

  R.Config.DefaultHeaderFilter = projectHeaderFilter(R.Paths);
  auto Providers = makeOptionsProviders(R.Config, Inputs.Files);
  if (!Providers) {
    Out.Problems.push_back(llvm::toString(Providers.takeError()));
    Out.Fatal = true;
    return Out;
  }
  Out.Providers = *Providers;

  R.Flags.Files = Inputs.Files;
  auto Flags = makeCompilationDatabase(R.Flags);
  if (!Flags) {
    Out.Problems.push_back(llvm::toString(Flags.takeError()));
    Out.Fatal = true;
    return Out;
  }
  if (!Flags->Announcement.empty())
    Out.Messages.push_back(Flags->Announcement);

  unsigned Jobs = R.Jobs ? R.Jobs : llvm::hardware_concurrency().compute_thread_count();
  WholeProjectResult Whole = prepareWholeProject(R.Paths, Inputs.Files, *Flags->Database, Out.Providers, Jobs, R.Parse);
  Out.Messages.insert(Out.Messages.end(), Whole.Messages.begin(), Whole.Messages.end());
  RunResult Result = runChecks(Inputs.Files, *Flags->Database, Out.Providers, Jobs, R.Parse);
  Out.Messages.insert(Out.Messages.end(), Result.Incomplete.begin(), Result.Incomplete.end());
  Out.Errors = std::move(Result.Errors);
  if (!R.Config.HeaderFilter)
    dropVendoredFindings(Out.Errors, Inputs.Files);
  addMeasuredNotes(Out.Errors);

  if (!R.ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream FixOS(R.ExportFixes, EC, llvm::sys::fs::OF_Text);
    if (EC)
      Out.Problems.push_back(R.ExportFixes + ": cannot write fixes: " + EC.message());
    else
      clang::tidy::exportReplacements(Inputs.Files.empty() ? "" : Inputs.Files.front(), Out.Errors, FixOS);
  }
  if (R.Fix) {
    FixResult Fixed = applyFixes(Out.Errors);
    Out.Problems.insert(Out.Problems.end(), Fixed.Errors.begin(), Fixed.Errors.end());
    Out.Messages.push_back("applied " + std::to_string(Fixed.Applied) + " fix(es) to " +
                           std::to_string(Fixed.Files.size()) + " file(s)" +
                           (Fixed.Skipped ? ", skipped " + std::to_string(Fixed.Skipped) + " conflicting" : ""));
  }
  return Out;
}

} // namespace mlperf::lint
