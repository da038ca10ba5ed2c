#include "project/Lint.h"

#include "engine/IncludeRecovery.h"
#include "engine/Jobs.h"
#include "engine/WholeProject.h"
#include "findings/Pipeline.h"
#include "project/CompileFlags.h"
#include "project/HeaderNames.h"
#include "project/Inputs.h"
#include "project/ProjectScope.h"
#include "support/SafeIO.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

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

namespace {
/// What a run settles before it lints a file.
struct Plan {
  std::optional<FindingFilter> Filter;
  InputSet Inputs;
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  std::function<std::vector<std::string>(llvm::StringRef File)> IncludeNotes;
  unsigned Jobs = 1;
};

/// Records a problem that stops the run before anything is linted.
bool fatal(LintOutcome &Out, std::string Problem) {
  Out.Problems.push_back(std::move(Problem));
  Out.Fatal = true;
  return false;
}

/// `-p <build>` with no inputs: every file the compilation database lists
/// that exists, as run-clang-tidy lints them.
llvm::Expected<std::vector<std::string>> databaseFiles(const FlagsRequest &Request) {
  auto Flags = makeCompilationDatabase(Request);
  if (!Flags)
    return Flags.takeError();
  std::vector<std::string> Files;
  for (const clang::tooling::CompileCommand &C : Flags->Database->getAllCompileCommands()) {
    // A relative "file" is relative to its entry's "directory".
    llvm::SmallString<256> Path(C.Filename);
    if (llvm::sys::path::is_relative(Path))
      Path = (C.Directory + "/" + C.Filename);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    if (llvm::sys::fs::is_regular_file(Path) && !llvm::is_contained(Files, Path.str()))
      Files.push_back(std::string(Path));
  }
  if (Files.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: the compilation database lists no file that exists", Request.BuildPath.c_str());
  return Files;
}

/// The filters (--diff names the inputs when none are given, and so does
/// -p) and the inputs; false when there is nothing to lint.
bool collect(LintRequest &R, Plan &P, LintOutcome &Out) {
  if (R.Filters.active()) {
    auto F = FindingFilter::create(R.Filters);
    if (!F)
      return fatal(Out, llvm::toString(F.takeError()));
    P.Filter = std::move(*F);
    if (R.Paths.empty()) {
      R.Paths = P.Filter->changedFiles();
      if (R.Paths.empty())
        return false; // --diff: nothing changed
    }
  }
  if (R.Paths.empty() && !R.Flags.BuildPath.empty()) {
    auto Listed = databaseFiles(R.Flags);
    if (!Listed)
      return fatal(Out, llvm::toString(Listed.takeError()));
    R.Paths = std::move(*Listed);
  }
  P.Inputs = collectInputs(R.Paths, {R.Headers, R.Excludes});
  if (R.OnlyShard)
    P.Inputs.Files = selectShard(P.Inputs.Files, *R.OnlyShard);
  Out.Problems = P.Inputs.Errors;
  if (R.Verbose)
    for (const std::string &S : P.Inputs.Skipped)
      Out.Messages.push_back("skipped " + S);
  noteInputs(P.Inputs.Files);
  Out.Warnings.insert(Out.Warnings.end(), P.Inputs.Recovered.begin(), P.Inputs.Recovered.end());
  for (auto [Path, Option] : {std::pair{&R.OutputPath, "-o"}, std::pair{&R.ExportFixes, "--export-fixes"},
                              std::pair{&R.WriteBaseline, "--write-baseline"}})
    if (std::string Problem = refusedOutput(*Path, Option); !Problem.empty())
      return fatal(Out, Problem);
  if (!R.Config.ConfigFile && !R.Config.ConfigText)
    for (std::string &Problem : dropFilesWithBadConfig(P.Inputs.Files))
      Out.Problems.push_back(std::move(Problem));
  Out.Files = P.Inputs.Files;
  return true;
}

/// The configuration, the compile flags and the number of jobs.
bool configure(LintRequest &R, Plan &P, LintOutcome &Out) {
  R.Config.DefaultHeaderFilter = projectHeaderFilter(R.Paths);
  auto Providers = makeOptionsProviders(R.Config, P.Inputs.Files, &Out.Warnings);
  if (!Providers)
    return fatal(Out, llvm::toString(Providers.takeError()));
  Out.Providers = *Providers;
  R.Flags.Files = P.Inputs.Files;
  auto Flags = makeCompilationDatabase(R.Flags);
  if (!Flags)
    return fatal(Out, llvm::toString(Flags.takeError()));
  if (!Flags->Announcement.empty())
    Out.Notices.push_back(Flags->Announcement);
  P.Database = std::move(Flags->Database);
  P.IncludeNotes = std::move(Flags->IncludeNotes);
  P.Jobs = R.Jobs;
  if (!P.Jobs) {
    JobChoice C =
        defaultJobs(llvm::hardware_concurrency().compute_thread_count(), P.Inputs.Files.size(), memAvailable());
    P.Jobs = C.Jobs;
    if (!C.Note.empty())
      Out.Messages.push_back(C.Note);
  }
  return true;
}

/// --verbose's account of clang's parses: `6 parse(s) for 6 file(s), facts
/// settled in memory in 2 passes` (with rounds when files were linted again,
/// and how many files a lint parsed more than once).
std::string parsesLine(const ProjectRun &Project, size_t Files) {
  std::string Line = std::to_string(Project.Parses) + " parse(s) for " + std::to_string(Files) + " file(s)";
  if (Project.ParsedAgain)
    Line += " (" + std::to_string(Project.ParsedAgain) +
            " parsed again within its lint: to recover from headers not found, or without the preamble)";
  if (Project.Rounds > 1)
    Line += ", " + std::to_string(Project.Rounds) + " rounds";
  if (Project.Passes > 1)
    Line += ", facts settled in memory in " + std::to_string(Project.Passes) + " passes";
  return Line;
}

/// The findings pipeline the request asks for.
FindingsPipeline makePipeline(const LintRequest &R, Plan &P) {
  PipelineOptions O;
  O.Inputs = P.Inputs.Files;
  llvm::copy_if(O.Inputs, std::back_inserter(O.Units), [](const std::string &F) { return !isHeaderName(F); });
  O.Roots = projectRoots(R.Paths);
  O.DropVendored = !R.Config.HeaderFilter;
  O.Filter = std::move(P.Filter);
  O.WriteBaseline = R.WriteBaseline;
  O.Notes = MeasuredNotes::load(R.MeasuredResults, llvm::errs());
  if (!R.Device.Name.empty())
    O.Costs = CostNotes(R.Device, R.MinCost);
  return FindingsPipeline(std::move(O));
}

/// Lints the inputs (with the result cache and the shared preamble when
/// asked for), each file's result through \p Pipeline as it becomes final.
void lintInputs(const LintRequest &R, const Plan &P, FindingsPipeline &Pipeline, const FileReport &OnFile,
                LintOutcome &Out) {
  const std::vector<std::string> &Files = P.Inputs.Files;
  std::unique_ptr<ResultCache> Cache;
  bool Unusable = false; // the cache's directory: no summaries there either
  // Buffers and a VFS overlay change what a file holds without its hash
  // changing, and a check profile times a parse: such runs neither read nor
  // write the cache.
  if (R.Cache.Enabled && R.Overlays.empty() && R.Parse.VfsOverlay.empty() && !R.Parse.CheckProfile) {
    auto Opened = ResultCache::open(R.Cache, *P.Database, Out.Providers, R.Parse);
    if (Opened)
      Cache = std::move(*Opened);
    else
      Out.Warnings.push_back("result cache off: " + llvm::toString(Opened.takeError()));
    Unusable = !Cache;
  }
  std::string CacheDir = !R.Cache.Enabled || Unusable ? ""
                         : Cache                      ? Cache->dir()
                         : R.Cache.Dir.empty()        ? cacheDirectory()
                                                      : R.Cache.Dir;
  // An editor's buffers are parsed against the shared preamble too (it holds
  // system headers, not their files); a VFS overlay or a timed parse is not.
  std::unique_ptr<SharedPreambles> Preambles;
  if (!CacheDir.empty() && R.SharedPreamble && R.Parse.VfsOverlay.empty() && !R.Parse.CheckProfile)
    Preambles = std::make_unique<SharedPreambles>(*P.Database, CacheDir + "/preamble", Files, &R.Overlays);
  // Recoveries from headers not found are kept with the results: the next
  // run after an edit starts from them.
  if (Cache && R.Parse.Memo)
    R.Parse.Memo->keepIn([C = Cache.get()](const std::string &File) { return C->recoveryPath(File); });
  RunSettings Run{P.Jobs, &R.Overlays, R.Parse, Cache.get(), Preambles.get()};
  Run.FilesInMemory = filesInMemory(R.FilesInMemory, P.Jobs, memAvailable());
  auto Done = [&](size_t I, FileFindings F) {
    if (R.CompilerStats)
      llvm::errs() << F.CompilerStats;
    if (P.IncludeNotes)
      F.Incomplete = withIncludeNotes(F.File, F.Incomplete, P.IncludeNotes(F.File));
    std::vector<ClangTidyError> Shown = Pipeline.add(std::move(F));
    if (OnFile)
      OnFile(I, Files.size(), Files[I], std::move(Shown));
  };
  ProjectRun Project =
      lintProject(projectRoots(R.Paths), Files, *P.Database, Out.Providers, std::move(Run), CacheDir, Done);
  Out.Messages.insert(Out.Messages.end(), Project.Messages.begin(), Project.Messages.end());
  if (R.Verbose)
    Out.Messages.push_back(parsesLine(Project, Files.size()));
  if (Cache) {
    for (std::string &W : Cache->takeWarnings())
      Out.Warnings.push_back(std::move(W));
    Cache->trim();
    if (R.Parse.Memo)
      R.Parse.Memo->keepIn(nullptr); // the cache closes with this run
    if (Project.FromCache)
      Out.Messages.push_back(std::to_string(Project.FromCache) + " of " + std::to_string(Files.size()) +
                             " file(s) from the result cache");
  }
  Out.Hashes = Project.Hashes;
}
} // namespace

LintOutcome runLint(LintRequest R, const FileReport &OnFile) {
  LintOutcome Out;
  Plan P;
  if (!collect(R, P, Out) || !configure(R, P, Out))
    return Out;
  FindingsPipeline Pipeline = makePipeline(R, P);
  lintInputs(R, P, Pipeline, OnFile, Out);
  RunFindings &Run = Pipeline.result();
  Out.Messages.insert(Out.Messages.end(), Run.Incomplete.begin(), Run.Incomplete.end());
  Pipeline.finish(Out.Messages, Out.Problems);
  Out.Problems.insert(Out.Problems.end(), Run.Crashes.begin(), Run.Crashes.end());
  Out.Errors = std::move(Run.Errors);
  Out.Stats = Run.Stats;
  Out.Uncompilable = std::move(Run.Uncompilable);
  Out.Counts = std::move(Run.Counts);
  Out.Measured = std::make_shared<::mlperf::validate::ValidationRun>(Pipeline.measured());
  Out.Costs = Pipeline.costs();
  if (R.SortByCost)
    sortByCost(Out.Errors, *Out.Costs);
  if (!R.ExportFixes.empty())
    if (std::string Problem = exportFixes(R.ExportFixes, P.Inputs.Files, Out.Errors); !Problem.empty())
      Out.Problems.push_back(Problem);
  return Out;
}

} // namespace mlperf::lint
