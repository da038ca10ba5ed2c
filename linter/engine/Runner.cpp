#include "engine/Runner.h"

#include "engine/CudaInputs.h"
#include "engine/Interrupt.h"
#include "engine/Isolation.h"
#include "findings/Findings.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>

namespace mlperf::lint {

using namespace clang::tidy;

namespace {
/// The configuration with the checks' `CostFacts` option on: the linter's
/// findings carry the facts its pipeline prices (findings/CostNotes.h);
/// clang-tidy with the plugin, which has no such stage, never sees them.
class WithCostFacts : public ClangTidyOptionsProvider {
public:
  explicit WithCostFacts(std::unique_ptr<ClangTidyOptionsProvider> Inner) : Inner(std::move(Inner)) {}
  const ClangTidyGlobalOptions &getGlobalOptions() override { return Inner->getGlobalOptions(); }
  std::vector<OptionsSource> getRawOptions(llvm::StringRef FileName) override {
    std::vector<OptionsSource> Sources = Inner->getRawOptions(FileName);
    ClangTidyOptions On;
    On.CheckOptions["CostFacts"] = ClangTidyOptions::ClangTidyValue("true");
    Sources.emplace_back(std::move(On), "mlperf-lint cost facts");
    return Sources;
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
};
} // namespace

namespace {
/// One call of runFiles: each file looked up in the cache, else parsed
/// (against its shared preamble when it has a clean one), in isolation.
class FileRunner {
public:
  FileRunner(const clang::tooling::CompilationDatabase &DB, const ProviderFactory &Providers, const RunSettings &S,
             ContentHashes &Hashes)
      : DB(DB), Providers(Providers), S(S), Hashes(Hashes), Buffers(S.Overlays && !S.Overlays->empty()),
        // Unsaved buffers are neither looked up nor stored: their files'
        // contents on disk are not what is linted.
        Cache(Buffers ? nullptr : S.Cache), Preambles(S.Preambles) {}

  void run(const std::string &File, FileResult &R) {
    auto Start = std::chrono::steady_clock::now();
    std::optional<std::string> Deps = S.Dependencies ? S.Dependencies(File) : std::string();
    std::string Key = Cache && Deps ? Cache->key(File, *Deps) : "";
    if (std::optional<CachedRun> Hit = Key.empty() ? std::nullopt : Cache->lookup(Key, Hashes)) {
      R.Run = std::move(*Hit);
      R.Run.FromCache = true;
    } else if (std::optional<std::string> Crash = runIsolated([&] { parse(File, R); })) {
      R.Run = FileFindings();
      R.Run.Crash = std::move(Crash);
      R.Summary.reset();
      R.Entry.reset();
    } else if (S.Parse.Cancelled && S.Parse.Cancelled()) {
      R.Summary.reset(); // a parse that may have stopped early: neither summarized nor stored
      R.Entry.reset();
    }
    R.Run.File = File;
    R.Run.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  }

private:
  bool readsABuffer(const Preamble &P) const {
    return llvm::any_of(P.Inputs, [&](const auto &Input) { return S.Overlays->count(Input.first); });
  }

  void parse(const std::string &File, FileResult &R) {
    FileRun Run;
    ClangTidyStats Stats;
    std::shared_ptr<const Preamble> P = Preambles ? Preambles->forFile(File) : nullptr;
    if (P && Buffers && readsABuffer(*P))
      P.reset(); // precompiled from a file an editor holds changed
    auto Read = P ? parseWith(*SharedPreambles::withPreamble(DB, *P), File, R, Run, Stats, /*AgainstPreamble=*/true)
                  : parseWith(DB, File, R, Run, Stats);
    unsigned Parses = Run.Parses;
    if (P && Run.PreambleMayMatter) {
      P.reset();
      Read = parseWith(DB, File, R, Run, Stats);
      Parses += Run.Parses;
    }
    if (P) // what the parse read through the preamble, for --fix
      for (const auto &[Path, Guard] : P->Guards)
        Hashes.record(Path, Guard);
    R.Run.Errors = std::move(Run.Errors);
    R.Run.Incomplete = incompleteMessage(File, Run);
    R.Run.FollowingErrors = Run.FollowingErrors > 0;
    R.Run.CompilerStats = std::move(Run.CompilerStats);
    R.Run.Stats = Stats;
    R.Run.Parses = Parses;
    R.Entry = FileResult::Parsed{std::move(Run.MissingIncludes), Read, std::move(P)};
  }

