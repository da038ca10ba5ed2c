#include "RetainedGraphAccumulationCheck.h"
#include "analysis/DataFlow.h"
#include "analysis/Facts.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void RetainedGraphAccumulationCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  auto Outer = declRefExpr(to(varDecl().bind("acc")));
  // total += loss; total = total + loss
  Finder->addMatcher(cxxOperatorCallExpr(hasAnyOverloadedOperatorName("+=", "-=", "="),
                                         unless(isExpansionInSystemHeader()), hasArgument(0, ignoringImpCasts(Outer)),
                                         hasArgument(1, expr().bind("value")), isInModelLoop(this))
                         .bind("store"),
                     this);
  // losses.push_back(loss)
  Finder->addMatcher(cxxMemberCallExpr(unless(isExpansionInSystemHeader()),
                                       callee(cxxMethodDecl(hasAnyName("push_back", "emplace_back", "insert"))),
                                       on(ignoringImpCasts(Outer)), hasArgument(0, expr().bind("value")),
                                       isInModelLoop(this))
                         .bind("store"),
                     this);
}

void RetainedGraphAccumulationCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Store = Result.Nodes.getNodeAs<Expr>("store");
  const auto *Acc = Result.Nodes.getNodeAs<VarDecl>("acc");
  const Expr *Value = Result.Nodes.getNodeAs<Expr>("value");
  ModelAnalysis &A = analysis(*Result.Context);
  const Profile *Tensors = A.profiles().autogradTensorProfile(Value->getType());
  if (!Tensors)
    return;
  // `total = total + loss`: the value is the sum; find the part with history.
  const auto *Assign = dyn_cast<CXXOperatorCallExpr>(Store);
  if (Assign && Assign->getOperator() == OO_Equal) {
    if (!findInFlow(
            Value,
            [&](const Stmt *S) {
              const auto *D = dyn_cast<DeclRefExpr>(S);
              return D && D->getDecl() == Acc;
            },
            0))
      return;
  }
  // The accumulator outlives the step: declared outside the loop whose
  // iteration is a step (a sum over an inner loop within a step is that
  // step's loss).
  std::optional<HotContext> Hot = A.inModelLoop(Store);
  if (!Hot)
    return;
  // Inside a forward pass (a loop over layers or feature levels) the graph is
  // what the pass builds; it is released with the step's loss.
  if (const FunctionDecl *Owner = A.owner(Store); Owner && A.isHotRoot(Owner))
    return;
  const Stmt *Loop = Hot->Loop && Hot->CallChain.empty() ? Hot->Loop : A.innermostLoop(Store);
  // The iteration that is a training step: the innermost loop whose own body
  // runs the backward pass or the optimizer (an epoch loop's sum over its
  // steps outlives each step).
  for (const Stmt *L : A.enclosingLoops(Store))
    if (A.trainsDirectly(L)) {
      Loop = L;
      break;
    }
  if (!Loop)
    return;
  const SourceManager &SM = *Result.SourceManager;
  SourceRange LoopRange = Loop->getSourceRange();
  SourceLocation DeclLoc = Acc->getLocation();
  if (!SM.isBeforeInTranslationUnit(DeclLoc, LoopRange.getBegin()) &&
      SM.isBeforeInTranslationUnit(DeclLoc, LoopRange.getEnd()))
    return; // declared in the iteration: it goes with it
  if (underNoGradGuard(Store, A) || differentiatedAfter(Loop, A, Acc))
    return;
  // The part of the value that carries history: a model step's or a loss
  // function's result, not detached.
  const Expr *Carrier = nullptr;
  bool Detached = false;
  findInFlow(Value, [&](const Stmt *S) {
    // `loss.backward()` in the loop: whatever produced it, it has a graph.
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && provesGraph(dyn_cast<VarDecl>(Ref->getDecl()), Loop, A)) {
      Carrier = Ref;
      return true;
    }
    const auto *E = dyn_cast<Expr>(S);
    if (!E || !isa<CallExpr, CXXConstructExpr>(E))
      return false;
    if (auto M = A.role(E)) {
      if (M->R == Role::Detach || M->copiesToHost()) {
        Detached = true;
        return true;
      }
      if (M->R == Role::Step && M->kind() == Kind::Forward) {
        Carrier = E;
        return true;
      }
    }
    if (const auto *CE = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *FD = CE->getDirectCallee(); FD && FD->getIdentifier() &&
                                                          FD->getName().contains_insensitive("loss") &&
                                                          A.profiles().autogradTensorProfile(CE->getType())) {
        Carrier = E;
        return true;
      }
    return false;
  });
  if (Detached || !Carrier)
    return;
  const Expr *Part = stripWrappers(Value);
  if (Assign && Assign->getOperator() == OO_Equal)
    if (const auto *Sum = dyn_cast<CXXOperatorCallExpr>(Part); Sum && Sum->getNumArgs() == 2)
      Part = stripWrappers(namedVar(Sum->getArg(0)) == Acc ? Sum->getArg(1) : Sum->getArg(0));
  {
    auto D = diag(reportLoc(Store->getExprLoc(), SM),
                  "tensor with autograd history is accumulated into %0, which outlives the iteration; every step's "
                  "graph stays alive until %0 goes: accumulate a detached value")
             << Acc;
    const ProfileEntry *Detach = A.profiles().fixFor(*Tensors, Role::Detach);
    if (Detach && isMacroFree(Part->getSourceRange()) && (isa<DeclRefExpr>(Part) || isa<CallExpr>(Part))) {
      SourceLocation End = Lexer::getLocForEndOfToken(Part->getEndLoc(), 0, SM, Result.Context->getLangOpts());
      D << FixItHint::CreateInsertion(End, Detach->Fix);
    }
  }
  CostFacts F;
  // Its size is what the model step (or the loss) that made it saved for the
  // backward pass: known when the file's layers and batch size are constants.
  std::optional<double> Bytes = graphBytes(A.modelSizes());
  F.Retained = Retention{Bytes ? Quantity::known(*Bytes)
                               : Quantity::unknown(sourceText(Carrier->getSourceRange(), *Result.Context)),
                         "the autograd graph of '" + sourceText(Part->getSourceRange(), *Result.Context) + "'"};
  noteCost(reportLoc(Store->getExprLoc(), SM), F, &*Hot, Store, A);
}

} // namespace clang::tidy::mlperf
