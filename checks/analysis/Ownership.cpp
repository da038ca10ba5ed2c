#include "Ownership.h"
#include "DataFlow.h"
#include "Invariance.h"
#include "SourceUtils.h"
#include "SummaryCollector.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>

namespace clang::tidy::mlperf {

bool HandleRef::isLocal() const {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  return !Member && !Field && VD && VD->isLocalVarDecl() && VD->hasLocalStorage();
}

HandleRef handleRefOf(const Expr *E) {
  HandleRef R;
  if (!E)
    return R;
  E = stripWrappers(E)->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenCasts();
  // An element of a local array or of a local std::vector / std::array of handles.
  auto Element = [&](const VarDecl *Array, const Expr *Idx) {
    Expr::EvalResult V;
    if (Idx->EvaluateAsInt(V, Array->getASTContext()))
      R.Index = V.Val.getInt().getExtValue();
    else if (const VarDecl *I = namedVar(Idx); I && I->getType().isConstQualified())
      R.IndexVar = I; // the same element only while the index cannot change
    else if (I)
      R.EachElement = true; // a loop's counter: the elements a loop walks, matched by any walk of them
    else
      return R;
    R.D = Array;
    return R;
  };
  // An element of an array or container field of `this` (`&buffers_[1]`,
  // `&bindings[inputIndex]`, TensorRT's bindings): at a constant index, or
  // at one the code computes, standing for any element.
  auto FieldElement = [&](const Expr *Base, const Expr *Idx) {
    const auto *ME = dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts());
    if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) || !isa<FieldDecl>(ME->getMemberDecl()))
      return false;
    Expr::EvalResult V;
    R.D = ME->getMemberDecl();
    R.Member = true;
    if (Idx->EvaluateAsInt(V, ME->getMemberDecl()->getASTContext()))
      R.Index = V.Val.getInt().getExtValue();
    else
      R.EachElement = true;
    return true;
  };
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (AS->getBase()->IgnoreParenImpCasts()->getType()->isConstantArrayType() &&
        FieldElement(AS->getBase(), AS->getIdx()))
      return R;
    const VarDecl *Array = namedVar(AS->getBase());
    return Array && Array->getType()->isConstantArrayType() ? Element(Array, AS->getIdx()) : R;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript) {
    if (const VarDecl *Array = namedVar(OC->getArg(0)); Array && Array->isLocalVarDecl()) {
      const auto *RD = Array->getType()->getAsCXXRecordDecl();
      if (RD && RD->isInStdNamespace() && RD->getIdentifier() && llvm::is_contained({"vector", "array"}, RD->getName()))
        return Element(Array, OC->getArg(1));
      return R;
    }
    FieldElement(OC->getArg(0), OC->getArg(1));
    return R;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return R;
    // Through the fields on the way (`state->feature.buffer`, `ctx->state->vad`):
    // the last field, of what the variable holds or points to.
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    while (const auto *Outer = dyn_cast<MemberExpr>(Base))
      Base = Outer->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base)) {
      if (Base != ME->getBase()->IgnoreParenImpCasts())
        return R; // a field of a member struct: not the member itself
      R.D = FD;
      R.Member = true;
    } else if (const VarDecl *Holder = namedVar(Base)) {
      R.D = Holder;
      R.Field = FD;
    }
    return R;
  }
  R.D = namedVar(E);
  // A local reference is what it is bound to: `auto &sched = allocr.sched;
  // sched = acquire(...)` stores into the parameter's field.
  if (const auto *VD = dyn_cast_or_null<VarDecl>(R.D);
      VD && VD->getType()->isLValueReferenceType() && VD->isLocalVarDecl() && VD->getInit())
    if (HandleRef Bound = handleRefOf(VD->getInit()); Bound.D && Bound.D != VD)
      return Bound;
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
  const Stmt *P = climbThrough<ExprWithCleanups, ImplicitCastExpr, ExplicitCastExpr, ParenExpr,
                               MaterializeTemporaryExpr, CXXBindTemporaryExpr, CXXConstructExpr>(Call, A)
                      .second;
  HandleRef R;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(P); DS && DS->isSingleDecl())
    R.D = dyn_cast<VarDecl>(DS->getSingleDecl());
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P); BO && BO->isAssignmentOp())
    R = handleRefOf(BO->getLHS());
  else if (Returned && isa_and_nonnull<ReturnStmt>(P))
    *Returned = true;
  return R;
}

std::function<bool(const Expr *)> isHandle(const HandleRef &Handle) {
  return [Handle](const Expr *E) { return handleRefOf(E) == Handle; };
}

