// Validation results kept between runs (a JSON file in the user's cache), and
// the note the linter adds to each finding of a validated check.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace mlperf::validate {

/// $MLPERF_LINT_RESULTS, else $XDG_CACHE_HOME/mlperf-lint/validation.json,
/// else ~/.cache/mlperf-lint/validation.json.
std::string defaultResultsPath();

/// Reads stored results; an absent or unreadable file is "no results".
nlohmann::json loadResults(const std::string &Path);
/// Merges \p Run into the stored results (same check, engine and backend are
/// replaced) and writes them atomically. Returns an error message or "".
std::string storeResults(const std::string &Path, const nlohmann::json &Run);

/// "measured on the fixture: 3.1x step time, 1 device sync per step vs 0
/// (cpu backend)" for the check's strongest confirmed result; nothing when
/// the check was never validated. \p Engine ("libtorch", "runtime" or empty)
/// is the API of the code the finding is in; that engine's measurement is
/// preferred when there is one.
std::optional<std::string> measuredNote(const nlohmann::json &Results, const std::string &Check,
                                        const std::string &Engine = "");

/// A one-line description of this machine for the report.
std::string machineDescription();

} // namespace mlperf::validate
