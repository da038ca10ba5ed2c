// The part of JSON Schema draft-04 that the SARIF 2.1.0 schema uses: $ref
// into the document, type, enum, properties, additionalProperties, required,
// items, minItems, uniqueItems, minimum, maximum, oneOf, anyOf, pattern and
// the uri, uri-reference and date-time formats.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mlperf::test {

/// Where \p Instance breaks \p Schema, one line each ("/runs/0/results: ...");
/// empty when it is valid.
std::vector<std::string> validateJson(const nlohmann::json &Instance, const nlohmann::json &Schema);

} // namespace mlperf::test
