// Validation results kept between runs (a JSON file in the user's cache), and
// the note the linter adds to each finding of a validated check.
#pragma once

#include "validate/Lookup.h"
#include "validate/Results.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlperf::validate {

/// The directory the default results file lives in: $XDG_CACHE_HOME/mlperf-lint,
/// else ~/.cache/mlperf-lint, else /tmp/mlperf-lint.
std::string cacheDir();
/// $MLPERF_LINT_RESULTS, else cacheDir()/validation.json.
std::string defaultResultsPath();

/// Reads stored results; an absent file is an empty run, a damaged one an
/// error naming the file and the field.
llvm::Expected<ValidationRun> loadResults(const std::string &Path);
/// The results in \p Path (default: the stored results at defaultResultsPath()) for the linter: a damaged store
/// is one warning on \p Warnings and then treated as empty.
ValidationRun storedResults(llvm::raw_ostream &Warnings, const std::string &Path = "");

/// Whether \p Path can be written without creating directories other than
/// cacheDir(): "" or the problem.
std::string checkResultsPath(const std::string &Path);
/// Merges \p Run into the stored results (same check, engine and backend are
/// replaced) and writes them atomically. A damaged store is replaced. Returns
/// an error message or "".
std::string storeResults(const std::string &Path, const ValidationRun &Run);

/// A one-line description of this machine for the report.
std::string machineDescription();

} // namespace mlperf::validate
