#include "support/SafeIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace mlperf::lint {
using clang::tidy::mlperf::isInput;

namespace {
llvm::Error fail(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message.str());
}
} // namespace

std::string refusedOutput(llvm::StringRef Path, llvm::StringRef Option) {
  if (Path.empty() || !isInput(Path)) // through symlinks, as a write would go
    return "";
  return (Path + ": " + Option + " names an input file; it is not overwritten").str();
}

llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Option, llvm::StringRef What,
                            llvm::function_ref<void(llvm::raw_ostream &)> Write) {
  if (std::string Refused = refusedOutput(Path, Option); !Refused.empty())
    return fail(Refused);
  std::string CannotWrite = (Path + ": cannot write" + (What.empty() ? "" : " ") + What + ": ").str();
  std::string Target(Path);
  struct stat St;
  bool Exists = ::stat(Target.c_str(), &St) == 0;
  if (Exists && S_ISDIR(St.st_mode))
    return fail(Path + ": " + Option + " names a directory");
  if (Exists && !S_ISREG(St.st_mode)) { // a terminal, a pipe, /dev/null: a stream, written as one
    std::error_code EC;
    llvm::raw_fd_ostream OS(Target, EC, llvm::sys::fs::OF_Text);
    if (!EC) {
      Write(OS);
      OS.close();
      EC = OS.error();
      OS.clear_error();
    }
    return EC ? fail(CannotWrite + EC.message()) : llvm::Error::success();
  }
  if (llvm::SmallString<256> Real; Exists && !llvm::sys::fs::real_path(Path, Real))
    Target = std::string(Real); // a symlink's target is what is replaced
  llvm::SmallString<256> Model(llvm::sys::path::parent_path(Target));
  llvm::sys::path::append(Model, "." + llvm::sys::path::filename(Target) + ".mlperf-lint-%%%%%%");
  auto Temp = llvm::sys::fs::TempFile::create(Model); // removed on SIGINT, SIGTERM and the like
  if (!Temp)
    return fail(CannotWrite + llvm::toString(Temp.takeError()));
  {
    llvm::raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
    Write(OS);
    OS.flush();
    std::error_code EC = OS.error();
    OS.clear_error();
    if (!EC && Exists)
      ::fchmod(Temp->FD, St.st_mode & 07777);
    if (!EC && ::fsync(Temp->FD) != 0)
      EC = std::error_code(errno, std::generic_category());
    if (EC) {
      llvm::consumeError(Temp->discard());
      return fail(CannotWrite + EC.message());
    }
  }
  if (llvm::Error E = Temp->keep(Target)) // keep removes the temporary file when it cannot rename it
    return fail(CannotWrite + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

} // namespace mlperf::lint
