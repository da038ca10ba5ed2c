#include "project/Inputs.h"
#include "support/FileGuard.h"
#include "support/SafeIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace mlperf::lint {

namespace {
bool isSource(llvm::StringRef Path, bool WithHeaders) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  for (const char *E : {".cc", ".cpp", ".cxx", ".c++", ".cu", ".c"})
    if (Ext == E)
      return true;
  if (WithHeaders)
    for (const char *E : {".h", ".hh", ".hpp", ".hxx", ".cuh"})
      if (Ext == E)
        return true;
  return false;
}

/// Empty when the regular file \p Path is readable text, else the problem.
/// Opened without blocking, in case it was replaced by a FIFO meanwhile.
std::string checkFile(const std::string &Path) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0)
    return std::string("cannot read file: ") + std::strerror(errno);
  struct stat St;
  std::string Problem;
  char Head[8192];
  ssize_t N = 0;
  if (::fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode))
    Problem = "not a regular file";
  else if (static_cast<uint64_t>(St.st_size) > MaxSourceBytes)
    Problem = "larger than " + std::to_string(MaxSourceBytes >> 20) + " MB; not linted";
  else if ((N = ::read(Fd, Head, sizeof Head)) < 0)
    Problem = std::string("cannot read file: ") + std::strerror(errno);
  else if (llvm::StringRef(Head, N).contains('\0'))
    Problem = "not a text file (binary content)";
  ::close(Fd);
  return Problem;
}

using Identity = std::pair<dev_t, ino_t>;

class Walker {
public:
  Walker(const InputOptions &O, InputSet &Out) : O(O), Out(Out) {
    for (const std::string &G : O.Excludes)
      if (auto P = llvm::GlobPattern::create(G))
        Excludes.push_back(std::move(*P));
      else
        Out.Errors.push_back("--exclude=" + G + ": " + llvm::toString(P.takeError()));
  }

  void add(const std::string &Arg) {
    struct stat St;
    if (::stat(Arg.c_str(), &St) != 0) {
      Out.Errors.push_back(
          Arg + (errno == ENOENT ? ": no such file or directory" : std::string(": ") + std::strerror(errno)));
      return;
    }
    if (excluded(Arg, llvm::sys::path::filename(Arg))) {
      Out.Skipped.push_back(Arg + ": excluded");
      return;
    }
    if (S_ISDIR(St.st_mode)) {
      std::vector<std::string> Found;
      walk(Arg, "", St, Found);
      std::sort(Found.begin(), Found.end());
      for (const std::string &F : Found)
        addFile(F, Arg);
      return;
    }
    if (!S_ISREG(St.st_mode)) {
      Out.Errors.push_back(Arg + ": not a regular file");
      return;
    }
    addFile(Arg, Arg, &St);
  }

private:
  /// Globs match the name, the path below the walked directory, or the path
  /// as walked (`src/gen/*`).
  bool excluded(llvm::StringRef Rel, llvm::StringRef Name, llvm::StringRef Path = "") const {
    return llvm::any_of(Excludes, [&](const llvm::GlobPattern &G) {
      return G.match(Name) || G.match(Rel) || (!Path.empty() && G.match(Path));
    });
  }

  void walk(const std::string &Dir, const std::string &Rel, const struct stat &St, std::vector<std::string> &Found) {
    if (!VisitedDirs.insert({St.st_dev, St.st_ino}).second) {
      Out.Skipped.push_back(Dir + ": directory already visited (a symlink loop or a second link)");
      return;
    }
    DIR *D = ::opendir(Dir.c_str());
    if (!D) {
      Out.Errors.push_back(Dir + ": cannot read directory: " + std::strerror(errno));
      return;
    }
    std::vector<std::string> Names;
    while (dirent *E = ::readdir(D))
      if (std::strcmp(E->d_name, ".") && std::strcmp(E->d_name, ".."))
        Names.push_back(E->d_name);
    ::closedir(D);
    std::sort(Names.begin(), Names.end());
    for (const std::string &Name : Names) {
      std::string Path = Dir + "/" + Name, ChildRel = Rel.empty() ? Name : Rel + "/" + Name;
      struct stat C;
      if (::stat(Path.c_str(), &C) != 0) {
        Out.Skipped.push_back(Path + ": " + std::strerror(errno));
        continue;
      }
      if (excluded(ChildRel, Name, Path)) {
        Out.Skipped.push_back(Path + ": excluded");
      } else if (S_ISDIR(C.st_mode)) {
        if (isSkippedDirectory(Path))
          Out.Skipped.push_back(Path + ": hidden or build directory");
        else
          walk(Path, ChildRel, C, Found);
      } else if (!isSource(Name, O.WithHeaders)) {
        continue;
      } else if (!S_ISREG(C.st_mode)) {
        Out.Skipped.push_back(Path + ": not a regular file");
      } else {
        Found.push_back(Path);
      }
    }
  }

  void addFile(const std::string &Path, const std::string &Shown, const struct stat *Known = nullptr) {
    struct stat St;
    if (!Known && ::stat(Path.c_str(), &St) == 0)
      Known = &St;
    if (Known && !SeenFiles.insert({Known->st_dev, Known->st_ino}).second) {
      Out.Skipped.push_back(Path + ": already linted through another path");
      return;
    }
    llvm::SmallString<256> Abs(Path);
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    // Before the content is checked: a killed in-place write leaves NUL bytes.
    for (std::string &Said : recoverInterruptedWrites({std::string(Abs)}))
      Out.Recovered.push_back(std::move(Said));
    if (std::string Problem = checkFile(std::string(Abs)); !Problem.empty())
      Out.Errors.push_back((Path == Shown ? Shown : Path) + ": " + Problem);
    else
      Out.Files.push_back(std::string(Abs));
  }

  const InputOptions &O;
  InputSet &Out;
  std::vector<llvm::GlobPattern> Excludes;
  std::set<Identity> VisitedDirs, SeenFiles;
};
} // namespace

bool isSkippedDirectory(llvm::StringRef Dir) {
  llvm::StringRef Name = llvm::sys::path::filename(Dir);
  if (Name.starts_with(".") && Name != "." && Name != "..")
    return true;
  if (Name.starts_with("build") || Name.starts_with("cmake-build-") || Name == "_build" || Name == "node_modules")
    return true;
  return llvm::sys::fs::exists(Dir + "/CMakeCache.txt");
}

InputSet collectInputs(llvm::ArrayRef<std::string> Paths, const InputOptions &O) {
  InputSet Out;
  Walker W(O, Out);
  for (const std::string &P : Paths)
    W.add(P);
  return Out;
}

} // namespace mlperf::lint
