#include "VariableBatchShapeCheck.h"
#include "analysis/DataFlow.h"
#include "analysis/Invariance.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void VariableBatchShapeCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Step), runsEveryStep(this)).bind("call"), this);
}

/// Whether \p E reads a variable that \p Loop changes or declares.
static bool variesIn(const Expr *E, const Stmt *Loop) {
  return findInFlow(
             E,
             [&](const Stmt *S) {
               const auto *D = dyn_cast<DeclRefExpr>(S);
               const auto *VD = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
               return VD && isChangedIn(VD, Loop);
             },
             2) != nullptr;
}

/// Whether \p Loop is a `for` that adds \p Step to its variable each trip.
static bool stepsBy(const Stmt *Loop, int64_t Step, const ASTContext &Ctx) {
  const auto *For = dyn_cast<ForStmt>(Loop);
  const auto *Inc =
      For && For->getInc() ? dyn_cast<CompoundAssignOperator>(For->getInc()->IgnoreParenImpCasts()) : nullptr;
  return Inc && Inc->getOpcode() == BO_AddAssign && constInt(Inc->getRHS(), Ctx) == Step;
}

/// The expression that makes a shape vary between iterations of \p Loop, with
/// what it is: `std::min(batch, n - i)`, a slice of varying length, or a
/// container's size() that changes per iteration. \p ExtraShapes: how many
/// shapes beyond one the length takes, when the code says: a minimum with a
/// constant C takes at most C lengths, and two (C and the remainder) when the
/// loop steps by C.
static const Expr *varyingShape(const Expr *Input, const Stmt *Loop, const ModelAnalysis &A, std::string &What,
                                std::optional<int64_t> &ExtraShapes) {
  const ASTContext &Ctx = A.context();
  const Stmt *Found = findInFlow(Input, [&](const Stmt *S) {
    const auto *CE = dyn_cast<CallExpr>(S);
    const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
    if (!FD || !FD->getIdentifier())
      return false;
    StringRef Name = FD->getName();
    std::string Qual = plainQualifiedName(FD);
    if ((Qual == "std::min" || Qual == "std::max") && CE->getNumArgs() >= 2) {
      for (const Expr *Arg : CE->arguments())
        if (!isConstant(Arg, Ctx) && variesIn(Arg, Loop)) {
          What = "a batch length that changes between iterations";
          for (const Expr *Other : CE->arguments())
            if (std::optional<int64_t> Cap = Qual == "std::min" ? constInt(Other, Ctx) : std::nullopt; Cap && *Cap > 1)
              ExtraShapes = stepsBy(Loop, *Cap, Ctx) ? 1 : *Cap - 1;
          return true;
        }
      return false;
    }
    const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
    if (const ProfileEntry *Slice = A.profiles().find(CE, Role::Slice); Slice && *Slice->SizeArg < CE->getNumArgs() &&
                                                                        !isConstant(CE->getArg(*Slice->SizeArg), Ctx) &&
                                                                        variesIn(CE->getArg(*Slice->SizeArg), Loop)) {
      What = "a " + Name.str() + "() whose length changes between iterations";
      return true;
    }
    if (MC && Name == "size" && MC->getNumArgs() == 0) {
      const VarDecl *Container = namedVar(MC->getImplicitObjectArgument());
      if (Container && isChangedIn(Container, Loop)) {
        What = "a data-dependent size";
        return true;
      }
    }
    return false;
  });
  return dyn_cast_or_null<Expr>(Found);
}

/// Whether \p E calls `Method(true)` (a loader's `drop_last(true)`).
static bool dropsLast(const Expr *E, llvm::StringRef Method, const ASTContext &Ctx) {
  return findInFlow(E, [&](const Stmt *S) {
           const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
           const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
           bool Value = false;
           return MD && MD->getIdentifier() && MD->getName() == Method && MC->getNumArgs() == 1 &&
                  stripWrappers(MC->getArg(0))->EvaluateAsBooleanCondition(Value, Ctx) && Value;
         }) != nullptr;
}

/// The data loader the input comes from when it does not drop its last,
/// smaller batch (a loader whose profile names the option, built without it).
static const Expr *unevenLoader(const Expr *Input, const ModelAnalysis &A, std::string &Option) {
  const Stmt *Found = findInFlow(
      Input,
      [&](const Stmt *S) {
        const auto *CE = dyn_cast<CallExpr>(S);
        std::optional<RoleMatch> M = CE ? A.role(CE) : std::nullopt;
        if (!M || M->R != Role::Construct || M->kind() != Kind::DataLoader || M->Entry->DropLastMethod.empty())
          return false;
        Option = M->Entry->DropLastMethod;
        for (const Expr *Arg : CE->arguments())
          if (dropsLast(Arg, Option, A.context()))
            return false;
        return true;
      },
      /*Depth=*/6); // batch -> range-for's __begin -> __range -> the loader
  return dyn_cast_or_null<Expr>(Found);
}

void VariableBatchShapeCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ModelAnalysis &A = analysis(*Result.Context);
  std::optional<RoleMatch> M = A.role(Call);
  if (!M || !M->Entry->ShapeSpecialized)
    return;
  std::optional<HotContext> Hot = A.perStep(Call);
  std::vector<const Stmt *> Loops = A.enclosingLoops(Call);
  if (!Hot || Loops.empty())
    return;
  const Stmt *Loop = Loops.front();
  std::string What;
  const Expr *Varying = nullptr;
  std::optional<int64_t> ExtraShapes;
  for (const Expr *Arg : Call->arguments())
    if ((Varying = varyingShape(Arg, Loop, A, What, ExtraShapes)))
      break;
  std::string Option;
  for (const Expr *Arg : Call->arguments())
    if (!Varying && (Varying = unevenLoader(Arg, A, Option)))
      What = "a data loader without " + Option + "(true), whose last batch is smaller";
  if (!Varying)
    return;
  const SourceManager &SM = *Result.SourceManager;
  diag(reportLoc(Call->getExprLoc(), SM),
       "%0 runs a shape-specialized executable with inputs whose shape changes between iterations; each new "
       "shape compiles again: use fixed-size batches (pad the last one and mask it) or a few bucket sizes, with "
       "a cache that covers them (set_max_cache)")
      << Call->getDirectCallee()->getDeclName();
  diag(reportLoc(Varying->getExprLoc(), SM), "the input shape follows %0", DiagnosticIDs::Note) << What;
  // Each shape compiles once and stays cached, so the cost is per run, not
  // per step: the shapes beyond the fix's one, when the code bounds them
  // (varyingShape), or a loader's smaller last batch. A data-dependent size
  // adds one per distinct size, which the code does not say: no estimate.
  if (!Option.empty())
    ExtraShapes = 1;
  if (ExtraShapes) {
    CostFacts F;
    F.Compilations = 1;
    F.Repeats = Quantity::known(static_cast<double>(*ExtraShapes));
    noteCost(reportLoc(Call->getExprLoc(), SM), F, nullptr, Call, A);
  }
}

} // namespace clang::tidy::mlperf
