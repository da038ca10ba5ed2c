// Flags that a project's build files state in plain text, for files linted
// without a compilation database: the language standard, the include
// directories and the definitions of the CMakeLists.txt (or, in a directory
// without one, the Makefile) in the file's directory and each directory above
// it up to the project's root. Little is evaluated: arguments that hold a
// generator expression or a variable other than the source directories
// (${CMAKE_CURRENT_SOURCE_DIR}, ${CMAKE_CURRENT_LIST_DIR},
// ${PROJECT_SOURCE_DIR}, ${CMAKE_SOURCE_DIR}) are ignored; a CMake `if()`
// branch known not to be taken on Linux (`if(WIN32)`, `if(MSVC)`, `if(APPLE
// AND ...)`, an option() at its default OFF, the `else()` of `if(UNIX)`) states
// nothing, and one whose condition is not known (a package found, a
// comparison) is read as if taken; a build file that cannot be read (too
// large, binary, not a regular file) states nothing.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlperf::lint {

struct BuildFileFlags {
  std::string Standard;                 // "c++23", or "" when none is stated
  std::vector<std::string> Includes;    // absolute directories that exist (-I)
  std::vector<std::string> System;      // the same, for -isystem
  std::vector<std::string> Definitions; // "X" or "X=1"
  std::vector<std::string> Sources;     // the build files that stated something, absolute

  bool empty() const { return Standard.empty() && Includes.empty() && System.empty() && Definitions.empty(); }
  /// -std=, -I, -isystem and -D arguments.
  std::vector<std::string> args() const;
  /// "-std=c++23, -I src, -D X", include directories relative to \p Dir when under it.
  std::string describe(llvm::StringRef Dir) const;
};

/// What CMakeLists.txt text \p Text in directory \p Dir states; \p TopDir is
/// the project's top-level source directory (${CMAKE_SOURCE_DIR}).
BuildFileFlags parseCMakeLists(llvm::StringRef Text, llvm::StringRef Dir, llvm::StringRef TopDir);
/// What Makefile text \p Text in directory \p Dir states: the -std=, -I,
/// -isystem and -D arguments of its *FLAGS and INC* variables and of its
/// compiler command lines.
BuildFileFlags parseMakefile(llvm::StringRef Text, llvm::StringRef Dir);

/// Reads the build files that apply to files in \p Dir, a directory under
/// \p Root (both absolute): the nearest directory's standard wins, include
/// directories and definitions of every level are kept, nearest first.
BuildFileFlags buildFileFlags(llvm::StringRef Dir, llvm::StringRef Root);

} // namespace mlperf::lint