std::function<bool(const CallExpr *)> allocates(ModelAnalysis &A) {
  return [&A](const CallExpr *Call) {
    std::optional<RoleMatch> M = A.role(Call);
    return M && M->Entry->R == Role::Acquire && (M->Entry->K == Kind::Allocation || M->Entry->HostMemory);
  };
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
  if (const auto *CE = dyn_cast<CallExpr>(Region)) {
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      if (handleRefOf(CE->getArg(I)) == Handle && releasesArgument(CE, I, A))
        return CE;
    // A method that releases its object (`ctx->destroy()` of TensorRT 7).
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE); MC && handleRefOf(MC->getImplicitObjectArgument()) == Handle)
      if (std::optional<RoleMatch> M = A.role(MC); M && M->R == Role::Release && M->Entry->ReleasesObject)
        return CE;
  }
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
  // What a pointer parameter points to is the caller's handle
  // (`cudaFree(*ptr)` in a helper called as `free_checked(&model->inputs)`).
  auto Pointee = [](const Expr *E) {
    const auto *U = dyn_cast<UnaryOperator>(stripWrappers(E)->IgnoreParenCasts());
    return U && U->getOpcode() == UO_Deref ? U->getSubExpr() : E;
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<CXXCatchStmt, LambdaExpr>(S))
      return;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      for (unsigned I = 0; I < CE->getNumArgs(); ++I)
        if (isa_and_nonnull<ParmVarDecl>(handleRefOf(Pointee(CE->getArg(I))).D) && releasesArgument(CE, I, A))
          Note(Pointee(CE->getArg(I)));
    if (const auto *DE = dyn_cast<CXXDeleteExpr>(S))
      Note(Pointee(DE->getArgument()));
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
  for (const ReturnStmt *RS : returnStatements(FD->getBody())) {
    if (Found)
      break;
    if (!RS->getRetValue())
      continue;
    const Expr *V = stripWrappers(RS->getRetValue())->IgnoreParenCasts();
    if (const auto *CE = dyn_cast<CallExpr>(V)) {
      if (std::optional<Acquisition> Acq = acquisitionAt(CE, A); Acq && !Acq->handleArg())
        Found = Acq->Entry;
    } else if (const VarDecl *VD = namedVar(V); VD && VD->isLocalVarDecl() && VD->hasLocalStorage()) {
      ReturnedVars.push_back(VD); // a function-local static is kept for the program's life, not handed out
    }
  }
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

/// Whether \p S runs only on some iterations of \p Region: under an `if`,
/// `switch`, `?:` or the right side of `&&`/`||` (a buffer grown on demand).
static bool isConditional(const Stmt *S, const Stmt *Region, const ModelAnalysis &A) {
  for (const Stmt *Child = S, *P = A.parent(S); P && Child != Region; Child = P, P = A.parent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P); If && Child != If->getCond() && Child != If->getInit())
      return true;
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P); CO && Child != CO->getCond())
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(P); BO && BO->isLogicalOp() && Child == BO->getRHS())
      return true;
    if (isa<SwitchCase>(P))
      return true;
  }
  return false;
}

/// Whether the value of \p E can change between iterations of \p Loop,
/// following local variables declared in it to their initializers.
static bool varies(const Expr *E, const Stmt *Loop, unsigned Depth = 3) {
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->isConstexpr())
      return false;
    bool DeclaredInside = loopBody(Loop)->getSourceRange().fullyContains(VD->getSourceRange());
    if (!DeclaredInside)
      return isChangedIn(VD, Loop);
    return Depth == 0 || !VD->getInit() || isa<ParmVarDecl>(VD) || varies(VD->getInit(), Loop, Depth - 1);
  }
  return llvm::any_of(E->children(),
                      [&](const Stmt *C) { return isa_and_nonnull<Expr>(C) && varies(cast<Expr>(C), Loop, Depth); });
}

/// Whether a loop of \p FD itself runs the model.
static bool hasOwnModelLoop(const FunctionDecl *FD, ModelAnalysis &A) {
  std::function<bool(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (isa<CallExpr>(S))
      if (std::optional<HotContext> H = A.inModelLoop(S); H && H->Loop && A.owner(H->Loop) == FD)
        return true;
    return llvm::any_of(S->children(), Walk);
  };
  return Walk(FD->getBody());
}

