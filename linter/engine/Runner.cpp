#include "engine/Runner.h"

#include "engine/Isolation.h"
#include "project/Lint.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <optional>
#include <set>
#include <tuple>

namespace mlperf::lint {

using namespace clang::tidy;

namespace {
void addStats(ClangTidyStats &To, const ClangTidyStats &S) {
  To.ErrorsDisplayed += S.ErrorsDisplayed;
  To.ErrorsIgnoredCheckFilter += S.ErrorsIgnoredCheckFilter;
  To.ErrorsIgnoredNOLINT += S.ErrorsIgnoredNOLINT;
  To.ErrorsIgnoredNonUserCode += S.ErrorsIgnoredNonUserCode;
  To.ErrorsIgnoredLineFilter += S.ErrorsIgnoredLineFilter;
}

/// A parse against a preamble is kept only when it is clean: a compiler
/// error, or a header not found (whose following errors are dropped), may
/// come from the preamble and not from the file.
bool clean(const FileRun &Run) {
  return Run.MissingIncludes.empty() && !Run.FollowingErrors && !hasCompilerErrors(Run.Errors);
}
} // namespace

std::vector<FileResult> runFiles(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                                 const ProviderFactory &Providers, const RunSettings &S, ContentHashes &Hashes,
                                 const std::function<void(size_t Index, const FileResult &)> &OnResult) {
  // Unsaved buffers are neither looked up nor stored: their files' contents
  // on disk are not what is linted.
  const bool Buffers = S.Overlays && !S.Overlays->empty();
  ResultCache *Cache = Buffers ? nullptr : S.Cache;
  SharedPreambles *Preambles = Buffers ? nullptr : S.Preambles;
  std::vector<FileResult> Results(Files.size());
  std::mutex Done;
  auto RunOne = [&](size_t I) {
    FileResult &R = Results[I];
    std::optional<std::string> Deps = S.Dependencies ? S.Dependencies(Files[I]) : std::string();
    std::string Key = Cache && Deps ? Cache->key(Files[I], *Deps) : "";
    if (std::optional<CachedRun> Hit = Key.empty() ? std::nullopt : Cache->lookup(Key, Hashes)) {
      R.Run = std::move(*Hit);
      R.FromCache = true;
    } else {
      R.Crash = runIsolated([&] {
        auto ParseWith = [&](const clang::tooling::CompilationDatabase &Flags, FileRun &Run, ClangTidyStats &Stats) {
          ClangTidyContext Context(Providers());
          auto Read = llvm::makeIntrusiveRefCnt<RecordingFileSystem>(
              recordingFileSystem(llvm::vfs::getRealFileSystem(), Hashes));
          auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Read);
          if (Buffers) {
            auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
            for (const auto &[Path, Text] : *S.Overlays)
              Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
            FS->pushOverlay(Memory);
          }
          if (S.Summarize)
            R.Summary.emplace();
          Run = runTidyOnFile(Context, Flags, Files[I], FS, S.Parse, S.Summarize ? &*R.Summary : nullptr);
          Stats = Context.getStats();
          return Read;
        };
        FileRun Run;
        ClangTidyStats Stats;
        std::shared_ptr<const Preamble> P = Preambles ? Preambles->forFile(Files[I]) : nullptr;
        auto Read = P ? ParseWith(*SharedPreambles::withPreamble(DB, *P), Run, Stats) : ParseWith(DB, Run, Stats);
        if (P && !clean(Run)) {
          P.reset();
          Read = ParseWith(DB, Run, Stats);
        }
        if (P)  // what the parse read through the preamble, for --fix
          for (const auto &[Path, Guard] : P->Guards)
            Hashes.record(Path, Guard);
        R.Run = CachedRun{std::move(Run.Errors), incompleteMessage(Files[I], Run), Run.FollowingErrors > 0,
                          std::move(Run.CompilerStats), Stats};
        R.Entry = FileResult::Parsed{std::move(Run.MissingIncludes), Read, std::move(P)};
      });
      if (R.Crash) {
        R.Run = CachedRun();
        R.Summary.reset();
        R.Entry.reset();
      }
    }
    std::lock_guard<std::mutex> Lock(Done);
    if (OnResult)
      OnResult(I, R);
  };
  if (S.Jobs <= 1 || Files.size() <= 1) {
    for (size_t I = 0; I < Files.size(); ++I)
      RunOne(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(S.Jobs));
    for (size_t I = 0; I < Files.size(); ++I)
      Pool.async([&, I] { RunOne(I); });
    Pool.wait();
  }
  return Results;
}

void storeResult(ResultCache &Cache, const std::string &File, const FileResult &R, const std::string &Dependencies) {
  if (!R.Entry || !R.Entry->Read)
    return;
  std::string Key = Cache.key(File, Dependencies);
  if (!Key.empty())
    Cache.store(Key, R.Run, R.Entry->Missing, *R.Entry->Read, R.Entry->P.get());
}

RunResult combineResults(const std::vector<std::string> &Files, std::vector<FileResult> Results,
                         std::shared_ptr<ContentHashes> Hashes) {
  RunResult Out;
  Out.Hashes = std::move(Hashes);
  for (size_t I = 0; I < Files.size(); ++I) {
    FileResult &R = Results[I];
    addStats(Out.Stats, R.Run.Stats);
    if (R.Crash) {
      Out.Problems.push_back(Files[I] + ": clang crashed while parsing (" + *R.Crash + ")");
      Out.Uncompilable.insert(normalizedPath(Files[I]));
    }
    if (R.Run.FollowingErrors)  // headers not found: it did not compile, whatever was reported
      Out.Uncompilable.insert(normalizedPath(Files[I]));
    if (!R.Run.Incomplete.empty())
      Out.Incomplete.push_back(std::move(R.Run.Incomplete));
    for (const ClangTidyError &E : R.Run.Errors)
      if (E.DiagLevel == ClangTidyError::Error && !E.IsWarningAsError) {
        Out.Uncompilable.insert(normalizedPath(Files[I]));
        Out.Uncompilable.insert(normalizedPath(E.Message.FilePath));
      }
  }
  std::set<std::tuple<std::string, unsigned, std::string, std::string>> Seen;
  for (FileResult &R : Results)
    for (ClangTidyError &E : R.Run.Errors)
      if (Seen.emplace(E.Message.FilePath, E.Message.FileOffset, E.DiagnosticName, E.Message.Message).second)
        Out.Errors.push_back(std::move(E));
  return Out;
}

} // namespace mlperf::lint
