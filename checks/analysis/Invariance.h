// Which values a loop changes: used to hoist work out of loops safely.
#pragma once

#include "ModelAnalysis.h"

namespace clang::tidy::mlperf {

/// Whether \p VD is assigned, incremented, passed by non-const reference,
/// changed in place (a method whose name ends in '_', as libtorch's in-place
/// ops) or declared inside \p Region.
bool isChangedIn(const VarDecl *VD, const Stmt *Region);

/// The outermost loop among \p Loops (innermost first) in which every
/// variable that \p E reads is loop-invariant and declared outside the loop;
/// null when E depends on the innermost loop, or reads or builds a
/// single-pass object (a prefetcher, an iterator): what it yields changes
/// with every use, so no hoist may move it.
const Stmt *outermostInvariantLoop(const Expr *E, llvm::ArrayRef<const Stmt *> Loops, const ApiProfiles &P);

} // namespace clang::tidy::mlperf
