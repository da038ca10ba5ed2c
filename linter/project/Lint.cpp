#include "project/Lint.h"

#include "findings/Filters.h"
#include "findings/Fixes.h"
#include "project/Inputs.h"
#include "engine/Jobs.h"
#include "findings/MeasuredNotes.h"
#include "project/ProjectScope.h"
#include "support/SafeIO.h"
#include "engine/WholeProject.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/FileSystem.h"
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

namespace {
/// Writes --export-fixes; a problem line when it cannot.
std::string exportFixes(const std::string &Path, const std::vector<std::string> &Files,
                        llvm::ArrayRef<ClangTidyError> Errors) {
  llvm::Error E = writeOutputFile(Path, "--export-fixes", "fixes", [&](llvm::raw_ostream &OS) {
    clang::tidy::exportReplacements(Files.empty() ? "" : Files.front(), Errors, OS);
  });
  return E ? llvm::toString(std::move(E)) : "";
}
} // namespace

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
  InputSet Inputs = collectInputs(R.Paths, {R.Headers, R.Excludes});
  if (R.OnlyShard)
    Inputs.Files = selectShard(Inputs.Files, *R.OnlyShard);
  Out.Problems = Inputs.Errors;
  if (R.Verbose)
    for (const std::string &S : Inputs.Skipped)
      Out.Messages.push_back("skipped " + S);
  noteInputs(Inputs.Files);
  Out.Warnings.insert(Out.Warnings.end(), Inputs.Recovered.begin(), Inputs.Recovered.end());
  for (auto [Path, Option] : {std::pair{&R.OutputPath, "-o"}, std::pair{&R.ExportFixes, "--export-fixes"},
                              std::pair{&R.WriteBaseline, "--write-baseline"}})
    if (std::string P = refusedOutput(*Path, Option); !P.empty()) {
      Out.Problems.push_back(P);
      Out.Fatal = true;
      return Out;
    }
  if (!R.Config.ConfigFile && !R.Config.ConfigText)
    for (std::string &P : dropFilesWithBadConfig(Inputs.Files))
      Out.Problems.push_back(std::move(P));
  Out.Files = Inputs.Files;

  R.Config.DefaultHeaderFilter = projectHeaderFilter(R.Paths);
  auto Providers = makeOptionsProviders(R.Config, Inputs.Files, &Out.Warnings);
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

  unsigned Jobs = R.Jobs;
  if (!Jobs) {
    JobChoice C = defaultJobs(llvm::hardware_concurrency().compute_thread_count(), Inputs.Files.size(),
                              memAvailable());
    Jobs = C.Jobs;
    if (!C.Note.empty())
      Out.Messages.push_back(C.Note);
  }
  const bool DropVendored = !R.Config.HeaderFilter;
  FileDone Done;
  std::optional<FindingFilter> StreamFilter = Filter;  // its own baseline counts
  if (OnFile)
    Done = [&](size_t I, const std::vector<ClangTidyError> &Errors) {
      std::vector<ClangTidyError> Noted = Errors;
      if (DropVendored)
        dropVendoredFindings(Noted, Inputs.Files);
      if (StreamFilter)
        Noted = StreamFilter->applyAll(std::move(Noted));
      addMeasuredNotes(Noted);
      OnFile(I, Inputs.Files.size(), Inputs.Files[I], std::move(Noted));
    };
  std::unique_ptr<ResultCache> Cache;
  if (R.Cache.Enabled && R.Overlays.empty()) {
    auto Opened = ResultCache::open(R.Cache, *Flags->Database, Out.Providers, R.Parse);
    if (Opened)
      Cache = std::move(*Opened);
    else
      Out.Messages.push_back("result cache off: " + llvm::toString(Opened.takeError()));
  }
  std::unique_ptr<SharedPreambles> Preambles;
  if (Cache && R.SharedPreamble)
    Preambles = std::make_unique<SharedPreambles>(*Flags->Database, Cache->dir() + "/preamble", Inputs.Files);
  RunSettings Run;
  Run.Jobs = Jobs;
  Run.Overlays = &R.Overlays;
  Run.Parse = R.Parse;
  Run.Cache = Cache.get();
  Run.Preambles = Preambles.get();
  std::string SummaryDir = !R.Cache.Enabled ? "" : Cache ? Cache->dir() : R.Cache.Dir.empty() ? cacheDirectory() : R.Cache.Dir;
  ProjectRun Project =
      lintProject(R.Paths, Inputs.Files, *Flags->Database, Out.Providers, std::move(Run), SummaryDir, Done);
  Out.Messages.insert(Out.Messages.end(), Project.Messages.begin(), Project.Messages.end());
  if (R.Verbose)
    Out.Messages.push_back(std::to_string(Project.Parses) + " parse(s) for " + std::to_string(Inputs.Files.size()) +
                           " file(s)" + (Project.Rounds > 1 ? ", " + std::to_string(Project.Rounds) + " rounds" : ""));
  RunResult &Result = Project.Result;
  if (Cache) {
    for (std::string &W : Cache->takeWarnings())
      Out.Warnings.push_back(std::move(W));
    Cache->trim();
    if (Project.FromCache)
      Out.Messages.push_back(std::to_string(Project.FromCache) + " of " + std::to_string(Inputs.Files.size()) +
                             " file(s) from the result cache");
  }
  Out.Messages.insert(Out.Messages.end(), Result.Incomplete.begin(), Result.Incomplete.end());
  Out.Errors = std::move(Result.Errors);
  Out.Stats = Result.Stats;
  if (DropVendored)
    dropVendoredFindings(Out.Errors, Inputs.Files);
  if (Filter || !R.WriteBaseline.empty())
    filterFindings(Filter ? &*Filter : nullptr, R.WriteBaseline, Inputs.Files, Out.Errors, Out.Stats,
                   Out.Messages, Out.Problems);
  Out.Problems.insert(Out.Problems.end(), Result.Problems.begin(), Result.Problems.end());
  addMeasuredNotes(Out.Errors);

  if (!R.ExportFixes.empty())
    if (std::string P = exportFixes(R.ExportFixes, Inputs.Files, Out.Errors); !P.empty())
      Out.Problems.push_back(P);
  Out.Hashes = Result.Hashes;
  Out.Uncompilable = std::move(Result.Uncompilable);
  return Out;
}

void applyRequestedFixes(const LintRequest &R, LintOutcome &Out) {
  if (R.Fix && !Out.Fatal) {
    FixResult Fixed = applyFixes(Out.Errors, {Out.Hashes.get(), R.FixErrors, Out.Uncompilable});
    Out.Problems.insert(Out.Problems.end(), Fixed.Errors.begin(), Fixed.Errors.end());
    Out.Messages.insert(Out.Messages.end(), Fixed.Notes.begin(), Fixed.Notes.end());
    Out.Messages.push_back("applied " + std::to_string(Fixed.Applied) + " fix(es) to " +
                           std::to_string(Fixed.Files.size()) + " file(s)" +
                           (Fixed.Skipped ? ", skipped " + std::to_string(Fixed.Skipped) + " conflicting" : ""));
  }
}

} // namespace mlperf::lint
