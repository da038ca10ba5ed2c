// What the line-filter and baseline targets filter: a small source file in a
// directory of its own (per process, in /dev/shm when there is one), and
// findings at places in it, past its end and in other files.
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlperf::fuzz {

/// The directory, created once, with `s.cc` in it.
const std::string &filterDir();
/// Findings of two checks in `<filterDir>/s.cc` (every line, past the end),
/// in a file that does not exist, and one compiler error.
std::vector<clang::tidy::ClangTidyError> sampleFindings();
/// Writes \p Data to `<filterDir>/<Name>` and returns its path.
std::string writeFilterInput(const uint8_t *Data, size_t Size, const char *Name);

} // namespace mlperf::fuzz
