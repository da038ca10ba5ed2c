#include "PageableAsyncCopyCheck.h"
#include "analysis/HostMemory.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void PageableAsyncCopyCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()), hasFact(this, Role::AsyncCopy)).bind("call"), this);
}

void PageableAsyncCopyCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ModelAnalysis &A = analysis(*Result.Context);
  const ProfileEntry *E = profiles().find(Call, Role::AsyncCopy);
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!E || !FD)
    return;
  std::optional<PageableOrigin> Found;
  unsigned Which = 0; // 0: the destination, 1: the source, 2: the tensor copied
  if (!E->FlagParam.empty()) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    std::optional<RoleMatch> M = A.role(Call);
    if (!MC || !M || M->R != Role::ToDevice)
      return; // a copy to the host, or not a method
    auto Param = llvm::find_if(FD->parameters(), [&](const ParmVarDecl *P) { return P->getName() == E->FlagParam; });
    unsigned I = Param == FD->param_end() ? ~0u : (*Param)->getFunctionScopeIndex();
    bool Async = false;
    if (I >= MC->getNumArgs() || isa<CXXDefaultArgExpr>(MC->getArg(I)) ||
        !MC->getArg(I)->EvaluateAsBooleanCondition(Async, *Result.Context) || !Async)
      return;
    Found = pageableTensor(MC->getImplicitObjectArgument(), A);
    Which = 2;
  } else {
    for (unsigned K = 0; K < E->PointerArgs.size() && !Found; ++K)
      if (E->PointerArgs[K] < Call->getNumArgs() && (Found = pageablePointer(Call->getArg(E->PointerArgs[K]), A)))
        Which = K;
  }
  if (!Found)
    return;
  const SourceManager &SM = *Result.SourceManager;
  diag(reportLoc(Call->getExprLoc(), SM),
       "%0 copies %select{to pageable host memory|from pageable host memory|a tensor in pageable host memory}1: "
       "the copy is staged through a pinned buffer and %0 returns only when it is done, so it overlaps nothing; %2")
      << FD << Which << (E->Message.empty() ? std::string("use page-locked host memory") : E->Message);
  if (!Found->Elsewhere.empty())
    diag(reportLoc(Found->Where->getExprLoc(), SM), "the pageable memory comes from %0", DiagnosticIDs::Note)
        << Found->Elsewhere;
  else
    diag(reportLoc(Found->Where->getExprLoc(), SM), "the pageable memory comes from here", DiagnosticIDs::Note);
  if (Found->PassedAt && stripWrappers(Found->PassedAt) != Found->Where)
    diag(reportLoc(Found->PassedAt->getExprLoc(), SM), "passed here", DiagnosticIDs::Note);
  // What pinning saves: the host's wait for the copy (and, copying back, for
  // the work queued before it); the transfer itself remains.
  if (std::optional<HotContext> Hot = A.perStep(Call))
    noteCost(reportLoc(Call->getExprLoc(), SM), syncFacts(), &*Hot, Call, A);
}

} // namespace clang::tidy::mlperf