  llvm::IntrusiveRefCntPtr<RecordingFileSystem> parseWith(const clang::tooling::CompilationDatabase &Flags,
                                                          const std::string &File, FileResult &R, FileRun &Run,
                                                          ClangTidyStats &Stats, bool AgainstPreamble = false) {
    ClangTidyContext Context(std::make_unique<WithCostFacts>(Providers()));
    if (S.Parse.CheckProfile) {
      Context.setEnableProfiling(true);
      Context.setProfileStoragePrefix(S.Parse.ProfilePrefix);
    }
    // A file system with its own working directory: ClangTool moves it to
    // each command's directory, and the process-wide one would chdir the
    // whole process under the other workers (and under `-o`).
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical =
        cudaSpellingFileSystem(llvm::vfs::createPhysicalFileSystem().release());
    auto Read = llvm::makeIntrusiveRefCnt<RecordingFileSystem>(recordingFileSystem(Physical, Hashes));
    auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Read);
    if (!S.Parse.VfsOverlay.empty()) {
      // Checked when the command line was read; a file changed since then
      // parses without it.
      if (auto Overlay = loadVfsOverlay(S.Parse.VfsOverlay, Read))
        FS->pushOverlay(*Overlay);
      else
        llvm::consumeError(Overlay.takeError());
    }
    if (Buffers) {
      auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
      for (const auto &[Path, Text] : *S.Overlays)
        Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
      FS->pushOverlay(Memory);
    }
    if (S.Summarize)
      R.Summary.emplace();
    Run = runTidyOnFile(Context, Flags, File, FS, S.Parse, S.Summarize ? &*R.Summary : nullptr, AgainstPreamble);
    Stats = Context.getStats();
    return Read;
  }

  const clang::tooling::CompilationDatabase &DB;
  const ProviderFactory &Providers;
  const RunSettings &S;
  ContentHashes &Hashes;
  const bool Buffers;
  ResultCache *Cache;
  SharedPreambles *Preambles;
};
} // namespace

std::vector<FileResult> runFiles(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                                 const ProviderFactory &Providers, const RunSettings &S, ContentHashes &Hashes,
                                 const std::function<void(size_t Index, const FileResult &)> &OnResult) {
  FileRunner Runner(DB, Providers, S, Hashes);
  std::vector<FileResult> Results(Files.size());
  std::mutex Done;
  auto RunOne = [&](size_t I) {
    if (S.Settling)
      S.Settling->start(I);
    if (InterruptibleRun::interrupted())
      Results[I].Skipped = true;
    else
      Runner.run(Files[I], Results[I]);
    if (S.Settling)
      S.Settling->done(I, Results[I].Summary ? &*Results[I].Summary : nullptr);
    std::lock_guard<std::mutex> Lock(Done);
    if (OnResult && !Results[I].Skipped)
      OnResult(I, Results[I]);
  };
  // Settling holds files that wait for others' facts: each needs a thread,
  // while the job slots bound how many parse at once.
  const unsigned Threads = S.Settling ? S.Settling->threads() : S.Jobs;
  if (Threads <= 1 || Files.size() <= 1) {
    for (size_t I = 0; I < Files.size(); ++I)
      RunOne(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(std::min<size_t>(Threads, Files.size())));
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

} // namespace mlperf::lint
