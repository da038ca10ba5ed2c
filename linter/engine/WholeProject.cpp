#include "engine/WholeProject.h"

#include "engine/Interrupt.h"
#include "engine/Settling.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA1.h"

#include <optional>
#include <set>

namespace mlperf::lint {

using clang::tidy::mlperf::FileSummary;
using clang::tidy::mlperf::ProjectSummaries;
using clang::tidy::mlperf::setProjectSummaries;

namespace {
/// One summary file per project (the repositories of the inputs), so that a
/// run on some of its files sees what a run on all of them stored.
std::string summaryPath(const std::vector<std::string> &Roots, const std::string &Dir) {
  llvm::SHA1 Hash;
  for (const std::string &R : Roots)
    Hash.update(R + "\n");
  return Dir + "/summaries-" + llvm::toHex(Hash.result(), /*LowerCase=*/true).substr(0, 16) + ".json";
}

/// Adds \p R's parses to \p Out: none when replayed, else clang's (a crash counts one).
void countParses(ProjectRun &Out, const FileResult &R) {
  if (R.Run.FromCache || R.Skipped)
    return;
  Out.Parses += std::max(1u, R.Run.Parses);
  Out.ParsedAgain += R.Run.Parses > 1;
}

bool statFile(const std::string &File, int64_t &MTime, uint64_t &Size) {
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(File, St))
    return false;
  MTime = llvm::sys::toTimeT(St.getLastModificationTime());
  Size = St.getSize();
  return true;
}

bool isFresh(const FileSummary &S) {
  int64_t MTime;
  uint64_t Size;
  return statFile(S.File, MTime, Size) && MTime == S.MTime && Size == S.Size;
}

std::string fileList(const std::vector<std::string> &Files) {
  std::string Out;
  for (size_t I = 0; I < Files.size() && I < 5; ++I)
    Out += (I ? ", " : "") + Files[I];
  if (Files.size() > 5)
    Out += ", ...";
  return Out;
}

ProjectSummaries loadSummaries(const std::string &Path, std::vector<std::string> &Messages) {
  if (Path.empty() || !llvm::sys::fs::exists(Path))
    return {};
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  auto Loaded = Buf ? ProjectSummaries::fromJson((*Buf)->getBuffer(), Path)
                    : llvm::Expected<ProjectSummaries>(llvm::errorCodeToError(Buf.getError()));
  if (!Loaded) {
    Messages.push_back("ignoring stored summaries: " + llvm::toString(Loaded.takeError()));
    return {};
  }
  // A file deleted since it was summarized calls nothing and writes nothing now.
  std::vector<std::string> Gone;
  for (const auto &[File, S] : Loaded->files())
    if (!llvm::sys::fs::exists(File))
      Gone.push_back(File);
  for (const std::string &File : Gone)
    Loaded->remove(File);
  if (!Gone.empty())
    Loaded->resolve();
  return std::move(*Loaded);
}

/// Through a temporary file that a signal or a failed write removes.
std::string storeSummaries(const std::string &Path, const ProjectSummaries &S) {
  std::error_code EC = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  if (EC)
    return Path + ": cannot store summaries: " + EC.message();
  auto Temp = llvm::sys::fs::TempFile::create(Path + ".tmp%%%%%%%%");
  if (!Temp)
    return Path + ": cannot store summaries: " + llvm::toString(Temp.takeError());
  llvm::raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
  OS << S.toJson();
  OS.flush();
  EC = OS.error();
  OS.clear_error();
  if (EC) {
    llvm::consumeError(Temp->discard());
    return Path + ": cannot store summaries: " + EC.message();
  }
  if (llvm::Error E = Temp->keep(Path))
    return Path + ": cannot store summaries: " + llvm::toString(std::move(E));
  return "";
}

/// Rounds of linting beyond the first: summaries settle in one or two (a
/// caller's per-step call makes its callee's file hot, whose facts flow back),
/// and a chain of per-step calls through N files (test loop -> detector ->
/// head -> box coder) takes about N. Only files whose dependencies changed are
/// parsed again in a round.
constexpr int MaxRounds = 8;
} // namespace

