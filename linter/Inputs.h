// Turns the paths on the command line into the list of sources to lint.
#pragma once

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace mlperf::lint {

struct InputSet {
  std::vector<std::string> Files;   // absolute, in a stable order
  std::vector<std::string> Errors;  // one line each: "<path>: <problem>"
};

/// Walks directories for C++ sources (and headers when \p WithHeaders),
/// skipping hidden and build directories; checks that files exist, are
/// readable and are text.
InputSet collectInputs(llvm::ArrayRef<std::string> Paths, bool WithHeaders);

} // namespace mlperf::lint
