#include "SyncInLoopCheck.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void SyncInLoopCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Sync), runsEveryStep(this)).bind("call"),
      this);
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()), callsLibraryWith(this, Role::Sync),
                              runsEveryStep(this))
                         .bind("library-call"),
                     this);
}

void SyncInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("library-call")) {
    if (auto Reach = libraryReach(Call, Role::Sync, *Result.SourceManager))
      reportLibraryCall(Call, *Reach, "waits for the device", *analysis(*Result.Context).perStep(Call),
                        *Result.SourceManager);
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  std::optional<HotContext> Hot = analysis(*Result.Context).perStep(Call);
  const SourceManager &SM = *Result.SourceManager;
  {
    auto D = diag(reportLoc(calleeLoc(Call), SM),
                  "%0 blocks the host until the device has finished all queued work, on every step; let the device "
                  "run ahead and synchronize only where the host needs a result");
    addCallee(D, Call);
  }
  explainHot(*Hot, SM);
  noteIfByName(Call, analysis(*Result.Context), SM);
}

} // namespace clang::tidy::mlperf
