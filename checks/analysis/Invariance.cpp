#include "Invariance.h"
#include "DataFlow.h"
#include "Facts.h"
#include "ProjectSummaries.h"
#include "Purpose.h"
#include "SourceUtils.h"
#include "SummaryCollector.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>

namespace clang::tidy::mlperf {

namespace {
/// Whether \p Fn holds for a declaration a written expression reaches: the
/// variable it names, or a field along its member chain (\p OfThis: a field
/// of the object a method runs on, `this->f`), through elements, what a raw
/// pointer points to, and writable pointers into an object's storage.
bool anyReached(const Expr *E, llvm::function_ref<bool(const ValueDecl *, bool OfThis)> Fn) {
  if (!E)
    return false;
  E = stripWrappers(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return Fn(DRE->getDecl(), true);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return Fn(ME->getMemberDecl(), isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) ||
           anyReached(ME->getBase(), Fn);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return anyReached(AS->getBase(), Fn);
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
    return anyReached(UO->getSubExpr(), Fn);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript)
    return anyReached(OC->getArg(0), Fn);
  // `t.data_ptr<float>()`: a writable pointer into the object's storage.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    QualType T = MC->getType();
    if ((T->isPointerType() || T->isReferenceType()) && !T->getPointeeType().isConstQualified() &&
        !T->getPointeeType()->isRecordType())
      return anyReached(MC->getImplicitObjectArgument(), Fn);
  }
  return false;
}

/// \p VD is a variable, or a field of the object a method runs on (`this->f`);
/// with \p AnyObject, a field of any object (`loss.anchors`, `p->anchors`).
bool refersTo(const Expr *E, const ValueDecl *VD, bool AnyObject = false) {
  return anyReached(E, [&](const ValueDecl *D, bool OfThis) { return D == VD && (OfThis || AnyObject); });
}

bool isMutableReference(QualType T) {
  return (T->isReferenceType() || T->isPointerType()) && !T->getPointeeType().isConstQualified();
}

/// A temporary given by rvalue reference to the standard library
/// (`xs.push_back(t[i])`): moved into a container or a result, never
/// written where it came from.
bool temporaryMovedIntoStd(const FunctionDecl *FD, QualType Param, const Expr *Arg) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return Param->isRValueReferenceType() && (MD ? MD->getParent()->isInStdNamespace() : FD->isInStdNamespace()) &&
         isa<MaterializeTemporaryExpr>(Arg->IgnoreParens());
}

/// Whether parameter \p Index of \p FD is a library function template's
/// forwarding reference (`T&&`, `Args&&...` of its own template parameters):
/// it passes the argument on to be copied or constructed from
/// (`TensorOptions().device(device)`, `std::make_shared<M>(opts)`); library
/// APIs spell an output parameter `T&`.
bool libraryForwardingParam(const FunctionDecl *FD, unsigned Index) {
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  const FunctionTemplateDecl *FT = Pattern ? Pattern->getDescribedFunctionTemplate() : nullptr;
  if (!FT || !declaredInSystemHeader(FD))
    return false;
  // std::move hands its argument on to be moved from, whatever it is.
  if (FD->isInStdNamespace() && FD->getIdentifier() && FD->getName() == "move")
    return false;
  // Instantiated parameters map one to one until the pattern's pack.
  const ParmVarDecl *P = nullptr;
  for (unsigned I = 0; I < Pattern->getNumParams() && !P; ++I)
    if (Pattern->getParamDecl(I)->isParameterPack() ? I <= Index : I == Index)
      P = Pattern->getParamDecl(I);
  if (!P)
    return false;
  QualType T = P->getType();
  if (const auto *PE = T->getAs<PackExpansionType>())
    T = PE->getPattern();
  const auto *RT = T->getAs<RValueReferenceType>();
  const auto *Parm = RT ? RT->getPointeeType()->getAs<TemplateTypeParmType>() : nullptr;
  return Parm && !RT->getPointeeType().hasQualifiers() && Parm->getDepth() == FT->getTemplateParameters()->getDepth();
}

/// Enumerates what a region writes: the expressions it assigns, increments,
/// calls a non-const or in-place method on, passes by non-const reference or
/// pointer, takes a mutable address of or iterates by non-const reference,
/// and the variables it declares (\p OnDecl: a declaration, or a mutable
/// reference bound to its initializer). \p OnWrite's second argument says
/// that the expression is passed as a pointer argument: what it points to
/// may change, not the pointer itself. Each callback returns true to stop;
/// both must outlive the finder.
bool readsThroughOnlyAt(const FunctionDecl *FD, unsigned Index, unsigned Depth);

class WriteFinder : public RecursiveASTVisitor<WriteFinder> {
public:
  WriteFinder(llvm::function_ref<bool(const Expr *, bool ByPointer)> OnWrite,
              llvm::function_ref<bool(const VarDecl *)> OnDecl, const Stmt *Self, unsigned Depth = 0)
      : OnWrite(OnWrite), OnDecl(OnDecl), Self(Self), Depth(Depth) {}
  bool Stopped = false;

