// Fix-its that move loop-invariant work in front of a loop.
#pragma once

#include "ModelAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace clang::tidy::mlperf {

/// Forgets the names and insertion slots handed out: called at the start of each translation unit.
void resetHoists();
/// A variable name based on \p Base that is not used in \p FD's body and
/// was not handed out by an earlier call for \p FD (another fix's hoist).
std::string freshName(llvm::StringRef Base, const FunctionDecl *FD, const ASTContext &Ctx);
/// The fix-its that insert \p Statement on its own line before \p Loop, at
/// the loop's indentation. Where a declaration there would change what runs
/// (the loop is the unbraced body of an if, else, loop, case or label, or a
/// statement of a switch's block), braces enclose the statement and the loop.
/// Nothing (no fix) when neither is safe: a second hoist in front of a loop
/// that needs braces, an unknown parent, or names in \p Moved (the moved
/// code) that are declared inside \p Loop.
std::optional<llvm::SmallVector<FixItHint, 3>> hoistBefore(const Stmt *Loop, llvm::StringRef Statement,
                                                           const Stmt *Moved, const ModelAnalysis &A,
                                                           const ASTContext &Ctx);
/// Whether declaring \p VD in front of \p Loop leaves every other use of its
/// name meaning what it meant: no reference between there and the end of the
/// enclosing block names another declaration of that name from outside.
bool hoistKeepsNames(const VarDecl *VD, const Stmt *Loop, const ModelAnalysis &A);
/// Whether this is the first hoist of an expression computing what \p E
/// computes in front of \p Loop (per AST); a later one is already covered.
bool firstHoistOf(const Expr *E, const Stmt *Loop, const ASTContext &Ctx);
/// The expressions in \p Loop that compute what \p E computes (the same
/// operations on the same declarations), \p E included.
llvm::SmallVector<const Expr *, 2> sameExpressionsIn(const Stmt *Loop, const Expr *E, const ASTContext &Ctx);
/// Removes a statement, and its whole line(s) when nothing else is on them;
/// nothing when \p S is not a statement of a block (removing the unbraced
/// body of an if or a loop would make the next statement its body).
std::optional<FixItHint> removeStatement(const Stmt *S, const ModelAnalysis &A, const ASTContext &Ctx);

} // namespace clang::tidy::mlperf
