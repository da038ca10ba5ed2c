// `mlperf-lint --format=html`: one self-contained page for a project's
// findings, ordered by what each check measurably costs on this machine (the
// stored `validate` results), with the code, the notes, the fix-it as a diff,
// and filters by check and file. Same input, same bytes.
#pragma once

#include "report/Cost.h"
#include "validate/Results.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/raw_ostream.h"

namespace mlperf::lint {

/// With \p Costs, the checks and findings whose estimated cost is highest
/// come first, and the summary says what fixing each check would save.
void writeHtmlFindings(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors,
                       const ::mlperf::validate::ValidationRun &Measured, llvm::raw_ostream &OS,
                       const CostTable *Costs = nullptr);

/// A unified diff (2 lines of context) from \p Old to \p New, or "" when equal.
std::string lineDiff(llvm::StringRef Old, llvm::StringRef New);

} // namespace mlperf::lint