/// The object a raii acquisition at \p Site allocates: the variable its
/// constructor initializes, or the one its entry writes into (`into_arg`,
/// `into_object`); null for a temporary or a value returned.
static const VarDecl *raiiObject(const Expr *Site, const ProfileEntry &E, ModelAnalysis &A) {
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Site)) {
    const Stmt *P = climbThrough<ExprWithCleanups, ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                                 CXXFunctionalCastExpr, ParenExpr>(CE, A)
                        .second;
    const auto *DS = dyn_cast_or_null<DeclStmt>(P);
    return DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
  }
  const auto *Call = cast<CallExpr>(Site);
  if (E.IntoObject)
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      return namedVar(MC->getImplicitObjectArgument());
  // The output is often taken through a proxy (OpenCV's OutputArray).
  return E.IntoArg && *E.IntoArg < Call->getNumArgs() ? namedVar(stripConversions(Call->getArg(*E.IntoArg))) : nullptr;
}

/// Whether \p VD is a local object that \p Region makes anew on every
/// iteration (or call): declared in it, not static, not a reference.
static bool freshIn(const VarDecl *VD, const Stmt *Region) {
  return VD && VD->isLocalVarDecl() && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
         Region->getSourceRange().fullyContains(VD->getSourceRange());
}

/// Whether \p Site, writing into \p VD, is the first use of the empty
/// object \p VD (declared without a value): nothing names it in between.
static bool firstWriteOfEmpty(const Expr *Site, const VarDecl *VD, const SourceManager &SM) {
  const auto *Init = VD->getInit() ? dyn_cast<CXXConstructExpr>(stripWrappers(VD->getInit())) : nullptr;
  if (VD->getInit() && !(Init && Init->getNumArgs() == 0))
    return false;
  const FunctionDecl *FD = dyn_cast<FunctionDecl>(VD->getDeclContext());
  std::function<bool(const Stmt *)> NamedBefore = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
        DRE && DRE->getDecl() == VD && SM.isBeforeInTranslationUnit(DRE->getBeginLoc(), Site->getBeginLoc()))
      return true;
    return llvm::any_of(S->children(), NamedBefore);
  };
  return FD && !NamedBefore(FD->getBody());
}

static llvm::ArrayRef<const Expr *> argumentsOf(const Expr *Site) {
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Site))
    return llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  const auto *Call = cast<CallExpr>(Site);
  return llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
}

std::optional<Churn> churnAt(const Expr *Site, const Acquisition &Acq, ModelAnalysis &A) {
  std::optional<HotContext> Hot = A.perRequest(Site);
  const FunctionDecl *Owner = A.owner(Site);
  if (!Hot || !Owner)
    return std::nullopt;
  // A function that serves many steps per call — an entry point called from
  // outside the project, or one a loop calls once per request (a benchmark
  // per model, a generation per prompt): an allocation made before its own
  // loop that runs the model is the hoisted form.
  if (Hot->Request && (!Hot->Loop || !isInside(Site, Hot->Loop, A)) && hasOwnModelLoop(Owner, A))
    return std::nullopt;
  // In a function the step loop calls, an iteration is one call of it.
  const Stmt *Loop = Hot->Loop && isInside(Site, Hot->Loop, A) ? Hot->Loop : nullptr;
  const Stmt *Region = Loop ? loopBody(Loop) : Owner->getBody();
  const ProfileEntry &E = *Acq.Entry;
  // An object the step makes anew (a local declared in it) allocates on
  // every pass that reaches it, under a condition or not; an object written
  // into allocates only when it is empty: its first write. Otherwise, an
  // allocation under a condition is a buffer grown when a step needs more.
  const VarDecl *Object = E.Raii ? raiiObject(Site, E, A) : nullptr;
  bool Fresh = freshIn(Object, Region);
  if ((E.IntoArg || E.IntoObject) && !(Fresh && firstWriteOfEmpty(Site, Object, A.context().getSourceManager())))
    return std::nullopt;
  if (!Fresh && isConditional(Site, Region, A))
    return std::nullopt;
  Churn C;
  C.Call = Site;
  C.Object = Fresh ? Object : nullptr;
  // A size that changes with the iteration of the loop around the allocation
  // (a crop per detected box) is churn all the same: the largest buffer
  // allocated once, or one grown only when needed, removes it. In a function
  // called per step, the size comes from the call and may differ between
  // calls, which a stream-ordered pool or a buffer kept between calls removes.
  llvm::ArrayRef<const Expr *> Args = argumentsOf(Site);
  if (std::optional<unsigned> Size = Acq.Via.empty() ? E.SizeArg : std::nullopt;
      Loop && Size && *Size < Args.size() && varies(Args[*Size], Loop))
    C.VaryingSize = Args[*Size];
  C.Hot = std::move(*Hot);
  if (E.Raii)
    return C;
  const auto *Call = cast<CallExpr>(Site);
  // Released in the same iteration (on its normal path, see Skip); otherwise
  // missing-finalize reports it. The handle may be a member, an array element,
  // a parameter (the caller's buffer registered and unregistered on every
  // call) or a function-local static assigned here: acquired and released in
  // the same region, it is churn wherever it is kept. A static's initializer
  // runs once.
  HandleRef Handle = acquiredHandleRef(Call, Acq, A);
  const auto *VD = dyn_cast_or_null<VarDecl>(Handle.D);
  bool Static = VD && VD->isStaticLocal() && !Handle.Field && !(VD->getInit() && isInside(Call, VD->getInit(), A));
  bool Param = isa_and_nonnull<ParmVarDecl>(VD) && !Handle.Field;
  if (!Handle || (!Handle.isLocal() && !Handle.Member && !Static && !Param))
    return std::nullopt;
  const SourceManager &SM = A.context().getSourceManager();
  C.Release = findReleaseOf(Region, Handle, A);
  if (!C.Release || !SM.isBeforeInTranslationUnit(Call->getEndLoc(), C.Release->getBeginLoc()))
    return std::nullopt;
  // An exit between them that is not the acquisition's own failure leaks
  // the handle on that path; while the normal path releases it, the churn
  // is still the cost of every call.
  C.Skip = exitBetween(Region, Call->getEndLoc(), C.Release->getBeginLoc(), SM, Call, isHandle(Handle), allocates(A));
  if (C.Skip && isConditional(C.Release, Region, A))
    return std::nullopt;
  return C;
}

