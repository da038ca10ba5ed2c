#include "HostWaits.h"
#include "DataFlow.h"
#include "ProjectSummaries.h"
#include "SourceUtils.h"
#include "SummaryCollector.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::mlperf {

namespace {
/// Whether \p S calls, outside lambdas, a function with fact \p R: a clock
/// read (`timer`) or a direct read of a tensor's memory (`host-read`).
bool calls(const Stmt *S, Role R, const ApiProfiles &P) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && P.find(CE, R))
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return calls(C, R, P); });
}

/// Whether \p S makes, whenever it runs (not under a condition, not in a
/// lambda), a call that \p Pred accepts, also each one of a loop.
bool callsUnconditionally(const Stmt *S, llvm::function_ref<bool(const CallExpr *)> Pred) {
  if (!S || isa<LambdaExpr, IfStmt, SwitchStmt, ConditionalOperator>(S))
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && Pred(CE))
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return callsUnconditionally(C, Pred); });
}

/// A declaration that only makes room for a result: variables without an
/// initializer, with a constant one, or built by their default constructor
/// (`float ms; cudaEventElapsedTime(&ms, start, stop);`, `State next;`).
bool onlyDeclares(const Stmt *S) {
  const auto *DS = dyn_cast<DeclStmt>(S);
  return DS && llvm::all_of(DS->decls(), [](const Decl *D) {
           const auto *VD = dyn_cast<VarDecl>(D);
           if (!VD)
             return false;
           const Expr *Init = VD->getInit();
           const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init);
           return !Init || (Construct && Construct->getNumArgs() == 0) ||
                  Init->isConstantInitializer(VD->getASTContext(), false);
         });
}

/// Whether the call runs a model step, copies or waits, itself or through a
/// function of the project.
bool doesDeviceWork(const CallExpr *CE, ModelAnalysis &A) {
  if (auto R = A.role(CE))
    return R->R == Role::Step || R->R == Role::ToDevice || R->R == Role::Materialize || R->R == Role::Sync;
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee)
    return false;
  if (const FunctionDecl *Def = Callee->getDefinition())
    return A.reachesStep(Def) || A.readsToHost(Def);
  const FunctionFacts *F = A.project() ? A.project()->function(usrOf(Callee), A.mainFileName()) : nullptr;
  return F && (F->ReachesStep || F->ReadsToHost);
}
} // namespace

bool hostWaitsAfter(const CallExpr *Call, ModelAnalysis &A) {
  const SourceManager &SM = A.context().getSourceManager();
  if (commentMentions(Call->getBeginLoc(), "timing", SM))
    return true;
  auto [Block, It] = blockItemOf(Call, A);
  if (!Block)
    return false;
  auto CopiesToHostAsync = [&](const CallExpr *CE) {
    auto R = A.role(CE);
    return R && R->R == Role::Materialize && A.profiles().find(CE, Role::AsyncCopy);
  };
  for (BlockItem Around{Block, It}; Around.Block; Around = blockItemOf(Around.Block, A))
    for (const Stmt *Before : llvm::make_range(Around.Block->body_begin(), Around.Item))
      if (callsUnconditionally(Before, CopiesToHostAsync))
        return true;
  auto Next = std::next(It);
  while (Next != Block->body_end() && onlyDeclares(*Next))
    ++Next;
  if (Next == Block->body_end())
    return false;
  const ApiProfiles &P = A.profiles();
  return calls(*Next, Role::Timer, P) || calls(*Next, Role::HostRead, P);
}

bool endsDeviceWork(const CallExpr *Call, ModelAnalysis &A) {
  const FunctionDecl *Owner = A.owner(Call);
  if (!Owner || !Owner->getBody() || A.innermostLoop(Call))
    return false;
  const SourceManager &SM = A.context().getSourceManager();
  std::function<bool(const Stmt *)> WorkAfter = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(S);
        CE && CE != Call && SM.isBeforeInTranslationUnit(Call->getEndLoc(), CE->getBeginLoc()) && doesDeviceWork(CE, A))
      return true;
    return llvm::any_of(S->children(), WorkAfter);
  };
  return !WorkAfter(Owner->getBody());
}

bool waitNeeded(const CallExpr *Call, ModelAnalysis &A, bool Elsewhere, unsigned Depth) {
  if (hostWaitsAfter(Call, A))
    return true;
  if (Depth == 0 || !endsDeviceWork(Call, A))
    return false;
  const FunctionDecl *Owner = A.owner(Call);
  bool Any = false;
  for (const Expr *Site : A.callSites(Owner)) {
    const auto *CE = dyn_cast<CallExpr>(Site);
    if (!A.perStep(Site))
      continue;
    if (!CE || !waitNeeded(CE, A, Elsewhere, Depth - 1))
      return false;
    Any = true;
  }
  if (Elsewhere && A.project())
    if (std::optional<bool> Waits = A.project()->hotCallsWaitAfter(usrOf(Owner), A.mainFileName())) {
      if (!*Waits)
        return false;
      Any = true;
    }
  return Any;
}

} // namespace clang::tidy::mlperf
