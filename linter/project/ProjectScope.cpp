#include "project/ProjectScope.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <cstdlib>
#include <set>

namespace mlperf::lint {

namespace {
bool hasBuildFile(llvm::StringRef Dir) {
  for (const char *Name : {"CMakeLists.txt", "meson.build", "Makefile", "WORKSPACE", "MODULE.bazel", "BUILD.bazel",
                           "setup.py", "pyproject.toml", "compile_commands.json"})
    if (llvm::sys::fs::exists(Dir + "/" + Name))
      return true;
  return false;
}

/// The repository a path belongs to, so that a project's include/ next to its
/// src/ is the project's: the nearest directory above it with a .git; in a
/// checkout without one (a release tarball, a copied tree), the outermost
/// directory above it that holds a build file, never the home directory or
/// above; else the directory itself.
std::string projectRoot(llvm::StringRef Dir) {
  const char *Home = std::getenv("HOME");
  std::string Outermost;
  for (llvm::SmallString<256> D(Dir); !D.empty() && D != "/"; D = llvm::sys::path::parent_path(D).str()) {
    if (llvm::sys::fs::exists(D + "/.git"))
      return std::string(D);
    if (Home && D == llvm::StringRef(Home).rtrim('/'))
      break;
    if (hasBuildFile(D))
      Outermost = std::string(D);
  }
  return Outermost.empty() ? Dir.str() : Outermost;
}
} // namespace

std::vector<std::string> projectRoots(llvm::ArrayRef<std::string> Paths) {
  std::set<std::string> Roots;
  for (const std::string &P : Paths) {
    llvm::SmallString<256> Abs(P);
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    if (!llvm::sys::fs::is_directory(Abs))
      Abs = llvm::sys::path::parent_path(Abs).str();
    while (Abs.size() > 1 && Abs.back() == '/')
      Abs.pop_back();
    Roots.insert(projectRoot(Abs));
  }
  return {Roots.begin(), Roots.end()};
}

std::string projectHeaderFilter(llvm::ArrayRef<std::string> Paths) {
  std::string Regex;
  for (const std::string &R : projectRoots(Paths))
    Regex += (Regex.empty() ? "" : "|") + llvm::Regex::escape(R == "/" ? "" : R) + "/";
  return Regex.empty() ? "" : "^(" + Regex + ")";
}

} // namespace mlperf::lint
