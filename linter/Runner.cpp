#include "Runner.h"

#include "Isolation.h"
#include "Lint.h"

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

RunResult runChecks(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                    const ProviderFactory &Providers, unsigned Jobs,
                    const std::map<std::string, std::string> &Overlays, const FileDone &OnFileDone,
                    const ParseOptions &Parse, ResultCache *Cache, SharedPreambles *Preambles) {
  // Unsaved buffers are neither looked up nor stored: their files' contents
  // on disk are not what is linted.
  if (!Overlays.empty())
    Cache = nullptr, Preambles = nullptr;
  std::vector<std::vector<ClangTidyError>> PerFile(Files.size());
  std::vector<std::optional<std::string>> Crashes(Files.size());
  std::vector<std::string> Incomplete(Files.size());
  std::vector<char> FollowingErrors(Files.size(), 0);
  RunResult Out;
  std::mutex Done;
  auto Finish = [&](size_t I, CachedRun Run) {
    PerFile[I] = std::move(Run.Errors);
    Incomplete[I] = std::move(Run.Incomplete);
    FollowingErrors[I] = Run.FollowingErrors;
    std::lock_guard<std::mutex> Lock(Done);
    llvm::errs() << Run.CompilerStats;
    addStats(Out.Stats, Run.Stats);
  };
  auto RunOne = [&](size_t I) {
    std::string Key = Cache ? Cache->key(Files[I]) : "";
    std::optional<CachedRun> Hit = Key.empty() ? std::nullopt : Cache->lookup(Key, *Out.Hashes);
    if (Hit)
      Finish(I, std::move(*Hit));
    else
      Crashes[I] = runIsolated([&] {
        auto ParseWith = [&](const clang::tooling::CompilationDatabase &Flags, FileRun &Run, ClangTidyStats &Stats) {
          ClangTidyContext Context(Providers());
          auto Read = llvm::makeIntrusiveRefCnt<RecordingFileSystem>(
              recordingFileSystem(llvm::vfs::getRealFileSystem(), *Out.Hashes));
          auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Read);
          if (!Overlays.empty()) {
            auto Buffers = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
            for (const auto &[Path, Text] : Overlays)
              Buffers->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
            FS->pushOverlay(Buffers);
          }
          Run = runTidyOnFile(Context, Flags, Files[I], FS, Parse);
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
        CachedRun Result{std::move(Run.Errors), incompleteMessage(Files[I], Run), Run.FollowingErrors > 0,
                         std::move(Run.CompilerStats), Stats};
        if (!Key.empty())
          Cache->store(Key, Result, Run.MissingIncludes, *Read, P.get());
        Finish(I, std::move(Result));
      });
    std::lock_guard<std::mutex> Lock(Done);
    if (Crashes[I])
      PerFile[I].clear();
    if (OnFileDone)
      OnFileDone(I, PerFile[I]);
  };
  if (Jobs <= 1 || Files.size() <= 1) {
    for (size_t I = 0; I < Files.size(); ++I)
      RunOne(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
    for (size_t I = 0; I < Files.size(); ++I)
      Pool.async([&, I] { RunOne(I); });
    Pool.wait();
  }
  for (size_t I = 0; I < Files.size(); ++I) {
    if (Crashes[I]) {
      PerFile[I].clear();
      Out.Problems.push_back(Files[I] + ": clang crashed while parsing (" + *Crashes[I] + ")");
      Out.Uncompilable.insert(normalizedPath(Files[I]));
    }
    if (FollowingErrors[I])  // headers not found: it did not compile, whatever was reported
      Out.Uncompilable.insert(normalizedPath(Files[I]));
    if (!Incomplete[I].empty())
      Out.Incomplete.push_back(std::move(Incomplete[I]));
    for (const ClangTidyError &E : PerFile[I])
      if (E.DiagLevel == ClangTidyError::Error && !E.IsWarningAsError) {
        Out.Uncompilable.insert(normalizedPath(Files[I]));
        Out.Uncompilable.insert(normalizedPath(E.Message.FilePath));
      }
  }
  std::set<std::tuple<std::string, unsigned, std::string, std::string>> Seen;
  for (auto &Errors : PerFile)
    for (ClangTidyError &E : Errors)
      if (Seen.emplace(E.Message.FilePath, E.Message.FileOffset, E.DiagnosticName, E.Message.Message).second)
        Out.Errors.push_back(std::move(E));
  return Out;
}

} // namespace mlperf::lint
