#include "NoGradInferenceCheck.h"
#include "analysis/DataFlow.h"
#include "analysis/Facts.h"
#include "analysis/SourceUtils.h"
#include "analysis/SummaryCollector.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void NoGradInferenceCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Step)).bind("call"), this);
}

/// A function whose name says that it evaluates or serves a model.
static bool inferenceName(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef N = FD->getName();
  for (StringRef W : {"eval", "test", "valid", "predict", "serve", "infer", "handle_request"})
    if (N.contains_insensitive(W))
      return true;
  return false;
}

/// Whether the function calls `eval()` on a module (the eval-mode role).
static bool putsInEval(const Stmt *S, const ModelAnalysis &A) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && isa<CallExpr>(E))
    if (auto M = A.role(E); M && M->R == Role::EvalMode)
      return true;
  for (const Stmt *C : S->children())
    if (putsInEval(C, A))
      return true;
  return false;
}

/// Whether some call of \p FD runs in a loop, directly or through its
/// callers, here or in another file of the project (a loop that runs the model).
static bool calledFromLoop(const FunctionDecl *FD, const ModelAnalysis &A,
                           llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!Seen.insert(FD).second)
    return false;
  if (A.project() && FD->isExternallyVisible() && A.project()->loopCaller(usrOf(FD), A.mainFileName()))
    return true;
  for (const Expr *E : A.callSites(FD))
    if (A.innermostLoop(E) || (A.owner(E) && calledFromLoop(A.owner(E), A, Seen)))
      return true;
  return false;
}

void NoGradInferenceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ModelAnalysis &A = analysis(*Result.Context);
  std::optional<RoleMatch> M = A.role(Call);
  // Only model calls of APIs with autograd (libtorch's modules), not runtimes
  // whose executables never record a graph.
  if (!M || M->kind() != Kind::Forward || M->deviceAlways())
    return;
  const FunctionDecl *FD = A.owner(Call);
  if (!FD || A.isHotRoot(FD) || underNoGradGuard(Call, A))
    return;
  // The innermost loop that runs the model, else a per-request function.
  std::vector<const Stmt *> Loops = A.enclosingLoops(Call);
  const Stmt *Loop = Loops.empty() ? nullptr : Loops.front();
  const void *Key = Loop ? static_cast<const void *>(Loop) : static_cast<const void *>(FD);
  if (Reported.count(Key))
    return;
  if (Loop) {
    // No backward or optimizer step reached from the same loop, nor from the
    // body of a loop around it (a loss summed over parts within a step).
    if (A.isTraining(Loop) || (Loops.size() > 1 && A.trainsDirectly(Loops[1])))
      return;
    // A sample every few epochs (`if (epoch % 5 == 0)`) is not a per-step
    // cost; a loop of its own under such a guard is its own Loop.
    if (A.periodicIn(Call, Loop))
      return;
    // Where clang dropped a loop it could not type, the training loop may be
    // the one missing: no backward seen is no proof of inference.
    if (A.dropsLoop(Loop))
      return;
    // Outputs the loop collects for one backward pass after it need their graphs.
    if (differentiatedAfter(Loop, A))
      return;
  } else {
    if (!inferenceName(FD) && !putsInEval(FD->getBody(), A))
      return;
    // Run once (main, a function called only outside loops): a smoke test.
    // Functions without callers here are entry points called from elsewhere.
    llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
    if (FD->isMain() || (!A.callSites(FD).empty() && !calledFromLoop(FD, A, Seen)))
      return;
  }
  // Not when the function (or what called it) trains from the same loop.
  if (std::optional<HotContext> H = A.perStep(Call); H && H->Training)
    return;
  Reported.insert(Key);
  // The guard goes first in the function, unless the function also trains:
  // then first in the inference loop's body.
  bool Trains = A.reachesTraining(FD);
  const Stmt *Scope = Trains ? loopBody(Loop) : FD->getBody();
  const SourceManager &SM = *Result.SourceManager;
  const ProfileEntry *Guard = A.profiles().fixFor(*M->Entry->Owner, Role::NoGradGuard);
  auto D = diag(reportLoc(Call->getExprLoc(), SM),
                "model is run for evaluation or inference with autograd on: every call records a graph and "
                "keeps activations for a backward pass that never comes; add %1 to the %select{function|loop}0")
           << Trains << (Guard && !Guard->FixLabel.empty() ? Guard->FixLabel : "a no-grad guard");
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Scope);
  if (Guard && Body && !Body->body_empty() && isMacroFree(Body->body_front()->getSourceRange())) {
    const Stmt *First = Body->body_front();
    std::string Indent = indentationOf(First->getBeginLoc(), *Result.Context);
    D << FixItHint::CreateInsertion(First->getBeginLoc(), Guard->Fix + "\n" + Indent);
  }
}

} // namespace clang::tidy::mlperf
