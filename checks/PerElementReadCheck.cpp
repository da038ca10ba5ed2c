#include "PerElementReadCheck.h"
#include "analysis/ElementRead.h"
#include "analysis/SourceUtils.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void PerElementReadCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Materialize), onDevice(this)).bind("call"),
      this);
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::ToDevice)).bind("upload"), this);
}

void PerElementReadCheck::reportUpload(const CallExpr *Move, const MatchFinder::MatchResult &Result) {
  ModelAnalysis &A = analysis(*Result.Context);
  std::optional<ElementUpload> Up = elementUpload(Move, A);
  if (!Up)
    return;
  const SourceManager &SM = *Result.SourceManager;
  if (Up->Destination) {
    auto D = diag(reportLoc(calleeLoc(Move), SM),
                  "%0 copies %1 bytes to the device per loop iteration%select{| on every step}2, into %3 at a "
                  "position the loop advances: a separate copy each; fill a host buffer in the loop and copy it "
                  "once after the loop");
    addCallee(D, Move);
    D << static_cast<int>(Up->Bytes) << Up->Hot.has_value()
      << ("'" + sourceText(Up->Destination->getSourceRange(), *Result.Context) + "'");
  } else {
    auto D = diag(reportLoc(calleeLoc(Move), SM),
                  "%0 copies one element to the device per loop iteration%select{| on every step}1, a separate "
                  "copy each, and %3 then joins %2 into one tensor; join the elements on the host and copy the "
                  "result once");
    addCallee(D, Move);
    D << Up->Hot.has_value() << Up->List << Up->Join->getDirectCallee();
  }
  diag(reportLoc(Up->Loop->getBeginLoc(), SM), "the loop over the elements", DiagnosticIDs::Note);
  if (Up->Join)
    diag(reportLoc(calleeLoc(Up->Join), SM), "joined here, after the loop", DiagnosticIDs::Note);
  if (Up->Hot)
    explainHot(*Up->Hot, SM);
  noteIfByName(Move, A, SM);
  CostFacts F;
  F.HostToDevice = 1;
  F.Bytes =
      Up->Destination ? Quantity::known(static_cast<double>(Up->Bytes)) : Quantity::unknown("each element's size");
  F.Repeats = tripCount(Up->Loop, *Result.Context);
  noteCost(reportLoc(calleeLoc(Move), SM), F, Up->Hot ? &*Up->Hot : nullptr, Move, A);
}

void PerElementReadCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Move = Result.Nodes.getNodeAs<CallExpr>("upload"))
    return reportUpload(Move, Result);
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ModelAnalysis &A = analysis(*Result.Context);
  std::optional<ElementRead> Read = elementRead(Call, A);
  if (!Read || A.onCpuOnly(Call))
    return;
  const SourceManager &SM = *Result.SourceManager;
  if (Read->Selection) {
    {
      auto D = diag(reportLoc(calleeLoc(Call), SM),
                    "%0 %3 per loop iteration, each a device-to-host copy and a wait%select{| on every step}1; %2");
      addCallee(D, Call);
      const RoleMatch R = *A.role(Call);
      D << Read->Hot.has_value() << Read->Entry->Message
        << (R.waitsOnly() ? waitText(R, "a result computed from one element of a device tensor")
                          : "reads one element of a device tensor");
    }
    diag(reportLoc(Read->Loop->getBeginLoc(), SM), "the loop over the elements", DiagnosticIDs::Note);
  } else {
    {
      auto D = diag(reportLoc(calleeLoc(Call), SM),
                    "%0 %1 on every step, once per iteration of an inner loop; copy the tensor to the host once "
                    "before that loop, or keep the loop's work on the device");
      addCallee(D, Call);
      D << waitText(*A.role(Call), "its result");
    }
    diag(reportLoc(Read->Loop->getBeginLoc(), SM), "the inner loop", DiagnosticIDs::Note);
  }
  if (Read->Hot)
    explainHot(*Read->Hot, SM);
  noteIfByName(Call, A, SM);
  CostFacts F = readFacts(readBytes(Call, readObject(Call, A.profiles()), A));
  F.Repeats = tripCount(Read->Loop, *Result.Context);
  noteCost(reportLoc(calleeLoc(Call), SM), F, Read->Hot ? &*Read->Hot : nullptr, Call, A);
}

} // namespace clang::tidy::mlperf
