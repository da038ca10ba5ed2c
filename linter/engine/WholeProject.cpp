#include "engine/WholeProject.h"

#include "project/ProjectScope.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace mlperf::lint {

using clang::tidy::mlperf::FileSummary;
using clang::tidy::mlperf::ProjectSummaries;
using clang::tidy::mlperf::setProjectSummaries;

std::string cacheDirectory() {
  llvm::SmallString<256> Dir;
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg)
    Dir = Xdg;
  else if (const char *Home = std::getenv("HOME"); Home && *Home)
    llvm::sys::path::append(Dir, Home, ".cache");
  else
    return "";
  llvm::sys::path::append(Dir, "mlperf-lint");
  return std::string(Dir);
}

namespace {
/// One summary file per project (the repositories of the inputs), so that a
/// run on some of its files sees what a run on all of them stored.
std::string summaryPath(const std::vector<std::string> &Paths, const std::string &Dir) {
  llvm::SHA1 Hash;
  for (const std::string &R : projectRoots(Paths))
    Hash.update(R + "\n");
  return Dir + "/summaries-" + llvm::toHex(Hash.result(), /*LowerCase=*/true).substr(0, 16) + ".json";
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
  if (Loaded)
    return std::move(*Loaded);
  Messages.push_back("ignoring stored summaries: " + llvm::toString(Loaded.takeError()));
  return {};
}

std::string storeSummaries(const std::string &Path, const ProjectSummaries &S) {
  std::error_code EC = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  std::string Tmp = Path + "." + std::to_string(llvm::sys::Process::getProcessId()) + ".tmp";
  if (!EC) {
    llvm::raw_fd_ostream OS(Tmp, EC, llvm::sys::fs::OF_Text);
    if (!EC) {
      OS << S.toJson();
      OS.close();
      EC = OS.error();
      OS.clear_error();
    }
  }
  if (!EC)
    EC = llvm::sys::fs::rename(Tmp, Path);
  return EC ? Path + ": cannot store summaries: " + EC.message() : "";
}

/// Rounds of linting beyond the first: summaries settle in one or two (a
/// caller's per-step call makes its callee's file hot, whose facts flow back),
/// and a chain of per-step calls through N files (test loop -> detector ->
/// head -> box coder) takes about N. Only files whose dependencies changed are
/// parsed again in a round.
constexpr int MaxRounds = 8;
} // namespace

ProjectRun lintProject(const std::vector<std::string> &Roots, const std::vector<std::string> &Files,
                       const clang::tooling::CompilationDatabase &DB, const ProviderFactory &Providers,
                       RunSettings Settings, const std::string &SummaryDir, const FileDone &OnFileDone) {
  ProjectRun Out;
  auto Hashes = std::make_shared<ContentHashes>();
  std::string Path = SummaryDir.empty() ? "" : summaryPath(Roots, SummaryDir);
  auto Summaries = std::make_shared<ProjectSummaries>(loadSummaries(Path, Out.Messages));
  const bool Whole = Files.size() >= 2 || !Summaries->files().empty();
  setProjectSummaries(Whole ? Summaries : nullptr);

  auto Final = [&](size_t I, const FileResult &R) {
    llvm::errs() << R.Run.CompilerStats;
    if (OnFileDone)
      OnFileDone(I, R.Run.Errors);
  };
  std::vector<FileResult> Results;
  if (!Whole) {
    Results = runFiles(Files, DB, Providers, Settings, *Hashes, Final);
    Out.Rounds = 1;
    for (size_t I = 0; I < Files.size(); ++I) {
      Out.FromCache += Results[I].FromCache;
      Out.Parses += !Results[I].FromCache;
      if (Settings.Cache)
        storeResult(*Settings.Cache, Files[I], Results[I], "");
    }
    Out.Result = combineResults(Files, std::move(Results), Hashes);
    return Out;
  }

  std::vector<std::string> Stale;
  {
    std::set<std::string> Inputs(Files.begin(), Files.end());
    for (const auto &[File, S] : Summaries->files())
      if (!Inputs.count(File) && !isFresh(S))
        Stale.push_back(File);
  }
  // The summary each file's findings depend on: a fresh stored one until the
  // file is parsed, then its parse's.
  auto SummaryOf = [&](const std::string &File) -> const FileSummary * {
    auto It = Summaries->files().find(File);
    return It != Summaries->files().end() && isFresh(It->second) ? &It->second : nullptr;
  };
  Settings.Summarize = true;
  Settings.Dependencies = [&](const std::string &File) -> std::optional<std::string> {
    const FileSummary *S = SummaryOf(File);
    return S ? std::optional<std::string>(Summaries->dependencies(*S)) : std::nullopt;
  };
  Results.resize(Files.size());
  std::vector<std::string> Read(Files.size());  // what each file's findings read of the summaries
  std::vector<size_t> Todo(Files.size());
  for (size_t I = 0; I < Files.size(); ++I)
    Todo[I] = I;
  bool Changed = false;
  for (int Round = 0; !Todo.empty(); ++Round) {
    std::vector<std::string> Batch;
    for (size_t I : Todo)
      Batch.push_back(Files[I]);
    std::vector<FileResult> Run = runFiles(Batch, DB, Providers, Settings, *Hashes);
    ++Out.Rounds;
    auto Next = std::make_shared<ProjectSummaries>(*Summaries);
    for (size_t K = 0; K < Todo.size(); ++K) {
      FileResult &R = Run[K];
      size_t I = Todo[K];
      Out.Parses += !R.FromCache;
      if (R.Summary) {
        Read[I] = Summaries->dependencies(*R.Summary);
        statFile(R.Summary->File, R.Summary->MTime, R.Summary->Size);
        Next->add(std::move(*R.Summary));
        R.Summary.reset();
        Changed = true;
      } else if (const FileSummary *S = SummaryOf(Files[I])) {
        Read[I] = Summaries->dependencies(*S);
      }
      Results[I] = std::move(R);
    }
    Next->resolve();
    Summaries = Next;
    setProjectSummaries(Summaries);
    // Any file, linted in this round or before, whose findings read what this
    // round's summaries changed; after the last round, those left unsettled.
    Todo.clear();
    for (size_t I = 0; I < Files.size(); ++I)
      if (const FileSummary *S = SummaryOf(Files[I]); S && !Results[I].Crash && Summaries->dependencies(*S) != Read[I])
        Todo.push_back(I);
    if (Round == MaxRounds)
      break;
  }

  // An entry is stored only with the summaries its findings read, once final.
  std::set<size_t> Unsettled(Todo.begin(), Todo.end());
  for (size_t I = 0; I < Files.size(); ++I) {
    Out.FromCache += Results[I].FromCache;
    if (Settings.Cache && !Unsettled.count(I))
      storeResult(*Settings.Cache, Files[I], Results[I], Read[I]);
    Final(I, Results[I]);
  }
  if (!Stale.empty())
    Out.Messages.push_back("summaries of " + std::to_string(Stale.size()) +
                           " file(s) not linted now are stale (changed since they were summarized): " +
                           fileList(Stale) + "; lint the whole project to refresh them");
  const bool Buffers = Settings.Overlays && !Settings.Overlays->empty();
  if (!Path.empty() && Changed && !Buffers)
    if (std::string P = storeSummaries(Path, *Summaries); !P.empty())
      Out.Messages.push_back(P);
  Out.Result = combineResults(Files, std::move(Results), Hashes);
  return Out;
}

} // namespace mlperf::lint
