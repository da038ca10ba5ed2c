// One self-contained HTML page (no network): the measured ratio of every
// pair on a log axis, then per check its engines and backends, the counters,
// the fixture code side by side and the check's documentation.
#pragma once

#include "validate/Results.h"

#include <string>

namespace mlperf::validate {

/// \p Run's results, in report order (sortForReport()).
std::string renderHtml(const ValidationRun &Run);

} // namespace mlperf::validate
