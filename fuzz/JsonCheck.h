// Checks of a fuzz target's output, compiled without coverage instrumentation:
// the parser that reads a writer's output back is not what is fuzzed, so its
// branches must not steer libFuzzer or cost it time.
#pragma once

#include <string>

namespace mlperf::fuzz {

/// Whether \p Text is one complete JSON document.
bool isJson(const std::string &Text);

} // namespace mlperf::fuzz
