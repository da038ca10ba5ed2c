#include "BackendChoiceCheck.h"
#include "analysis/Autograd.h"
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
  // Layers with sizes in their constructor (parameters counted in check()).
  Finder->addMatcher(
      cxxConstructExpr(User, hasDeclaration(cxxConstructorDecl(ofClass(hasAnyName(
                                 "::torch::nn::Linear", "::torch::nn::LinearImpl", "::torch::nn::LinearOptions",
                                 "::torch::nn::Conv1d", "::torch::nn::Conv1dImpl", "::torch::nn::Conv2d",
                                 "::torch::nn::Conv2dImpl", "::torch::nn::Conv3d", "::torch::nn::Conv3dImpl",
                                 "::torch::nn::ConvOptions", "::torch::nn::Embedding", "::torch::nn::EmbeddingImpl",
                                 "::torch::nn::EmbeddingOptions")))))
          .bind("layer"),
      this);
  // The runtime's variables: Context::variable(g, name, Shape{...}, ...).
  Finder->addMatcher(cxxMemberCallExpr(User, callee(cxxMethodDecl(hasName("::mlperf::rt::Context::variable"))),
                                       argumentCountAtLeast(3))
                         .bind("variable"),
                     this);
  // Backend and device choices.
  Finder->addMatcher(callExpr(User, callee(functionDecl(hasName("::mlperf::rt::Backend::create"))),
                              argumentCountAtLeast(1))
                         .bind("create"),
                     this);
  Finder->addMatcher(callExpr(User, callee(functionDecl(hasAnyName("::setenv", "::putenv")))).bind("setenv"), this);
  auto DeviceType = qualType(hasCanonicalType(hasDeclaration(namedDecl(hasAnyName("::c10::Device", "::c10::DeviceType")))));
  Finder->addMatcher(varDecl(User, unless(parmVarDecl()), hasType(DeviceType), hasInitializer(expr())).bind("device"),
                     this);
  Finder->addMatcher(
      cxxMemberCallExpr(User, callee(cxxMethodDecl(hasName("to"), ofClass(isSameOrDerivedFrom("::torch::nn::Module")))),
                        argumentCountAtLeast(1))
          .bind("module-to"),
      this);
  // What makes a choice informed, and whether the model trains.
  Finder->addMatcher(callExpr(User, callee(functionDecl(hasAnyName(
                                        "::torch::cuda::is_available", "::torch::cuda::device_count",
                                        "::torch::cuda::cudnn_is_available", "::at::hasCUDA", "::at::hasMPS",
                                        "::torch::mps::is_available", "::mlperf::rt::registered_backends"))))
                         .bind("probe"),
                     this);
  Finder->addMatcher(callExpr(User, hasRole(this, Role::Step)).bind("step"), this);
  Finder->addMatcher(
      callExpr(User, callee(functionDecl(anyOf(hasName("::mlperf::rt::gradients"),
                                               cxxMethodDecl(hasName("minimize"),
                                                             ofClass(isSameOrDerivedFrom("::mlperf::rt::Optimizer")))))))
          .bind("train"),
      this);
}

/// The value of a constant integer expression, through const variables.
static std::optional<int64_t> constInt(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = stripWrappers(E);
  if (E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  if (const VarDecl *VD = namedVar(E); VD && VD->getType().isConstQualified() && VD->getInit())
    return constInt(VD->getInit(), Ctx);
  return std::nullopt;
}

/// The product of the constant integers in a braced list (a Shape{...} or a
/// kernel size {3, 3}), or of one integer raised to \p Rank.
static std::optional<int64_t> volume(const Expr *E, unsigned Rank, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = stripWrappers(E);
  if (std::optional<int64_t> V = constInt(E, Ctx)) {
    int64_t P = 1;
    for (unsigned I = 0; I < Rank; ++I)
      P *= *V;
    return P;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    int64_t P = 1;
    for (const Expr *Init : IL->inits()) {
      std::optional<int64_t> V = constInt(Init, Ctx);
      if (!V)
        return std::nullopt;
      P *= *V;
    }
    return IL->getNumInits() ? std::optional<int64_t>(P) : std::nullopt;
  }
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
    return volume(SIL->getSubExpr(), Rank, Ctx);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() >= 1)
    return volume(CE->getArg(0), Rank, Ctx);
  return std::nullopt;
}

/// The string a constant expression holds (a literal, a std::string built
/// from one, a const variable initialized with one).
static std::optional<std::string> constString(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = stripWrappers(E);
  if (const auto *SL = dyn_cast<StringLiteral>(E))
    return SL->getString().str();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() >= 1)
    return constString(CE->getArg(0));
  if (const VarDecl *VD = namedVar(E); VD && VD->getInit() && VD->getType().isConstQualified())
    return constString(VD->getInit());
  return std::nullopt;
}

