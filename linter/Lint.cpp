#include "Lint.h"

#include "Filters.h"
#include "Fixes.h"
#include "Inputs.h"
#include "MeasuredNotes.h"
#include "Runner.h"

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

LintOutcome runLint(LintRequest R, const FileReport &OnFile) {
  LintOutcome Out;
  std::optional<FindingFilter> Filter;
  if (R.Filters.active()) {
    auto F = FindingFilter::create(R.Filters);
    if (!F) {
      Out.Problems.push_back(llvm::toString(F.takeError()));
      Out.Fatal = true;
      return Out;
    }
    Filter = std::move(*F);
    if (R.Paths.empty()) {
      R.Paths = Filter->changedFiles();
      if (R.Paths.empty())
        return Out;  // --diff: nothing changed
    }
  }
  InputSet Inputs = collectInputs(R.Paths, R.Headers);
  Out.Problems = Inputs.Errors;
  Out.Files = Inputs.Files;

  auto Providers = makeOptionsProviders(R.Config, Inputs.Files);
  if (!Providers) {
    Out.Problems.push_back(llvm::toString(Providers.takeError()));
    Out.Fatal = true;
    return Out;
  }
  Out.Providers = *Providers;

  R.Flags.Files = Inputs.Files;
  if (!R.CompilerStats)
    R.Flags.ExtraArgs.push_back("-fno-caret-diagnostics");  // clang prints its counts only with carets
  auto Flags = makeCompilationDatabase(R.Flags);
  if (!Flags) {
    Out.Problems.push_back(llvm::toString(Flags.takeError()));
    Out.Fatal = true;
    return Out;
  }
  if (!Flags->Announcement.empty())
    Out.Notices.push_back(Flags->Announcement);

  unsigned Jobs = R.Jobs ? R.Jobs : llvm::hardware_concurrency().compute_thread_count();
  FileDone Done;
  std::optional<FindingFilter> StreamFilter = Filter;  // its own baseline counts
  if (OnFile)
    Done = [&](size_t I, const std::vector<ClangTidyError> &Errors) {
      std::vector<ClangTidyError> Noted = Errors;
      if (StreamFilter)
        Noted = StreamFilter->applyAll(std::move(Noted));
      addMeasuredNotes(Noted);
      OnFile(I, Inputs.Files.size(), Inputs.Files[I], std::move(Noted));
    };
  RunResult Result = runChecks(Inputs.Files, *Flags->Database, Out.Providers, Jobs, R.Overlays, Done);
  Out.Errors = std::move(Result.Errors);
  Out.Stats = Result.Stats;
  if (Filter || !R.WriteBaseline.empty())
    filterFindings(Filter ? &*Filter : nullptr, R.WriteBaseline, Inputs.Files, Out.Errors, Out.Stats,
                   Out.Messages, Out.Problems);
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