std::optional<Churn> churnOfLocal(const HandleRef &Handle, const Stmt *Within, ModelAnalysis &A) {
  if (!Handle.isLocal() || !Within)
    return std::nullopt;
  std::optional<Churn> Found;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found || isa<LambdaExpr>(S))
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (std::optional<Acquisition> Acq = acquisitionAt(Call, A); Acq && acquiredHandleRef(Call, *Acq, A) == Handle)
        if ((Found = churnAt(Call, *Acq, A)))
          return;
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Within);
  return Found;
}

bool handsOut(const CallExpr *Call, const Acquisition &Acq, ModelAnalysis &A) {
  bool Returned = false;
  HandleRef H = acquiredHandleRef(Call, Acq, A, &Returned);
  if (Returned)
    return true;
  const FunctionDecl *Owner = A.owner(Call);
  const auto *VD = dyn_cast_or_null<VarDecl>(H.D);
  if (!Owner || H.element() || H.Member || !VD || !VD->isLocalVarDecl() || !VD->hasLocalStorage())
    return false;
  // The variable (or the struct whose field holds the handle) is returned.
  return llvm::any_of(returnStatements(Owner->getBody()),
                      [&](const ReturnStmt *RS) { return RS->getRetValue() && namedVar(RS->getRetValue()) == VD; });
}

/// churnThroughCallers() for the calls of \p Call's function; \p Through
/// holds the calls followed so far.
static void churnUp(const CallExpr *Call, const Acquisition &Acq, ModelAnalysis &A,
                    std::vector<const CallExpr *> &Through, llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
                    std::vector<Churn> &Out) {
  const FunctionDecl *Owner = A.owner(Call);
  if (!Owner || !handsOut(Call, Acq, A) || !Seen.insert(Owner).second)
    return;
  Through.push_back(Call);
  for (const Expr *E : A.callSites(Owner)) {
    const auto *Site = dyn_cast<CallExpr>(E);
    std::optional<Acquisition> Via = Site ? acquisitionAt(Site, A) : std::nullopt;
    if (!Via || Via->Via.empty())
      continue;
    if (std::optional<Churn> C = churnAt(Site, *Via, A)) {
      C->Through = Through;
      Out.push_back(std::move(*C));
    } else {
      churnUp(Site, *Via, A, Through, Seen, Out);
    }
  }
  if (A.project())
    for (const ChurnCall *External : A.project()->churnCalls(usrOf(Owner), A.mainFileName())) {
      Churn C;
      C.External = External;
      C.Through = Through;
      Out.push_back(std::move(C));
    }
  Through.pop_back();
}

std::vector<Churn> churnThroughCallers(const CallExpr *Call, const Acquisition &Acq, ModelAnalysis &A) {
  std::vector<Churn> Out;
  std::vector<const CallExpr *> Through;
  llvm::SmallPtrSet<const FunctionDecl *, 4> Seen;
  churnUp(Call, Acq, A, Through, Seen, Out);
  return Out;
}

std::vector<Churn> churnSites(const Expr *Site, const Acquisition &Acq, ModelAnalysis &A) {
  if (std::optional<Churn> Here = churnAt(Site, Acq, A))
    return {std::move(*Here)};
  if (const auto *Call = dyn_cast<CallExpr>(Site))
    return churnThroughCallers(Call, Acq, A);
  return {};
}

