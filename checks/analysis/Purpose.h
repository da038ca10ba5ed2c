// Why a program pulls a value to the host: to log it, to test a condition, to
// accumulate a metric (avoidable), or because it is the program's output.
#pragma once

#include "ModelAnalysis.h"

namespace clang::tidy::mlperf {

enum class Purpose { Log, Condition, Accumulate, Store, Return, Other };

/// Follows the value of \p E through casts, arithmetic and local variables to
/// the use that explains it. Of several uses, the most "needed" one wins.
Purpose purposeOf(const Expr *E, const ModelAnalysis &A);
llvm::StringRef describe(Purpose P);

} // namespace clang::tidy::mlperf
