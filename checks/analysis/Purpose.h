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
/// Like purposeOf, but a value that a per-step helper or lambda returns is
/// followed to its call site, the last of \p CallChain (innermost last).
Purpose purposeThroughCalls(const Expr *E, const ModelAnalysis &A, llvm::ArrayRef<const Expr *> CallChain);

} // namespace clang::tidy::mlperf