/// Parameters of a layer constructed with constant sizes, or none.
static std::optional<int64_t> layerParameters(const CXXConstructExpr *CE, const ASTContext &Ctx) {
  std::string Class = plainQualifiedName(CE->getConstructor()->getParent());
  StringRef Name = StringRef(Class).rsplit("::").second;
  if (CE->getNumArgs() < 2)
    return std::nullopt;
  std::optional<int64_t> In = constInt(CE->getArg(0), Ctx), Out = constInt(CE->getArg(1), Ctx);
  if (!In || !Out)
    return std::nullopt;
  if (Name.starts_with("Linear"))
    return *In * *Out + *Out;
  if (Name.starts_with("Embedding"))
    return *In * *Out;
  unsigned Rank = 0;
  if (Name.starts_with("Conv1d"))
    Rank = 1;
  else if (Name.starts_with("Conv2d"))
    Rank = 2;
  else if (Name.starts_with("Conv3d"))
    Rank = 3;
  else if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(CE->getConstructor()->getParent());
           Spec && Spec->getTemplateArgs().size() >= 1 && Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
    Rank = Spec->getTemplateArgs()[0].getAsIntegral().getZExtValue();  // ConvOptions<D>
  if (!Rank || CE->getNumArgs() < 3)
    return std::nullopt;
  std::optional<int64_t> Kernel = volume(CE->getArg(2), Rank, Ctx);
  if (!Kernel)
    return std::nullopt;
  return *In * *Out * *Kernel + *Out;
}

void BackendChoiceCheck::check(const MatchFinder::MatchResult &Result) {
  const ASTContext &Ctx = *Result.Context;
  SM = Result.SourceManager;
  auto AddLayer = [&](std::optional<int64_t> N, SourceLocation Loc) {
    if (!N || *N <= 0)
      return;
    Parameters += *N;
    if (*N > LargestLayerSize) {
      LargestLayerSize = *N;
      LargestLayer = reportLoc(Loc, *SM);
    }
  };
  if (const auto *CE = Result.Nodes.getNodeAs<CXXConstructExpr>("layer"))
    AddLayer(layerParameters(CE, Ctx), CE->getBeginLoc());
  if (const auto *MC = Result.Nodes.getNodeAs<CXXMemberCallExpr>("variable")) {
    bool Frozen = MC->getNumArgs() >= 6 && !isa<CXXDefaultArgExpr>(MC->getArg(5)) && [&] {
      bool Trainable = true;
      return stripWrappers(MC->getArg(5))->EvaluateAsBooleanCondition(Trainable, Ctx) && !Trainable;
    }();
    if (!Frozen)
      AddLayer(volume(MC->getArg(2), 1, Ctx), MC->getBeginLoc());
  }
  if (const auto *CE = Result.Nodes.getNodeAs<CallExpr>("create"))
    if (constString(CE->getArg(0)) == std::optional<std::string>("reference"))
      Choices.push_back({reportLoc(CE->getBeginLoc(), *SM), true});
  if (const auto *CE = Result.Nodes.getNodeAs<CallExpr>("setenv")) {
    std::optional<std::string> Var = CE->getNumArgs() >= 1 ? constString(CE->getArg(0)) : std::nullopt;
    std::optional<std::string> Value = CE->getNumArgs() >= 2 ? constString(CE->getArg(1)) : std::nullopt;
    if ((Var == std::optional<std::string>("MLPERF_BACKEND") && Value == std::optional<std::string>("reference")) ||
        Var == std::optional<std::string>("MLPERF_BACKEND=reference"))
      Choices.push_back({reportLoc(CE->getBeginLoc(), *SM), true});
  }
  if (const auto *VD = Result.Nodes.getNodeAs<VarDecl>("device"))
    if (classifyDeviceArg(VD->getInit()) == DeviceKind::Cpu)
      Choices.push_back({reportLoc(VD->getLocation(), *SM), false});
  if (const auto *MC = Result.Nodes.getNodeAs<CXXMemberCallExpr>("module-to")) {
    const Expr *Arg = MC->getArg(0);
    if (!namedVar(Arg) && classifyDeviceArg(Arg) == DeviceKind::Cpu)  // variables are reported at their declaration
      Choices.push_back({reportLoc(stripWrappers(Arg)->getBeginLoc(), *SM), false});
  }
  if (Result.Nodes.getNodeAs<CallExpr>("probe"))
    ChecksAccelerator = true;
  if (const auto *CE = Result.Nodes.getNodeAs<CallExpr>("step")) {
    std::optional<RoleMatch> M = profiles().match(CE);
    if (M && (M->kind() == "backward" || M->kind() == "optimizer"))
      Training = true;
  }
  if (Result.Nodes.getNodeAs<CallExpr>("train"))
    Training = true;
}

void BackendChoiceCheck::onEndOfTranslationUnit() {
  if (!SM || !Training || ChecksAccelerator || Parameters < MinParameters)
    return;
  for (const Choice &C : Choices) {
    if (C.Runtime)
      diag(C.Loc, "a model with %0 parameters trains on the 'reference' backend, which runs every op as its own "
                  "unfused kernel; on a model this large the fused or accelerated backends pay off: let "
                  "Backend::create() pick the fastest registered backend (or choose from registered_backends())")
          << std::to_string(Parameters);
    else
      diag(C.Loc, "a model with %0 parameters trains on a hard-coded CPU device with no check for an "
                  "accelerator; on a model this large a GPU pays off: pick the device with "
                  "torch::cuda::is_available() ? torch::kCUDA : torch::kCPU")
          << std::to_string(Parameters);
    diag(LargestLayer,
         "%0 parameters counted from the constant layer sizes (MinParameters is %1); the largest layer, %2 "
         "parameters, is here",
         DiagnosticIDs::Note)
        << std::to_string(Parameters) << std::to_string(MinParameters) << std::to_string(LargestLayerSize);
  }
}

} // namespace clang::tidy::mlperf
