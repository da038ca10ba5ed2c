// Small helpers shared by the checks: source text for fix-its, and what an
// expression is once its wrappers are gone (a variable, a constant).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace clang::tidy::mlperf {

/// The source text of a node, or "" when it comes from a macro.
std::string sourceText(SourceRange R, const ASTContext &Ctx);
/// "file.cc:12": the file name and line of \p Loc (of its expansion), for
/// notes and summaries; "" when it has none.
std::string fileLine(SourceLocation Loc, const SourceManager &SM);
/// The whitespace before the first token on the line of \p Loc.
std::string indentationOf(SourceLocation Loc, const ASTContext &Ctx);
/// Whether a comment on the line of \p Loc, or a comment line just above it,
/// contains \p Word (case-insensitive).
bool commentMentions(SourceLocation Loc, llvm::StringRef Word, const SourceManager &SM);
/// Strips parentheses, implicit casts and temporaries.
const Expr *stripWrappers(const Expr *E);
/// stripWrappers, and also functional casts and converting constructions
/// (`Device(kCUDA)` is its argument): what a call's argument is made from.
const Expr *stripConversions(const Expr *E);
/// Whether \p D is declared in a system header (a library: the standard
/// library, libtorch through -isystem), at the expansion of its location.
bool declaredInSystemHeader(const Decl *D);
/// The virtual methods \p MD overrides, directly or not, as canonical
/// declarations, each once, nearest first.
llvm::SmallVector<const CXXMethodDecl *, 4> overriddenTransitively(const CXXMethodDecl *MD);
/// Whether every location of the range is outside macros.
bool isMacroFree(SourceRange R);
/// Whether \p Loc lies within \p Region's source range (its ends included).
bool contains(const Stmt *Region, SourceLocation Loc, const SourceManager &SM);

/// How many of \p Call's arguments come before its callee's parameters: 1 for
/// a member operator call (`f(x)` on a functor, `a == b` on a class), whose
/// argument 0 is the object; 0 otherwise.
unsigned objectArguments(const Expr *Call);
/// The argument a call or construction passes for its callee's parameter
/// \p Param (after objectArguments); for a default argument, its value, or
/// null when \p DefaultValue is false; null when there is none.
const Expr *argumentFor(const Expr *Call, std::optional<unsigned> Param, bool DefaultValue = true);

/// The two operands of an equality test, built-in or overloaded, and whether
/// it tests for equal (`==`) or different (`!=`).
struct Equality {
  const Expr *LHS;
  const Expr *RHS;
  bool Equal;
};
/// \p Cond as an equality test (`a == b`, `a != b`, either built in or a
/// class's `operator==`/`operator!=`), or nullopt.
std::optional<Equality> equalityOperands(const Expr *Cond);

/// The variable \p E names (through casts, temporaries and `&`), or null.
const VarDecl *namedVar(const Expr *E);
/// namedVar(E), or the variable whose element \p E is: `bufs[i]` of an array,
/// or of a container through `operator[]` or `at()`, or the reference a
/// range-for over it declares (`for (auto &b : bufs)`).
const VarDecl *namedVarOrElementOf(const Expr *E);
/// Whether \p S names any of \p Vars.
bool refersToAnyOf(const Stmt *S, llvm::ArrayRef<const VarDecl *> Vars);
/// The return statements in a function body \p Body, in source order, outside the lambdas it defines.
llvm::SmallVector<const ReturnStmt *, 4> returnStatements(const Stmt *Body);
/// Whether the variable is assigned (`v = ...`) anywhere in \p S other than at
/// its declaration.
bool assignsTo(const Stmt *S, const VarDecl *V);
/// Whether the local variable \p V is assigned anywhere in its function after
/// its declaration (true when it has no function to look in).
bool assignedAfterDeclaration(const VarDecl *V);
/// The values assigned to \p V (`V = value`) anywhere in \p S.
llvm::SmallVector<const Expr *, 2> assignedValues(const Stmt *S, const VarDecl *V);
/// The value of a constant integer expression, through const variables.
std::optional<int64_t> constInt(const Expr *E, const ASTContext &Ctx);
/// Whether \p E is a constant (a literal, a constexpr or a const variable
/// initialized with one).
bool isConstant(const Expr *E, const ASTContext &Ctx);
/// The string a constant expression holds (a literal, a std::string built
/// from one, a const variable initialized with one).
std::optional<std::string> constString(const Expr *E);
/// The product of the constant integers in a braced list (a Shape{...} or a
/// kernel size {3, 3}), or of one integer raised to \p Rank.
std::optional<int64_t> constVolume(const Expr *E, unsigned Rank, const ASTContext &Ctx);

} // namespace clang::tidy::mlperf
