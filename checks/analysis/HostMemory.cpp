#include "HostMemory.h"
#include "DataFlow.h"
#include "Invariance.h"
#include "ProjectSummaries.h"
#include "SourceUtils.h"
#include "SummaryCollector.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::mlperf {

namespace {
/// What a page-locking call (`cudaHostRegister(buf_, ...)`, `cudaMallocHost(&buf_,
/// ...)`, `cudaHostRegister(v_.data(), ...)`) pins: its handle argument, without
/// the address taken or the container's data() call; null for any other call.
const Expr *pinnedHandle(const Stmt *S, const ApiProfiles &P) {
  const auto *CE = dyn_cast<CallExpr>(S);
  const ProfileEntry *E = CE ? P.find(CE, Role::Pinned) : nullptr;
  if (!E || !E->HandleArg || *E->HandleArg >= CE->getNumArgs())
    return nullptr;
  const Expr *H = CE->getArg(*E->HandleArg)->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(H); U && U->getOpcode() == UO_AddrOf)
    H = U->getSubExpr();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(H->IgnoreParenCasts()))
    H = MC->getImplicitObjectArgument();
  return H;
}

/// Follows a pointer or a tensor back to pageable host memory: through local
/// variables, casts, pointer arithmetic, either value of a conditional, the
/// fields and container fields of the object, tensor methods and, for
/// parameters, the calls of the function in this translation unit, else the
/// project's calls (ProjectSummaries::pageableArgument). Unknown: no origin.
class Tracer {
public:
  Tracer(ModelAnalysis &A, ASTContext &Ctx) : A(A), P(A.profiles()), Ctx(Ctx) {}

  std::optional<PageableOrigin> pointer(const Expr *E, unsigned Depth = 8) {
    if (!E || Depth == 0)
      return std::nullopt;
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
      const Expr *Sub = U->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub))
        return pointer(AS->getBase(), Depth);
      const auto *DRE = dyn_cast<DeclRefExpr>(Sub);
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (VD && !VD->getType()->isPointerType() && !VD->getType()->isReferenceType() && !pinned(VD))
        return PageableOrigin{E}; // a variable's own storage: the stack or static memory
      return std::nullopt;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp())
      return pointer(B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS(), Depth);
    if (isa<CXXNewExpr>(E))
      return PageableOrigin{E};
    // Either value may be copied (`toHost ? host_[i] : dev_[i]`): the pageable one, on those calls.
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      std::optional<PageableOrigin> O = pointer(CO->getTrueExpr(), Depth - 1);
      return O ? O : pointer(CO->getFalseExpr(), Depth - 1);
    }
    // An element of a container field of the object (`host_[i]`): what its class puts in.
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript)
      if (const FieldDecl *F = ownField(OC->getArg(0))) {
        std::optional<llvm::SmallVector<const Expr *, 4>> Values = pinnedField(F) ? std::nullopt : storedElements(F, A);
        return Values ? allOf(*Values, Depth, [&](const Expr *V, unsigned D) { return pointer(V, D); }) : std::nullopt;
      }
    if (const auto *CE = dyn_cast<CallExpr>(E); CE && P.find(CE, Role::Pageable)) {
      const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
      // A container that is a private field of the object: pageable unless its class pins it.
      if (const FieldDecl *F = MC ? ownField(MC->getImplicitObjectArgument()) : nullptr)
        return F->getAccess() == AS_private && !pinnedField(F) ? std::optional<PageableOrigin>(PageableOrigin{E})
                                                               : std::nullopt;
      const VarDecl *Owner = MC ? namedVarOrElementOf(MC->getImplicitObjectArgument()) : nullptr;
      if (MC && (!Owner || !(Owner->isLocalVarDecl() || isa<ParmVarDecl>(Owner))))
        return std::nullopt; // a global's or another object's storage: it may be registered anywhere
      if (Owner && pinned(Owner))
        return std::nullopt;
      // An object built on memory passed in (`cv::Mat m(h, w, CV_32F, buf)`) holds that memory.
      if (const Expr *Viewed = Owner ? viewedPointer(Owner) : nullptr)
        return pointer(Viewed, Depth - 1);
      return PageableOrigin{E};
    }
    if (const FieldDecl *F = ownField(E))
      return field(F, E, Depth);
    if (const auto *CE = dyn_cast<CallExpr>(E))
      return returned(CE, Depth);
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || pinned(VD))
      return std::nullopt;
    if (VD->getType()->isArrayType())
      return PageableOrigin{E};
    return throughVariable(VD, DRE, Depth, [&](const Expr *V, unsigned D) { return pointer(V, D); });
  }

  std::optional<PageableOrigin> tensor(const Expr *E, unsigned Depth = 8) {
    if (!E || Depth == 0)
      return std::nullopt;
    E = stripWrappers(E);
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return P.findType(ME->getBase()->getType(), Role::HostData) ? std::optional<PageableOrigin>(PageableOrigin{E})
                                                                  : std::nullopt;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || pinned(VD))
        return std::nullopt;
      return throughVariable(VD, DRE, Depth, [&](const Expr *V, unsigned D) { return tensor(V, D); });
    }
    const auto *CE = dyn_cast<CallExpr>(E);
    if (!CE || pins(CE))
      return std::nullopt;
    std::optional<RoleMatch> M = A.role(CE);
    if (M && (M->copiesToHost() || M->R == Role::Factory))
      return M->copiesToHost() || hostFactory(CE) ? std::optional<PageableOrigin>(PageableOrigin{E}) : std::nullopt;
    if (M && M->R == Role::HostWrap)
      return CE->getNumArgs() > 0 && pointer(CE->getArg(0), Depth - 1)
                 ? std::optional<PageableOrigin>(PageableOrigin{E})
                 : std::nullopt;
    if (M)
      return std::nullopt; // a copy to a device, a model's output, ...
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      return tensor(MC->getImplicitObjectArgument(), Depth - 1); // a view or conversion on the host
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE); OC && OC->getOperator() == OO_Subscript)
      return tensor(OC->getArg(0), Depth - 1);
    return std::nullopt;
  }

