#include "DataFlow.h"
#include "SourceUtils.h"
#include "SummaryCollector.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace clang::tidy::mlperf {

static bool guardedInFunction(const Stmt *S, const ModelAnalysis &A) {
  for (const Stmt *Child = S, *P = A.parent(S); P; Child = P, P = A.parent(P)) {
    const auto *CS = dyn_cast<CompoundStmt>(P);
    if (!CS)
      continue;
    for (const Stmt *Item : CS->body()) {
      if (Item == Child)
        break;
      if (const auto *DS = dyn_cast<DeclStmt>(Item))
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            if (auto M = A.profiles().matchVarType(VD); M && M->R == Role::NoGradGuard) {
              // A grad-mode guard given `true` (AutoGradMode(true)) turns gradients on.
              const auto *CE =
                  dyn_cast_or_null<CXXConstructExpr>(VD->getInit() ? stripWrappers(VD->getInit()) : nullptr);
              if (std::optional<unsigned> I = M->Entry->GradModeArg; I && CE && *I < CE->getNumArgs())
                if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(CE->getArg(*I)->IgnoreParenImpCasts());
                    B && B->getValue())
                  continue;
              return true;
            }
    }
  }
  return false;
}

static bool definesMain(const ASTContext &Ctx) {
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->isMain() && FD->hasBody())
      return true;
  return false;
}

/// Grad mode is thread-local and callees inherit it: a function whose every
/// call in the TU, and in the other files of the project (their summaries),
/// is under a guard runs under it. In a program (the TU defines main), a
/// function nothing calls or references never runs: it constrains nothing. A
/// thread entry or a function called through a pointer is referenced without
/// a call and starts with grad mode on.
static bool guardedAt(const Stmt *S, const ModelAnalysis &A, llvm::DenseSet<const FunctionDecl *> &Visiting) {
  if (guardedInFunction(S, A))
    return true;
  const FunctionDecl *FD = A.owner(S);
  if (!FD || FD->isMain() || !Visiting.insert(FD).second)
    return false;
  std::vector<const Expr *> Sites = A.callSites(FD);
  const ProjectSummaries *P = A.project();
  bool Elsewhere = P && P->calledWithGradOff(usrOf(FD), A.mainFileName());
  bool Dead = Sites.empty() && !Elsewhere && !FD->isReferenced() && definesMain(A.context());
  bool All = Dead || ((Elsewhere || !Sites.empty()) &&
                      llvm::all_of(Sites, [&](const Expr *E) { return guardedAt(E, A, Visiting); }));
  Visiting.erase(FD);
  return All;
}

bool underNoGradGuard(const Stmt *S, const ModelAnalysis &A) {
  llvm::DenseSet<const FunctionDecl *> Visiting;
  return guardedAt(S, A, Visiting);
}

static const Stmt *findIn(const Stmt *S, llvm::function_ref<bool(const Stmt *)> Visit,
                          llvm::SmallVectorImpl<const VarDecl *> &Vars) {
  if (!S)
    return nullptr;
  if (Visit(S))
    return S;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->isLocalVarDecl())
      Vars.push_back(VD);
  if (isa<LambdaExpr>(S))
    return nullptr;
  for (const Stmt *C : S->children())
    if (const Stmt *R = findIn(C, Visit, Vars))
      return R;
  return nullptr;
}

const Stmt *findInFlow(const Expr *E, llvm::function_ref<bool(const Stmt *)> Visit, unsigned Depth) {
  llvm::DenseSet<const VarDecl *> Seen;
  llvm::SmallVector<const Stmt *, 8> Work{E};
  for (unsigned Level = 0; Level <= Depth && !Work.empty(); ++Level) {
    llvm::SmallVector<const VarDecl *, 8> Vars;
    for (const Stmt *S : Work)
      if (const Stmt *R = findIn(S, Visit, Vars))
        return R;
    Work.clear();
    for (const VarDecl *VD : Vars)
      if (Seen.insert(VD).second && VD->getInit())
        Work.push_back(VD->getInit());
  }
  return nullptr;
}

bool isInside(const Stmt *S, const Stmt *Ancestor, const ModelAnalysis &A) {
  for (; S; S = A.parent(S))
    if (S == Ancestor)
      return true;
  return false;
}

bool typeMentions(QualType T, llvm::StringRef Name) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (plainQualifiedName(RD) == Name)
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type && typeMentions(Arg.getAsType(), Name))
        return true;
  return false;
}

/// Whether \p E is a null pointer literal (`nullptr`, `NULL`, `0`).
static bool isNullLiteral(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return true;
  const auto *I = dyn_cast<IntegerLiteral>(E);
  return I && I->getValue() == 0;
}

/// Whether \p Cond is a null test of the handle: true when it holds for a
/// null handle (`!p`, `p == NULL`), false when it holds for a live one (`p`,
/// `p != nullptr`); none for any other condition (`!p || n == 0`).
static std::optional<bool> trueWhenNull(const Expr *Cond, llvm::function_ref<bool(const Expr *)> IsHandle) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond); U && U->getOpcode() == UO_LNot) {
    if (std::optional<bool> Inner = trueWhenNull(U->getSubExpr(), IsHandle))
      return !*Inner;
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond); BO && BO->isEqualityOp()) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if ((isNullLiteral(R) && IsHandle(L)) || (isNullLiteral(L) && IsHandle(R)))
      return BO->getOpcode() == BO_EQ;
    return std::nullopt;
  }
  if (Cond->getType()->isPointerType() && IsHandle(Cond))
    return false;
  return std::nullopt;
}

const Stmt *exitBetween(const Stmt *Region, SourceLocation From, SourceLocation To, const SourceManager &SM,
                        const Stmt *Acquire, llvm::function_ref<bool(const Expr *)> IsHandle) {
  const Stmt *Found = nullptr;
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool NestedLoop) {
    if (!S || Found || isa<LambdaExpr>(S))
      return;
    if (const auto *If = dyn_cast<IfStmt>(S); If && If->getCond()) {
      if (Acquire && If->getCond()->getSourceRange().fullyContains(Acquire->getSourceRange()))
        return;
      if (std::optional<bool> Null =
              IsHandle && !If->getConditionVariable() ? trueWhenNull(If->getCond(), IsHandle) : std::nullopt) {
        Walk(If->getInit(), NestedLoop);
        Walk(*Null ? If->getElse() : If->getThen(), NestedLoop);
        return;
      }
    }
    bool InRange =
        SM.isBeforeInTranslationUnit(From, S->getBeginLoc()) && SM.isBeforeInTranslationUnit(S->getBeginLoc(), To);
    bool Holds = isa<ReturnStmt>(S) && !SM.isBeforeInTranslationUnit(S->getEndLoc(), To);
    if (InRange && ((isa<ReturnStmt>(S) && !Holds) || (!NestedLoop && isa<ContinueStmt, BreakStmt>(S)))) {
      Found = S;
      return;
    }
    bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
    for (const Stmt *C : S->children())
      Walk(C, NestedLoop || Loop);
  };
  for (const Stmt *C : Region->children())
    Walk(C, false);
  return Found;
}

} // namespace clang::tidy::mlperf
