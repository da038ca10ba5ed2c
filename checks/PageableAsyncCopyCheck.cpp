#include "PageableAsyncCopyCheck.h"
#include "analysis/DataFlow.h"
#include "analysis/Invariance.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void PageableAsyncCopyCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()), hasFact(this, Role::AsyncCopy)).bind("call"), this);
}

namespace {
/// Where pageable host memory comes from, and the call in a caller that passes it.
struct Origin {
  const Expr *Where;
  const Expr *PassedAt = nullptr;
};

/// Follows a pointer or a tensor back to pageable host memory: through local
/// variables, casts, pointer arithmetic, either value of a conditional, the
/// fields and container fields of the object, tensor methods and, for
/// parameters, the calls of the function in this translation unit. Unknown:
/// no origin.
class Tracer {
public:
  Tracer(ModelAnalysis &A, ASTContext &Ctx) : A(A), P(A.profiles()), Ctx(Ctx) {}

  std::optional<Origin> pointer(const Expr *E, unsigned Depth = 8) {
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
        return Origin{E}; // a variable's own storage: the stack or static memory
      return std::nullopt;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp())
      return pointer(B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS(), Depth);
    if (isa<CXXNewExpr>(E))
      return Origin{E};
    // Either value may be copied (`toHost ? host_[i] : dev_[i]`): the pageable one, on those calls.
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      std::optional<Origin> O = pointer(CO->getTrueExpr(), Depth - 1);
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
        return F->getAccess() == AS_private && !pinnedField(F) ? std::optional<Origin>(Origin{E}) : std::nullopt;
      const VarDecl *Owner = MC ? namedVarOrElementOf(MC->getImplicitObjectArgument()) : nullptr;
      if (MC && (!Owner || !(Owner->isLocalVarDecl() || isa<ParmVarDecl>(Owner))))
        return std::nullopt; // a global's or another object's storage: it may be registered anywhere
      if (Owner && pinned(Owner))
        return std::nullopt;
      // An object built on memory passed in (`cv::Mat m(h, w, CV_32F, buf)`) holds that memory.
      if (const Expr *Viewed = Owner ? viewedPointer(Owner) : nullptr)
        return pointer(Viewed, Depth - 1);
      return Origin{E};
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
      return Origin{E};
    return throughVariable(VD, DRE, Depth, [&](const Expr *V, unsigned D) { return pointer(V, D); });
  }

