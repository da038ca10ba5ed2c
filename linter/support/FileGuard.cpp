#include "support/FileGuard.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mlperf::lint {

uint64_t contentHash(llvm::StringRef Content) { return llvm::xxh3_64bits(llvm::arrayRefFromStringRef(Content)); }

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
                                                               bool RequiresNullTerminator, bool IsVolatile) override {
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
  llvm::sys::RemoveFileOnSignal(Tmp); // Ctrl-C leaves no hidden copy behind
  auto Discard = [&] {
    ::unlink(Tmp.c_str());
    llvm::sys::DontRemoveFileOnSignal(Tmp);
  };
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
  llvm::sys::DontRemoveFileOnSignal(Tmp);
  return true;
}

/// Holds SIGINT, SIGTERM and SIGHUP back while it lives: LLVM's handler calls
/// the interrupt function instead of ending the run, and the signal is raised
/// again (now with its default action) when the guard ends. A second signal
/// or SIGKILL meanwhile ends the run: the journal covers that.
class HoldInterrupts {
public:
  HoldInterrupts() {
    Pending = 0;
    llvm::sys::SetInterruptFunction(&onInterrupt);
  }
  ~HoldInterrupts() {
    llvm::sys::SetInterruptFunction(nullptr);
    if (Pending)
      ::raise(SIGINT);
  }

private:
  static void onInterrupt() { Pending = 1; }
  static volatile std::sig_atomic_t Pending;
};
volatile std::sig_atomic_t HoldInterrupts::Pending = 0;

constexpr llvm::StringLiteral JournalMagic = "mlperf-lint-journal 1";

struct JournalHeader {
  uint64_t Size = 0, Original = 0, New = 0;
};

/// Writes \p Content over the file open as \p F; false with errno set.
bool overwrite(int F, llvm::StringRef Content) {
  return writeAll(F, Content, 0) && ::ftruncate(F, Content.size()) == 0 && ::fsync(F) == 0;
}

