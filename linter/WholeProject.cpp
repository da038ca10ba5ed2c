#include "WholeProject.h"

#include "Isolation.h"

#include "ProjectScope.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/ThreadPool.h"

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
std::string summaryPath(const std::vector<std::string> &Paths) {
  std::string Dir = cacheDirectory();
  if (Dir.empty())
    return "";
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

void forEachParallel(size_t N, unsigned Jobs, llvm::function_ref<void(size_t)> Fn) {
  if (Jobs <= 1 || N <= 1) {
    for (size_t I = 0; I < N; ++I)
      Fn(I);
    return;
  }
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
  for (size_t I = 0; I < N; ++I)
    Pool.async([&, I] { Fn(I); });
  Pool.wait();
}

std::string fileList(const std::vector<std::string> &Files) {
  std::string Out;
  for (size_t I = 0; I < Files.size() && I < 5; ++I)
    Out += (I ? ", " : "") + Files[I];
  if (Files.size() > 5)
    Out += ", ...";
  return Out;
}
} // namespace

WholeProjectResult prepareWholeProject(const std::vector<std::string> &Roots, const std::vector<std::string> &Files,
                                       const clang::tooling::CompilationDatabase &DB,
                                       const ProviderFactory &Providers, unsigned Jobs, const ParseOptions &Parse) {
  WholeProjectResult Out;
  std::string Path = summaryPath(Roots);
  auto Summaries = std::make_shared<ProjectSummaries>();
  bool Stored = !Path.empty() && llvm::sys::fs::exists(Path);
  if (Stored) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    auto Loaded = Buf ? ProjectSummaries::fromJson((*Buf)->getBuffer(), Path)
                      : llvm::Expected<ProjectSummaries>(llvm::errorCodeToError(Buf.getError()));
    if (Loaded)
      *Summaries = std::move(*Loaded);
    else
      Out.Messages.push_back("ignoring stored summaries: " + llvm::toString(Loaded.takeError()));
  }
  if (Files.size() < 2 && Summaries->files().empty())
    return Out;

  std::set<std::string> Inputs(Files.begin(), Files.end());
  std::vector<std::string> ToSummarize, Stale;
  for (const std::string &F : Files) {
    auto It = Summaries->files().find(F);
    if (It == Summaries->files().end() || !isFresh(It->second))
      ToSummarize.push_back(F);
  }
  for (const auto &[File, S] : Summaries->files())
    if (!Inputs.count(File) && !isFresh(S))
      Stale.push_back(File);
  Out.FromCache = Files.size() - ToSummarize.size();

  auto SummarizeAll = [&](const std::vector<std::string> &List) {
    std::vector<std::optional<FileSummary>> New(List.size());
    forEachParallel(List.size(), Jobs, [&](size_t I) {
      std::optional<FileSummary> Made;
      // A crash (deeply nested code) leaves the file unsummarized; the
      // checks' own run of it reports the crash.
      if (runIsolated([&] {
            clang::tidy::ClangTidyContext Context(Providers());
            auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
            FileSummary S;
            if (!summarizeFile(Context, DB, List[I], FS, Parse, S) && S.Functions.empty())
              return;
            statFile(S.File, S.MTime, S.Size);
            Made = std::move(S);
          }))
        return;
      New[I] = std::move(Made);
    });
    auto Next = std::make_shared<ProjectSummaries>(*Summaries);
    for (auto &S : New)
      if (S)
        Next->add(std::move(*S));
    Next->resolve();
    Summaries = Next;
    setProjectSummaries(Summaries);
    return llvm::count_if(New, [](const auto &S) { return S.has_value(); });
  };
  setProjectSummaries(Summaries);
  Out.Summarized = SummarizeAll(ToSummarize);
  // A file's calls are per step only once the functions it calls from other
  // files are known to run the model: summarize those files once more.
  std::vector<std::string> Again;
  for (const std::string &F : ToSummarize) {
    auto It = Summaries->files().find(F);
    if (It == Summaries->files().end())
      continue;
    bool CallsModel = llvm::any_of(It->second.Functions, [&](const auto &Fn) {
      return llvm::any_of(Fn.second.Callees, [&](const std::string &Usr) {
        const auto *Facts = Summaries->function(Usr);
        return Facts && (Facts->ReachesStep || Facts->Trains);
      });
    });
    if (CallsModel)
      Again.push_back(F);
  }
  if (!Again.empty())
    SummarizeAll(Again);

  if (!Stale.empty())
    Out.Messages.push_back("summaries of " + std::to_string(Stale.size()) +
                           " file(s) not linted now are stale (changed since they were summarized): " +
                           fileList(Stale) + "; lint the whole project to refresh them");
  if (!Path.empty() && Out.Summarized) {
    std::error_code EC = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::string Tmp = Path + "." + std::to_string(llvm::sys::Process::getProcessId()) + ".tmp";
    if (!EC) {
      llvm::raw_fd_ostream OS(Tmp, EC, llvm::sys::fs::OF_Text);
      if (!EC) {
        OS << Summaries->toJson();
        OS.close();
        EC = OS.error();
        OS.clear_error();
      }
    }
    if (!EC)
      EC = llvm::sys::fs::rename(Tmp, Path);
    if (EC)
      Out.Messages.push_back(Path + ": cannot store summaries: " + EC.message());
  }
  return Out;
}

} // namespace mlperf::lint