bool acquiredInsideProject(const CallExpr *Call, const Acquisition &Acq, ModelAnalysis &A) {
  const FunctionDecl *FD = Acq.Via.empty() ? nullptr : Call->getDirectCallee();
  if (!FD)
    return false;
  if (const FunctionDecl *Def = FD->getDefinition())
    return !declaredInSystemHeader(Def);
  return externalFacts(Call, A) != nullptr;
}

namespace {
/// Whether \p S mentions \p F: a field of any object, or a variable.
bool mentions(const Stmt *S, const ValueDecl *F) {
  if (!S)
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->getMemberDecl() == F)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == F)
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return mentions(C, F); });
}

/// Whether a condition in \p S reads \p F (`if (!buf_)`, `buf_ ? ... : ...`).
bool testedIn(const Stmt *S, const ValueDecl *F) {
  if (!S)
    return false;
  const Expr *Cond = nullptr;
  if (const auto *If = dyn_cast<IfStmt>(S))
    Cond = If->getCond();
  else if (const auto *W = dyn_cast<WhileStmt>(S))
    Cond = W->getCond();
  else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    Cond = CO->getCond();
  if (mentions(Cond, F))
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return testedIn(C, F); });
}

/// Whether \p S runs on every call of the function whose body is \p Body:
/// not under a branch of it.
bool onEveryCall(const Stmt *S, const Stmt *Body, const ModelAnalysis &A) {
  for (const Stmt *P = A.parent(S); P && P != Body; P = A.parent(P))
    if (isa<IfStmt, SwitchStmt, AbstractConditionalOperator, CXXCatchStmt, LambdaExpr>(P))
      return false;
  return true;
}

/// Whether \p E is the field \p F of some object, one of its elements
/// (`buffers_[i]`) or its address (`ctx->allocr`, `buf_`, `&model->inputs`
/// given to a helper that frees through it).
bool namesField(const Expr *E, const FieldDecl *F) {
  E = E ? stripWrappers(E)->IgnoreParenCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenCasts();
  if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(E))
    E = AS->getBase()->IgnoreParenImpCasts();
  else if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript)
    E = OC->getArg(0)->IgnoreParenImpCasts();
  const auto *ME = dyn_cast_or_null<MemberExpr>(E);
  return ME && ME->getMemberDecl() == F;
}

/// Whether \p Body releases what the field \p F of any object holds (with
/// \p OfLocals, also of a struct the function holds by value): passes it, or
/// a local holding or bound to it, to a release, `delete`s it or calls its
/// releasing method.
bool releasesField(const Stmt *Body, const FieldDecl *F, ModelAnalysis &A, bool OfLocals = true,
                   std::optional<int64_t> Element = std::nullopt) {
  // Another element at a constant index (`cudaFree(buffers_[2])` for `buffers_[1]`).
  auto OtherElement = [&](const Expr *E) {
    std::optional<int64_t> I = handleRefOf(E).Index;
    return Element && I && *I != *Element;
  };
  llvm::SmallPtrSet<const VarDecl *, 2> Aliases;
  // A struct the function holds by value (`feature_t f; ... ggml_free(f.ctx)`) is its own object.
  auto OwnObject = [&](const Expr *E) {
    const auto *V = dyn_cast_or_null<VarDecl>(handleRefOf(E).D);
    return V && V->isLocalVarDecl() && V->getType()->isRecordType();
  };
  auto Held = [&](const Expr *E) {
    if (namesField(E, F))
      return (OfLocals || !OwnObject(E)) && !OtherElement(E);
    const VarDecl *V = E ? namedVar(E) : nullptr;
    return V && Aliases.contains(V);
  };
  std::function<bool(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit() && namesField(VD->getInit(), F))
          Aliases.insert(VD);
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      for (unsigned I = 0; I < CE->getNumArgs(); ++I)
        if (Held(CE->getArg(I)) && releasesArgument(CE, I, A))
          return true;
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE); MC && Held(MC->getImplicitObjectArgument()))
        if (std::optional<RoleMatch> M = A.role(MC); M && M->R == Role::Release && M->Entry->ReleasesObject)
          return true;
    }
    if (const auto *DE = dyn_cast<CXXDeleteExpr>(S); DE && Held(DE->getArgument()))
      return true;
    return llvm::any_of(S->children(), Walk);
  };
  return Walk(Body);
}

/// Whether a function of this translation unit releases what the field \p F
/// of any object holds (releasesField).
bool releasedAnywhere(const FieldDecl *F, ModelAnalysis &A) {
  auto &Memo = A.ownershipMemo().FieldReleased;
  if (auto It = Memo.find(F); It != Memo.end())
    return It->second;
  return Memo[F] = A.anyBody([&](const Stmt *Body) { return releasesField(Body, F, A); });
}

