// Where an installed mlperf-lint finds the files it ships (documentation, the
// runtime's headers): next to its executable, never in the checkout it was
// built from unless it runs from that checkout's build.
#pragma once

#include <string>

namespace mlperf::lint {

/// The directory above the one holding this executable (`/usr` for
/// `/usr/bin/mlperf-lint`), computed once; "" when the executable's path is
/// unknown.
const std::string &installPrefix();

} // namespace mlperf::lint
