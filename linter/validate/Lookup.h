// What the stored validation results say about one check: the note a finding
// carries and the result the HTML report shows. Pure functions of a loaded
// ValidationRun (ResultStore.h reads and writes the store).
#pragma once

#include "validate/Results.h"

#include <optional>
#include <string>

namespace mlperf::validate {

/// "measured on the fixture: 3.1x step time, 1 device sync per step vs 0
/// (cpu backend)" for the check's strongest confirmed result; nothing when
/// the check was never validated. \p Engine ("libtorch", "runtime" or empty)
/// is the API of the code the finding is in; that engine's measurement is
/// preferred when there is one.
std::optional<std::string> measuredNote(const ValidationRun &Results, const std::string &Check,
                                        const std::string &Engine = "");
/// The result measuredNote() describes, or null.
const PairResult *measuredResult(const ValidationRun &Results, const std::string &Check,
                                 const std::string &Engine = "");
/// "libtorch, CPU", "cpu backend", "cuda": where a result was measured.
std::string whereMeasured(const PairResult &R);

/// The engine whose fixtures measure code like the file at \p Path, from
/// what it includes: "libtorch", "runtime", "cuda" (the CUDA runtime or
/// cuBLAS) or "".
std::string engineOfSource(const std::string &Path);

} // namespace mlperf::validate