  bool VisitVarDecl(VarDecl *D) {
    if (OnDecl(D) || (D->getType()->isReferenceType() && isMutableReference(D->getType()) && D->getInit() &&
                      OnWrite(D->getInit(), false)))
      Stopped = true;
    return !Stopped;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) { return !BO->isAssignmentOp() || write(BO->getLHS()); }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if ((OC->isAssignmentOp() || OC->getOperator() == OO_PlusPlus || OC->getOperator() == OO_MinusMinus) &&
        OC->getNumArgs() > 0)
      return write(OC->getArg(0));
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    // A non-const method may change the object (`data.reset()`), and so do
    // in-place ops named with a trailing '_' (libtorch's `x.add_()` is const
    // on the handle). Calls through a handle's overloaded operator-> change
    // the pointee, which the handle does not hold by value.
    const CXXMethodDecl *MD = MC->getMethodDecl();
    bool InPlace = MD && MD->getIdentifier() && MD->getName().ends_with("_");
    if (MD && !MD->isStatic() && (!MD->isConst() || InPlace))
      return write(MC->getImplicitObjectArgument());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf && ReadOnlyArgs.contains(UO))
      return true; // `&net->lr` given to a function that only reads through it
    if (UO->isIncrementDecrementOp() || (UO->getOpcode() == UO_AddrOf && isMutableReference(UO->getType())))
      return write(UO->getSubExpr());
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *FR) {
    const VarDecl *Elem = FR->getLoopVariable();
    return !(Elem && isMutableReference(Elem->getType())) || write(FR->getRangeInit());
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || CE == Self) // what the expression writes as its result (a copy's destination) is not an input
      return true;
    unsigned Offset = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Offset; I < CE->getNumArgs() && I - Offset < FD->getNumParams(); ++I) {
      QualType PT = FD->getParamDecl(I - Offset)->getType();
      if (!isMutableReference(PT) || libraryForwardingParam(FD, I - Offset) ||
          temporaryMovedIntoStd(FD, PT, CE->getArg(I)))
        continue;
      if (readsThroughOnlyAt(FD, I - Offset, Depth))
        ReadOnlyArgs.insert(CE->getArg(I)->IgnoreParenImpCasts()); // visited after this call
      else if (!write(CE->getArg(I), PT->isPointerType()))
        return false;
    }
    // A non-const member operator other than an accessor (`rng()`, `it += 2`).
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE); OC && Offset && OC->getNumArgs() > 0) {
      OverloadedOperatorKind K = OC->getOperator();
      bool Accessor = K == OO_Subscript || K == OO_Arrow || K == OO_Star;
      if (!Accessor && !cast<CXXMethodDecl>(FD)->isConst())
        return write(OC->getArg(0));
    }
    return true;
  }

private:
  bool write(const Expr *E, bool ByPointer = false) {
    if (E && OnWrite(E, ByPointer))
      Stopped = true;
    return !Stopped;
  }
  llvm::function_ref<bool(const Expr *, bool)> OnWrite;
  llvm::function_ref<bool(const VarDecl *)> OnDecl;
  const Stmt *Self;
  const unsigned Depth;
  llvm::SmallPtrSet<const Expr *, 4> ReadOnlyArgs;
};

/// readsThroughOnly, looking at most three calls deep from \p Depth.
bool readsThroughOnlyAt(const FunctionDecl *FD, unsigned Index, unsigned Depth) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (Depth >= 3 || declaredInSystemHeader(FD) || (MD && MD->isVirtual()) || Index >= FD->getNumParams())
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def) {
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    std::shared_ptr<const ProjectSummaries> P = projectSummaries();
    const FunctionFacts *F = P && Main ? P->function(usrOf(FD), Main->getName()) : nullptr;
    return F && llvm::is_contained(F->ReadOnlyParams, Index);
  }
  if (!Def->hasBody())
    return false;
  const ParmVarDecl *P = Def->getParamDecl(Index);
  const bool Pointer = P->getType()->isPointerType();
  auto Writes = [&](const Expr *E, bool ByPointer) {
    const auto *DRE = dyn_cast<DeclRefExpr>(stripWrappers(E));
    if (DRE && DRE->getDecl() == P && Pointer && !ByPointer)
      return false; // the pointer itself moves (`p += n`), not what it points to
    return refersTo(E, P);
  };
  // A copy of the pointer or reference (`float *q = p;`, `x.data = p`,
  // `return p;`, a lambda's capture) may be written through later.
  auto Copies = [&](QualType T, const Expr *E) {
    return E && (T->isPointerType() || T->isReferenceType()) && refersToAnyOf(E, {P});
  };
  auto Declares = [&](const VarDecl *D) { return D != P && Copies(D->getType(), D->getInit()); };
  WriteFinder W(Writes, Declares, nullptr, Depth + 1);
  W.TraverseStmt(Def->getBody());
  if (W.Stopped)
    return false;
  const QualType Result = Def->getReturnType();
  std::function<bool(const Stmt *)> Escapes = [&](const Stmt *S) -> bool {
    if (!S)
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && Copies(BO->getType(), BO->getRHS()))
      return true;
    if (const auto *R = dyn_cast<ReturnStmt>(S); R && Copies(Result, R->getRetValue()))
      return true;
    // `p->clear()`: the finder takes it for a move of the pointer.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S); MC && Pointer && MC->getMethodDecl() &&
                                                         !MC->getMethodDecl()->isConst() &&
                                                         refersToAnyOf(MC->getImplicitObjectArgument(), {P}))
      return true;
    if (const auto *L = dyn_cast<LambdaExpr>(S))
      for (const LambdaCapture &C : L->captures())
        if (C.capturesVariable() && C.getCapturedVar() == P)
          return true;
    return llvm::any_of(S->children(), Escapes);
  };
  return !Escapes(Def->getBody());
}