void syncDirectoryOf(llvm::StringRef Path) {
  Fd D(::open(std::string(llvm::sys::path::parent_path(Path)).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (D.get() >= 0)
    (void)::fsync(D.get());
}

llvm::Error writeInPlace(const std::string &Real, llvm::StringRef Original, llvm::StringRef Content) {
  Fd W(::open(Real.c_str(), O_WRONLY | O_CLOEXEC));
  if (W.get() < 0)
    return failErrno("cannot open file for writing");
  HoldInterrupts Hold;
  if (llvm::Error E = writeJournal(Real, Original, Content))
    return E;
  std::string Journal = journalPath(Real);
  auto DropJournal = [&] {
    ::unlink(Journal.c_str());
    syncDirectoryOf(Journal);
  };
  // Reserve the space first, so that a full disk leaves the file as it was.
  if (int E = ::posix_fallocate(W.get(), 0, Content.size()); E != 0 && E != EOPNOTSUPP && E != EINVAL) {
    errno = E;
    llvm::Error Err = failErrno("cannot write fixed file");
    DropJournal();
    return Err;
  }
  if (!overwrite(W.get(), Content)) {
    llvm::Error Err = failErrno("cannot write fixed file");
    if (!overwrite(W.get(), Original)) // the journal stays: the next run restores the file
      return Err;
    DropJournal();
    return Err;
  }
  DropJournal();
  return llvm::Error::success();
}

std::optional<JournalHeader> parseJournal(llvm::StringRef Text, llvm::StringRef &Body) {
  auto [Line, Rest] = Text.split('\n');
  llvm::SmallVector<llvm::StringRef, 4> Fields;
  Line.split(Fields, ' ');
  JournalHeader H;
  if (!Line.consume_front(JournalMagic) || Fields.size() != 5 || Fields[2].getAsInteger(10, H.Size) ||
      Fields[3].getAsInteger(16, H.Original) || Fields[4].getAsInteger(16, H.New) || Rest.size() != H.Size ||
      contentHash(Rest) != H.Original)
    return std::nullopt;
  Body = Rest;
  return H;
}
} // namespace

std::string journalPath(llvm::StringRef Real) {
  llvm::SmallString<256> P(llvm::sys::path::parent_path(Real));
  llvm::sys::path::append(P, "." + llvm::sys::path::filename(Real) + ".mlperf-lint-journal");
  return std::string(P);
}

llvm::Error writeJournal(const std::string &Real, llvm::StringRef Original, llvm::StringRef New) {
  std::string Path = journalPath(Real);
  Fd J(::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  if (J.get() < 0)
    return failErrno("cannot write the journal of the fix");
  std::string Header = (JournalMagic + " " + llvm::Twine(Original.size()) + " " +
                        llvm::utohexstr(contentHash(Original)) + " " + llvm::utohexstr(contentHash(New)) + "\n")
                           .str();
  if (!writeAll(J.get(), Header, 0) || !writeAll(J.get(), Original, Header.size()) || ::fsync(J.get()) != 0) {
    llvm::Error E = failErrno("cannot write the journal of the fix");
    ::unlink(Path.c_str());
    return E;
  }
  syncDirectoryOf(Path);
  return llvm::Error::success();
}

std::optional<std::string> recoverInterruptedWrite(llvm::StringRef Path) {
  llvm::SmallString<256> RealBuf;
  if (llvm::sys::fs::real_path(Path, RealBuf))
    return std::nullopt;
  std::string Real(RealBuf), Journal = journalPath(Real);
  Fd J(::open(Journal.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (J.get() < 0)
    return std::nullopt;
  auto Text = readAll(J.get());
  if (!Text) {
    llvm::consumeError(Text.takeError());
    return std::nullopt;
  }
  llvm::StringRef Original;
  std::optional<JournalHeader> H = parseJournal(*Text, Original);
  std::string Said = Path.str() + ": a fix of it was interrupted: ";
  if (!H) { // cut off while it was written: the file was not touched yet
    ::unlink(Journal.c_str());
    return Said + "its file was not changed; the incomplete journal was removed";
  }
  Fd F(::open(Real.c_str(), O_RDWR | O_CLOEXEC | O_NONBLOCK));
  if (F.get() < 0)
    return Said + "cannot restore it: " + std::strerror(errno) + " (the original is in " + Journal + ")";
  auto Current = readAll(F.get());
  if (!Current) {
    llvm::consumeError(Current.takeError());
    return Said + "cannot read it (the original is in " + Journal + ")";
  }
  if (contentHash(*Current) == H->New || contentHash(*Current) == H->Original) {
    ::unlink(Journal.c_str());
    return std::nullopt; // the write had finished (or not begun): nothing to restore
  }
  if (!overwrite(F.get(), Original))
    return Said + "cannot restore it: " + std::strerror(errno) + " (the original is in " + Journal + ")";
  ::unlink(Journal.c_str());
  return Said + "restored the content it had before that run";
}

std::vector<std::string> recoverInterruptedWrites(const std::vector<std::string> &Paths) {
  std::vector<std::string> Out;
  for (const std::string &P : Paths) {
    struct stat St;
    if (::stat(journalPath(P).c_str(), &St) == 0) // cheap for the usual case: no journal
      if (std::optional<std::string> Said = recoverInterruptedWrite(P))
        Out.push_back(std::move(*Said));
  }
  return Out;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
recordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base, ContentHashes &Hashes) {
  return llvm::makeIntrusiveRefCnt<RecordingFileSystem>(std::move(Base), Hashes);
}

llvm::Error rewriteChecked(llvm::StringRef Path, uint64_t Expected,
                           llvm::function_ref<llvm::Expected<std::string>(llvm::StringRef)> Transform) {
  llvm::SmallString<256> RealBuf;
  if (std::error_code EC = llvm::sys::fs::real_path(Path, RealBuf))
    return fail("cannot resolve path: " + EC.message());
  std::string Real(RealBuf);
  if (std::optional<std::string> Said = recoverInterruptedWrite(Real))
    return fail(*Said + "; not fixed (run mlperf-lint again)");
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
    return writeInPlace(Real, *Current, *New);
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