private:
  /// The field \p E names on the object a method runs on (`this->buf_`), or null.
  static const FieldDecl *ownField(const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    return ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ? dyn_cast<FieldDecl>(ME->getMemberDecl())
                                                                        : nullptr;
  }

  /// A field of the object: an array in it, or a pointer to which its class
  /// stores only pageable memory (`host_out_ = new float[n]` in the
  /// constructor) and which nothing in the class pins.
  std::optional<PageableOrigin> field(const FieldDecl *F, const Expr *E, unsigned Depth) {
    if (pinnedField(F))
      return std::nullopt;
    if (F->getType()->isArrayType())
      return PageableOrigin{E};
    if (!F->getType()->isPointerType())
      return std::nullopt;
    if (std::optional<llvm::SmallVector<const Expr *, 4>> Values = storedValues(F, A))
      return allOf(*Values, Depth, [&](const Expr *V, unsigned D) { return pointer(V, D); });
    // Stored by methods other files define (a base class's constructor): what the project stores.
    std::optional<std::string> There =
        A.project() ? A.project()->pageableField(usrOf(F), A.mainFileName()) : std::nullopt;
    return There ? std::optional<PageableOrigin>(PageableOrigin{E, nullptr, *There}) : std::nullopt;
  }

  /// Whether a method of the field's class pins what it holds
  /// (`cudaHostRegister(buf_, ...)`, `cudaMallocHost(&buf_, ...)`).
  bool pinnedField(const FieldDecl *F) {
    const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
    if (!RD)
      return true;
    auto Pins = [&](const Stmt *S) {
      const Expr *H = pinnedHandle(S, P);
      return H && ownField(H) == F;
    };
    return llvm::any_of(RD->methods(), [&](const CXXMethodDecl *M) {
      const FunctionDecl *Def = M->getDefinition();
      return Def && findIn(Def->getBody(), Pins);
    });
  }

  /// What a function of this translation unit returns (`float *blob =
  /// blobFromImage(img)`): pageable when every pointer it returns is (a
  /// null pointer returns no memory).
  std::optional<PageableOrigin> returned(const CallExpr *CE, unsigned Depth) {
    const FunctionDecl *FD = CE->getDirectCallee();
    FD = FD && FD->getReturnType()->isPointerType() ? FD->getDefinition() : nullptr;
    if (!FD || !FD->getBody() || A.role(CE))
      return std::nullopt;
    llvm::SmallVector<const Expr *, 4> Values;
    for (const ReturnStmt *R : returnStatements(FD->getBody()))
      Values.push_back(R->getRetValue());
    return allOf(Values, Depth, [&](const Expr *V, unsigned D) { return pointer(V, D); });
  }

  /// The first origin of \p Values when each one is pageable memory or a null
  /// pointer and at least one is memory; none otherwise.
  template <class Trace>
  std::optional<PageableOrigin> allOf(llvm::ArrayRef<const Expr *> Values, unsigned Depth, Trace T) {
    std::optional<PageableOrigin> First;
    for (const Expr *V : Values) {
      if (V && V->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
        continue; // no memory yet: nothing is copied from it
      std::optional<PageableOrigin> O = V ? T(V, Depth - 1) : std::nullopt;
      if (!O)
        return std::nullopt;
      First = First ? First : O;
    }
    return First;
  }

  /// A variable's value: a parameter's at the calls of its function, else the
  /// values that reach \p Use (its initializer and assignments).
  template <class Trace>
  std::optional<PageableOrigin> throughVariable(const VarDecl *VD, const Expr *Use, unsigned Depth, Trace T) {
    if (const auto *PV = dyn_cast<ParmVarDecl>(VD)) {
      const auto *FD = dyn_cast<FunctionDecl>(PV->getDeclContext());
      FD = FD ? FD->getDefinition() : nullptr;
      if (!FD || !FD->getBody() || assignsTo(FD->getBody(), PV))
        return std::nullopt;
      ModelAnalysis::WhoCalls Callers = A.callersOf(FD);
      for (const Expr *Site : Callers.Here)
        if (const Expr *Arg = argumentFor(Site, PV->getFunctionScopeIndex(), false))
          if (std::optional<PageableOrigin> O = T(Arg, Depth - 1))
            return PageableOrigin{O->Where, O->PassedAt ? O->PassedAt : Arg, O->Elsewhere};
      std::optional<std::string> There =
          Callers.Elsewhere && A.project() && PV->getType()->isPointerType()
              ? A.project()->pageableArgument(usrOf(FD), A.mainFileName(), PV->getFunctionScopeIndex())
              : std::nullopt;
      return There ? std::optional<PageableOrigin>(PageableOrigin{Use, nullptr, *There}) : std::nullopt;
    }
    if (!VD->isLocalVarDecl())
      return std::nullopt;
    bool Complete = false;
    llvm::SmallVector<const Expr *, 4> Values = reachingValues(VD, Use, A, Complete);
    if (Complete)
      return allOf(Values, Depth, T);
    // Written where reachingValues does not follow (a static, a method that
    // changes the object): the initializer, when nothing is assigned.
    return assignedIn(VD) || !VD->getInit() ? std::nullopt : T(VD->getInit(), Depth - 1);
  }

  /// Whether \p CE pins memory (pin_memory(), pinned_memory(true), or a
  /// page-locked allocation), in itself or in its arguments.
  bool pins(const Stmt *S) const {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const ProfileEntry *E = P.find(CE, Role::Pinned)) {
        const auto *Flag = E->FlagArg && *E->FlagArg < CE->getNumArgs() ? CE->getArg(*E->FlagArg) : nullptr;
        bool False = false;
        if (!(Flag && Flag->EvaluateAsBooleanCondition(False, Ctx) && !False))
          return true;
      }
    return llvm::any_of(S->children(), [&](const Stmt *C) { return pins(C); });
  }

  /// A factory given no device and no pinned options: a pageable host tensor.
  bool hostFactory(const CallExpr *CE) const {
    return llvm::none_of(CE->arguments(), [&](const Expr *Arg) {
      DeviceKind K = P.classifyDeviceArg(Arg);
      return K == DeviceKind::Accelerator || K == DeviceKind::UnknownDevice || pins(Arg);
    });
  }

  /// Whether the function holding \p VD pins it: registers or allocates it as
  /// page-locked memory, or assigns it a pinned value.
  /// The pointer argument of \p VD's construction, when it is built on one.
  static const Expr *viewedPointer(const VarDecl *VD) {
    const auto *C = VD->getInit() ? dyn_cast<CXXConstructExpr>(stripWrappers(VD->getInit())) : nullptr;
    if (!C)
      return nullptr;
    for (const Expr *Arg : C->arguments())
      if (!isa<CXXDefaultArgExpr>(Arg) && Arg->IgnoreParenImpCasts()->getType()->isPointerType())
        return Arg;
    return nullptr;
  }

  bool pinned(const VarDecl *VD) {
    const auto *FD = dyn_cast<FunctionDecl>(VD->getDeclContext());
    const Stmt *Body = FD && FD->getDefinition() ? FD->getDefinition()->getBody() : nullptr;
    return findIn(Body,
                  [&](const Stmt *S) {
                    if (const auto *CE = dyn_cast<CallExpr>(S))
                      if (const ProfileEntry *E = P.find(CE, Role::Pinned);
                          E && E->HandleArg && *E->HandleArg < CE->getNumArgs()) {
                        const Expr *H = CE->getArg(*E->HandleArg)->IgnoreParenCasts();
                        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(H))
                          H = MC->getImplicitObjectArgument();
                        return namedVarOrElementOf(H) == VD;
                      }
                    const auto *BO = dyn_cast<BinaryOperator>(S);
                    const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
                    if (BO && BO->isAssignmentOp() && namedVar(BO->getLHS()) == VD)
                      return pins(BO->getRHS());
                    return OC && OC->isAssignmentOp() && namedVar(OC->getArg(0)) == VD && pins(OC->getArg(1));
                  }) ||
           (VD->getInit() && pins(VD->getInit()));
  }

  bool assignedIn(const VarDecl *VD) const {
    const auto *FD = dyn_cast<FunctionDecl>(VD->getDeclContext());
    return findIn(FD ? FD->getBody() : nullptr, [&](const Stmt *S) {
      const auto *BO = dyn_cast<BinaryOperator>(S);
      const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
      return (BO && BO->isAssignmentOp() && namedVar(BO->getLHS()) == VD) ||
             (OC && OC->isAssignmentOp() && namedVar(OC->getArg(0)) == VD);
    });
  }

  static bool findIn(const Stmt *S, llvm::function_ref<bool(const Stmt *)> Pred) {
    if (!S)
      return false;
    if (Pred(S))
      return true;
    return llvm::any_of(S->children(), [&](const Stmt *C) { return findIn(C, Pred); });
  }

  ModelAnalysis &A;
  const ApiProfiles &P;
  ASTContext &Ctx;
};
} // namespace