class VarRefs : public RecursiveASTVisitor<VarRefs> {
public:
  explicit VarRefs(const ApiProfiles &P) : P(P) {}
  llvm::SmallVector<const VarDecl *, 4> Vars;
  bool Unsupported = false;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (P.findType(E->getType(), Role::SinglePass))
      Unsupported = true;
    if (const auto *VD = dyn_cast<VarDecl>(E->getDecl()); VD && VD->hasLocalStorage())
      Vars.push_back(VD);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (P.findType(E->getType(), Role::SinglePass))
      Unsupported = true;
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *) {
    Unsupported = true;
    return true;
  }

private:
  const ApiProfiles &P;
};

/// A pointer to a type the program never defines (`cudaStream_t`, a
/// `struct CUstream_st *`): what it points to is the library's state, which no
/// expression of the program reads.
bool isOpaqueHandle(QualType T) {
  if (!T->isPointerType())
    return false;
  const auto *RT = T->getPointeeType().getCanonicalType()->getAs<RecordType>();
  return RT && !RT->getDecl()->getDefinition();
}

bool changedIn(const ValueDecl *VD, const Stmt *Region, const Stmt *Self = nullptr, bool AnyObject = false) {
  const bool Handle = isOpaqueHandle(VD->getType());
  auto Writes = [&](const Expr *E, bool ByPointer) {
    if (ByPointer && Handle && isa<DeclRefExpr>(stripWrappers(E)))
      return false; // a stream or event passed on: the handle itself is unchanged
    return refersTo(E, VD, AnyObject);
  };
  auto Declares = [&](const VarDecl *D) { return D == VD; };
  WriteFinder F(Writes, Declares, Self);
  F.TraverseStmt(const_cast<Stmt *>(Region));
  return F.Stopped;
}

/// Whether \p FD builds or destroys objects of \p RD: what it writes into
/// their fields is their initial value.
bool constructs(const FunctionDecl *FD, const RecordDecl *RD) {
  return isa<CXXConstructorDecl, CXXDestructorDecl>(FD) && cast<CXXMethodDecl>(FD)->getParent() == RD;
}

/// Whether code other than the constructors and the destructor of the
/// field's class may change it: a method of its class (one this translation
/// unit does not define may, unless it is const) and, for a public field,
/// any function of this file or of the project's other files.
bool changedOutsideConstructors(const FieldDecl *F, const ModelAnalysis &A) {
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  if (!RD || F->isMutable() || F->getType()->isReferenceType() || F->getType()->isPointerType())
    return true;
  for (const CXXMethodDecl *M : RD->methods()) {
    if (isa<CXXConstructorDecl, CXXDestructorDecl>(M) || M->isStatic() || M->isImplicit())
      continue;
    const FunctionDecl *Def = M->getDefinition();
    if (!Def)
      return !M->isConst();
    if (!Def->getBody() || changedIn(F, Def->getBody()))
      return true;
  }
  if (F->getAccess() != AS_public)
    return false;
  bool Written = false;
  A.forEachFunction([&](const FunctionDecl *FD) {
    Written = Written || (!constructs(FD, RD) && FD->getBody() && changedIn(F, FD->getBody(), nullptr, true));
  });
  const ProjectSummaries *P = A.project();
  return Written || (P && P->fieldWritten(usrOf(F), A.mainFileName()));
}

/// A plain assignment to a field of the object a method runs on
/// (`anchors_ = ...;`); \p Unconditional: a statement of the body itself.
struct FieldAssignment {
  const Expr *LHS, *RHS;
  bool Unconditional;
};

/// The plain assignments to \p F in \p Body, outside lambdas.
std::vector<FieldAssignment> fieldAssignments(const FieldDecl *F, const Stmt *Body) {
  std::vector<FieldAssignment> Out;
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool Top) {
    if (!S || isa<LambdaExpr>(S))
      return;
    const Expr *LHS = nullptr, *RHS = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      LHS = BO->getLHS(), RHS = BO->getRHS();
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S); OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      LHS = OC->getArg(0), RHS = OC->getArg(1);
    if (const auto *ME = LHS ? dyn_cast<MemberExpr>(stripWrappers(LHS)) : nullptr;
        ME && ME->getMemberDecl() == F && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      Out.push_back({stripWrappers(LHS), RHS, Top});
    for (const Stmt *C : S->children())
      Walk(C,
           Top && (isa<CompoundStmt>(S)
                       ? isa<Expr>(C)
                       : isa<ExprWithCleanups, CXXBindTemporaryExpr, MaterializeTemporaryExpr, ImplicitCastExpr>(S)));
  };
  Walk(Body, true);
  return Out;
}

/// Whether \p Body registers the field with its module (`register_buffer("a",
/// anchors_)`, profile role `module-state`): the module's to(device) moves it.
bool registersField(const FieldDecl *F, const Stmt *Body, const ModelAnalysis &A) {
  if (!Body)
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(Body))
    if (const ProfileEntry *E = A.profiles().find(CE, Role::ModuleState))
      if (const Expr *V = E->ValueArg ? argumentFor(CE, E->ValueArg) : nullptr; V && refersTo(V, F))
        return true;
  return llvm::any_of(Body->children(), [&](const Stmt *C) { return registersField(F, C, A); });
}