  std::optional<Origin> tensor(const Expr *E, unsigned Depth = 8) {
    if (!E || Depth == 0)
      return std::nullopt;
    E = stripWrappers(E);
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return P.findType(ME->getBase()->getType(), Role::HostData) ? std::optional<Origin>(Origin{E}) : std::nullopt;
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
      return M->copiesToHost() || hostFactory(CE) ? std::optional<Origin>(Origin{E}) : std::nullopt;
    if (M && M->R == Role::HostWrap)
      return CE->getNumArgs() > 0 && pointer(CE->getArg(0), Depth - 1) ? std::optional<Origin>(Origin{E})
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
  std::optional<Origin> field(const FieldDecl *F, const Expr *E, unsigned Depth) {
    if (pinnedField(F))
      return std::nullopt;
    if (F->getType()->isArrayType())
      return Origin{E};
    std::optional<llvm::SmallVector<const Expr *, 4>> Values =
        F->getType()->isPointerType() ? storedValues(F, A) : std::nullopt;
    if (!Values)
      return std::nullopt;
    return allOf(*Values, Depth, [&](const Expr *V, unsigned D) { return pointer(V, D); });
  }

  /// Whether a method of the field's class pins what it holds
  /// (`cudaHostRegister(buf_, ...)`, `cudaMallocHost(&buf_, ...)`).
  bool pinnedField(const FieldDecl *F) {
    const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
    if (!RD)
      return true;
    auto Pins = [&](const Stmt *S) {
      const auto *CE = dyn_cast<CallExpr>(S);
      const ProfileEntry *E = CE ? P.find(CE, Role::Pinned) : nullptr;
      if (!E || !E->HandleArg || *E->HandleArg >= CE->getNumArgs())
        return false;
      const Expr *H = CE->getArg(*E->HandleArg)->IgnoreParenCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(H); U && U->getOpcode() == UO_AddrOf)
        H = U->getSubExpr();
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(H->IgnoreParenCasts()))
        H = MC->getImplicitObjectArgument();
      return ownField(H) == F;
    };
    return llvm::any_of(RD->methods(), [&](const CXXMethodDecl *M) {
      const FunctionDecl *Def = M->getDefinition();
      return Def && findIn(Def->getBody(), Pins);
    });
  }

  /// What a function of this translation unit returns (`float *blob =
  /// blobFromImage(img)`): pageable when every pointer it returns is (a
  /// null pointer returns no memory).
  std::optional<Origin> returned(const CallExpr *CE, unsigned Depth) {
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
  template <class Trace> std::optional<Origin> allOf(llvm::ArrayRef<const Expr *> Values, unsigned Depth, Trace T) {
    std::optional<Origin> First;
    for (const Expr *V : Values) {
      if (V && V->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
        continue; // no memory yet: nothing is copied from it
      std::optional<Origin> O = V ? T(V, Depth - 1) : std::nullopt;
      if (!O)
        return std::nullopt;
      First = First ? First : O;
    }
    return First;
  }

  /// A variable's value: a parameter's at the calls of its function, else the
  /// values that reach \p Use (its initializer and assignments).
  template <class Trace>
  std::optional<Origin> throughVariable(const VarDecl *VD, const Expr *Use, unsigned Depth, Trace T) {
    if (const auto *PV = dyn_cast<ParmVarDecl>(VD)) {
      const auto *FD = dyn_cast<FunctionDecl>(PV->getDeclContext());
      FD = FD ? FD->getDefinition() : nullptr;
      if (!FD || !FD->getBody() || assignsTo(FD->getBody(), PV))
        return std::nullopt;
      for (const Expr *Site : A.callersOf(FD).Here)
        if (const Expr *Arg = argumentFor(Site, PV->getFunctionScopeIndex(), false))
          if (std::optional<Origin> O = T(Arg, Depth - 1))
            return Origin{O->Where, O->PassedAt ? O->PassedAt : Arg};
      return std::nullopt;
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

void PageableAsyncCopyCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ModelAnalysis &A = analysis(*Result.Context);
  const ProfileEntry *E = profiles().find(Call, Role::AsyncCopy);
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!E || !FD)
    return;
  Tracer T(A, *Result.Context);
  std::optional<Origin> Found;
  unsigned Which = 0; // 0: the destination, 1: the source, 2: the tensor copied
  if (!E->FlagParam.empty()) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    std::optional<RoleMatch> M = A.role(Call);
    if (!MC || !M || M->R != Role::ToDevice)
      return; // a copy to the host, or not a method
    auto Param = llvm::find_if(FD->parameters(), [&](const ParmVarDecl *P) { return P->getName() == E->FlagParam; });
    unsigned I = Param == FD->param_end() ? ~0u : (*Param)->getFunctionScopeIndex();
    bool Async = false;
    if (I >= MC->getNumArgs() || isa<CXXDefaultArgExpr>(MC->getArg(I)) ||
        !MC->getArg(I)->EvaluateAsBooleanCondition(Async, *Result.Context) || !Async)
      return;
    Found = T.tensor(MC->getImplicitObjectArgument());
    Which = 2;
  } else {
    for (unsigned K = 0; K < E->PointerArgs.size() && !Found; ++K)
      if (E->PointerArgs[K] < Call->getNumArgs() && (Found = T.pointer(Call->getArg(E->PointerArgs[K]))))
        Which = K;
  }
  if (!Found)
    return;
  const SourceManager &SM = *Result.SourceManager;
  diag(reportLoc(Call->getExprLoc(), SM),
       "%0 copies %select{to pageable host memory|from pageable host memory|a tensor in pageable host memory}1: "
       "the copy is staged through a pinned buffer and %0 returns only when it is done, so it overlaps nothing; %2")
      << FD << Which << (E->Message.empty() ? std::string("use page-locked host memory") : E->Message);
  diag(reportLoc(Found->Where->getExprLoc(), SM), "the pageable memory comes from here", DiagnosticIDs::Note);
  if (Found->PassedAt && stripWrappers(Found->PassedAt) != Found->Where)
    diag(reportLoc(Found->PassedAt->getExprLoc(), SM), "passed here", DiagnosticIDs::Note);
  // What pinning saves: the host's wait for the copy (and, copying back, for
  // the work queued before it); the transfer itself remains.
  if (std::optional<HotContext> Hot = A.perStep(Call))
    noteCost(reportLoc(Call->getExprLoc(), SM), syncFacts(), &*Hot, Call, A);
}

} // namespace clang::tidy::mlperf
