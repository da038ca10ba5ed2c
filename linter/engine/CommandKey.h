#pragma once

#include <string>
#include <vector>

namespace mlperf::lint {

/// \p CommandLine without the flags that only change how diagnostics are
/// printed (carets, colours). Keys of stored results and shared preambles are
/// built from this, so that a run with `--quiet` (which turns carets off to
/// silence clang's "N warnings generated") and one without find each other's
/// preamble and cached results.
std::vector<std::string> withoutPresentationFlags(std::vector<std::string> CommandLine);

/// Whether clang prints carets, and so its "N warnings generated" counts, for
/// \p CommandLine: a result stored by a run with carets keeps those counts,
/// which a replay for a run without them must not print.
bool showsCarets(const std::vector<std::string> &CommandLine);

} // namespace mlperf::lint
