#include "CreateOnDeviceCheck.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void CreateOnDeviceCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(cxxMemberCallExpr(unless(isExpansionInSystemHeader()), movesHostCreation(this, "factory"),
                                       onDevice(this), runsEveryStep(this))
                         .bind("move"),
                     this);
}

/// `{0}` in a template replaced by \p Value.
static std::string fill(llvm::StringRef Template, llvm::StringRef Value) {
  std::string Out = Template.str();
  if (size_t Pos = Out.find("{0}"); Pos != std::string::npos)
    Out.replace(Pos, 3, Value.str());
  return Out;
}

/// What the options a factory's caller leaves out hold, spelled for the
/// caller: "" for default-constructed options, the qualified name of what
/// they are converted from (`randint`'s `options = at::kLong` gives
/// "at::kLong"), or nullopt when they cannot be spelled. Options set only to a
/// device would drop that dtype and change what the factory makes.
static std::optional<std::string> defaultOptionsText(const ParmVarDecl *Options, const ASTContext &Ctx) {
  if (!Options->hasDefaultArg() || Options->hasUnparsedDefaultArg() || Options->hasUninstantiatedDefaultArg())
    return std::nullopt;
  const Expr *D = stripWrappers(Options->getDefaultArg());
  if (const auto *IL = dyn_cast<InitListExpr>(D); IL && IL->getNumInits() == 0)
    return "";
  const auto *C = dyn_cast<CXXConstructExpr>(D);
  if (!C)
    return std::nullopt;
  if (C->getNumArgs() == 0)
    return "";
  if (C->getNumArgs() != 1 || isa<CXXDefaultArgExpr>(C->getArg(0)))
    return std::nullopt;
  const auto *Ref = dyn_cast<DeclRefExpr>(stripWrappers(C->getArg(0)));
  if (!Ref)
    return std::nullopt;
  // The header's own spelling when it starts from a top-level namespace.
  const NestedNameSpecifier *Outer = Ref->getQualifier();
  while (Outer && Outer->getPrefix())
    Outer = Outer->getPrefix();
  if (Outer && Outer->getKind() == NestedNameSpecifier::Namespace &&
      Outer->getAsNamespace()->getDeclContext()->getRedeclContext()->isTranslationUnit()) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    Ref->getQualifier()->print(OS, Ctx.getPrintingPolicy());
    return Text + Ref->getNameInfo().getAsString();
  }
  return Ref->getFoundDecl()->getQualifiedNameAsString();
}

/// The replacement text for `factory(args).to(device)`, or "" when the
/// factory has no trailing options parameter or the move does more. The
/// factory's profile entry gives the options type and how to set a device.
static std::string onDeviceText(const CallExpr *Factory, const ProfileEntry &F, const CXXMemberCallExpr *Move,
                                const ProfileEntry &M, const ASTContext &Ctx) {
  const FunctionDecl *FD = Factory->getDirectCallee();
  if (!FD || F.OptionsType.empty() || FD->getNumParams() == 0)
    return "";
  const ParmVarDecl *Last = FD->getParamDecl(FD->getNumParams() - 1);
  const auto *OptType = Last->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!OptType || plainQualifiedName(OptType) != F.OptionsType)
    return "";
  std::string Device;
  if (!M.DefaultDevice.empty() && Move->getNumArgs() == 0) {
    Device = M.DefaultDevice;
  } else {
    for (unsigned I = 1; I < Move->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Move->getArg(I)))
        return "";
    if (Move->getNumArgs() == 0)
      return "";
    Device = sourceText(Move->getArg(0)->getSourceRange(), Ctx);
  }
  std::string Callee = sourceText(Factory->getCallee()->getSourceRange(), Ctx);
  if (Device.empty() || Callee.empty())
    return "";
  std::vector<std::string> Args;
  for (unsigned I = 0; I < Factory->getNumArgs(); ++I) {
    const Expr *Arg = Factory->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      break;
    std::string Text = sourceText(Arg->getSourceRange(), Ctx);
    if (Text.empty())
      return "";
    Args.push_back(Text);
  }
  unsigned OptIndex = FD->getNumParams() - 1;
  std::string SetDevice = fill(F.SetDevice, Device);
  if (Args.size() > OptIndex) {
    const Expr *Opt = stripWrappers(Factory->getArg(OptIndex));
    // A dtype converted implicitly to the options type: wrap the source.
    if (const auto *C = dyn_cast<CXXConstructExpr>(Opt);
        C && !isa<CXXTemporaryObjectExpr>(C) && C->getNumArgs() >= 1 && !C->getConstructor()->isCopyOrMoveConstructor())
      Opt = stripWrappers(C->getArg(0));
    if (isa<InitListExpr>(Opt) || llvm::StringRef(Args[OptIndex]).starts_with("{"))
      return "";
    const auto *RD = Opt->getType()->getAsCXXRecordDecl();
    bool IsOptions = RD && plainQualifiedName(RD) == F.OptionsType;
    Args[OptIndex] = (IsOptions ? Args[OptIndex] : fill(F.NewOptions, Args[OptIndex])) + SetDevice;
  } else if (Args.size() == OptIndex) {
    std::optional<std::string> Default = defaultOptionsText(Last, Ctx);
    if (!Default)
      return "";
    Args.push_back(fill(F.NewOptions, *Default) + SetDevice);
  } else {
    return "";
  }
  std::string Text = Callee + "(";
  for (size_t I = 0; I < Args.size(); ++I)
    Text += (I ? ", " : "") + Args[I];
  return Text + ")";
}

void CreateOnDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Move = Result.Nodes.getNodeAs<CXXMemberCallExpr>("move");
  const auto *Factory = Result.Nodes.getNodeAs<CallExpr>("factory");
  std::optional<HotContext> Hot = analysis(*Result.Context).perStep(Move);
  const SourceManager &SM = *Result.SourceManager;
  {
    auto D = diag(reportLoc(Move->getExprLoc(), SM),
                  "tensor is created on the host by %0 and then copied to the device, on every step; create it "
                  "on the device through its options")
             << Factory->getDirectCallee();
    ModelAnalysis &A = analysis(*Result.Context);
    std::optional<RoleMatch> F = A.role(Factory), M = A.role(Move);
    // Only `factory(...).to(device)` itself is rewritten: conversions between
    // them, or a device that follows another tensor, have no single options form.
    bool Direct = stripWrappers(Move->getImplicitObjectArgument()) == Factory && !(M && followedByMove(Move, *M, A));
    std::string Text = Direct && F && M ? onDeviceText(Factory, *F->Entry, Move, *M->Entry, *Result.Context) : "";
    if (!Text.empty() && isMacroFree(Move->getSourceRange()))
      D << FixItHint::CreateReplacement(Move->getSourceRange(), Text);
  }
  explainHot(*Hot, SM);
  CostFacts F;
  F.HostToDevice = 1;
  F.Bytes = factoryBytes(Factory, *Result.Context);
  noteCost(reportLoc(Move->getExprLoc(), SM), F, &*Hot, Move, analysis(*Result.Context));
}

} // namespace clang::tidy::mlperf
