// Keeping --fix from damaging files: the content each file had when clang
// read it, and a locked read-check-write that keeps the file's identity.
#pragma once

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlperf::lint {

uint64_t contentHash(llvm::StringRef Content);
/// A 128-bit hash of \p Data, in hex; of a file's contents (nullopt when unreadable).
std::string hashText(llvm::StringRef Data);
std::optional<std::string> fileContentHash(llvm::StringRef Path);
/// Absolute, without `.` and `..`; the key under which hashes are recorded.
std::string normalizedPath(llvm::StringRef Path);

/// The content hash of every file clang read, by normalized path. A file read
/// twice with different contents (it changed during the run) has no hash.
class ContentHashes {
public:
  void record(llvm::StringRef Path, uint64_t Hash);
  std::optional<uint64_t> lookup(llvm::StringRef Path) const;

private:
  mutable std::mutex Lock;
  std::map<std::string, std::optional<uint64_t>> ByPath;
};

/// \p Base, recording in \p Hashes the bytes of each file clang reads.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
recordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base, ContentHashes &Hashes);

/// Where an in-place write of \p Real keeps the original content while it
/// runs: "<dir>/.<name>.mlperf-lint-journal".
std::string journalPath(llvm::StringRef Real);
/// Writes the journal of an in-place write of \p Real from \p Original to
/// \p New: a header with the size and hashes of both, then \p Original.
llvm::Error writeJournal(const std::string &Real, llvm::StringRef Original, llvm::StringRef New);
/// Finishes what an interrupted in-place write of \p Path left (the run was
/// killed): a complete journal puts the original content back unless the new
/// content was written whole; an incomplete one (the file was not touched
/// yet) is removed. A line saying what was done, or nothing.
std::optional<std::string> recoverInterruptedWrite(llvm::StringRef Path);
/// recoverInterruptedWrite for each of \p Paths that has a journal.
std::vector<std::string> recoverInterruptedWrites(const std::vector<std::string> &Paths);

/// Rewrites \p Path (through symlinks, to their target) with \p Transform of
/// its current content, under an exclusive advisory lock, only when that
/// content still hashes to \p Expected. Keeps the inode's identity (mode,
/// owner, hard links): a file with one link is replaced by a renamed copy
/// carrying its mode and owner (removed if a signal ends the run), otherwise
/// it is written in place after the space is reserved, with a journal of the
/// original content (see recoverInterruptedWrite) and SIGINT/SIGTERM held
/// back until the file and the journal are consistent. Read-only files are
/// refused. On any error the file is untouched and the message is one line,
/// without the path.
llvm::Error rewriteChecked(llvm::StringRef Path, uint64_t Expected,
                           llvm::function_ref<llvm::Expected<std::string>(llvm::StringRef)> Transform);

} // namespace mlperf::lint
