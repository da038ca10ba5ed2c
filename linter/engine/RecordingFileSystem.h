// What a parse read: the files opened and the paths looked for in vain, so
// that the result cache and the shared preamble can tell when it is stale.
#pragma once

#include "llvm/Support/Chrono.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <set>
#include <string>
#include <vector>

namespace mlperf::lint {

/// A file system that records the regular files opened through it, with the
/// modification time each had when it was opened, and the paths it was asked
/// for that do not exist.
class RecordingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  explicit RecordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) : ProxyFileSystem(std::move(FS)) {}
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &Path) override;
  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &Path) override;

  struct Opened {
    std::string Path;
    llvm::sys::TimePoint<> ModTime;
    bool operator<(const Opened &O) const { return Path < O.Path; }
  };
  const std::set<Opened> &opened() const { return Files; }
  const std::set<std::string> &absent() const { return Absent; }
  /// Of absent(), where the headers \p Missing (as spelled: `<gone.h>`,
  /// `"dir/gone.h"`) were looked for, or the first directory of such a path
  /// that was not there: creating one of them changes what a parse reads.
  std::vector<std::string> absentFor(const std::vector<std::string> &Missing) const;

private:
  void recordAbsent(const llvm::Twine &Path, std::error_code EC);
  std::set<Opened> Files;
  std::set<std::string> Absent;
};

/// clang's VFS overlay file \p Path (--vfsoverlay) over \p Base, or an error
/// naming the file and its first problem.
llvm::Expected<llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>>
loadVfsOverlay(const std::string &Path, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

} // namespace mlperf::lint
