// One self-contained HTML page (no network): per check, the measured ratio as
// a chart per engine and backend, the counters, and the fixture code side by side.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace mlperf::validate {

std::string renderHtml(const nlohmann::json &Run);

} // namespace mlperf::validate
