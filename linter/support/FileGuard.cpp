#include "support/FileGuard.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mlperf::lint {

uint64_t contentHash(llvm::StringRef Content) {
  return llvm::xxh3_64bits(llvm::arrayRefFromStringRef(Content));
}

std::string normalizedPath(llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

void ContentHashes::record(llvm::StringRef Path, uint64_t Hash) {
  std::lock_guard<std::mutex> G(Lock);
  auto [It, New] = ByPath.try_emplace(normalizedPath(Path), Hash);
  if (!New && It->second != Hash)
    It->second = std::nullopt;
}

std::optional<uint64_t> ContentHashes::lookup(llvm::StringRef Path) const {
  std::lock_guard<std::mutex> G(Lock);
  auto It = ByPath.find(normalizedPath(Path));
  return It == ByPath.end() ? std::nullopt : It->second;
}

namespace {
class RecordingFile : public llvm::vfs::File {
public:
  RecordingFile(std::unique_ptr<llvm::vfs::File> Inner, std::string Path, ContentHashes &Hashes)
      : Inner(std::move(Inner)), Path(std::move(Path)), Hashes(Hashes) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return Inner->status(); }
  llvm::ErrorOr<std::string> getName() override { return Inner->getName(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &Name, int64_t FileSize,
                                                               bool RequiresNullTerminator,
                                                               bool IsVolatile) override {
    auto Buf = Inner->getBuffer(Name, FileSize, RequiresNullTerminator, IsVolatile);
    if (Buf)
      Hashes.record(Path, contentHash((*Buf)->getBuffer()));
    return Buf;
  }
  std::error_code close() override { return Inner->close(); }

private:
  std::unique_ptr<llvm::vfs::File> Inner;
  std::string Path;
  ContentHashes &Hashes;
};

class RecordingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  RecordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base, ContentHashes &Hashes)
      : ProxyFileSystem(std::move(Base)), Hashes(Hashes) {}
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &Path) override {
    auto F = ProxyFileSystem::openFileForRead(Path);
    if (!F)
      return F;
    return std::unique_ptr<llvm::vfs::File>(std::make_unique<RecordingFile>(std::move(*F), Path.str(), Hashes));
  }

private:
  ContentHashes &Hashes;
};

llvm::Error fail(const std::string &Problem) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Problem.c_str());
}

llvm::Error failErrno(const std::string &What) { return fail(What + ": " + std::strerror(errno)); }

class Fd {
public:
  explicit Fd(int N = -1) : N(N) {}
  Fd(const Fd &) = delete;
  Fd &operator=(Fd &&O) {
    reset();
    std::swap(N, O.N);
    return *this;
  }
  ~Fd() { reset(); }
  void reset() {
    if (N >= 0)
      ::close(N);
    N = -1;
  }
  int get() const { return N; }

private:
  int N;
};

bool writeAll(int F, llvm::StringRef Data, off_t At) {
  while (!Data.empty()) {
    ssize_t W = ::pwrite(F, Data.data(), Data.size(), At);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      return false;
    Data = Data.drop_front(W);
    At += W;
  }
  return true;
}

llvm::Expected<std::string> readAll(int F) {
  std::string Out;
  char Buf[65536];
  for (;;) {
    ssize_t R = ::read(F, Buf, sizeof Buf);
    if (R < 0 && errno == EINTR)
      continue;
    if (R < 0)
      return failErrno("cannot read file to fix");
    if (R == 0)
      return Out;
    Out.append(Buf, R);
  }
}

