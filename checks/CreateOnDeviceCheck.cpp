#include "CreateOnDeviceCheck.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void CreateOnDeviceCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(
      cxxMemberCallExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::ToDevice),
                        on(expr(ignoringImplicit(callExpr(hasRole(this, Role::Factory)).bind("factory")))),
                        runsEveryStep(this))
          .bind("move"),
      this);
}

/// The replacement text for `factory(args).to(device)`, or "" when the
/// factory has no trailing TensorOptions parameter or the move does more.
static std::string onDeviceText(const CallExpr *Factory, const CXXMemberCallExpr *Move, const ASTContext &Ctx) {
  const FunctionDecl *FD = Factory->getDirectCallee();
  const CXXMethodDecl *MoveFn = Move->getMethodDecl();
  if (!FD || !MoveFn || FD->getNumParams() == 0)
    return "";
  const ParmVarDecl *Last = FD->getParamDecl(FD->getNumParams() - 1);
  const auto *OptType = Last->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!OptType || plainQualifiedName(OptType) != "c10::TensorOptions")
    return "";
  std::string Device;
  if (MoveFn->getName() == "cuda" && Move->getNumArgs() == 0) {
    Device = "torch::kCUDA";
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
  if (Args.size() > OptIndex) {
    const Expr *Opt = stripWrappers(Factory->getArg(OptIndex));
    // `torch::kFloat` converted implicitly to TensorOptions: wrap the source.
    if (const auto *C = dyn_cast<CXXConstructExpr>(Opt);
        C && !isa<CXXTemporaryObjectExpr>(C) && C->getNumArgs() >= 1 && !C->getConstructor()->isCopyOrMoveConstructor())
      Opt = stripWrappers(C->getArg(0));
    if (isa<InitListExpr>(Opt) || llvm::StringRef(Args[OptIndex]).starts_with("{"))
      return "";
    const auto *RD = Opt->getType()->getAsCXXRecordDecl();
    bool IsOptions = RD && plainQualifiedName(RD) == "c10::TensorOptions";
    Args[OptIndex] = IsOptions ? Args[OptIndex] + ".device(" + Device + ")"
                               : "torch::TensorOptions(" + Args[OptIndex] + ").device(" + Device + ")";
  } else if (Args.size() == OptIndex) {
    Args.push_back("torch::TensorOptions().device(" + Device + ")");
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
    std::string Text = onDeviceText(Factory, Move, *Result.Context);
    if (!Text.empty() && isMacroFree(Move->getSourceRange()))
      D << FixItHint::CreateReplacement(Move->getSourceRange(), Text);
  }
  explainHot(*Hot, SM);
}

} // namespace clang::tidy::mlperf
