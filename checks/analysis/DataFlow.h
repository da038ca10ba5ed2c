// Local data flow and scopes: what flows into an expression through local
// variables, which guards are in scope, what a type mentions.
#pragma once

#include "ModelAnalysis.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <utility>

namespace clang::tidy::mlperf {

/// Whether a no-grad guard (a variable whose type has the no-grad-guard role)
/// is declared before \p S in one of its enclosing blocks, in its function.
bool underNoGradGuard(const Stmt *S, const ModelAnalysis &A);
/// Visits \p E and, through local variables it reads, their initializers
/// (up to a small depth); stops when \p Visit returns true. Returns that node.
const Stmt *findInFlow(const Expr *E, llvm::function_ref<bool(const Stmt *)> Visit, unsigned Depth = 4);
/// The values of the local variable \p V that may reach \p Use: its
/// initializer and the values assigned to it, less those that an assignment
/// made on every path to the use replaces (an assignment that is a statement
/// of a block around the use, unless a loop around the use, not around that
/// assignment, brings later ones back). Structured code only: none, and
/// \p Complete false, when something else may write the variable (its
/// address, a non-const reference or method, a compound assignment, a lambda)
/// or it has no initializer and is not a scalar (a scalar declared without
/// one has no value until it is assigned).
llvm::SmallVector<const Expr *, 4> reachingValues(const VarDecl *V, const Expr *Use, const ModelAnalysis &A,
                                                  bool &Complete);
/// `xs.push_back(x)` and the other calls that add an element to a container.
bool addsElement(const CXXMemberCallExpr *MC);
/// What a container may hold (containerContents).
struct ContainerContents {
  /// The values put in it in its function.
  llvm::SmallVector<const Expr *, 4> Values;
  /// Parameters of functions defined here that receive it by non-const
  /// reference (`filter(boxes)` with `void filter(std::vector<Tensor> &r)`):
  /// what each puts in its parameter is in it too.
  llvm::SmallVector<const ParmVarDecl *, 2> Fillers;
  /// False when something else may put a value in it: a non-const reference
  /// or pointer to it or to an element that goes elsewhere, an iterator, an
  /// insertion of a range, a move.
  bool Complete = false;
};
/// What a local container (`std::vector<Tensor> out;`) or a container
/// parameter receives in its function: the elements its initializer lists or
/// the container it copies, the values added to it (`push_back`,
/// `emplace_back` of one value), assigned to one of its elements (`out[i] =
/// x`, `out.back() = x`) or assigned to it whole (`out = other`), and what
/// the functions it is passed to by reference put in it. A parameter's
/// contents on entry (its call sites' arguments) are not among them. Elements
/// read, sizes queried and the container passed by value or const reference
/// change nothing.
ContainerContents containerContents(const VarDecl *V, const ModelAnalysis &A);
/// The variable \p E's value initializes or is assigned to (`=`, also a
/// class's operator=), through casts, conversions and temporaries; null
/// when it goes elsewhere.
const VarDecl *resultVariable(const Expr *E, const ModelAnalysis &A);
/// The local variable that holds the object \p E builds for no longer than
/// one call of the variable's function: the variable its value initializes
/// (through casts, temporaries and the constructor of an owner such as a
/// `std::unique_ptr` alias), or, when a function returns it, the one local
/// that its only call initializes (up to \p Depth returns: an immediately
/// invoked lambda, a small factory). Null when the object may outlive that
/// call: stored in a field, a global, a static or a container that is not
/// local, moved into a call, released from its owner, or returned from a
/// function other calls or other files use.
const VarDecl *callLocalHolder(const Expr *E, const ModelAnalysis &A, unsigned Depth = 3);
/// The outermost of \p S and the parents above it of a type among \p Ts (the
/// casts and temporaries around a value), and the parent above that: what
/// uses the value.
template <typename... Ts> std::pair<const Stmt *, const Stmt *> climbThrough(const Stmt *S, const ModelAnalysis &A) {
  const Stmt *P = A.parent(S);
  while (P && isa<Ts...>(P)) {
    S = P;
    P = A.parent(P);
  }
  return {S, P};
}

/// The block \p S is a statement of, and that statement: up through what
/// encloses S, out of `do { ... } while (0)` macro bodies, never past a loop
/// (a null Block then, or when S is in no block).
struct BlockItem {
  const CompoundStmt *Block = nullptr;
  Stmt *const *Item = nullptr; // in Block->body()
};
BlockItem blockItemOf(const Stmt *S, const ModelAnalysis &A);

/// Whether \p S is \p Ancestor or inside it (through the analysis' parents).
bool isInside(const Stmt *S, const Stmt *Ancestor, const ModelAnalysis &A);
/// Whether the record type of \p T (after references, pointers) is named \p Name
/// or is a template specialization with a template argument named \p Name.
bool typeMentions(QualType T, llvm::StringRef Name);

/// The first `return`, or `break`/`continue` of \p Region itself, between
/// \p From and \p To; null if none. A `return` whose value holds \p To
/// (`return convert(p);`, a release in the returned expression) leaves after
/// it. A path on which the acquisition failed holds nothing: the branches of
/// an `if` that tests \p Acquire's result (`if (cudaStreamCreate(&s) !=
/// cudaSuccess) return false;`), and the branch where a null test of the
/// handle finds it null (`if (!p) return;`, `if (p == NULL) break;`, the
/// `else` of `if (p)`), whoever acquired it; \p IsHandle says which
/// expressions name the handle. Nor a path on which another allocation
/// failed (out of memory): the branch of an `if` that finds null the pointer
/// an allocation in its condition returns (`if ((d = malloc(n)) == 0)
/// return -1;`), or an error in the status it returns (`if (cudaMalloc(&d,
/// n) != cudaSuccess)`); \p IsAllocation says which calls allocate.
const Stmt *exitBetween(const Stmt *Region, SourceLocation From, SourceLocation To, const SourceManager &SM,
                        const Stmt *Acquire = nullptr, llvm::function_ref<bool(const Expr *)> IsHandle = {},
                        llvm::function_ref<bool(const CallExpr *)> IsAllocation = {});
inline bool exitsBetween(const Stmt *Region, SourceLocation From, SourceLocation To, const SourceManager &SM,
                         const Stmt *Acquire = nullptr, llvm::function_ref<bool(const Expr *)> IsHandle = {},
                         llvm::function_ref<bool(const CallExpr *)> IsAllocation = {}) {
  return exitBetween(Region, From, To, SM, Acquire, IsHandle, IsAllocation) != nullptr;
}

} // namespace clang::tidy::mlperf
