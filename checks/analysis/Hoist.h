// Fix-its that move loop-invariant work in front of a loop.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace clang::tidy::mlperf {

/// A variable name based on \p Base that is not used in \p FD's body.
std::string freshName(llvm::StringRef Base, const FunctionDecl *FD, const ASTContext &Ctx);
/// Inserts \p Statement on its own line before \p Loop, at the loop's indentation.
FixItHint insertBefore(const Stmt *Loop, llvm::StringRef Statement, const ASTContext &Ctx);
/// Whether this is the first hoist of an expression computing what \p E
/// computes in front of \p Loop (per AST); a later one is already covered.
bool firstHoistOf(const Expr *E, const Stmt *Loop, const ASTContext &Ctx);
/// The expressions in \p Loop that compute what \p E computes (the same
/// operations on the same declarations), \p E included.
llvm::SmallVector<const Expr *, 2> sameExpressionsIn(const Stmt *Loop, const Expr *E, const ASTContext &Ctx);
/// Removes a statement, and its whole line(s) when nothing else is on them.
std::optional<FixItHint> removeStatement(const Stmt *S, const ASTContext &Ctx);

} // namespace clang::tidy::mlperf
