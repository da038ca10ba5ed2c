// Which headers belong to the project being linted: those under the linted
// roots (the repository around a directory or file given: its .git, else the
// outermost directory above it with a build file, else the directory
// itself or the file's directory), except third-party directories in them. Findings are reported in project headers,
// once; headers outside are libraries, whose costs are reported at the project's call sites.
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace mlperf::lint {

/// The roots of the projects \p Paths belong to, absolute.
std::vector<std::string> projectRoots(llvm::ArrayRef<std::string> Paths);
/// A header filter regex that matches the files under \p Paths' roots.
std::string projectHeaderFilter(llvm::ArrayRef<std::string> Paths);
} // namespace mlperf::lint
