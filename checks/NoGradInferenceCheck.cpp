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
  // Calls of the program's own functions: one may run a forward that training shares.
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()),
                              callee(functionDecl(unless(isExpansionInSystemHeader()))),
                              unless(hasRole(this, Role::Step)))
                         .bind("helper"),
                     this);
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

/// The gates of a loop that runs a model call without training: none of
/// them says the call's graph may be needed.
static bool infersOnly(const CallExpr *Call, const std::vector<const Stmt *> &Loops, ModelAnalysis &A) {
  const Stmt *Loop = Loops.front();
  // No backward or optimizer step reached from the same loop, nor from the
  // body of a loop around it (a loss summed over parts within a step).
  if (A.isTraining(Loop) || (Loops.size() > 1 && A.trainsDirectly(Loops[1])))
    return false;
  // A sample every few epochs (`if (epoch % 5 == 0)`) is not a per-step
  // cost; a loop of its own under such a guard is its own Loop.
  if (A.periodicIn(Call, Loop))
    return false;
  // Where clang dropped a loop it could not type, the training loop may be
  // the one missing: no backward seen is no proof of inference.
  // Outputs the loop collects for one backward pass after it need their graphs.
  return !A.dropsLoop(Loop) && !differentiatedAfter(Loop, A);
}

void NoGradInferenceCheck::check(const MatchFinder::MatchResult &Result) {
  ModelAnalysis &A = analysis(*Result.Context);
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("helper"))
    return checkSharedForward(Call, A, *Result.Context);
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
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
  if (Reported.count(Loop ? static_cast<const void *>(Loop) : static_cast<const void *>(FD)))
    return;
  if (Loop) {
    if (!infersOnly(Call, Loops, A))
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
  report(Call, FD, Loop, A.profiles().fixFor(*M->Entry->Owner, Role::NoGradGuard), nullptr, *Result.Context);
}

/// A call, in a step or request that never trains, of a function whose
/// forward a training step also runs (so that function keeps autograd on):
/// the guard belongs to this caller.
void NoGradInferenceCheck::checkSharedForward(const CallExpr *Call, ModelAnalysis &A, ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *FD = A.owner(Call);
  // The caller first (cheap, memoized), then what the callee runs.
  if (!Callee || !FD || A.role(Call) || Reported.count(FD) || A.isHotRoot(FD) || A.reachesTraining(FD) ||
      underNoGradGuard(Call, A))
    return;
  std::optional<HotContext> H = A.perStep(Call);
  std::vector<const Stmt *> Loops = A.enclosingLoops(Call);
  if (!H || H->Training || (!Loops.empty() && !infersOnly(Call, Loops, A)))
    return;
  const ProfileEntry *Guard = nullptr;
  SharedForward Shared{Callee->getName().str(), ""};
  if (const FunctionDecl *Def = Callee->getDefinition()) {
    const CallExpr *Forward = Def == FD || A.reachesTraining(Def) ? nullptr : forwardKeptForTraining(Def, A);
    std::optional<RoleMatch> M = Forward ? A.role(Forward) : std::nullopt;
    if (!M)
      return;
    Guard = A.profiles().fixFor(*M->Entry->Owner, Role::NoGradGuard);
    Shared.Where = fileLine(Forward->getExprLoc(), Ctx.getSourceManager());
  } else {
    const FunctionFacts *F = A.project() ? A.project()->function(usrOf(Callee), A.mainFileName()) : nullptr;
    if (!F || !F->ForwardForTraining || F->Trains)
      return;
    // The guard of the framework with autograd whose profile has one (libtorch's).
    for (const ProfileEntry *E : A.profiles().entries(Role::NoGradGuard))
      if ((Guard = A.profiles().fixFor(*E->Owner, Role::NoGradGuard)))
        break;
    Shared.Where = F->File + ":" + std::to_string(F->Line);
  }
  report(Call, FD, nullptr, Guard, &Shared, Ctx);
}

void NoGradInferenceCheck::report(const CallExpr *At, const FunctionDecl *FD, const Stmt *Loop,
                                  const ProfileEntry *Guard, const SharedForward *Shared, ASTContext &Ctx) {
  Reported.insert(Loop ? static_cast<const void *>(Loop) : static_cast<const void *>(FD));
  ModelAnalysis &A = analysis(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  // The guard goes first in the function, unless the function also trains:
  // then first in the inference loop's body.
  bool Trains = A.reachesTraining(FD);
  const Stmt *Scope = Trains ? loopBody(Loop) : FD->getBody();
  std::string Fix = Guard && !Guard->FixLabel.empty() ? Guard->FixLabel : "a no-grad guard";
  {
    auto D = !Shared
                 ? diag(reportLoc(At->getExprLoc(), SM),
                        "model is run for evaluation or inference with autograd on: every call records a graph and "
                        "keeps activations for a backward pass that never comes; add %1 to the %select{function|loop}0")
                 : diag(reportLoc(At->getExprLoc(), SM),
                        "'%0' runs the model with autograd on, as the training step that also calls it needs, but "
                        "this call never trains: every call records a graph and keeps activations for a backward "
                        "pass that never comes; add %1 to the function");
    if (!Shared)
      D << Trains << Fix;
    else
      D << Shared->Callee << Fix;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Scope);
    if (Guard && Body && !Body->body_empty() && isMacroFree(Body->body_front()->getSourceRange())) {
      const Stmt *First = Body->body_front();
      std::string Indent = indentationOf(First->getBeginLoc(), Ctx);
      D << FixItHint::CreateInsertion(First->getBeginLoc(), Guard->Fix + "\n" + Indent);
    }
  }
  if (Shared)
    diag(reportLoc(At->getExprLoc(), SM), "'%0' (%1) runs the model for a training step as well", DiagnosticIDs::Note)
        << Shared->Callee << Shared->Where;
}

} // namespace clang::tidy::mlperf
