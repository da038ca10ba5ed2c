#include "SyncInLoopCheck.h"
#include "analysis/DataFlow.h"
#include "analysis/HostWaits.h"
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
  // A wait is needed where the host uses what it waits for: timing, reading
  // results, also where the function it ends is called (HostWaits.h).
  if (waitNeeded(Call, A, /*Elsewhere=*/true) || endsPerCallStream(Call, A, SM))
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
