// Applies fix-its to files: all of a file's replacements or none of them,
// written atomically (a temporary file renamed over the original).
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <string>
#include <vector>

namespace mlperf::lint {

struct FixResult {
  unsigned Applied = 0;            // fixes applied
  unsigned Skipped = 0;            // fixes that conflicted with another
  std::vector<std::string> Files;  // files rewritten
  std::vector<std::string> Errors;
};

FixResult applyFixes(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors);

} // namespace mlperf::lint
