#include "Inputs.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

namespace mlperf::lint {

namespace {
bool isSource(llvm::StringRef Path, bool WithHeaders) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  for (const char *E : {".cc", ".cpp", ".cxx", ".c++", ".cu"})
    if (Ext == E)
      return true;
  if (WithHeaders)
    for (const char *E : {".h", ".hh", ".hpp", ".hxx", ".cuh"})
      if (Ext == E)
        return true;
  return false;
}

bool isSkippedDirectory(llvm::StringRef Dir) {
  llvm::StringRef Name = llvm::sys::path::filename(Dir);
  if (Name.starts_with(".") && Name != "." && Name != "..")
    return true;
  if (Name == "build" || Name.starts_with("build-") || Name.starts_with("cmake-build-") || Name == "_build" ||
      Name == "node_modules")
    return true;
  return llvm::sys::fs::exists(Dir + "/CMakeCache.txt");
}

/// Empty when the file is a readable text file, else the problem.
std::string checkFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return "cannot read file: " + Buf.getError().message();
  llvm::StringRef Data = (*Buf)->getBuffer();
  if (Data.take_front(8192).contains('\0'))
    return "not a text file (binary content)";
  return "";
}
} // namespace

InputSet collectInputs(llvm::ArrayRef<std::string> Paths, bool WithHeaders) {
  InputSet Out;
  std::set<std::string> Seen;
  auto Add = [&](const std::string &P) {
    llvm::SmallString<256> Abs(P);
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    if (!Seen.insert(std::string(Abs)).second)
      return;
    if (std::string Problem = checkFile(std::string(Abs)); !Problem.empty())
      Out.Errors.push_back(P + ": " + Problem);
    else
      Out.Files.push_back(std::string(Abs));
  };
  for (const std::string &P : Paths) {
    llvm::sys::fs::file_status Status;
    if (std::error_code EC = llvm::sys::fs::status(P, Status)) {
      Out.Errors.push_back(P + ": no such file or directory");
      continue;
    }
    if (!llvm::sys::fs::is_directory(Status)) {
      Add(P);
      continue;
    }
    std::vector<std::string> Found;
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(P, EC), End; It != End && !EC; It.increment(EC)) {
      if (It->type() == llvm::sys::fs::file_type::directory_file) {
        if (isSkippedDirectory(It->path()))
          It.no_push();
        continue;
      }
      if (isSource(It->path(), WithHeaders))
        Found.push_back(It->path());
    }
    if (EC)
      Out.Errors.push_back(P + ": cannot walk directory: " + EC.message());
    std::sort(Found.begin(), Found.end());
    for (const std::string &F : Found)
      Add(F);
  }
  return Out;
}

} // namespace mlperf::lint
