#include "Ownership.h"
#include "SourceUtils.h"
#include "SummaryCollector.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <functional>

namespace clang::tidy::mlperf {

bool HandleRef::isLocal() const {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  return !Member && !Field && VD && VD->isLocalVarDecl();
}

HandleRef handleRefOf(const Expr *E) {
  HandleRef R;
  if (!E)
    return R;
  E = stripWrappers(E)->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenCasts();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const VarDecl *Array = namedVar(AS->getBase());
    if (!Array || !Array->getType()->isConstantArrayType())
      return R;
    Expr::EvalResult V;
    if (AS->getIdx()->EvaluateAsInt(V, Array->getASTContext()))
      R.Index = V.Val.getInt().getExtValue();
    else if (const VarDecl *I = namedVar(AS->getIdx()); I && I->getType().isConstQualified())
      R.IndexVar = I; // the same element only while the index cannot change
    else
      return R;
    R.D = Array;
    return R;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return R;
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) {
      R.D = FD;
      R.Member = true;
    } else if (const VarDecl *Holder = namedVar(ME->getBase())) {
      R.D = Holder;
      R.Field = FD;
    }
    return R;
  }
  R.D = namedVar(E);
  return R;
}

const ProfileEntry *acquireEntryNamed(llvm::StringRef Name, const ApiProfiles &P) {
  for (Role Ro : {Role::Acquire, Role::Construct})
    for (const ProfileEntry *E : P.entries(Ro))
      if (!E->Pair.empty() && llvm::is_contained(E->Callees, Name))
        return E;
  return nullptr;
}

std::string acquireEntryName(const ProfileEntry &E) { return E.Callees.empty() ? "" : E.Callees.front(); }

/// The facts of a function another file of the project defines, or null.
static const FunctionFacts *externalFacts(const CallExpr *Call, const ModelAnalysis &A) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || FD->getDefinition() || !A.project())
    return nullptr;
  return A.project()->function(usrOf(FD), A.mainFileName());
}

std::optional<Acquisition> acquisitionAt(const CallExpr *Call, ModelAnalysis &A) {
  if (std::optional<RoleMatch> M = A.role(Call)) {
    if ((M->R == Role::Acquire || M->R == Role::Construct) && !M->Entry->Pair.empty())
      return Acquisition{M->Entry, ""};
    return std::nullopt; // an API call with another role
  }
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return std::nullopt;
  if (const FunctionDecl *Def = FD->getDefinition()) {
    if (const ProfileEntry *E = returnedAcquisition(Def, A))
      return Acquisition{E, FD->getNameAsString()};
    return std::nullopt;
  }
  if (const FunctionFacts *F = externalFacts(Call, A); F && !F->ReturnedAcquire.empty())
    if (const ProfileEntry *E = acquireEntryNamed(F->ReturnedAcquire, A.profiles()))
      return Acquisition{E, FD->getNameAsString()};
  return std::nullopt;
}

HandleRef acquiredHandleRef(const CallExpr *Call, const Acquisition &Acq, const ModelAnalysis &A, bool *Returned) {
  if (std::optional<unsigned> I = Acq.handleArg())
    return *I < Call->getNumArgs() ? handleRefOf(Call->getArg(*I)) : HandleRef();
  const Stmt *P = A.parent(Call);
  while (P && isa<ExprWithCleanups, ImplicitCastExpr, ExplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
                  CXXBindTemporaryExpr, CXXConstructExpr>(P))
    P = A.parent(P);
  HandleRef R;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(P); DS && DS->isSingleDecl())
    R.D = dyn_cast<VarDecl>(DS->getSingleDecl());
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P); BO && BO->isAssignmentOp())
    R = handleRefOf(BO->getLHS());
  else if (Returned && isa_and_nonnull<ReturnStmt>(P))
    *Returned = true;
  return R;
}

bool releasesArgument(const CallExpr *Call, unsigned I, ModelAnalysis &A) {
  if (I >= Call->getNumArgs())
    return false;
  if (std::optional<RoleMatch> M = A.role(Call))
    return M->R == Role::Release && (M->Entry->HandleArg ? *M->Entry->HandleArg : 0) == I;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || isa<CXXOperatorCallExpr>(Call))
    return false;
  if (const FunctionDecl *Def = FD->getDefinition())
    return llvm::is_contained(releasedParameters(Def, A), I);
  if (const FunctionFacts *F = externalFacts(Call, A))
    return llvm::is_contained(F->ReleasedParams, I);
  return false;
}

