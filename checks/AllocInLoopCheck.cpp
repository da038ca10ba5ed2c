#include "AllocInLoopCheck.h"
#include "analysis/DataFlow.h"
#include "analysis/Invariance.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void AllocInLoopCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Acquire), runsEveryStep(this)).bind("call"),
      this);
}

/// Whether \p S runs only on some iterations of \p Region: under an `if`,
/// `switch`, `?:` or the right side of `&&`/`||` (a buffer grown on demand).
static bool isConditional(const Stmt *S, const Stmt *Region, const ModelAnalysis &A) {
  for (const Stmt *Child = S, *P = A.parent(S); P && Child != Region; Child = P, P = A.parent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P); If && Child != If->getCond() && Child != If->getInit())
      return true;
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P); CO && Child != CO->getCond())
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(P); BO && BO->isLogicalOp() && Child == BO->getRHS())
      return true;
    if (isa<SwitchCase>(P))
      return true;
  }
  return false;
}

/// Whether the value of \p E can change between iterations of \p Loop (or,
/// without a loop, between calls of the per-step function: it reads a
/// parameter), following local variables declared in it to their initializers.
static bool varies(const Expr *E, const Stmt *Loop, unsigned Depth = 3) {
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->isConstexpr())
      return false;
    if (!Loop)
      return isa<ParmVarDecl>(VD);
    bool DeclaredInside = loopBody(Loop)->getSourceRange().fullyContains(VD->getSourceRange());
    if (!DeclaredInside)
      return isChangedIn(VD, Loop);
    return Depth == 0 || !VD->getInit() || isa<ParmVarDecl>(VD) || varies(VD->getInit(), Loop, Depth - 1);
  }
  return llvm::any_of(E->children(),
                      [&](const Stmt *C) { return isa_and_nonnull<Expr>(C) && varies(cast<Expr>(C), Loop, Depth); });
}

void AllocInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ModelAnalysis &A = analysis(*Result.Context);
  std::optional<RoleMatch> M = A.role(Call);
  if (!M || M->kind() != Kind::Allocation)
    return;
  std::optional<HotContext> Hot = A.perStep(Call);
  const FunctionDecl *Owner = A.owner(Call);
  if (!Hot || !Owner)
    return;
  // In a function the step loop calls, an iteration is one call of it.
  const Stmt *Loop = Hot->CallChain.empty() ? Hot->Loop : nullptr;
  const Stmt *Region = Loop ? loopBody(Loop) : Owner->getBody();
  const ProfileEntry &E = *M->Entry;
  if (isConditional(Call, Region, A))
    return; // allocated on demand: a buffer grown when a step needs more
  if (E.SizeArg && *E.SizeArg < Call->getNumArgs() && varies(Call->getArg(*E.SizeArg), Loop))
    return; // the size changes with the iteration: see the page
  const CallExpr *Release = nullptr;
  if (!E.Raii) {
    // Released in the same iteration, on every path; otherwise missing-finalize reports it.
    const VarDecl *Handle = acquiredHandle(Call, E, A);
    if (!Handle || !Handle->isLocalVarDecl())
      return;
    Release = findRelease(Region, Handle, E.Pair, A);
    if (!Release || !Result.SourceManager->isBeforeInTranslationUnit(Call->getEndLoc(), Release->getBeginLoc()) ||
        exitsBetween(Region, Call->getEndLoc(), Release->getBeginLoc(), *Result.SourceManager, Call))
      return;
  }
  const ProfileEntry *Rel = Release ? A.profiles().find(Release, Role::Release) : nullptr;
  const SourceManager &SM = *Result.SourceManager;
  diag(reportLoc(Call->getExprLoc(), SM),
       "%0 allocates on every step and %select{%2 releases it again|its value releases it at the end of the "
       "iteration}1%select{|; %2 also waits for all work queued on the device}3: %4")
      << Call->getDirectCallee() << E.Raii << (Release ? Release->getDirectCallee() : nullptr)
      << (Rel && Rel->Synchronizes)
      << (E.Message.empty() ? std::string("allocate it once before the loop and reuse it") : E.Message);
  if (Release)
    diag(reportLoc(Release->getExprLoc(), SM), "released here", DiagnosticIDs::Note);
  explainHot(*Hot, SM);
  CostFacts F;
  F.Allocations = 1;
  F.Syncs = Rel && Rel->Synchronizes;
  noteCost(reportLoc(Call->getExprLoc(), SM), F, &*Hot, Call, A);
}

} // namespace clang::tidy::mlperf
