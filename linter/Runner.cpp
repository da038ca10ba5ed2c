#include "Runner.h"

#include "Isolation.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <mutex>
#include <optional>
#include <set>
#include <tuple>

namespace mlperf::lint {

using namespace clang::tidy;

RunResult runChecks(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                    const ProviderFactory &Providers, unsigned Jobs,
                    const std::map<std::string, std::string> &Overlays, const FileDone &OnFileDone,
                    const ParseOptions &Parse) {
  std::vector<std::vector<ClangTidyError>> PerFile(Files.size());
  std::vector<std::optional<std::string>> Crashes(Files.size());
  std::vector<std::string> Incomplete(Files.size());
  std::vector<char> FollowingErrors(Files.size(), 0);
  RunResult Out;
  std::mutex Done;
  auto RunOne = [&](size_t I) {
    Crashes[I] = runIsolated([&] {
      ClangTidyContext Context(Providers());
      auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
          recordingFileSystem(llvm::vfs::getRealFileSystem(), *Out.Hashes));
      if (!Overlays.empty()) {
        auto Buffers = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
        for (const auto &[Path, Text] : Overlays)
          Buffers->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
        FS->pushOverlay(Buffers);
      }
      FileRun Run = runTidyOnFile(Context, DB, Files[I], FS, Parse);
      PerFile[I] = std::move(Run.Errors);
      Incomplete[I] = incompleteMessage(Files[I], Run);
      FollowingErrors[I] = Run.FollowingErrors > 0;
      std::lock_guard<std::mutex> Lock(Done);
      const ClangTidyStats &S = Context.getStats();
      Out.Stats.ErrorsDisplayed += S.ErrorsDisplayed;
      Out.Stats.ErrorsIgnoredCheckFilter += S.ErrorsIgnoredCheckFilter;
      Out.Stats.ErrorsIgnoredNOLINT += S.ErrorsIgnoredNOLINT;
      Out.Stats.ErrorsIgnoredNonUserCode += S.ErrorsIgnoredNonUserCode;
      Out.Stats.ErrorsIgnoredLineFilter += S.ErrorsIgnoredLineFilter;
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