/// Whether every constructor of the field's class (and so every object)
/// starts it with a value for which \p OnHost holds: its initializer (written
/// in the constructor or the class), or the assignments of the constructor's
/// body, of which one is unconditional. A field the constructor registers with
/// its module is not host data.
bool initializedWith(const FieldDecl *F, const ModelAnalysis &A, llvm::function_ref<bool(const Expr *)> OnHost) {
  const auto *RD = cast<CXXRecordDecl>(F->getParent());
  bool Any = false;
  for (const CXXConstructorDecl *C : RD->ctors()) {
    if (C->isCopyOrMoveConstructor() || C->isDeleted())
      continue;
    const auto *Def = dyn_cast_or_null<CXXConstructorDecl>(C->getDefinition());
    if (!Def || registersField(F, Def->getBody(), A))
      return false;
    const Expr *Init = nullptr;
    for (const CXXCtorInitializer *I : Def->inits())
      if (I->getMember() == F && (I->isWritten() || isa<CXXDefaultInitExpr>(I->getInit()->IgnoreImplicit())))
        Init = I->getInit()->IgnoreImplicit();
    if (const auto *DI = dyn_cast_or_null<CXXDefaultInitExpr>(Init))
      Init = DI->getExpr();
    std::vector<FieldAssignment> Assigned = fieldAssignments(F, Def->getBody());
    bool Unconditional = llvm::any_of(Assigned, [](const FieldAssignment &FA) { return FA.Unconditional; });
    if (!llvm::all_of(Assigned, [&](const FieldAssignment &FA) { return OnHost(FA.RHS); }) ||
        (!Unconditional && (!Init || !OnHost(Init))))
      return false;
    Any = true;
  }
  return Any;
}
} // namespace

bool isChangedIn(const VarDecl *VD, const Stmt *Region, const Stmt *Self) { return changedIn(VD, Region, Self); }

bool isWrittenIn(const VarDecl *VD, const Stmt *Region) {
  auto Writes = [&](const Expr *E, bool) { return refersTo(E, VD); };
  auto Declares = [](const VarDecl *) { return false; };
  WriteFinder F(Writes, Declares, nullptr); // holds references to both
  F.TraverseStmt(const_cast<Stmt *>(Region));
  return F.Stopped;
}

/// A method that no file of the program (a whole-project run with a `main`)
/// defines: it never runs, a call of it would not link.
static bool neverDefined(const CXXMethodDecl *M, const ModelAnalysis &A) {
  const ProjectSummaries *P = A.project();
  return P && P->hasMain() && !P->defines(usrOf(M), A.mainFileName());
}

/// Calls \p Fn with the definition of each method of \p RD that may store
/// into its fields (constructors included; not destructors, static or
/// implicit methods, nor copy or move constructors, which copy what another
/// stored). False when one of them is not defined here (and may run: see
/// neverDefined) or \p Fn returns false.
static bool eachStoringMethod(const CXXRecordDecl *RD, const ModelAnalysis &A,
                              llvm::function_ref<bool(const FunctionDecl *Def)> Fn) {
  for (const CXXMethodDecl *M : RD->methods()) {
    if (isa<CXXDestructorDecl>(M) || M->isStatic() || M->isDeleted() || M->isImplicit())
      continue;
    const auto *Ctor = dyn_cast<CXXConstructorDecl>(M);
    if (Ctor && Ctor->isCopyOrMoveConstructor())
      continue;
    const FunctionDecl *Def = M->getDefinition();
    if (!Def || !Def->getBody()) {
      if ((Ctor || !M->isConst()) && !neverDefined(M, A))
        return false;
      continue;
    }
    if (!Fn(Def))
      return false;
  }
  return true;
}

std::optional<llvm::SmallVector<const Expr *, 4>> storedValues(const FieldDecl *F, const ModelAnalysis &A) {
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  if (!RD || F->getAccess() != AS_private || F->isMutable() || F->getType()->isReferenceType())
    return std::nullopt;
  const bool Pointer = F->getType()->isPointerType();
  auto IsField = [&](const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(stripWrappers(E));
    return ME && ME->getMemberDecl() == F && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
  };
  llvm::SmallVector<const Expr *, 4> Values;
  // The class's default member initializer: what an implicit constructor stores.
  if (const Expr *Default = F->getInClassInitializer())
    Values.push_back(Default);
  // An implicit copy or move stores what another object holds: one of these values.
  bool Known = eachStoringMethod(RD, A, [&](const FunctionDecl *Def) {
    if (const auto *CD = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *I : CD->inits())
        if (I->getMember() == F && I->isWritten())
          Values.push_back(I->getInit()->IgnoreImplicit());
    // Plain assignments give values; every other write to the field ends it.
    llvm::SmallPtrSet<const Expr *, 4> Assigned;
    for (const FieldAssignment &FA : fieldAssignments(F, Def->getBody())) {
      Assigned.insert(FA.LHS);
      Values.push_back(FA.RHS);
    }
    auto OnWrite = [&](const Expr *E, bool ByPointer) {
      if (IsField(E) && Assigned.contains(stripWrappers(E)))
        return false;
      return Pointer ? IsField(E) && !ByPointer : refersTo(E, F);
    };
    auto OnDecl = [](const VarDecl *) { return false; };
    WriteFinder W(OnWrite, OnDecl, nullptr);
    W.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
    return !W.Stopped;
  });
  return Known ? std::optional(Values) : std::nullopt;
}

