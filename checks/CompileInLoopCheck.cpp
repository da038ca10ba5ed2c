#include "CompileInLoopCheck.h"
#include "analysis/DataFlow.h"
#include "analysis/Hoist.h"
#include "analysis/Invariance.h"
#include "analysis/Ownership.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void CompileInLoopCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Construct)).bind("e"), this);
  Finder->addMatcher(cxxConstructExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::Construct)).bind("e"),
                     this);
}

/// The declaration statement that the construction initializes, when the
/// statement can be moved as a whole (one variable, only blocks up to the loop).
static const DeclStmt *movableDeclaration(const Expr *E, const Stmt *Loop, const ModelAnalysis &A) {
  const Stmt *P = climbThrough<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ImplicitCastExpr,
                               CXXConstructExpr, CXXFunctionalCastExpr>(E, A)
                      .second;
  const auto *DS = dyn_cast_or_null<DeclStmt>(P);
  if (!DS || !DS->isSingleDecl())
    return nullptr;
  for (const Stmt *Up = A.parent(DS); Up && Up != Loop; Up = A.parent(Up))
    if (!isa<CompoundStmt>(Up) && !A.isLoop(Up))
      return nullptr;
  return DS;
}

/// The struct initializer an argument names: the argument itself or the
/// initializer of the local variable it names.
static const InitListExpr *structInit(const Expr *Arg) {
  const Expr *E = stripWrappers(Arg);
  if (const VarDecl *VD = namedVar(E); VD && VD->getInit())
    E = stripWrappers(VD->getInit());
  if (const auto *ILE = dyn_cast<InitListExpr>(E))
    return ILE->isSemanticForm() ? ILE : ILE->getSemanticForm();
  return nullptr;
}

/// Whether the profile says this construction builds only metadata: one of
/// the named fields of its struct argument is true or a non-null pointer.
static bool buildsOnlyMetadata(const CallExpr *Call, const ProfileEntry &Entry, const ASTContext &Ctx) {
  if (!Entry.MetadataArg || *Entry.MetadataArg >= Call->getNumArgs())
    return false;
  const InitListExpr *ILE = structInit(Call->getArg(*Entry.MetadataArg));
  const RecordDecl *RD = ILE ? ILE->getType()->getAsRecordDecl() : nullptr;
  if (!RD)
    return false;
  for (const FieldDecl *F : RD->fields()) {
    if (F->getFieldIndex() >= ILE->getNumInits() || !llvm::is_contained(Entry.MetadataFields, F->getName()))
      continue;
    const Expr *Init = ILE->getInit(F->getFieldIndex())->IgnoreParenImpCasts();
    bool Set = false;
    if (Init->isNullPointerConstant(const_cast<ASTContext &>(Ctx), Expr::NPC_ValueDependentIsNotNull))
      Set = false;
    else if (!Init->EvaluateAsBooleanCondition(Set, Ctx))
      Set = true; // a buffer or flag computed at run time
    if (Set)
      return true;
  }
  return false;
}

/// Whether \p E reads the variable of \p Loop (a `for` counter, a range-`for`
/// element), directly or through locals: one construction per configuration
/// (a benchmark over sizes) cannot be hoisted.
static bool dependsOnLoopVariable(const Expr *E, const Stmt *Loop) {
  llvm::SmallPtrSet<const VarDecl *, 4> Vars;
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit()))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          Vars.insert(VD);
  } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop)) {
    Vars.insert(Range->getLoopVariable());
  }
  if (Vars.empty())
    return false;
  return findInFlow(E, [&](const Stmt *S) {
           const auto *DRE = dyn_cast<DeclRefExpr>(S);
           const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
           return VD && Vars.contains(VD);
         }) != nullptr;
}

/// Whether \p E reads a parameter of \p FD, directly or through locals.
static bool readsParameterOf(const Expr *E, const FunctionDecl *FD) {
  return FD && findInFlow(E, [&](const Stmt *S) {
                 const auto *DRE = dyn_cast<DeclRefExpr>(S);
                 const auto *PVD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
                 return PVD && PVD->getDeclContext() == FD;
               }) != nullptr;
}

/// Whether \p FD overrides a virtual method a library declares: the
/// library's framework calls it (once per event, per inference).
static bool overridesLibraryMethod(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return MD && llvm::any_of(overriddenTransitively(MD),
                            [](const CXXMethodDecl *Base) { return declaredInSystemHeader(Base); });
}

