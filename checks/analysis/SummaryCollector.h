// Builds the whole-project summary of one translation unit (ProjectSummaries.h)
// from its model analysis.
#pragma once

#include "ProjectSummaries.h"

#include "clang/AST/DeclBase.h"

namespace clang::tidy::mlperf {

class ModelAnalysis;

/// The USR of a declaration, or "" when it has none: the key of a function
/// in the summaries.
std::string usrOf(const Decl *D);

/// Summarizes the project code of one translation unit.
FileSummary summarize(ModelAnalysis &A, llvm::StringRef MainFile);

} // namespace clang::tidy::mlperf