namespace {
/// One run of the whole-project analysis: rounds of linting until no file's
/// findings read a summary that the round changed.
class ProjectLinter {
public:
  ProjectLinter(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                const ProviderFactory &Providers, RunSettings Settings, std::shared_ptr<ProjectSummaries> Summaries)
      : Files(Files), DB(DB), Providers(Providers), Settings(std::move(Settings)), Summaries(std::move(Summaries)),
        Results(Files.size()), Read(Files.size()) {}

  /// Lints every file, again while its dependencies change, up to MaxRounds
  /// (or until an interrupt).
  void run(ProjectRun &Out, ContentHashes &Hashes);
  /// Hands each file on (each parse was stored in the cache as it finished).
  void finish(ProjectRun &Out, const FileDone &OnFileDone);
  /// Files whose stored summaries are older than the files.
  std::vector<std::string> staleSummaries() const;
  bool changed() const { return Changed; }
  const ProjectSummaries &summaries() const { return *Summaries; }

private:
  /// The summary each file's findings depend on: a fresh stored one until the
  /// file is parsed, then its parse's.
  const FileSummary *summaryOf(const std::string &File) const {
    auto It = Summaries->files().find(File);
    return It != Summaries->files().end() && isFresh(It->second) ? &It->second : nullptr;
  }
  std::vector<size_t> round(const std::vector<size_t> &Todo, ProjectRun &Out, ContentHashes &Hashes);

  const std::vector<std::string> &Files;
  const clang::tooling::CompilationDatabase &DB;
  const ProviderFactory &Providers;
  RunSettings Settings;
  std::shared_ptr<ProjectSummaries> Summaries;
  std::vector<FileResult> Results;
  std::vector<std::string> Read; // what each file's findings read of the summaries
  bool Changed = false;
};

std::vector<std::string> ProjectLinter::staleSummaries() const {
  std::vector<std::string> Stale;
  std::set<std::string> Inputs(Files.begin(), Files.end());
  for (const auto &[File, S] : Summaries->files())
    if (!Inputs.count(File) && !isFresh(S))
      Stale.push_back(File);
  return Stale;
}

void ProjectLinter::run(ProjectRun &Out, ContentHashes &Hashes) {
  Settings.Summarize = true;
  Settings.Dependencies = [&](const std::string &File) -> std::optional<std::string> {
    const FileSummary *S = summaryOf(File);
    return S ? std::optional<std::string>(Summaries->dependencies(*S)) : std::nullopt;
  };
  std::vector<size_t> Todo(Files.size());
  for (size_t I = 0; I < Files.size(); ++I)
    Todo[I] = I;
  for (int Round = 0; !Todo.empty(); ++Round) {
    Todo = round(Todo, Out, Hashes);
    if (Round == MaxRounds || InterruptibleRun::interrupted())
      break;
  }
}

/// Lints \p Todo with the summaries known now; returns the files, linted in
/// this round or before, whose findings read what this round's summaries
/// changed.
std::vector<size_t> ProjectLinter::round(const std::vector<size_t> &Todo, ProjectRun &Out, ContentHashes &Hashes) {
  std::vector<std::string> Batch;
  for (size_t I : Todo)
    Batch.push_back(Files[I]);
  // The files parsed together settle their facts in memory before their
  // checks run (Settling.h); a file named twice is linted as before.
  std::optional<FactSettling> Settling;
  RunSettings Settle = Settings;
  if (std::set<std::string>(Batch.begin(), Batch.end()).size() == Batch.size()) {
    Settling.emplace(Batch, Settings.Jobs, Settings.FilesInMemory, Summaries, MaxRounds);
    Settle.Settling = &*Settling;
    Settle.Parse.Settle = [&](const std::string &File, llvm::function_ref<FileSummary()> Summarize, bool Tentative) {
      return Settling->settle(File, Summarize, Tentative);
    };
  }
  // What file K's findings read of the summaries.
  auto ReadBy = [&](size_t K, const FileSummary &S) {
    std::optional<std::string> Read = Settling ? Settling->read(K) : std::nullopt;
    return Read ? std::move(*Read) : Summaries->dependencies(S);
  };
  // Each parse is stored as it finishes, under what its findings read of
  // the summaries: an interrupted run keeps the files it finished.
  auto Store = [&](size_t K, const FileResult &R) {
    if (Settings.Cache && R.Summary)
      storeResult(*Settings.Cache, Batch[K], R, ReadBy(K, *R.Summary));
  };
  std::vector<FileResult> Run = runFiles(Batch, DB, Providers, Settle, Hashes, Store);
  ++Out.Rounds;
  Out.Passes += Settling ? Settling->passes() : 0;
  auto Next = std::make_shared<ProjectSummaries>(*Summaries);
  for (size_t K = 0; K < Todo.size(); ++K) {
    FileResult &R = Run[K];
    size_t I = Todo[K];
    countParses(Out, R);
    if (R.Summary) {
      Read[I] = ReadBy(K, *R.Summary);
      statFile(R.Summary->File, R.Summary->MTime, R.Summary->Size);
      Next->add(std::move(*R.Summary));
      R.Summary.reset();
      Changed = true;
    } else if (const FileSummary *S = summaryOf(Files[I])) {
      Read[I] = Summaries->dependencies(*S);
    }
    Results[I] = std::move(R);
  }
  Next->resolve();
  Summaries = Next;
  setProjectSummaries(Summaries);
  std::vector<size_t> Again;
  for (size_t I = 0; I < Files.size(); ++I)
    if (const FileSummary *S = summaryOf(Files[I]);
        S && !Results[I].Run.Crash && !Results[I].Skipped && Summaries->dependencies(*S) != Read[I])
      Again.push_back(I);
  return Again;
}

void ProjectLinter::finish(ProjectRun &Out, const FileDone &OnFileDone) {
  for (size_t I = 0; I < Files.size(); ++I) {
    if (Results[I].Skipped)
      continue;
    Out.FromCache += Results[I].Run.FromCache;
    if (OnFileDone)
      OnFileDone(I, std::move(Results[I].Run));
  }
}

/// A single file with no stored summaries: analysed alone, in one parse.
void lintAlone(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
               const ProviderFactory &Providers, const RunSettings &Settings, ProjectRun &Out,
               const FileDone &OnFileDone) {
  auto Done = [&](size_t I, const FileResult &R) {
    if (Settings.Cache)
      storeResult(*Settings.Cache, Files[I], R, "");
    if (OnFileDone)
      OnFileDone(I, R.Run);
  };
  std::vector<FileResult> Results = runFiles(Files, DB, Providers, Settings, *Out.Hashes, Done);
  Out.Rounds = 1;
  for (const FileResult &R : Results) {
    Out.FromCache += R.Run.FromCache;
    countParses(Out, R);
  }
}
} // namespace