/// Whether \p FD ends an object it is given: a destructor, or a function that
/// deletes or releases one of its parameters itself (`delete state`,
/// `free(ctx)`): an object's free function, which releases its fields once.
bool endsObject(const FunctionDecl *FD, ModelAnalysis &A) {
  if (isa<CXXDestructorDecl>(FD))
    return true;
  auto Whole = [](const Expr *E) {
    HandleRef H = handleRefOf(E);
    return isa_and_nonnull<ParmVarDecl>(H.D) && !H.Field && !H.element();
  };
  std::function<bool(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<CXXCatchStmt, LambdaExpr>(S))
      return false;
    if (const auto *DE = dyn_cast<CXXDeleteExpr>(S); DE && Whole(DE->getArgument()))
      return true;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      for (unsigned I = 0; I < CE->getNumArgs(); ++I)
        if (Whole(CE->getArg(I)) && releasesArgument(CE, I, A))
          return true;
    return llvm::any_of(S->children(), Walk);
  };
  return Walk(FD->getBody());
}

/// The field of `this` that \p Body assigns the handle to (`buf_ = tmp`).
const FieldDecl *assignedField(const Stmt *S, const HandleRef &Handle) {
  if (!S)
    return nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign) {
    HandleRef To = handleRefOf(BO->getLHS());
    if (To.Member && !To.element() && handleRefOf(BO->getRHS()) == Handle)
      return dyn_cast<FieldDecl>(To.D);
  }
  for (const Stmt *C : S->children())
    if (const FieldDecl *F = assignedField(C, Handle))
      return F;
  return nullptr;
}

/// The field of a variable's object that \p S stores \p Handle into (`out.data = buf`), as a HandleRef.
HandleRef assignedHolderField(const Stmt *S, const HandleRef &Handle) {
  if (!S)
    return HandleRef();
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign) {
    HandleRef To = handleRefOf(BO->getLHS());
    if (To.Field && !To.Member && !To.element() && handleRefOf(BO->getRHS()) == Handle)
      return To;
  }
  for (const Stmt *C : S->children())
    if (HandleRef To = assignedHolderField(C, Handle))
      return To;
  return HandleRef();
}
} // namespace

const FieldDecl *overwrittenMember(const CallExpr *Call, const HandleRef &Handle, ModelAnalysis &A) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(A.owner(Call));
  bool FieldElement = Handle.Member && Handle.element(); // `cudaMalloc(&buffers_[1], n)`
  if (!MD || !Handle || (Handle.element() && !FieldElement) || Handle.Field || MD->isStatic() ||
      isa<CXXConstructorDecl, CXXDestructorDecl>(MD) || !MD->getBody())
    return nullptr;
  const Stmt *Body = MD->getBody();
  const FieldDecl *F = Handle.Member                                         ? dyn_cast<FieldDecl>(Handle.D)
                       : Handle.isLocal() && !findReleaseOf(Body, Handle, A) ? assignedField(Body, Handle)
                                                                             : nullptr;
  if (!F || F->getParent() != MD->getParent() || testedIn(Body, F))
    return nullptr;
  if (!onEveryCall(Call, Body, A))
    return nullptr;
  if (releasesField(Body, F, A, true, Handle.Index))
    return nullptr;
  for (const CXXMethodDecl *M : MD->getParent()->methods()) {
    if (isa<CXXDestructorDecl>(M) || M->isImplicit() || M->isDefaulted() ||
        M->getCanonicalDecl() == MD->getCanonicalDecl())
      continue;
    const FunctionDecl *Def = M->getDefinition();
    if (!Def || !Def->getBody() || releasesField(Def->getBody(), F, A))
      return nullptr;
  }
  return F;
}

const VarDecl *overwrittenGlobal(const CallExpr *Call, const HandleRef &Handle, ModelAnalysis &A) {
  const auto *VD = dyn_cast_or_null<VarDecl>(Handle.D);
  const FunctionDecl *FD = A.owner(Call);
  if (!VD || Handle.element() || Handle.Field || VD->isLocalVarDecl() || !VD->hasGlobalStorage() ||
      VD->isExternallyVisible() || !FD || !FD->getBody() || isa<CXXConstructorDecl, CXXDestructorDecl>(FD))
    return nullptr;
  const Stmt *Body = FD->getBody();
  if (!onEveryCall(Call, Body, A) || testedIn(Body, VD) || findReleaseOf(Body, Handle, A))
    return nullptr;
  // Only this translation unit names it: a release anywhere is one of its functions.
  bool ReleasedPerStep = false;
  A.forEachFunction([&](const FunctionDecl *Other) {
    if (const Expr *Release = Other != FD ? findReleaseOf(Other->getBody(), Handle, A) : nullptr)
      ReleasedPerStep = ReleasedPerStep || A.perRequest(Release) || !onEveryCall(Release, Other->getBody(), A);
  });
  return ReleasedPerStep ? nullptr : VD;
}