std::optional<llvm::SmallVector<const Expr *, 4>> storedElements(const FieldDecl *F, const ModelAnalysis &A) {
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  if (!RD || F->getAccess() != AS_private || F->isMutable() || !F->getType()->isRecordType())
    return std::nullopt;
  llvm::SmallVector<const Expr *, 4> Values;
  // What a use of the field does to its elements: puts a value in (kept),
  // reads (nothing), or anything else (the elements are unknown).
  auto Use = [&](const MemberExpr *ME) {
    const Stmt *Parent = climbThrough<ImplicitCastExpr, ParenExpr>(ME, A).second;
    if (const auto *MC =
            dyn_cast_or_null<CXXMemberCallExpr>(Parent && isa<MemberExpr>(Parent) ? A.parent(Parent) : nullptr)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (!MD || !MD->getIdentifier())
        return false;
      if (addsElement(MC) && MC->getNumArgs() == 1) {
        Values.push_back(MC->getArg(0));
        return true;
      }
      // Sizes and null elements: `resize(n)` of pointers, `clear()`, `reserve(n)`.
      return MD->isConst() || llvm::is_contained({"resize", "clear", "reserve", "shrink_to_fit"}, MD->getName());
    }
    const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(Parent);
    if (!OC || OC->getOperator() != OO_Subscript || OC->getArg(0)->IgnoreParenImpCasts() != ME)
      return false; // the container itself passed, copied over or walked
    // `F[i]`: read as a value, or assigned as a whole element.
    auto [Element, User] = climbThrough<ParenExpr>(OC, A);
    if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(User); IC && IC->getCastKind() == CK_LValueToRValue)
      return true;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(User); BO && BO->getLHS()->IgnoreParens() == Element) {
      if (BO->getOpcode() != BO_Assign)
        return false;
      Values.push_back(BO->getRHS());
      return true;
    }
    return false;
  };
  bool Known = eachStoringMethod(RD, A, [&](const FunctionDecl *Def) {
    if (const auto *CD = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *I : CD->inits())
        if (I->getMember() == F && I->isWritten())
          return false; // built from something: its elements are not followed
    bool Followed = true;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S || !Followed)
        return;
      if (const auto *ME = dyn_cast<MemberExpr>(S);
          ME && ME->getMemberDecl() == F && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) && !Use(ME))
        Followed = false;
      for (const Stmt *C : S->children())
        Walk(C);
    };
    Walk(Def->getBody());
    return Followed;
  });
  return Known ? std::optional(Values) : std::nullopt;
}

namespace {
/// The statement of \p Block that holds \p S, climbing only through
/// statements that run whenever their parent does (with \p Unconditional);
/// null when \p S is not below \p Block that way.
const Stmt *statementOf(const Stmt *S, const CompoundStmt *Block, const ModelAnalysis &A, bool Unconditional) {
  for (const Stmt *P = A.parent(S); P; S = P, P = A.parent(P)) {
    if (P == Block)
      return S;
    if (Unconditional && (isa<IfStmt, SwitchStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, ConditionalOperator,
                              LambdaExpr, CXXTryStmt, CXXCatchStmt, BinaryConditionalOperator>(P) ||
                          (isa<BinaryOperator>(P) && cast<BinaryOperator>(P)->isLogicalOp())))
      return nullptr;
  }
  return nullptr;
}

/// Whether \p Call copies \p Var (its moved value names it) with the text \p Text.
bool copiesLike(const CallExpr *Call, const VarDecl *Var, llvm::StringRef Text, const ModelAnalysis &A) {
  std::optional<RoleMatch> M = A.role(Call);
  const Expr *Value = M && M->R == Role::ToDevice ? movedValue(Call, *M->Entry) : nullptr;
  return Value && namedVar(stripWrappers(Value)) == Var && sourceText(Call->getSourceRange(), A.context()) == Text;
}
} // namespace

const CallExpr *earlierSameCopy(const CallExpr *Copy, const VarDecl *Var, const ModelAnalysis &A) {
  const FunctionDecl *FD = A.owner(Copy);
  std::string Text = sourceText(Copy->getSourceRange(), A.context());
  if (!FD || !Var || Text.empty())
    return nullptr;
  // A copy in a statement of \p Block that runs whenever the statement does.
  std::function<const CallExpr *(const Stmt *, const Stmt *, const CompoundStmt *)> Find =
      [&](const Stmt *S, const Stmt *Top, const CompoundStmt *Block) -> const CallExpr * {
    if (!S || isa<LambdaExpr>(S))
      return nullptr;
    if (const auto *CE = dyn_cast<CallExpr>(S);
        CE && CE != Copy && copiesLike(CE, Var, Text, A) && statementOf(CE, Block, A, true) == Top)
      return CE;
    for (const Stmt *C : S->children())
      if (const CallExpr *Found = Find(C, Top, Block))
        return Found;
    return nullptr;
  };
  // The blocks around the copy, innermost first; in each, the statements
  // before the copy's, nearest first, until one changes the variable.
  for (const Stmt *P = A.parent(Copy); P && !isa<LambdaExpr>(P); P = A.parent(P)) {
    const auto *Block = dyn_cast<CompoundStmt>(P);
    const Stmt *Own = Block ? statementOf(Copy, Block, A, false) : nullptr;
    if (!Own)
      continue;
    if (isChangedIn(Var, Own))
      return nullptr;
    auto Stmts = llvm::ArrayRef(Block->body_begin(), Block->body_end());
    auto It = llvm::find(Stmts, Own);
    while (It != Stmts.begin()) {
      --It;
      if (const CallExpr *Prev = Find(*It, *It, Block))
        return isChangedIn(Var, *It) ? nullptr : Prev;
      if (isChangedIn(Var, *It))
        return nullptr;
    }
    if (P == FD->getBody())
      break;
  }
  return nullptr;
}

