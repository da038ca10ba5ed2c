#include "DecodeBatchingCheck.h"
#include "analysis/Invariance.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

namespace {
/// `&tokens[i]`, `tokens.data() + i`, `tokens + i`: an element of a sequence
/// the loop does not change, at an index it does.
bool isElementOf(const Expr *E, const Stmt *Loop, const SourceManager &SM) {
  E = stripWrappers(E);
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    E = stripWrappers(UO->getSubExpr());
  const Expr *Base = nullptr, *Index = nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    Base = AS->getBase();
    Index = AS->getIdx();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
             OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2) {
    Base = OC->getArg(0);
    Index = OC->getArg(1);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Add) {
    bool LhsPointer = BO->getLHS()->getType()->isPointerType();
    Base = LhsPointer ? BO->getLHS() : BO->getRHS();
    Index = LhsPointer ? BO->getRHS() : BO->getLHS();
  }
  if (!Base || !readsChangedIn(Index, Loop))
    return false;
  // The sequence: declared before the loop (`prompt`, `prompt.data()`).
  Base = stripWrappers(Base);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Base))
    Base = stripWrappers(MC->getImplicitObjectArgument());
  const VarDecl *V = namedVar(Base);
  return V && !SM.isPointWithin(V->getLocation(), Loop->getBeginLoc(), Loop->getEndLoc());
}

/// A read of one token's output, in \p S, at an index a loop around it changes.
bool readsEveryOutput(const Stmt *S, ModelAnalysis &A) {
  if (!S)
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && A.profiles().find(CE, Role::OutputRead))
    for (const Stmt *L : A.enclosingLoops(CE))
      if (llvm::any_of(CE->arguments(), [&](const Expr *Arg) { return readsChangedIn(Arg, L); }))
        return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return readsEveryOutput(C, A); });
}

/// The token-batch call that \p E is, directly or through a local variable's initializer.
const CallExpr *tokenBatchOf(const Expr *E, const ApiProfiles &P, const ProfileEntry *&Entry) {
  E = stripWrappers(E);
  if (const VarDecl *V = namedVar(E); V && V->isLocalVarDecl() && V->getInit())
    E = stripWrappers(V->getInit());
  const auto *CE = dyn_cast<CallExpr>(E);
  Entry = CE ? P.find(CE, Role::TokenBatch) : nullptr;
  return Entry ? CE : nullptr;
}

const Expr *argument(const CallExpr *CE, std::optional<unsigned> I) {
  return I && *I < CE->getNumArgs() ? CE->getArg(*I) : nullptr;
}
} // namespace

void DecodeBatchingCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Step)).bind("step"), this);
  Finder->addMatcher(binaryOperator(isAssignmentOperator(), unless(isExpansionInSystemHeader()),
                                    hasLHS(ignoringParenImpCasts(arraySubscriptExpr(
                                        hasBase(ignoringParenImpCasts(memberExpr().bind("field")))))))
                         .bind("flag"),
                     this);
}

void DecodeBatchingCheck::check(const MatchFinder::MatchResult &Result) {
  ModelAnalysis &A = analysis(*Result.Context);
  if (const auto *Step = Result.Nodes.getNodeAs<CallExpr>("step"))
    checkPerTokenDecode(Step, A, *Result.SourceManager);
  else if (const auto *Assign = Result.Nodes.getNodeAs<BinaryOperator>("flag"))
    checkAllOutputs(Assign, A, *Result.SourceManager);
}

void DecodeBatchingCheck::checkPerTokenDecode(const CallExpr *Step, ModelAnalysis &A, const SourceManager &SM) {
  const Stmt *Loop = A.innermostLoop(Step);
  if (!Loop || A.neverRuns(Step))
    return;
  for (const Expr *Arg : Step->arguments()) {
    const ProfileEntry *Entry = nullptr;
    const CallExpr *Batch = tokenBatchOf(Arg, profiles(), Entry);
    if (!Batch || constInt(argument(Batch, Entry->SizeArg), A.context()) != 1 ||
        !isElementOf(argument(Batch, Entry->ValueArg), Loop, SM))
      continue;
    {
      auto D = diag(reportLoc(calleeLoc(Step), SM),
                    "%0 runs the model on one token of a sequence per call, once per iteration; %1");
      addCallee(D, Step);
      D << Entry->Message;
    }
    diag(reportLoc(Batch->getBeginLoc(), SM), "a batch of one token, the loop's element", DiagnosticIDs::Note);
    diag(reportLoc(Loop->getBeginLoc(), SM), "the loop over the tokens", DiagnosticIDs::Note);
    return;
  }
}

void DecodeBatchingCheck::checkAllOutputs(const BinaryOperator *Assign, ModelAnalysis &A, const SourceManager &SM) {
  const auto *Subscript = cast<ArraySubscriptExpr>(Assign->getLHS()->IgnoreParenImpCasts());
  const auto *Field = cast<MemberExpr>(Subscript->getBase()->IgnoreParenImpCasts());
  const ProfileEntry *Entry = profiles().findType(Field->getBase()->getType(), Role::OutputFlags);
  ASTContext &Ctx = A.context();
  std::optional<int64_t> Value = constInt(Assign->getRHS(), Ctx);
  if (!Entry || Field->getMemberDecl()->getName() != Entry->Field || !Value || *Value == 0 || A.neverRuns(Assign))
    return;
  // A loop over the tokens of one batch: not one that makes a batch per
  // iteration (a chunk of a long prompt asks for its last token's output).
  const VarDecl *Batch = namedVar(Field->getBase());
  auto MakesBatch = [&](const Stmt *L) {
    return Batch && (contains(L, Batch->getLocation(), SM) || assignsTo(L, Batch));
  };
  const Stmt *Loop = nullptr;
  for (const Stmt *L : A.enclosingLoops(Assign))
    if (!MakesBatch(L) && readsChangedIn(Subscript->getIdx(), L)) {
      Loop = L;
      break;
    }
  if (!Loop)
    return;
  // Outputs read one per token in a loop (perplexity, per-token embeddings) are all used.
  const FunctionDecl *FD = A.owner(Assign);
  if (FD && readsEveryOutput(FD->getBody(), A))
    return;
  diag(reportLoc(Assign->getOperatorLoc(), SM),
       "every token of the batch asks for its output ('%0'), but none is read per token; %1")
      << Field->getMemberDecl()->getName() << Entry->Message;
  diag(reportLoc(Loop->getBeginLoc(), SM), "the loop over the batch's tokens", DiagnosticIDs::Note);
}

} // namespace clang::tidy::mlperf
