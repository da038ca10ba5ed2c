// The figure `mlperf-lint validate` measured for a check, added to each of
// its findings as a note.
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <string>
#include <vector>

namespace mlperf::lint {

/// Adds the stored measurement of each finding's check, preferring the one
/// on the engine the file uses.
void addMeasuredNotes(std::vector<clang::tidy::ClangTidyError> &Errors);

} // namespace mlperf::lint
