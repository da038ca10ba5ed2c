#include "BackendChoiceCheck.h"
#include "analysis/ModelSize.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

BackendChoiceCheck::BackendChoiceCheck(StringRef Name, ClangTidyContext *Context)
    : MlperfCheck(Name, Context), MinParameters(Options.get("MinParameters", static_cast<int64_t>(1000000))) {}

void BackendChoiceCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  MlperfCheck::storeOptions(Opts);
  Options.store(Opts, "MinParameters", MinParameters);
}

void BackendChoiceCheck::onStartOfTranslationUnit() {
  MlperfCheck::onStartOfTranslationUnit();
  Parameters = LargestLayerSize = 0;
  LargestLayer = SourceLocation();
  Training = ChecksAccelerator = false;
  Choices.clear();
  SM = nullptr;
}

void BackendChoiceCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  auto User = unless(isExpansionInSystemHeader());
  // Layers with constant sizes (parameters counted in check()).
  Finder->addMatcher(expr(User, anyOf(callExpr(), cxxConstructExpr()), hasFact(this, Role::Layer)).bind("layer"), this);
  // Backend and device choices: a backend by name, a module moved to a device,
  // a device variable.
  Finder->addMatcher(
      expr(User, anyOf(callExpr(), cxxConstructExpr()), hasFact(this, Role::BackendChoice)).bind("choice"), this);
  Finder->addMatcher(varDecl(User, unless(parmVarDecl()), unless(hasType(referenceType())), hasInitializer(expr()),
                             hasFactType(this, Role::BackendChoice))
                         .bind("device"),
                     this);
  // What makes a choice informed, and whether the model trains.
  Finder->addMatcher(callExpr(User, hasFact(this, Role::DeviceProbe)).bind("probe"), this);
  Finder->addMatcher(callExpr(User, hasRole(this, Role::Step)).bind("step"), this);
  Finder->addMatcher(callExpr(User, hasFact(this, Role::Training)).bind("train"), this);
}

/// Whether a backend-choice call names a slow backend (by value, and by name
/// when the entry has one: `setenv("MLPERF_BACKEND", "reference", 1)`).
static bool namesSlowBackend(const Expr *E, const ProfileEntry &Entry) {
  std::optional<std::string> Value = constString(argumentFor(E, Entry.ValueArg, /*DefaultValue=*/false));
  if (!Value || !llvm::is_contained(Entry.SlowValues, *Value))
    return false;
  return !Entry.NameArg ||
         constString(argumentFor(E, Entry.NameArg, /*DefaultValue=*/false)) == std::optional<std::string>(Entry.Name);
}

void BackendChoiceCheck::check(const MatchFinder::MatchResult &Result) {
  const ASTContext &Ctx = *Result.Context;
  SM = Result.SourceManager;
  if (const auto *E = Result.Nodes.getNodeAs<Expr>("layer")) {
    std::optional<LayerSize> L = layerSize(E, *profiles().find(E, Role::Layer), Ctx);
    if (L && L->Trainable) {
      Parameters += L->Parameters;
      if (L->Parameters > LargestLayerSize) {
        LargestLayerSize = L->Parameters;
        LargestLayer = reportLoc(E->getBeginLoc(), *SM);
      }
    }
  }
  if (const auto *E = Result.Nodes.getNodeAs<Expr>("choice")) {
    const ProfileEntry &Entry = *profiles().find(E, Role::BackendChoice);
    if (Entry.ValueArg && namesSlowBackend(E, Entry))
      Choices.push_back({reportLoc(E->getBeginLoc(), *SM), &Entry});
    // A device argument; variables are reported at their declaration.
    if (const Expr *Arg = argumentFor(E, Entry.DeviceArg, /*DefaultValue=*/false);
        Arg && !namedVar(Arg) && profiles().classifyDeviceArg(Arg) == DeviceKind::Cpu)
      Choices.push_back({reportLoc(stripWrappers(Arg)->getBeginLoc(), *SM), &Entry});
  }
  if (const auto *VD = Result.Nodes.getNodeAs<VarDecl>("device"))
    if (profiles().classifyDeviceArg(VD->getInit()) == DeviceKind::Cpu)
      Choices.push_back({reportLoc(VD->getLocation(), *SM), profiles().findType(VD->getType(), Role::BackendChoice)});
  if (Result.Nodes.getNodeAs<CallExpr>("probe"))
    ChecksAccelerator = true;
  if (const auto *CE = Result.Nodes.getNodeAs<CallExpr>("step")) {
    std::optional<RoleMatch> M = profiles().match(CE);
    if (M && (M->kind() == Kind::Backward || M->kind() == Kind::Optimizer))
      Training = true;
  }
  if (Result.Nodes.getNodeAs<CallExpr>("train"))
    Training = true;
}

void BackendChoiceCheck::onEndOfTranslationUnit() {
  if (!SM || !Training || ChecksAccelerator || Parameters < MinParameters)
    return;
  for (const Choice &C : Choices) {
    diag(C.Loc, "a model with %0 parameters trains on %1") << std::to_string(Parameters) << C.Entry->Message;
    diag(LargestLayer,
         "%0 parameters counted from the constant layer sizes (MinParameters is %1); the largest layer, %2 "
         "parameters, is here",
         DiagnosticIDs::Note)
        << std::to_string(Parameters) << std::to_string(MinParameters) << std::to_string(LargestLayerSize);
  }
}

} // namespace clang::tidy::mlperf
