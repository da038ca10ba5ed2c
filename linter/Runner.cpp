#include "Runner.h"

#include "Lint.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <set>
#include <tuple>

namespace mlperf::lint {

using namespace clang::tidy;

RunResult runChecks(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                    const ProviderFactory &Providers, unsigned Jobs, ResultCache *Cache,
                    SharedPreambles *Preambles) {
  std::vector<std::vector<ClangTidyError>> PerFile(Files.size());
  auto RunOne = [&](size_t I) {
    std::string CacheKey = Cache ? Cache->key(Files[I]) : "";
    if (!CacheKey.empty() && Cache->lookup(CacheKey, PerFile[I]))
      return;
    auto Parse = [&](const clang::tooling::CompilationDatabase &Flags) {
      ClangTidyContext Context(Providers());
      auto Read = llvm::makeIntrusiveRefCnt<RecordingFileSystem>(llvm::vfs::getRealFileSystem());
      auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Read);
      PerFile[I] = runClangTidy(Context, Flags, {Files[I]}, FS, /*ApplyAnyFix=*/true);
      return Read;
    };
    std::shared_ptr<const Preamble> P = Preambles ? Preambles->forFile(Files[I]) : nullptr;
    auto Read = P ? Parse(*SharedPreambles::withPreamble(DB, *P)) : Parse(DB);
    if (P && hasCompilerErrors(PerFile[I])) {
      P.reset();
      Read = Parse(DB);
    }
    if (!CacheKey.empty())
      Cache->store(CacheKey, PerFile[I], *Read, P.get());
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
  RunResult Out;
  std::set<std::tuple<std::string, unsigned, std::string, std::string>> Seen;
  for (auto &Errors : PerFile)
    for (ClangTidyError &E : Errors)
      if (Seen.emplace(E.Message.FilePath, E.Message.FileOffset, E.DiagnosticName, E.Message.Message).second)
        Out.Errors.push_back(std::move(E));
  return Out;
}

} // namespace mlperf::lint