namespace {
/// Whether one use \p Use of a raw pointer or array ends in an element
/// access or a free function's pointer parameter, following it up through
/// casts and pointer arithmetic, rather than in a place that keeps it.
bool pointerUseIsLocal(const Expr *Use, const ModelAnalysis &A) {
  const Stmt *Child = Use;
  for (const Stmt *P = A.parent(Use); P; Child = P, P = A.parent(P)) {
    if (isa<ParenExpr>(P))
      continue;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P)) {
      if (!Cast->getType()->isPointerType())
        return true; // `if (h)`
      continue;
    }
    if (isa<UnaryExprOrTypeTraitExpr, CXXDeleteExpr>(P))
      return true; // sizeof, delete[]
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(P)) {
      if (!Cast->getType()->isPointerType())
        return false;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAdditiveOp() && BO->getType()->isPointerType())
        continue; // `h + i`
      // An assignment to the pointer itself is a reassignment (isChangedIn).
      return BO->isComparisonOp() || (BO->isAssignmentOp() && Child == BO->getLHS());
    }
    if (isa<ArraySubscriptExpr, MemberExpr>(P))
      return true; // an element, read or written in place
    if (const auto *UO = dyn_cast<UnaryOperator>(P))
      return UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_LNot || UO->isIncrementDecrementOp();
    if (const auto *Call = dyn_cast<CallExpr>(P)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || isa<CXXMethodDecl>(FD) || Child == Call->getCallee())
        return false;
      for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams(); ++I)
        if (Call->getArg(I) == Child)
          return !FD->getParamDecl(I)->getType()->isReferenceType();
      return false; // a variadic argument
    }
    return false; // a declaration's initializer, a list, a lambda, a return, an object
  }
  return false;
}
} // namespace

bool pointerMayBeAliased(const VarDecl *VD, const Stmt *Body, const ModelAnalysis &A) {
  if (!VD->getType()->isPointerType() && !VD->getType()->isArrayType())
    return false;
  std::function<bool(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD && !pointerUseIsLocal(DRE, A))
      return true;
    return llvm::any_of(S->children(), Walk);
  };
  return Walk(Body);
}

/// The variable a chain of `.` members \p E starts from, with the members
/// in order; null for anything else (`->`, a call, `this`).
static const VarDecl *memberChain(const Expr *E, llvm::SmallVectorImpl<const ValueDecl *> &Path) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && (VD->isLocalVarDecl() || isa<ParmVarDecl>(VD)) ? VD : nullptr;
  }
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME || ME->isArrow())
    return nullptr;
  const VarDecl *Root = memberChain(ME->getBase(), Path);
  if (Root)
    Path.push_back(ME->getMemberDecl());
  return Root;
}

std::optional<ObjectMemory> dataPointerOf(const Expr *E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E ? stripWrappers(E) : nullptr);
  const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
  if (!M || !M->getIdentifier() || M->getName() != "data" || MC->getNumArgs() != 0)
    return std::nullopt;
  ObjectMemory Mem;
  Mem.Object = MC->getImplicitObjectArgument();
  Mem.Root = memberChain(Mem.Object, Mem.Path);
  if (!Mem.Root)
    return std::nullopt;
  return Mem;
}

/// Whether one member path is a prefix of the other: the same memory, or one
/// holding the other.
static bool overlaps(llvm::ArrayRef<const ValueDecl *> A, llvm::ArrayRef<const ValueDecl *> B) {
  size_t N = std::min(A.size(), B.size());
  return A.take_front(N) == B.take_front(N);
}

/// Whether \p S names \p M's memory (see objectMemoryChangedIn) outside \p Self.
static bool namesObjectMemory(const Stmt *S, const ObjectMemory &M, const Stmt *Self) {
  if (!S || S == Self)
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && (isa<MemberExpr>(E) || isa<DeclRefExpr>(E))) {
    llvm::SmallVector<const ValueDecl *, 2> Path;
    if (memberChain(E, Path) == M.Root)
      return overlaps(Path, M.Path);
  }
  return llvm::any_of(S->children(), [&](const Stmt *C) { return namesObjectMemory(C, M, Self); });
}

bool objectMemoryChangedIn(const ObjectMemory &M, const Stmt *Loop, const Stmt *Self, const Stmt *Body) {
  if (namesObjectMemory(Loop, M, Self))
    return true;
  // Pointers into the memory, made anywhere in the function: written in the loop, perhaps.
  llvm::SmallVector<const VarDecl *, 2> Into;
  std::function<void(const Stmt *)> Collect = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit() && namesObjectMemory(VD->getInit(), M, nullptr))
          Into.push_back(VD);
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      if (const VarDecl *VD = namedVar(BO->getLHS()); VD && namesObjectMemory(BO->getRHS(), M, nullptr))
        Into.push_back(VD);
    for (const Stmt *C : S->children())
      Collect(C);
  };
  Collect(Body);
  return refersToAnyOf(Loop, Into);
}

