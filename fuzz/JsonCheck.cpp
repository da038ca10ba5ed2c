#include "JsonCheck.h"

#include <nlohmann/json.hpp>

namespace mlperf::fuzz {

bool isJson(const std::string &Text) { return nlohmann::json::accept(Text); }

} // namespace mlperf::fuzz
