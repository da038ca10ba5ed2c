#include "CompileInLoopCheck.h"
#include "analysis/Hoist.h"
#include "analysis/Invariance.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void CompileInLoopCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Construct), isInModelLoop(this)).bind("e"),
      this);
  Finder->addMatcher(cxxConstructExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Construct),
                                      isInModelLoop(this))
                         .bind("e"),
                     this);
}

/// The declaration statement that the construction initializes, when the
/// statement can be moved as a whole (one variable, only blocks up to the loop).
static const DeclStmt *movableDeclaration(const Expr *E, const Stmt *Loop, const ModelAnalysis &A) {
  const Stmt *S = E;
  const Stmt *P = A.parent(S);
  while (P && isa<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ImplicitCastExpr,
                  CXXConstructExpr, CXXFunctionalCastExpr>(P)) {
    S = P;
    P = A.parent(P);
  }
  const auto *DS = dyn_cast_or_null<DeclStmt>(P);
  if (!DS || !DS->isSingleDecl())
    return nullptr;
  for (const Stmt *Up = A.parent(DS); Up && Up != Loop; Up = A.parent(Up))
    if (!isa<CompoundStmt>(Up) && !A.isLoop(Up))
      return nullptr;
  return DS;
}

/// Whether a call with the release role in \p Region releases \p VD: the
/// construction cannot move out of a loop that releases it every iteration.
static bool releasedIn(const VarDecl *VD, const Stmt *Region, const ModelAnalysis &A) {
  if (!Region)
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(Region))
    if (std::optional<RoleMatch> M = A.role(CE); M && M->R == Role::Release) {
      unsigned Arg = M->Entry->HandleArg ? *M->Entry->HandleArg : 0;
      if (Arg < CE->getNumArgs() && namedVar(CE->getArg(Arg)) == VD)
        return true;
    }
  return llvm::any_of(Region->children(), [&](const Stmt *C) { return releasedIn(VD, C, A); });
}

void CompileInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *E = Result.Nodes.getNodeAs<Expr>("e");
  ModelAnalysis &A = analysis(*Result.Context);
  std::optional<HotContext> Hot = A.inModelLoop(E);
  std::optional<RoleMatch> M = A.role(E);
  if (!Hot || !M || profiles().findType(E->getType(), Role::SinglePass))
    return;  // a single-pass object (a prefetcher) is built anew for every pass
  const SourceManager &SM = *Result.SourceManager;
  std::string What;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    What = "'" + CE->getType().getUnqualifiedType().getAsString(Result.Context->getPrintingPolicy()) + "'";
  else
    What = "'" + cast<CallExpr>(E)->getDirectCallee()->getQualifiedNameAsString() + "'";
  llvm::StringRef Consequence = M->kind() == Kind::Optimizer ? "; its state (momentum, moment estimates) is lost every time"
                               : M->kind() == Kind::Executable ? "; it is loaded and compiled again every time"
                               : M->kind() == Kind::DataLoader ? "; its worker threads and buffers are rebuilt every time"
                                                               : "";
  {
    auto D = diag(reportLoc(E->getBeginLoc(), SM), "%0 is constructed on every iteration of a loop that runs the "
                                                   "model%1; construct it once before the loop")
             << What << Consequence;
    const Stmt *Loop = Hot->Loop;
    const DeclStmt *DS = Loop ? movableDeclaration(E, Loop, A) : nullptr;
    const auto *VD = DS ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (VD && VD->getInit() && !releasedIn(VD, loopBody(Loop), A)) {
      std::vector<const Stmt *> Loops = A.enclosingLoops(DS);
      while (!Loops.empty() && Loops.back() != Loop)
        Loops.pop_back();
      const Stmt *Target = outermostInvariantLoop(VD->getInit(), Loops, profiles());
      std::string Text = sourceText(DS->getSourceRange(), *Result.Context);
      auto Removal = removeStatement(DS, *Result.Context);
      if (Target && !Text.empty() && Removal && isMacroFree(Target->getSourceRange()))
        D << insertBefore(Target, Text, *Result.Context) << *Removal;
    }
  }
  explainHot(*Hot, SM);
}

} // namespace clang::tidy::mlperf
