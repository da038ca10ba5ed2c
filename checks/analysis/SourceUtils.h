// Small helpers over source text shared by the checks' fix-its.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <string>

namespace clang::tidy::mlperf {

/// The source text of a node, or "" when it comes from a macro.
std::string sourceText(SourceRange R, const ASTContext &Ctx);
/// The whitespace before the first token on the line of \p Loc.
std::string indentationOf(SourceLocation Loc, const ASTContext &Ctx);
/// Strips parentheses, implicit casts and temporaries.
const Expr *stripWrappers(const Expr *E);
/// Whether every location of the range is outside macros.
bool isMacroFree(SourceRange R);

} // namespace clang::tidy::mlperf