std::string pageableOriginText(const PageableOrigin &O, const SourceManager &SM) {
  if (!O.Elsewhere.empty())
    return O.Elsewhere;
  return fileLine(O.Where->getBeginLoc(), SM);
}

std::optional<PageableOrigin> pageablePointer(const Expr *E, ModelAnalysis &A) {
  return Tracer(A, A.context()).pointer(E);
}

std::optional<PageableOrigin> pageableTensor(const Expr *E, ModelAnalysis &A) {
  return Tracer(A, A.context()).tensor(E);
}

void pointerFieldStores(const FunctionDecl *FD, ModelAnalysis &A,
                        llvm::function_ref<void(const FieldDecl *, const std::string &Origin)> Store) {
  const SourceManager &SM = A.context().getSourceManager();
  auto PointerField = [](const Expr *E) -> const FieldDecl * {
    const auto *ME = E ? dyn_cast<MemberExpr>(E->IgnoreParenCasts()) : nullptr;
    const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    return F && F->getType()->isPointerType() ? F : nullptr;
  };
  auto Stored = [&](const FieldDecl *F, const Expr *Value) {
    if (Value->isNullPointerConstant(A.context(), Expr::NPC_ValueDependentIsNotNull))
      return; // no memory yet
    std::optional<PageableOrigin> O = pageablePointer(Value, A);
    Store(F, O ? pageableOriginText(*O, SM) : "");
  };
  if (const auto *CD = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *I : CD->inits())
      if (const FieldDecl *F = I->getMember(); F && I->isWritten() && F->getType()->isPointerType())
        Stored(F, I->getInit()->IgnoreImplicit());
  const ApiProfiles &P = A.profiles();
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    for (const Stmt *C : S->children())
      Walk(C);
    // Registered with the driver: page-locked from then on.
    if (const FieldDecl *F = PointerField(pinnedHandle(S, P)))
      Store(F, "");
    const auto *ME = dyn_cast<MemberExpr>(S);
    const FieldDecl *F = ME ? PointerField(ME) : nullptr;
    if (!F)
      return;
    const Stmt *Parent = climbThrough<ParenExpr>(ME, A).second;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent);
        BO && BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == ME)
      return Stored(F, BO->getRHS());
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
    if (Cast && Cast->getCastKind() == CK_LValueToRValue)
      return; // read
    if (const auto *Base = dyn_cast_or_null<MemberExpr>(Parent); Base && Base->getBase()->IgnoreParens() == ME)
      return;     // `buf->x`
    Store(F, ""); // its address, a reference to it, `++buf`, `buf += n`
  };
  Walk(FD->getBody());
}

} // namespace clang::tidy::mlperf
