// --fix, verified before anything is written: the fixed files are linted
// again, in memory, with the run's own flags and configuration; the fixes are
// written only when the result compiles, every fixed finding is gone and no
// finding appeared that was not there before.
#pragma once

#include "findings/Fixes.h"
#include "project/Lint.h"

namespace mlperf::lint {

/// Applies the fixes --fix asks for; called after the report is written, so
/// that the report shows the code the findings are about.
void applyRequestedFixes(const LintRequest &R, LintOutcome &Out);

/// The verifier of \p R's fixes, given what \p Before (the run being fixed)
/// reported.
FixVerifier fixVerifier(const LintRequest &R, const LintOutcome &Before);

/// Why \p After (a lint of the fixed files) refutes the fixes of \p Before,
/// or "" when it does not; \p Fixed are the fixed files.
std::string refutation(const LintOutcome &Before, const LintOutcome &After,
                       const std::map<std::string, std::string> &Fixed);

} // namespace mlperf::lint
