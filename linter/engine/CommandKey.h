#pragma once

#include <string>
#include <vector>

namespace mlperf::lint {

/// \p CommandLine without the flags that only change how clang prints
/// diagnostics (carets, colours): the linter prints its own, so keys of stored
/// results and shared preambles are built from this, and a project whose
/// commands differ only in such flags shares them.
std::vector<std::string> withoutPresentationFlags(std::vector<std::string> CommandLine);

} // namespace mlperf::lint
