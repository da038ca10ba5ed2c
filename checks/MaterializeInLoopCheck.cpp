#include "MaterializeInLoopCheck.h"
#include "analysis/ElementRead.h"
#include "analysis/Facts.h"
#include "analysis/Purpose.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

MaterializeInLoopCheck::MaterializeInLoopCheck(StringRef Name, ClangTidyContext *Context)
    : MlperfCheck(Name, Context), IgnoreInferenceOutputs(Options.get("IgnoreInferenceOutputs", true)) {}

void MaterializeInLoopCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  MlperfCheck::storeOptions(Opts);
  Options.store(Opts, "IgnoreInferenceOutputs", IgnoreInferenceOutputs);
}

void MaterializeInLoopCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Materialize), onDevice(this),
                              runsEveryStep(this))
                         .bind("call"),
                     this);
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()), callsLibraryWith(this, Role::Materialize),
                              onDevice(this), runsEveryStep(this))
                         .bind("library-call"),
                     this);
}

void MaterializeInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("library-call")) {
    ModelAnalysis &A = analysis(*Result.Context);
    std::optional<HotContext> Hot = A.perStep(Call);
    if (auto Reach = libraryReach(Call, Role::Materialize, *Result.SourceManager)) {
      reportLibraryCall(Call, *Reach, "reads a tensor value to the host", *Hot, *Result.SourceManager);
      CostFacts F = readFacts(Quantity::unknown(Call->getDirectCallee()->getNameAsString() + "()'s tensor"));
      noteCost(reportLoc(Call->getExprLoc(), *Result.SourceManager), F, &*Hot, Call, A);
    }
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ModelAnalysis &A = analysis(*Result.Context);
  // `t.cpu().item()`, `auto h = t.cpu(); h.sum().item()`, a host factory's
  // tensor: reading memory already on the host is free; a copy is reported
  // once, at the call that does it.
  const Expr *Object = readObject(Call, A.profiles());
  if (Object && onHost(Object, A))
    return;
  // One read per element of a loop is mlperf-per-element-read's finding.
  if (elementRead(Call, A) || A.onCpuOnly(Call))
    return;
  std::optional<HotContext> Hot = A.perStep(Call);
  if (!Hot)
    return;
  Purpose Why = purposeThroughCalls(Call, A, *Hot);
  // Read to the host only to be copied back: the value never needed to leave.
  std::optional<Reupload> Back = reuploadOf(Call, A);
  // An inference loop that prints each input's prediction: the printout is
  // the program's output; one that keeps each batch's loss only to average it is not.
  // A wait for a result's shape brings nothing to the host: no output needs it.
  const RoleMatch R = *A.role(Call);
  bool Needed = !R.waitsOnly() && !Back &&
                (Why == Purpose::Return || Why == Purpose::Other ||
                 (Why == Purpose::Store && storedFor(Call, A) == Purpose::Store) ||
                 (Why == Purpose::Log && printsPrediction(Call, Object, A)));
  const SourceManager &SM = *Result.SourceManager;
  if (IgnoreInferenceOutputs && !Hot->Training && Needed)
    return;
  // A greedy decode's stop test: the token the step produced is both the
  // next step's input and, on the host, whether to go on.
  if (!Hot->Training && Why == Purpose::Condition && Hot->Loop && A.isRepeatedBy(Call, Hot->Loop) &&
      feedsNextIteration(Call, Object, Hot->Loop, A))
    return;
  std::string Reason = describe(Why).str();
  {
    auto D = diag(reportLoc(calleeLoc(Call), SM), "%0 %3 on every %select{step|training step}1%2; %4");
    addCallee(D, Call);
    // What the program does with a result that stays on the device is no reason to wait.
    D << Hot->Training
      << (Back                              ? " only to copy it back to the device"
          : Reason.empty() || R.waitsOnly() ? ""
                                            : " (" + Reason + ")")
      << waitText(R, "its result")
      << (R.waitsOnly() ? llvm::StringRef(R.Entry->Message)
          : Back        ? "keep the value on the device"
                        : "accumulate on the device and read the value every N steps or after the loop");
  }
  if (Back && Back->Local)
    diag(reportLoc(calleeLoc(Back->Local), SM),
         "copied back to the device here; select the value in the graph or copy it device to device",
         DiagnosticIDs::Note);
  else if (Back)
    diag(reportLoc(calleeLoc(Call), SM),
         "the caller copies this memory back to the device at %0; copy device to device or pass the device buffer on",
         DiagnosticIDs::Note)
        << Back->Elsewhere;
  explainHot(*Hot, SM);
  noteIfByName(Call, A, SM);
  noteCost(reportLoc(calleeLoc(Call), SM), readFacts(readBytes(Call, Object, A)), &*Hot, Call, A);
}

} // namespace clang::tidy::mlperf
