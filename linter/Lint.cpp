#include "Lint.h"

#include "Fixes.h"
#include "Inputs.h"
#include "Jobs.h"
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

LintOutcome runLint(LintRequest R) {
  LintOutcome Out;
  InputSet Inputs = collectInputs(R.Paths, R.Headers);
  if (R.OnlyShard)
    Inputs.Files = selectShard(Inputs.Files, *R.OnlyShard);
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
  auto Flags = makeCompilationDatabase(R.Flags);
  if (!Flags) {
    Out.Problems.push_back(llvm::toString(Flags.takeError()));
    Out.Fatal = true;
    return Out;
  }
  if (!Flags->Announcement.empty())
    Out.Messages.push_back(Flags->Announcement);

  unsigned Jobs = R.Jobs;
  if (!Jobs) {
    JobChoice C = defaultJobs(llvm::hardware_concurrency().compute_thread_count(), Inputs.Files.size(),
                              memAvailable());
    Jobs = C.Jobs;
    if (!C.Note.empty())
      Out.Messages.push_back(C.Note);
  }
  std::unique_ptr<ResultCache> Cache;
  if (R.Cache.Enabled) {
    auto Opened = ResultCache::open(R.Cache, *Flags->Database, Out.Providers);
    if (Opened)
      Cache = std::move(*Opened);
    else
      Out.Messages.push_back("result cache off: " + llvm::toString(Opened.takeError()));
  }
  std::unique_ptr<SharedPreambles> Preambles;
  if (Cache && R.SharedPreamble)
    Preambles = std::make_unique<SharedPreambles>(*Flags->Database, Cache->dir() + "/preamble", Inputs.Files);
  RunResult Result = runChecks(Inputs.Files, *Flags->Database, Out.Providers, Jobs, Cache.get(), Preambles.get());
  if (Cache) {
    Cache->trim();
    if (Cache->hits())
      Out.Messages.push_back(std::to_string(Cache->hits()) + " of " + std::to_string(Inputs.Files.size()) +
                             " file(s) from the result cache");
  }
  Out.Errors = std::move(Result.Errors);
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
