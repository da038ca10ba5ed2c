#include "AllocInLoopCheck.h"
#include "analysis/Ownership.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void AllocInLoopCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  // An API's allocation, or a function of the project that returns one
  // (decided in check()); a raii object whose constructor allocates.
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("site"), this);
  Finder->addMatcher(cxxConstructExpr(unless(isExpansionInSystemHeader())).bind("site"), this);
}

void AllocInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Site = Result.Nodes.getNodeAs<Expr>("site");
  const auto *Call = dyn_cast<CallExpr>(Site);
  ModelAnalysis &A = analysis(*Result.Context);
  // An allocation released by its value's destructor (raii), or one with a
  // pair: the API's own, or a function of the project that returns one.
  std::optional<Acquisition> Acq;
  if (std::optional<RoleMatch> M = A.role(Site); M && M->R == Role::Acquire && M->Entry->Raii)
    Acq = Acquisition{M->Entry, ""};
  else if (Call)
    Acq = acquisitionAt(Call, A);
  if (!Acq || Acq->Entry->R != Role::Acquire || Acq->Entry->K != Kind::Allocation)
    return;
  // A function of the project that returns what it allocates: its API call
  // carries the finding, once, with this call among its notes.
  if (Call && acquiredInsideProject(Call, *Acq, A))
    return;
  std::vector<Churn> Sites = churnSites(Site, *Acq, A);
  if (Sites.empty())
    return;
  const Churn &First = Sites.front();
  const ProfileEntry &E = *Acq->Entry;
  const SourceManager &SM = *Result.SourceManager;
  const auto *ReleaseCall = dyn_cast_or_null<CallExpr>(First.Release);
  const ProfileEntry *Rel = ReleaseCall ? A.profiles().find(ReleaseCall, Role::Release) : nullptr;
  const VarDecl *Object = First.Object;
  {
    auto D = diag(reportLoc(Site->getExprLoc(), SM),
                  "%0 allocates on every step and %select{%2 releases it again|its value releases it at the end of "
                  "the iteration|%2, made anew on every step, releases it again}1%select{|; %2 also waits for all "
                  "work queued on the device}3: %4");
    if (Call)
      addCallee(D, Call);
    else
      D << cast<CXXConstructExpr>(Site)->getConstructor();
    D << (Object ? 2 : E.Raii ? 1 : 0);
    if (Object)
      D << Object;
    else if (First.External)
      D << ("'" + First.External->Release + "'");
    else if (ReleaseCall && ReleaseCall->getDirectCallee())
      D << ReleaseCall->getDirectCallee();
    else
      D << (First.Release ? "'delete'" : "");
    D << (Rel && Rel->Synchronizes)
      << (E.Message.empty() ? std::string("allocate it once before the loop and reuse it") : E.Message);
  }
  if (First.VaryingSize)
    diag(reportLoc(First.VaryingSize->getBeginLoc(), SM),
         "the size changes with every iteration: allocate the largest size once before the loop, or grow the "
         "buffer only when an iteration needs more, and reuse it",
         DiagnosticIDs::Note);
  if (!Acq->Via.empty())
    diag(reportLoc(Site->getExprLoc(), SM), "%0 returns a handle it allocates with %1", DiagnosticIDs::Note)
        << Call->getDirectCallee() << acquireEntryName(E);
  for (const Churn &C : Sites)
    explainChurn(C, &C == &First, A, SM);
  CostFacts F;
  F.Allocations = 1;
  F.Syncs = Rel && Rel->Synchronizes;
  noteCost(reportLoc(Site->getExprLoc(), SM), F, First.External ? nullptr : &First.Hot,
           First.Call ? First.Call : static_cast<const Stmt *>(Site), A);
}

void AllocInLoopCheck::explainChurn(const Churn &C, bool WithContext, ModelAnalysis &A, const SourceManager &SM) {
  // Through[0] is the reported call; each later one calls the function of
  // the one before and its own function returns the result in turn.
  for (size_t I = 1; I < C.Through.size(); ++I)
    diag(reportLoc(C.Through[I]->getExprLoc(), SM), "%0 returns what %1 hands out here", DiagnosticIDs::Note)
        << A.owner(C.Through[I]) << C.Through[I]->getDirectCallee();
  if (const ChurnCall *E = C.External) {
    if (WithContext && !E->Site.LoopFile.empty())
      diag(locationIn(E->Site.LoopFile, E->Site.LoopLine, E->Site.LoopColumn, SM),
           "this loop runs %select{a model step|the model}0 on every iteration", DiagnosticIDs::Note)
          << E->Request;
    diag(locationIn(E->Site.File, E->Site.Line, E->Site.Column, SM),
         "called here from %0, on every %select{step|request}1", DiagnosticIDs::Note)
        << E->Site.Caller << E->Request;
    diag(locationIn(E->Site.File, E->ReleaseLine, E->ReleaseColumn, SM), "released here", DiagnosticIDs::Note);
    return;
  }
  if (const auto *Site = dyn_cast_or_null<CallExpr>(C.Call); Site && !C.Through.empty())
    diag(reportLoc(Site->getExprLoc(), SM), "%0 is called here, on every %select{step|request}1", DiagnosticIDs::Note)
        << Site->getDirectCallee() << C.Hot.Request;
  if (C.Release)
    diag(reportLoc(C.Release->getExprLoc(), SM), "released here", DiagnosticIDs::Note);
  if (C.Skip)
    diag(reportLoc(C.Skip->getBeginLoc(), SM),
         "this %select{return|break|continue}0 skips the release: the handle leaks whenever it is taken",
         DiagnosticIDs::Note)
        << (isa<ReturnStmt>(C.Skip)  ? 0
            : isa<BreakStmt>(C.Skip) ? 1
                                     : 2);
  if (WithContext)
    explainHot(C.Hot, SM);
}

} // namespace clang::tidy::mlperf
