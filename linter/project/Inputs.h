// Turns the paths on the command line into the list of sources to lint.
#pragma once

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace mlperf::lint {

struct InputOptions {
  bool WithHeaders = false;          // also .h, .hpp, ... found in directories
  std::vector<std::string> Excludes; // globs matched against names and relative paths
};

struct InputSet {
  std::vector<std::string> Files;     // absolute, in a stable order, each file once
  std::vector<std::string> Errors;    // one line each: "<path>: <problem>"
  std::vector<std::string> Skipped;   // "<path>: <why>", for --verbose
  std::vector<std::string> Recovered; // files an interrupted --fix left, put back (recoverInterruptedWrite)
};

/// Walks directories for C++ sources, following symlinks but visiting each
/// directory and file once (by device and inode); skips hidden and build
/// directories, excluded paths and anything that is not a regular file.
/// Checks that files are readable text.
InputSet collectInputs(llvm::ArrayRef<std::string> Paths, const InputOptions &O);

/// Whether a directory walk skips \p Dir: hidden, `build*`, `cmake-build-*`,
/// `_build`, `node_modules`, or holding a `CMakeCache.txt`.
bool isSkippedDirectory(llvm::StringRef Dir);

} // namespace mlperf::lint
