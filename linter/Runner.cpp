#include "Runner.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <set>
#include <tuple>

namespace mlperf::lint {

using namespace clang::tidy;

RunResult runChecks(const std::vector<std::string> &Files, const clang::tooling::CompilationDatabase &DB,
                    const ProviderFactory &Providers, unsigned Jobs, const ParseOptions &Parse) {
  std::vector<std::vector<ClangTidyError>> PerFile(Files.size());
  std::vector<std::string> Incomplete(Files.size());
  auto RunOne = [&](size_t I) {
    ClangTidyContext Context(Providers());
    auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
    FileRun Run = runTidyOnFile(Context, DB, Files[I], FS, Parse);
    PerFile[I] = std::move(Run.Errors);
    Incomplete[I] = incompleteMessage(Files[I], Run);
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
  for (std::string &Line : Incomplete)
    if (!Line.empty())
      Out.Incomplete.push_back(std::move(Line));
  std::set<std::tuple<std::string, unsigned, std::string, std::string>> Seen;
  for (auto &Errors : PerFile)
    for (ClangTidyError &E : Errors)
      if (Seen.emplace(E.Message.FilePath, E.Message.FileOffset, E.DiagnosticName, E.Message.Message).second)
        Out.Errors.push_back(std::move(E));
  return Out;
}

} // namespace mlperf::lint