const Expr *findReleaseOf(const Stmt *Region, const HandleRef &Handle, ModelAnalysis &A) {
  if (!Region || !Handle || isa<CXXCatchStmt, LambdaExpr>(Region))
    return nullptr;
  if (const auto *CE = dyn_cast<CallExpr>(Region))
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      if (handleRefOf(CE->getArg(I)) == Handle && releasesArgument(CE, I, A))
        return CE;
  if (const auto *DE = dyn_cast<CXXDeleteExpr>(Region); DE && handleRefOf(DE->getArgument()) == Handle)
    return DE;
  for (const Stmt *C : Region->children())
    if (const Expr *Found = findReleaseOf(C, Handle, A))
      return Found;
  return nullptr;
}

llvm::ArrayRef<unsigned> releasedParameters(const FunctionDecl *FD, ModelAnalysis &A) {
  auto &Memo = A.ownershipMemo().Released;
  if (auto It = Memo.find(FD); It != Memo.end())
    return It->second;
  Memo[FD]; // a recursive query (a call cycle) sees none
  llvm::SmallVector<unsigned, 2> Out;
  auto Note = [&](const Expr *Arg) {
    HandleRef H = handleRefOf(Arg).holder();
    if (const auto *P = dyn_cast_or_null<ParmVarDecl>(H.D);
        P && !H.element() && !llvm::is_contained(Out, P->getFunctionScopeIndex()))
      Out.push_back(P->getFunctionScopeIndex());
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<CXXCatchStmt, LambdaExpr>(S))
      return;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      for (unsigned I = 0; I < CE->getNumArgs(); ++I)
        if (isa_and_nonnull<ParmVarDecl>(handleRefOf(CE->getArg(I)).D) && releasesArgument(CE, I, A))
          Note(CE->getArg(I));
    if (const auto *DE = dyn_cast<CXXDeleteExpr>(S))
      Note(DE->getArgument());
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(FD->getBody());
  return Memo[FD] = std::move(Out);
}

const ProfileEntry *returnedAcquisition(const FunctionDecl *FD, ModelAnalysis &A) {
  auto &Memo = A.ownershipMemo().Returned;
  if (auto It = Memo.find(FD); It != Memo.end())
    return It->second;
  Memo[FD] = nullptr; // a recursive query (a call cycle) sees none
  const ProfileEntry *Found = nullptr;
  llvm::SmallVector<const VarDecl *, 2> ReturnedVars;
  std::function<void(const Stmt *)> Returns = [&](const Stmt *S) {
    if (!S || Found || isa<LambdaExpr>(S))
      return;
    if (const auto *RS = dyn_cast<ReturnStmt>(S); RS && RS->getRetValue()) {
      const Expr *V = stripWrappers(RS->getRetValue())->IgnoreParenCasts();
      if (const auto *CE = dyn_cast<CallExpr>(V)) {
        if (std::optional<Acquisition> Acq = acquisitionAt(CE, A); Acq && !Acq->handleArg())
          Found = Acq->Entry;
      } else if (const VarDecl *VD = namedVar(V); VD && VD->isLocalVarDecl()) {
        ReturnedVars.push_back(VD);
      }
    }
    for (const Stmt *C : S->children())
      Returns(C);
  };
  Returns(FD->getBody());
  // A local handle that is returned: acquired into it (or into a field of
  // the struct it points to) in this function.
  std::function<void(const Stmt *)> Acquires = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (std::optional<Acquisition> Acq = acquisitionAt(CE, A)) {
        HandleRef H = acquiredHandleRef(CE, *Acq, A);
        bool Allocation = Acq->Entry->K == Kind::Allocation;
        if (!H.element() && !H.Member && llvm::is_contained(ReturnedVars, H.D) &&
            (!Found || (Allocation && Found->K != Kind::Allocation)))
          Found = Acq->Entry;
      }
    for (const Stmt *C : S->children())
      Acquires(C);
  };
  if (!Found && !ReturnedVars.empty())
    Acquires(FD->getBody());
  return Memo[FD] = Found;
}

} // namespace clang::tidy::mlperf