/// The request \p E's object is built for: a local of a function that runs
/// the model once per request holds it (callLocalHolder), so each request
/// builds it again and drops it. A request is a call from a loop that runs
/// the model, a call back from the library the function (or one that calls
/// it) is handed to, or a framework's call of a library method it
/// overrides; not just any call of a function nothing in the project calls
/// (an API's `train()` builds its optimizer once per call, by design). Not a
/// constructor's (one per object), nor one whose arguments the request
/// decides (a parameter of the function that builds or holds it: the model
/// the request names).
static std::optional<HotContext> builtPerRequest(const Expr *E, ModelAnalysis &A) {
  const VarDecl *Holder = callLocalHolder(E, A);
  const Expr *Init = Holder ? Holder->getInit() : nullptr;
  const FunctionDecl *FD = Init ? A.owner(Init) : nullptr;
  if (!FD || isa<CXXConstructorDecl>(FD) || readsParameterOf(E, A.owner(E)) || readsParameterOf(E, FD))
    return std::nullopt;
  std::optional<HotContext> H = A.perRequest(Init);
  if (H && H->RequestEntry && !overridesLibraryMethod(H->RequestEntry))
    return std::nullopt;
  return H;
}

void CompileInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *E = Result.Nodes.getNodeAs<Expr>("e");
  ModelAnalysis &A = analysis(*Result.Context);
  std::optional<HotContext> Hot = A.inModelLoopThroughCallers(E);
  if (!Hot)
    Hot = builtPerRequest(E, A);
  std::optional<RoleMatch> M = A.role(E);
  if (!Hot || !M || profiles().findType(E->getType(), Role::SinglePass))
    return; // a single-pass object (a prefetcher) is built anew for every pass
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && buildsOnlyMetadata(Call, *M->Entry, *Result.Context))
    return;
  if (const Stmt *Inner = A.innermostLoop(E);
      Inner && Hot->Loop && isInside(Inner, Hot->Loop, A) && dependsOnLoopVariable(E, Inner))
    return;
  if (madeForEachIteration(E, *Hot, A))
    return; // a model per checkpoint: each iteration loads its own state into it
  const SourceManager &SM = *Result.SourceManager;
  std::string What;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    What = "'" + CE->getType().getUnqualifiedType().getAsString(Result.Context->getPrintingPolicy()) + "'";
  else if (const CXXRecordDecl *Made = profiles().madeRecord(cast<CallExpr>(E)))
    What = "'" + Made->getQualifiedNameAsString() + "'";
  else if (const FunctionDecl *Callee = cast<CallExpr>(E)->getDirectCallee())
    What = "'" + Callee->getQualifiedNameAsString() + "'";
  else
    return; // a call the parser could not resolve: nothing to name
  std::string Own = M->Entry->Consequence.empty() ? "" : "; " + M->Entry->Consequence;
  llvm::StringRef Consequence =
      !Own.empty()                    ? llvm::StringRef(Own)
      : M->kind() == Kind::Optimizer  ? "; its state (momentum, moment estimates) is lost every time"
      : M->kind() == Kind::Executable ? "; it is loaded and compiled again every time"
      : M->kind() == Kind::DataLoader ? "; its worker threads and buffers are rebuilt every time"
                                      : "";
  {
    auto D = Hot->Loop || !Hot->Request
                 ? diag(reportLoc(E->getBeginLoc(), SM), "%0 is constructed on every iteration of a loop that runs "
                                                         "the model%1; construct it once before the loop")
                 : diag(reportLoc(E->getBeginLoc(), SM),
                        "%0 is constructed for every request and dropped when it is served%1; construct it once and "
                        "keep it for all requests");
    D << What << Consequence;
    const Stmt *Loop = Hot->Loop;
    // Only a loop of the construction's own function can be hoisted out of.
    const DeclStmt *DS = Loop && A.owner(Loop) == A.owner(E) ? movableDeclaration(E, Loop, A) : nullptr;
    const auto *VD = DS ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    // A construction its loop releases every iteration cannot move out of it.
    if (VD && VD->getInit() && !findReleaseOf(loopBody(Loop), HandleRef{VD}, A)) {
      std::vector<const Stmt *> Loops = A.enclosingLoops(DS);
      while (!Loops.empty() && Loops.back() != Loop)
        Loops.pop_back();
      const Stmt *Target = outermostInvariantLoop(VD->getInit(), Loops, profiles());
      std::string Text = sourceText(DS->getSourceRange(), *Result.Context);
      auto Removal = removeStatement(DS, A, *Result.Context);
      auto Hoist = Target && !Text.empty() && Removal && hoistKeepsNames(VD, Target, A)
                       ? hoistBefore(Target, Text, DS, A, *Result.Context)
                       : std::nullopt;
      if (Hoist) {
        for (const FixItHint &H : *Hoist)
          D << H;
        D << *Removal;
      }
    }
  }
  explainHot(*Hot, SM);
  if (M->kind() == Kind::Executable) {
    CostFacts F;
    F.Compilations = 1;
    noteCost(reportLoc(E->getBeginLoc(), SM), F, &*Hot, E, A);
  }
}

} // namespace clang::tidy::mlperf
