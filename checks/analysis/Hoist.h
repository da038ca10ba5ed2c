// Fix-its that move loop-invariant work in front of a loop.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"

#include <optional>
#include <string>

namespace clang::tidy::mlperf {

/// A variable name based on \p Base that is not used in \p FD's body.
std::string freshName(llvm::StringRef Base, const FunctionDecl *FD, const ASTContext &Ctx);
/// Inserts \p Statement on its own line before \p Loop, at the loop's indentation.
FixItHint insertBefore(const Stmt *Loop, llvm::StringRef Statement, const ASTContext &Ctx);
/// Removes a statement, and its whole line(s) when nothing else is on them.
std::optional<FixItHint> removeStatement(const Stmt *S, const ASTContext &Ctx);

} // namespace clang::tidy::mlperf