namespace {
/// Whether a value of type \p T (or what it points to) holds a \p Target,
/// itself or through its fields (by value or pointer), a few levels down.
bool holdsRecord(QualType T, const RecordDecl *Target, unsigned Depth = 3) {
  if (T->isPointerType() || T->isReferenceType())
    T = T->getPointeeType();
  const RecordDecl *RD = T->getAsRecordDecl();
  RD = RD ? RD->getDefinition() : nullptr;
  if (!RD)
    return false;
  if (RD == Target->getDefinition())
    return true;
  return Depth > 0 && llvm::any_of(RD->fields(), [&](const FieldDecl *F) {
           return !F->getType()->isFunctionPointerType() && holdsRecord(F->getType(), Target, Depth - 1);
         });
}

/// Whether \p Region passes \p Holder, or a struct of it that holds the
/// field \p F, to a function that may release what it holds: one that
/// releases that argument, or a function of the program this file cannot see
/// into (defined neither here nor, in a whole-project run, in a file of the
/// project: `fbank(samples, state->feature)` declared in a header whose
/// source file is not linted).
bool mayReleaseThrough(const Stmt *Region, const ValueDecl *Holder, const FieldDecl *F, ModelAnalysis &A) {
  std::function<bool(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<CXXCatchStmt, LambdaExpr>(S))
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(S); CE && !A.role(CE))
      for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
        HandleRef H = handleRefOf(CE->getArg(I));
        if (H.D != Holder || (H.Field && !holdsRecord(H.Field->getType(), F->getParent())))
          continue;
        const FunctionDecl *Callee = CE->getDirectCallee();
        bool Unknown = !Callee || (!Callee->getDefinition() && !declaredInSystemHeader(Callee) &&
                                   !(A.project() && A.project()->defines(usrOf(Callee), A.mainFileName())));
        if (Unknown || releasesArgument(CE, I, A))
          return true;
      }
    return llvm::any_of(S->children(), Walk);
  };
  return Walk(Region);
}

/// Whether only functions that end the object release the field \p F
/// anywhere in this translation unit (endsObject): its free function or
/// destructor, once, when the object goes.
bool releasedOnlyAtEnd(const FieldDecl *F, ModelAnalysis &A) {
  return !A.anyFunction([&](const FunctionDecl *FD, const Stmt *Body) {
    return releasesField(Body, F, A, /*OfLocals=*/false) && !endsObject(FD, A);
  });
}

/// Whether \p Site passes as its argument \p Index a struct its caller holds
/// by value and makes anew for it (`Image out; decode_into(path, out);`), or
/// one it allocates, or a field of it (`auto *state = new whisper_state;
/// graph_init(state->sched_conv, ...)`): one declared in the outermost loop
/// around the call, or in a caller that calls outside any loop. Each call
/// then fills a fresh object.
bool freshObjectAt(const Expr *Site, unsigned Index, ModelAnalysis &A) {
  const Expr *Arg = argumentFor(Site, Index);
  Arg = Arg ? Arg->IgnoreParenImpCasts() : nullptr;
  bool Field = false;
  while (const auto *ME = dyn_cast_or_null<MemberExpr>(Arg)) {
    Arg = ME->getBase()->IgnoreParenImpCasts();
    Field = true;
  }
  const VarDecl *V = namedVar(Arg);
  const auto *New = V && V->getInit() ? dyn_cast<CXXNewExpr>(V->getInit()->IgnoreParenImpCasts()) : nullptr;
  const FunctionDecl *Caller = A.owner(Site);
  bool Allocated = New && V->getType()->isPointerType() && Caller && !assignsTo(Caller->getBody(), V);
  if (!V || !V->isLocalVarDecl() || !(Allocated || (!Field && V->getType()->isRecordType())))
    return false;
  std::vector<const Stmt *> Loops = A.enclosingLoops(Site);
  const SourceManager &SM = A.context().getSourceManager();
  return Loops.empty() || !SM.isBeforeInTranslationUnit(V->getLocation(), Loops.back()->getBeginLoc());
}