bool isReassignedIn(const VarDecl *VD, const Stmt *Region) {
  auto Reassigns = [&](const Expr *E, bool ByPointer) {
    const auto *DRE = dyn_cast<DeclRefExpr>(stripWrappers(E));
    return !ByPointer && DRE && DRE->getDecl() == VD;
  };
  auto Declares = [&](const VarDecl *D) { return D == VD; };
  WriteFinder F(Reassigns, Declares, nullptr);
  F.TraverseStmt(const_cast<Stmt *>(Region));
  return F.Stopped;
}

bool readsThroughOnly(const FunctionDecl *FD, unsigned Index) {
  const QualType T = Index < FD->getNumParams() ? FD->getParamDecl(Index)->getType() : QualType();
  return !T.isNull() && isMutableReference(T) && readsThroughOnlyAt(FD, Index, 0);
}

void forEachPublicFieldWritten(const FunctionDecl *FD, llvm::function_ref<void(const FieldDecl *)> Fn) {
  if (!FD->getBody())
    return;
  auto OnWrite = [&](const Expr *E, bool) {
    anyReached(E, [&](const ValueDecl *D, bool) {
      if (const auto *F = dyn_cast<FieldDecl>(D); F && F->getAccess() == AS_public && !constructs(FD, F->getParent()))
        Fn(F);
      return false;
    });
    return false;
  };
  auto OnDecl = [](const VarDecl *) { return false; };
  WriteFinder W(OnWrite, OnDecl, nullptr);
  W.TraverseStmt(FD->getBody());
}

bool readsChangedIn(const Stmt *S, const Stmt *Region) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isChangedIn(VD, Region))
      return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return readsChangedIn(C, Region); });
}

const Stmt *outermostInvariantLoop(const Expr *E, llvm::ArrayRef<const Stmt *> Loops, const ApiProfiles &P) {
  VarRefs Refs(P);
  Refs.TraverseStmt(const_cast<Expr *>(E));
  if (Refs.Unsupported || Loops.empty())
    return nullptr;
  if (Refs.Vars.empty())
    return Loops.back();
  const SourceManager &SM = Refs.Vars[0]->getASTContext().getSourceManager();
  // Variables the expression declares itself (a lambda's parameters and locals).
  llvm::erase_if(Refs.Vars, [&](const VarDecl *VD) { return contains(E, VD->getLocation(), SM); });
  const Stmt *Best = nullptr;
  for (const Stmt *Loop : Loops) {
    bool Invariant = true;
    for (const VarDecl *VD : Refs.Vars)
      if (contains(Loop, VD->getLocation(), SM) || isChangedIn(VD, Loop, E)) {
        Invariant = false;
        break;
      }
    if (!Invariant)
      break;
    Best = Loop;
  }
  return Best;
}

namespace {
/// An argument that is the same on every call: a constant expression, an
/// enumerator, or a variable of static storage that is const.
bool constantArg(const Expr *E, const ASTContext &Ctx) {
  if (isa<CXXDefaultArgExpr>(E) || E->isEvaluatable(Ctx))
    return true;
  const auto *DRE = dyn_cast<DeclRefExpr>(stripConversions(E));
  if (!DRE)
    return false;
  if (isa<EnumConstantDecl>(DRE->getDecl()))
    return true;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  return VD && !VD->hasLocalStorage() && VD->getType().isConstQualified();
}
} // namespace

const FieldDecl *perCallConstant(const Expr *E, const ModelAnalysis &A) {
  if (!E)
    return nullptr;
  E = stripWrappers(E);
  const MemberExpr *ME = nullptr;
  bool NeedsHostProof = false;
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // A tensor made from constant host data (`torch::tensor(_means)`).
    std::optional<RoleMatch> R = A.role(CE);
    if (!R || (R->R != Role::Factory && R->R != Role::HostWrap) || CE->getNumArgs() == 0)
      return nullptr;
    ME = dyn_cast<MemberExpr>(stripConversions(CE->getArg(0)));
    if (!ME || A.profiles().autogradTensorProfile(ME->getType()))
      return nullptr;
    for (unsigned I = 1; I < CE->getNumArgs(); ++I)
      if (!constantArg(CE->getArg(I), A.context()))
        return nullptr;
  } else {
    ME = dyn_cast<MemberExpr>(E);
    // An array of numbers in the object is host memory; a tensor may be anywhere.
    const auto *Array = ME ? A.context().getAsConstantArrayType(ME->getType()) : nullptr;
    NeedsHostProof = !Array || !Array->getElementType()->isArithmeticType();
  }
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!F || changedOutsideConstructors(F, A))
    return nullptr;
  if (NeedsHostProof && !initializedWith(F, A, [&](const Expr *Init) { return onHost(Init, A); }))
    return nullptr;
  return F;
}

/// \p E names a local variable declared before \p Loop (a global may change
/// anywhere: a static input buffer refilled before each call).
static const VarDecl *localBefore(const Expr *E, const Stmt *Loop, const ModelAnalysis &A) {
  const VarDecl *VD = namedVar(E);
  return VD && VD->hasLocalStorage() && !contains(Loop, VD->getLocation(), A.context().getSourceManager()) ? VD
                                                                                                           : nullptr;
}

