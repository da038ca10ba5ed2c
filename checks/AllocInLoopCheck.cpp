#include "AllocInLoopCheck.h"
#include "analysis/DataFlow.h"
#include "analysis/Invariance.h"
#include "analysis/Ownership.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void AllocInLoopCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  // An API's allocation, or a function of the project that returns one (decided in check()).
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("call"), this);
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

/// Whether the value of \p E can change between iterations of \p Loop,
/// following local variables declared in it to their initializers.
static bool varies(const Expr *E, const Stmt *Loop, unsigned Depth = 3) {
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->isConstexpr())
      return false;
    bool DeclaredInside = loopBody(Loop)->getSourceRange().fullyContains(VD->getSourceRange());
    if (!DeclaredInside)
      return isChangedIn(VD, Loop);
    return Depth == 0 || !VD->getInit() || isa<ParmVarDecl>(VD) || varies(VD->getInit(), Loop, Depth - 1);
  }
  return llvm::any_of(E->children(),
                      [&](const Stmt *C) { return isa_and_nonnull<Expr>(C) && varies(cast<Expr>(C), Loop, Depth); });
}

/// Whether a loop of \p FD itself runs the model.
static bool hasOwnModelLoop(const FunctionDecl *FD, ModelAnalysis &A) {
  std::function<bool(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (isa<CallExpr>(S))
      if (std::optional<HotContext> H = A.inModelLoop(S); H && H->Loop && A.owner(H->Loop) == FD)
        return true;
    return llvm::any_of(S->children(), Walk);
  };
  return Walk(FD->getBody());
}

void AllocInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ModelAnalysis &A = analysis(*Result.Context);
  // An allocation released by its value's destructor (raii), or one with a
  // pair: the API's own, or a function of the project that returns one.
  std::optional<Acquisition> Acq;
  if (std::optional<RoleMatch> M = A.role(Call); M && M->R == Role::Acquire && M->Entry->Raii)
    Acq = Acquisition{M->Entry, ""};
  else
    Acq = acquisitionAt(Call, A);
  if (!Acq || Acq->Entry->R != Role::Acquire || Acq->Entry->K != Kind::Allocation)
    return;
  std::optional<HotContext> Hot = A.perRequest(Call);
  const FunctionDecl *Owner = A.owner(Call);
  if (!Hot || !Owner)
    return;
  // An entry point called from outside the project (no loop of the project
  // calls it): an allocation made before its own loop that runs the model is
  // the hoisted form this check asks for, the function serves many steps.
  if (Hot->Request && !Hot->Loop && hasOwnModelLoop(Owner, A))
    return;
  // In a function the step loop calls, an iteration is one call of it.
  const Stmt *Loop = Hot->Loop && isInside(Call, Hot->Loop, A) ? Hot->Loop : nullptr;
  const Stmt *Region = Loop ? loopBody(Loop) : Owner->getBody();
  const ProfileEntry &E = *Acq->Entry;
  if (isConditional(Call, Region, A))
    return; // allocated on demand: a buffer grown when a step needs more
  // A size that changes with the iteration of the loop around the
  // allocation: see the page. In a function called per step, the size comes
  // from the call (a parameter, a member) and may differ between calls: it is
  // churn all the same, which a stream-ordered pool or a buffer kept between
  // calls removes.
  if (std::optional<unsigned> Size = Acq->Via.empty() ? E.SizeArg : std::nullopt;
      Loop && Size && *Size < Call->getNumArgs() && varies(Call->getArg(*Size), Loop))
    return;
  const Expr *Release = nullptr;
  if (!E.Raii) {
    // Released in the same iteration, on every path; otherwise missing-finalize
    // reports it. The handle may be a member or an array element: acquired and
    // released in the same region, it is churn wherever it is kept.
    HandleRef Handle = acquiredHandleRef(Call, *Acq, A);
    if (!Handle || (!Handle.isLocal() && !Handle.Member))
      return;
    Release = findReleaseOf(Region, Handle, A);
    if (!Release || !Result.SourceManager->isBeforeInTranslationUnit(Call->getEndLoc(), Release->getBeginLoc()) ||
        exitsBetween(Region, Call->getEndLoc(), Release->getBeginLoc(), *Result.SourceManager, Call))
      return;
  }
  const auto *ReleaseCall = dyn_cast_or_null<CallExpr>(Release);
  const ProfileEntry *Rel = ReleaseCall ? A.profiles().find(ReleaseCall, Role::Release) : nullptr;
  const SourceManager &SM = *Result.SourceManager;
  {
    auto D = diag(reportLoc(Call->getExprLoc(), SM),
                  "%0 allocates on every step and %select{%2 releases it again|its value releases it at the end of "
                  "the iteration}1%select{|; %2 also waits for all work queued on the device}3: %4");
    addCallee(D, Call);
    D << E.Raii;
    if (ReleaseCall && ReleaseCall->getDirectCallee())
      D << ReleaseCall->getDirectCallee();
    else
      D << (Release ? "'delete'" : "");
    D << (Rel && Rel->Synchronizes)
      << (E.Message.empty() ? std::string("allocate it once before the loop and reuse it") : E.Message);
  }
  if (!Acq->Via.empty())
    diag(reportLoc(Call->getExprLoc(), SM), "%0 returns a handle it allocates with %1", DiagnosticIDs::Note)
        << Call->getDirectCallee() << acquireEntryName(E);
  if (Release)
    diag(reportLoc(Release->getExprLoc(), SM), "released here", DiagnosticIDs::Note);
  explainHot(*Hot, SM);
  CostFacts F;
  F.Allocations = 1;
  F.Syncs = Rel && Rel->Synchronizes;
  noteCost(reportLoc(Call->getExprLoc(), SM), F, &*Hot, Call, A);
}

} // namespace clang::tidy::mlperf