ProjectRun lintProject(const std::vector<std::string> &Roots, const std::vector<std::string> &Files,
                       const clang::tooling::CompilationDatabase &DB, const ProviderFactory &Providers,
                       RunSettings Settings, const std::string &SummaryDir, const FileDone &OnFileDone) {
  InterruptibleRun Interruptible; // raises a signal that arrived once what finished is stored
  ProjectRun Out;
  std::string Path = SummaryDir.empty() ? "" : summaryPath(Roots, SummaryDir);
  auto Summaries = std::make_shared<ProjectSummaries>(loadSummaries(Path, Out.Messages));
  const bool Whole = Files.size() >= 2 || !Summaries->files().empty();
  setProjectSummaries(Whole ? Summaries : nullptr);
  if (!Whole) {
    lintAlone(Files, DB, Providers, Settings, Out, OnFileDone);
    return Out;
  }
  const bool Buffers = Settings.Overlays && !Settings.Overlays->empty();
  ResultCache *Cache = Settings.Cache;
  ProjectLinter Linter(Files, DB, Providers, std::move(Settings), Summaries);
  std::vector<std::string> Stale = Linter.staleSummaries();
  Linter.run(Out, *Out.Hashes);
  Linter.finish(Out, OnFileDone);
  if (!Stale.empty())
    Out.Messages.push_back("summaries of " + std::to_string(Stale.size()) +
                           " file(s) not linted now are stale (changed since they were summarized): " +
                           fileList(Stale) + "; lint the whole project to refresh them");
  if (!Path.empty() && Linter.changed() && !Buffers)
    if (std::string P = storeSummaries(Path, Linter.summaries()); !P.empty()) {
      // In the cache's directory: one warning about that directory is enough.
      if (Cache && llvm::StringRef(Path).starts_with(Cache->dir()))
        Cache->writeFailed(P);
      else
        Out.Messages.push_back(P);
    }
  return Out;
}

} // namespace mlperf::lint