bool argumentInvariantIn(const CallExpr *Call, unsigned I, const Stmt *Loop, const ModelAnalysis &A, bool Identity) {
  // An operator's arguments count its object; a constructor is no CallExpr.
  if (!Call || isa<CXXOperatorCallExpr>(Call) || I >= Call->getNumArgs())
    return false;
  // A local variable or its address (namedVar sees through `&`).
  const VarDecl *VD = localBefore(Call->getArg(I), Loop, A);
  if (!VD)
    return false;
  const auto *Address = dyn_cast<UnaryOperator>(stripWrappers(Call->getArg(I)));
  if (Identity) // `&net`, or a pointer the loop never points elsewhere
    return (Address && Address->getOpcode() == UO_AddrOf) || !isReassignedIn(VD, Loop);
  std::vector<const Stmt *> Loops = loopsUpTo(Call, Loop, A);
  return !Loops.empty() && outermostInvariantLoop(Call->getArg(I), Loops, A.profiles()) == Loop;
}

std::vector<const Stmt *> loopsUpTo(const Stmt *S, const Stmt *Loop, const ModelAnalysis &A) {
  std::vector<const Stmt *> Loops = A.enclosingLoops(S);
  while (!Loops.empty() && Loops.back() != Loop)
    Loops.pop_back();
  return Loops;
}

bool argumentSameEveryStep(const CallExpr *Call, unsigned I, const HotContext &H, ModelAnalysis &A, unsigned Depth,
                           bool Identity) {
  if (!Call || isa<CXXOperatorCallExpr>(Call) || I >= Call->getNumArgs())
    return false;
  const FunctionDecl *Owner = A.owner(Call);
  const bool InLoop = H.Loop && H.CallChain.empty() && Owner == A.owner(H.Loop);
  // A field of an object that nothing changes after construction
  // (`&net->learning_rate`): then only the object must be the same.
  const Expr *E = stripWrappers(Call->getArg(I))->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  bool ThroughField = false;
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!F || changedOutsideConstructors(F, A))
      return false;
    E = ME->getBase()->IgnoreParenImpCasts();
    ThroughField = true;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (InLoop && !ThroughField)
    return argumentInvariantIn(Call, I, H.Loop, A, Identity);
  if (InLoop) { // `&net.learning_rate`, `net->learning_rate` of a variable made before the loop
    const VarDecl *VD = Ref ? localBefore(Ref, H.Loop, A) : nullptr;
    return VD && !isReassignedIn(VD, H.Loop);
  }
  // Below the loop: a parameter of the caller (`scale`), or a field of what
  // one points to, when every per-step call of the caller passes the same.
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Owner || !Owner->getBody() || Depth == 0 || !P || P->getDeclContext() != Owner)
    return false;
  Identity = Identity || ThroughField;
  return (Identity ? !isReassignedIn(P, Owner->getBody()) : !isChangedIn(P, Owner->getBody(), Call)) &&
         parameterInvariant(P, H, A, Depth - 1, Identity);
}

bool parameterInvariant(const ParmVarDecl *Param, const HotContext &Hot, ModelAnalysis &A, unsigned Depth,
                        bool Identity) {
  const auto *FD = dyn_cast<FunctionDecl>(Param->getDeclContext());
  if (!FD || !(Hot.External || !Hot.CallChain.empty()))
    return false;
  unsigned Index = Param->getFunctionScopeIndex();
  // Every per-step call, in this file and in the others, passes one.
  bool Any = false;
  for (const Expr *Site : A.callSites(FD)) {
    std::optional<HotContext> H = A.perStep(Site);
    if (!H)
      continue;
    if (!argumentSameEveryStep(dyn_cast<CallExpr>(Site), Index, *H, A, Depth, Identity))
      return false;
    Any = true;
  }
  const ProjectSummaries *P = A.project();
  if (std::string Usr = usrOf(FD); P && P->hotCaller(Usr, A.mainFileName())) {
    if (!P->passesSameValue(Usr, A.mainFileName(), Index))
      return false;
    Any = true;
  }
  return Any;
}

bool loadedPerIteration(const VarDecl *VD, const Stmt *Loop, const ModelAnalysis &A) {
  if (!VD || !Loop)
    return false;
  std::function<bool(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const ProfileEntry *E = A.profiles().find(CE, Role::LoadState)) {
        const Expr *Into = E->ValueArg ? argumentFor(CE, E->ValueArg) : nullptr;
        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE); MC && !E->ValueArg)
          Into = MC->getImplicitObjectArgument();
        if (Into && namedVar(Into) == VD)
          for (const Expr *Arg : CE->arguments())
            if (Arg != Into && readsChangedIn(Arg, Loop))
              return true;
      }
    return llvm::any_of(S->children(), Walk);
  };
  return Walk(Loop);
}

bool madeForEachIteration(const Expr *Made, const HotContext &H, const ModelAnalysis &A) {
  const Expr *Value = Made;
  for (size_t I = H.CallChain.size();; --I) {
    if (const VarDecl *VD = resultVariable(Value, A))
      return H.Loop && isInside(Value, H.Loop, A) && loadedPerIteration(VD, A.innermostLoop(Value), A);
    // Returned: on to the call of the function that returns it.
    const Stmt *Parent = climbThrough<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                                      ExprWithCleanups, CXXConstructExpr, CXXFunctionalCastExpr, ParenExpr>(Value, A)
                             .second;
    if (!isa_and_nonnull<ReturnStmt>(Parent))
      return false;
    if (I == 0) // by the function another file's loop calls
      return !H.Loop && H.External && H.External->ResultReloaded;
    Value = H.CallChain[I - 1];
  }
}

} // namespace clang::tidy::mlperf