/// Whether \p Body assigns every field of the struct \p P points to or
/// names (`out->prompt = ...; out->max_tokens = ...;`): called only from
/// files this one cannot see, \p P is taken for an out-parameter the
/// function fills, an object each caller brings for it and owns what it
/// receives (and may free), not state kept from one call to the next.
bool fillsEveryField(const Stmt *Body, const ParmVarDecl *P, const RecordDecl *RD) {
  if (!RD || RD->field_empty())
    return false;
  llvm::SmallPtrSet<const FieldDecl *, 8> Written;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      if (const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
          ME && namedVar(ME->getBase()) == P)
        if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
          Written.insert(F);
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body);
  return llvm::all_of(RD->fields(), [&](const FieldDecl *F) { return Written.contains(F); });
}
} // namespace

const FieldDecl *overwrittenField(const CallExpr *Call, const HandleRef &Handle, ModelAnalysis &A) {
  const FunctionDecl *FD = A.owner(Call);
  if (!FD || !FD->getBody() || isa<CXXConstructorDecl, CXXDestructorDecl>(FD) || Handle.element())
    return nullptr;
  const Stmt *Body = FD->getBody();
  // Into the field itself, or into a local then stored there (`buf = malloc(n); ... out.data = buf;`).
  HandleRef Into = Handle;
  if (Handle.isLocal() && !findReleaseOf(Body, Handle, A))
    Into = assignedHolderField(Body, Handle);
  const auto *P = dyn_cast_or_null<ParmVarDecl>(Into.D);
  const FieldDecl *F = Into.Field;
  if (!P || !F || !F->getType()->isPointerType() || !(P->getType()->isPointerType() || P->getType()->isReferenceType()))
    return nullptr;
  if (!onEveryCall(Call, Body, A) || testedIn(Body, F) || releasesField(Body, F, A) ||
      mayReleaseThrough(Body, P, F, A) || !releasedOnlyAtEnd(F, A) ||
      (A.callSites(FD).empty() && fillsEveryField(Body, P, F->getParent())) ||
      llvm::any_of(A.callSites(FD),
                   [&](const Expr *Site) { return freshObjectAt(Site, P->getFunctionScopeIndex(), A); }))
    return nullptr;
  return F;
}

const FieldDecl *overwrittenInLoop(const CallExpr *Call, const HandleRef &Handle, const Stmt *Loop, ModelAnalysis &A) {
  const FieldDecl *F = Handle.Field;
  const auto *V = dyn_cast_or_null<VarDecl>(Handle.D);
  if (!F || !V || Handle.element() || !F->getType()->isPointerType())
    return nullptr;
  // The object outlives the iteration: a parameter, a global, a local declared before the loop.
  const SourceManager &SM = A.context().getSourceManager();
  if (V->isLocalVarDecl() && !SM.isBeforeInTranslationUnit(V->getLocation(), Loop->getBeginLoc()))
    return nullptr;
  const Stmt *Body = loopBody(Loop);
  if (!onEveryCall(Call, Body, A) || testedIn(Body, F) || releasesField(Body, F, A) || mayReleaseThrough(Body, V, F, A))
    return nullptr;
  return F;
}

const FieldDecl *unreleasedField(const CallExpr *Call, const HandleRef &Handle, ModelAnalysis &A) {
  const FunctionDecl *FD = A.owner(Call);
  if (!FD || !FD->getBody() || isa<CXXConstructorDecl, CXXDestructorDecl>(FD) || !Handle ||
      (Handle.element() && !Handle.Member))
    return nullptr;
  const FieldDecl *F = nullptr;
  const auto *RD = dyn_cast_or_null<CXXRecordDecl>(Handle.Field ? Handle.Field->getParent() : nullptr);
  if (Handle.Field && isa<ParmVarDecl>(Handle.D)) {
    // A struct the caller passes (`ctx->allocr = ggml_gallocr_new(...)`):
    // an opaque C API's context, defined in this file, so no other file
    // can release its fields.
    const SourceManager &SM = A.context().getSourceManager();
    if (RD && SM.isInMainFile(SM.getExpansionLoc(RD->getLocation())) && onEveryCall(Call, FD->getBody(), A) &&
        !testedIn(FD->getBody(), Handle.Field))
      F = Handle.Field;
  } else if ((F = overwrittenMember(Call, Handle, A))) {
    RD = dyn_cast<CXXRecordDecl>(F->getParent());
  }
  if (!F || !RD || !F->getType()->isPointerType())
    return nullptr;
  // A destructor defined in another file may release it.
  if (const CXXDestructorDecl *Dtor = RD->getDestructor(); Dtor && Dtor->isUserProvided() && !Dtor->hasBody())
    return nullptr;
  return releasedAnywhere(F, A) ? nullptr : F;
}

} // namespace clang::tidy::mlperf
