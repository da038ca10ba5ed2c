#include "Runner.h"

#include "Isolation.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <set>
#include <tuple>

namespace mlperf::lint {

using namespace clang::tidy;

RunResult runChecks(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                    const ProviderFactory &Providers, unsigned Jobs) {
  RunResult Out;
  std::vector<std::vector<ClangTidyError>> PerFile(Files.size());
  std::vector<std::optional<std::string>> Crashes(Files.size());
  auto RunOne = [&](size_t I) {
    Crashes[I] = runIsolated([&] {
      ClangTidyContext Context(Providers());
      auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
          recordingFileSystem(llvm::vfs::getRealFileSystem(), *Out.Hashes));
      PerFile[I] = runClangTidy(Context, DB, {Files[I]}, FS, /*ApplyAnyFix=*/true);
    });
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
