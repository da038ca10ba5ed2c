#include "SyncInLoopCheck.h"
#include "analysis/DataFlow.h"
#include "analysis/Ownership.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void SyncInLoopCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Sync), runsEveryStep(this)).bind("call"), this);
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()), callsLibraryWith(this, Role::Sync), runsEveryStep(this))
          .bind("library-call"),
      this);
}

/// Whether \p S calls, outside lambdas, a function with fact \p R: a clock
/// read (`timer`) or a direct read of a tensor's memory (`host-read`).
static bool calls(const Stmt *S, Role R, const ApiProfiles &P) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && P.find(CE, R))
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return calls(C, R, P); });
}

/// A copy made whenever the statement runs, also each one of a loop over the
/// outputs; not one under a condition (`if (last_step) cudaMemcpyAsync(...)`,
/// whose wait is needed only then).
static bool callsAsyncCopyToHost(const Stmt *S, const ModelAnalysis &A) {
  if (!S || isa<LambdaExpr, IfStmt, SwitchStmt, ConditionalOperator>(S))
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (auto R = A.role(CE); R && R->R == Role::Materialize && A.profiles().find(CE, Role::AsyncCopy))
      return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return callsAsyncCopyToHost(C, A); });
}

/// Whether \p S mentions \p D between \p From and \p To.
static bool usedBetween(const Stmt *S, const ValueDecl *D, SourceLocation From, SourceLocation To,
                        const SourceManager &SM) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == D)
    return SM.isBeforeInTranslationUnit(From, DRE->getBeginLoc()) &&
           SM.isBeforeInTranslationUnit(DRE->getBeginLoc(), To);
  return llvm::any_of(S->children(), [&](const Stmt *C) { return usedBetween(C, D, From, To, SM); });
}

/// The last wait on a stream (or event) that its function creates and
/// destroys on every call (`cudaStreamCreate(&s)`, enqueue,
/// `cudaStreamSynchronize(s)`, `cudaStreamDestroy(s)`): nothing uses the
/// stream between the wait and its release, so the wait ends the per-call
/// stream's work before it is destroyed and the results are handed back. The
/// cost is the stream made per call, which alloc-in-loop reports at its
/// creation; once the stream is kept, the wait is where the caller's read
/// needs it. An earlier wait on the same stream is still reported.
static bool endsPerCallStream(const CallExpr *Call, ModelAnalysis &A, const SourceManager &SM) {
  const FunctionDecl *Owner = A.owner(Call);
  if (!Owner || Call->getNumArgs() == 0)
    return false;
  HandleRef Stream = handleRefOf(Call->getArg(0));
  std::optional<Churn> C = churnOfLocal(Stream, Owner->getBody(), A);
  return C && C->Release && SM.isBeforeInTranslationUnit(Call->getEndLoc(), C->Release->getBeginLoc()) &&
         !usedBetween(Owner->getBody(), Stream.D, Call->getEndLoc(), C->Release->getBeginLoc(), SM);
}

/// A synchronization that is needed: it times the device's work and says so
/// (a comment mentioning timing on its line or the line above, or a clock
/// read in the statement that follows it in its block, past declarations),
/// the host reads results from memory in that statement, or it completes an
/// asynchronous copy to the host made before it in its block or a block
/// around it.
static bool isNeeded(const CallExpr *Call, const ModelAnalysis &A, const SourceManager &SM) {
  if (commentMentions(Call->getBeginLoc(), "timing", SM))
    return true;
  auto [Block, It] = blockItemOf(Call, A);
  if (!Block)
    return false;
  // An asynchronous copy to the host before it in its block or in a block
  // around it, up to the loop's body (`if (s > 0) { wait; read the previous
  // output; }`): its data is there only once the wait returns.
  for (BlockItem Around{Block, It}; Around.Block; Around = blockItemOf(Around.Block, A))
    for (const Stmt *Before : llvm::make_range(Around.Block->body_begin(), Around.Item))
      if (callsAsyncCopyToHost(Before, A))
        return true;
  // The statement after it, past declarations that only make room for the
  // result (`float ms; cudaEventElapsedTime(&ms, start, stop);`).
  auto Next = std::next(It);
  auto OnlyDeclares = [](const Stmt *S) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    return DS && llvm::all_of(DS->decls(), [](const Decl *D) {
             const auto *VD = dyn_cast<VarDecl>(D);
             return VD && (!VD->getInit() || VD->getInit()->isConstantInitializer(VD->getASTContext(), false));
           });
  };
  while (Next != Block->body_end() && OnlyDeclares(*Next))
    ++Next;
  return Next != Block->body_end() &&
         (calls(*Next, Role::Timer, A.profiles()) || calls(*Next, Role::HostRead, A.profiles()));
}

void SyncInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("library-call")) {
    ModelAnalysis &A = analysis(*Result.Context);
    std::optional<HotContext> Hot = A.perStep(Call);
    if (auto Reach = libraryReach(Call, Role::Sync, *Result.SourceManager)) {
      reportLibraryCall(Call, *Reach, "waits for the device", *Hot, *Result.SourceManager);
      noteCost(reportLoc(Call->getExprLoc(), *Result.SourceManager), syncFacts(), &*Hot, Call, A);
    }
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ModelAnalysis &A = analysis(*Result.Context);
  const SourceManager &SM = *Result.SourceManager;
  if (isNeeded(Call, A, SM) || endsPerCallStream(Call, A, SM))
    return;
  std::optional<HotContext> Hot = A.perStep(Call);
  {
    auto D = diag(reportLoc(calleeLoc(Call), SM),
                  "%0 blocks the host until the device has finished all queued work, on every step; let the device "
                  "run ahead and synchronize only where the host needs a result");
    addCallee(D, Call);
  }
  explainHot(*Hot, SM);
  noteIfByName(Call, A, SM);
  noteCost(reportLoc(calleeLoc(Call), SM), syncFacts(), &*Hot, Call, A);
}

} // namespace clang::tidy::mlperf
