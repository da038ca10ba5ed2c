#include "engine/RecordingFileSystem.h"

#include "analysis/InputFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

namespace mlperf::lint {

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> RecordingFileSystem::openFileForRead(const llvm::Twine &Path) {
  auto F = ProxyFileSystem::openFileForRead(Path);
  if (F) {
    auto St = (*F)->status();
    llvm::SmallString<256> Abs;
    Path.toVector(Abs);
    if (St && St->isRegularFile() && !makeAbsolute(Abs)) {
      // Not "..": a component before it can be a symbolic link.
      llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/false);
      Files.insert({std::string(Abs), St->getLastModificationTime()});
    }
  }
  recordAbsent(Path, F.getError());
  return F;
}

llvm::ErrorOr<llvm::vfs::Status> RecordingFileSystem::status(const llvm::Twine &Path) {
  auto St = ProxyFileSystem::status(Path);
  recordAbsent(Path, St.getError());
  return St;
}

std::vector<std::string> RecordingFileSystem::absentFor(const std::vector<std::string> &Missing) const {
  std::vector<std::string> Out;
  for (const std::string &Name : Missing) {
    llvm::StringRef Spelled = llvm::StringRef(Name).trim("<>\"");
    std::set<std::string> Tails;
    for (size_t Slash = Spelled.find('/'); Slash != llvm::StringRef::npos; Slash = Spelled.find('/', Slash + 1))
      Tails.insert("/" + Spelled.take_front(Slash).str());
    Tails.insert("/" + Spelled.str());
    for (const std::string &Path : Absent)
      if (llvm::any_of(Tails, [&](const std::string &T) { return llvm::StringRef(Path).ends_with(T); }))
        Out.push_back(Path);
  }
  return Out;
}

void RecordingFileSystem::recordAbsent(const llvm::Twine &Path, std::error_code EC) {
  if (EC != std::errc::no_such_file_or_directory)
    return;
  llvm::SmallString<256> Abs;
  Path.toVector(Abs);
  if (makeAbsolute(Abs))
    return;
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/false);
  Absent.insert(std::string(Abs));
}

llvm::Expected<llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>>
loadVfsOverlay(const std::string &Path, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base) {
  auto Buf = clang::tidy::mlperf::readStructuredFile(Path, "the VFS overlay");
  if (!Buf)
    return Buf.takeError();
  std::string Problem;
  auto Keep = [](const llvm::SMDiagnostic &D, void *Context) {
    auto &P = *static_cast<std::string *>(Context);
    if (P.empty())
      P = "line " + std::to_string(D.getLineNo()) + ": " + D.getMessage().str();
  };
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS =
      llvm::vfs::getVFSFromYAML(std::move(*Buf), Keep, Path, &Problem, std::move(Base));
  if (!FS)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: invalid VFS overlay: %s", Path.c_str(),
                                   Problem.empty() ? "not a clang VFS overlay" : Problem.c_str());
  return FS;
}

} // namespace mlperf::lint
