#include "engine/RecordingFileSystem.h"

#include "llvm/Support/Path.h"

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

} // namespace mlperf::lint