/// Writes a copy with the original's mode and owner next to it and renames
/// it over \p Real; false (nothing changed) when the owner cannot be kept or
/// the directory is not writable.
llvm::Expected<bool> replaceByRename(const std::string &Real, const struct stat &St, llvm::StringRef Content) {
  llvm::SmallString<256> Model(llvm::sys::path::parent_path(Real));
  llvm::sys::path::append(Model, "." + llvm::sys::path::filename(Real) + ".mlperf-lint-%%%%%%");
  int TmpFd;
  llvm::SmallString<256> Tmp;
  if (llvm::sys::fs::createUniqueFile(Model, TmpFd, Tmp, llvm::sys::fs::OF_None, 0600))
    return false;
  Fd Guard(TmpFd);
  auto Discard = [&] { ::unlink(Tmp.c_str()); };
  bool SameOwner = St.st_uid == ::geteuid() && St.st_gid == ::getegid();
  if (::fchown(TmpFd, St.st_uid, St.st_gid) != 0 && !SameOwner) {
    Discard();
    return false;
  }
  if (!writeAll(TmpFd, Content, 0) || ::fchmod(TmpFd, St.st_mode & 07777) != 0 || ::fsync(TmpFd) != 0) {
    llvm::Error E = failErrno("cannot write fixed file");
    Discard();
    return std::move(E);
  }
  if (::rename(Tmp.c_str(), Real.c_str()) != 0) {
    llvm::Error E = failErrno("cannot replace file");
    Discard();
    return std::move(E);
  }
  return true;
}

llvm::Error writeInPlace(const std::string &Real, llvm::StringRef Content) {
  Fd W(::open(Real.c_str(), O_WRONLY | O_CLOEXEC));
  if (W.get() < 0)
    return failErrno("cannot open file for writing");
  // Reserve the space first, so that a full disk leaves the file as it was.
  if (int E = ::posix_fallocate(W.get(), 0, Content.size()); E != 0 && E != EOPNOTSUPP && E != EINVAL) {
    errno = E;
    return failErrno("cannot write fixed file");
  }
  if (!writeAll(W.get(), Content, 0) || ::ftruncate(W.get(), Content.size()) != 0 || ::fsync(W.get()) != 0)
    return failErrno("cannot write fixed file");
  return llvm::Error::success();
}
} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> recordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base,
                                                                     ContentHashes &Hashes) {
  return llvm::makeIntrusiveRefCnt<RecordingFileSystem>(std::move(Base), Hashes);
}

llvm::Error rewriteChecked(llvm::StringRef Path, uint64_t Expected,
                           llvm::function_ref<llvm::Expected<std::string>(llvm::StringRef)> Transform) {
  llvm::SmallString<256> RealBuf;
  if (std::error_code EC = llvm::sys::fs::real_path(Path, RealBuf))
    return fail("cannot resolve path: " + EC.message());
  std::string Real(RealBuf);
  // Another run may rename a fixed copy over the file while this one waits
  // for the lock: then the lock is on the old inode, and is taken again.
  for (int Attempt = 0; Attempt < 8; ++Attempt) {
    Fd F(::open(Real.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (F.get() < 0)
      return failErrno("cannot open file to fix");
    struct stat St, Now;
    if (::fstat(F.get(), &St) != 0)
      return failErrno("cannot stat file to fix");
    if (!S_ISREG(St.st_mode))
      return fail("not a regular file; not fixed");
    if ((St.st_mode & 0222) == 0 || ::access(Real.c_str(), W_OK) != 0)
      return fail("file is read-only; not fixed");
    if (::flock(F.get(), LOCK_EX) != 0)
      return failErrno("cannot lock file");
    if (::stat(Real.c_str(), &Now) != 0)
      return failErrno("cannot stat file to fix");
    if (Now.st_dev != St.st_dev || Now.st_ino != St.st_ino)
      continue;
    auto Current = readAll(F.get());
    if (!Current)
      return Current.takeError();
    if (contentHash(*Current) != Expected)
      return fail("changed since it was linted; not fixed (run mlperf-lint again)");
    auto New = Transform(*Current);
    if (!New)
      return New.takeError();
    if (St.st_nlink == 1) {
      auto Renamed = replaceByRename(Real, St, *New);
      if (!Renamed)
        return Renamed.takeError();
      if (*Renamed)
        return llvm::Error::success();
    }
    return writeInPlace(Real, *New);
  }
  return fail("file keeps being replaced by another process; not fixed");
}

std::string hashText(llvm::StringRef Data) {
  llvm::XXH128_hash_t H = llvm::xxh3_128bits(llvm::arrayRefFromStringRef(Data));
  return llvm::utohexstr(H.high64, /*LowerCase=*/true, 16) + llvm::utohexstr(H.low64, true, 16);
}

std::optional<std::string> fileContentHash(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  return hashText((*Buf)->getBuffer());
}

} // namespace mlperf::lint
