#include "ModelAnalysis.h"
#include "Facts.h"
#include "SourceUtils.h"
#include "SummaryCollector.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::mlperf {

namespace {
/// Whether \p FD is (in) a template this translation unit instantiates: its
/// instantiations are analysed with real types, so matches by member name in
/// the pattern would repeat them.
bool isInstantiatedTemplate(const FunctionDecl *FD) {
  if (!FD)
    return false;
  if (const FunctionTemplateDecl *FT = FD->getDescribedFunctionTemplate(); FT && !FT->specializations().empty())
    return true;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *RD = dyn_cast<CXXRecordDecl>(DC))
      if (const ClassTemplateDecl *CT = RD->getDescribedClassTemplate(); CT && !CT->specializations().empty()) {
        // A member of the class template itself: instantiated when some
        // specialization has its body (a virtual trainer loop nothing calls
        // here, nor the constructors that are not used, are only patterns).
        const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        if (!MD || MD->getParent() != RD || MD->getDescribedFunctionTemplate())
          return true;
        const FunctionDecl *Canonical = MD->getCanonicalDecl();
        for (const ClassTemplateSpecializationDecl *S : CT->specializations())
          for (const CXXMethodDecl *M : S->methods())
            if (const FunctionDecl *From = M->getInstantiatedFromMemberFunction();
                From && From->getCanonicalDecl() == Canonical && M->hasBody())
              return true;
        return false;
      }
  return false;
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  using Base = RecursiveASTVisitor<Collector>;
  Collector(llvm::function_ref<void(const FunctionDecl *, const Stmt *)> OnBody,
            llvm::function_ref<void(const Decl *)> OnDecl)
      : OnBody(OnBody), OnDecl(OnDecl) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && declaredInSystemHeader(D))
      return true;
    return Base::TraverseDecl(D);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    // A template's instantiations are analysed with their types; a template
    // nothing here instantiates (a header's trainer) is analysed as written.
    if (FD->doesThisDeclarationHaveABody() && FD->getBody() &&
        (!FD->isDependentContext() || !isInstantiatedTemplate(FD)))
      OnBody(FD, FD->getBody());
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    if (!L->getCallOperator()->isDependentContext())
      OnBody(L->getCallOperator(), L->getBody());
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    OnDecl(VD);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    OnDecl(E->getDecl());
    return true;
  }

private:
  llvm::function_ref<void(const FunctionDecl *, const Stmt *)> OnBody;
  llvm::function_ref<void(const Decl *)> OnDecl;
};

bool loopKind(const Stmt *S) {
  // `do { ... } while (0)`, the statement-macro idiom, runs its body once.
  if (const auto *D = dyn_cast<DoStmt>(S)) {
    const Expr *Cond = D->getCond() ? D->getCond()->IgnoreParenImpCasts() : nullptr;
    if (const auto *I = dyn_cast_or_null<IntegerLiteral>(Cond); I && I->getValue() == 0)
      return false;
    if (const auto *B = dyn_cast_or_null<CXXBoolLiteralExpr>(Cond); B && !B->getValue())
      return false;
  }
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) && !runsOnce(S);
}

const FunctionDecl *definitionOf(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  if (const FunctionDecl *Def = FD->getDefinition())
    return Def;
  return nullptr;
}

/// The lambda's call operator or the function that an argument passes as a
/// model function (through std::function conversions and temporaries).
const FunctionDecl *modelFunctionOf(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *L = dyn_cast<LambdaExpr>(E))
      return L->getCallOperator();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() == 1)
      E = C->getArg(0);
    else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr();
    else if (const auto *D = dyn_cast<DeclRefExpr>(E))
      return definitionOf(dyn_cast<FunctionDecl>(D->getDecl()));
    else
      return nullptr;
  }
  return nullptr;
}

/// The variable or member an assignment's left side names.
const ValueDecl *assignedDecl(const Expr *LHS) {
  LHS = LHS->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<DeclRefExpr>(LHS))
    return dyn_cast<VarDecl>(D->getDecl());
  if (const auto *M = dyn_cast<MemberExpr>(LHS))
    return dyn_cast<FieldDecl>(M->getMemberDecl());
  return nullptr;
}

/// The parameter, variable or member whose value a call calls: a
/// std::function or another callable object (`cb(x)`), a function pointer
/// (`fn(x)`, `(*fn)(x)`).
const ValueDecl *calledHolder(const Expr *Call) {
  const Expr *Callee = nullptr;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call); OC && OC->getOperator() == OO_Call)
    Callee = OC->getArg(0);
  else if (const auto *CE = dyn_cast<CallExpr>(Call); CE && !CE->getDirectCallee())
    Callee = CE->getCallee();
  if (!Callee)
    return nullptr;
  Callee = Callee->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Callee); U && U->getOpcode() == UO_Deref)
    Callee = U->getSubExpr()->IgnoreParenImpCasts();
  return assignedDecl(Callee);
}

} // namespace

ModelAnalysis::ModelAnalysis(ASTContext &Ctx, const ApiProfiles &Profiles)
    : Ctx(Ctx), Profiles(Profiles), Project(projectSummaries()) {
  collect();
}

void ModelAnalysis::collect() {
  auto OnBody = [&](const FunctionDecl *FD, const Stmt *Body) {
    if (Functions.count(FD))
      return;
    Functions[FD] = FunctionInfo{FD, Body, {}};
    BodyOwner[Body] = FD;
    walk(Body, nullptr, FD);
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isMemberInitializer() && Init->isWritten())
          Assigned[Init->getMember()].push_back(Init->getInit());
  };
  auto OnDecl = [&](const Decl *D) {
    if (DeviceAware)
      return;
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && Profiles.isDeviceMarkerType(VD->getType()))
      DeviceAware = true;
    else if (const auto *ND = dyn_cast<NamedDecl>(D); ND && Profiles.isDeviceMarkerDecl(ND))
      DeviceAware = true;
  };
  Collector C(OnBody, OnDecl);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (size_t I = 0; I < Calls.size(); ++I)
    if (Calls[I].Callee)
      Callers[Calls[I].Callee].push_back(I);
  CalleeNames.clear();
  resolveCallables();
  // Without a device model (which arguments are devices), naming one is enough.
  const DeviceModel &D = Profiles.devices();
  bool Modelled = !D.DeviceTypes.empty() || !D.DeviceKindTypes.empty() || !D.OptionsTypes.empty();
  LocalDeviceAware =
      DeviceAware && (!Modelled || llvm::any_of(Calls, [&](const CallSite &S) { return usesDevice(S); }));
  DeviceAware = LocalDeviceAware || (Project && Project->anyUsesDevice(mainFileName()));
}

/// The value of a device argument taken from a tensor (`x.device()`,
/// `x.to(other)`), directly or through a local variable: it keeps tensors
/// where they are and says nothing about whether the program uses a device.
static bool deviceTakenFromTensor(const Expr *E, const ApiProfiles &P, int Depth = 0) {
  if (!E || Depth > 4)
    return false;
  E = stripConversions(E);
  if (P.followedTensor(E))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      return llvm::is_contained(P.devices().DeviceGetters, plainQualifiedName(FD));
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return deviceTakenFromTensor(CO->getTrueExpr(), P, Depth + 1) &&
           deviceTakenFromTensor(CO->getFalseExpr(), P, Depth + 1);
  if (const VarDecl *V = namedVar(E); V && V->isLocalVarDecl() && V->getInit())
    return deviceTakenFromTensor(V->getInit(), P, Depth + 1);
  return false;
}

bool ModelAnalysis::usesDevice(const CallSite &S) const {
  if (Profiles.find(S.E, Role::DeviceProbe))
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S.E)) {
    if (isa<CXXOperatorCallExpr>(CE)) // printing or comparing a device
      return false;
    if (CE->getDirectCallee() && Profiles.isDeviceMarkerCall(CE->getDirectCallee()))
      return true;
  }
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *CE = dyn_cast<CallExpr>(S.E))
    Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  else if (const auto *CE = dyn_cast<CXXConstructExpr>(S.E)) {
    if (Profiles.isDeviceMarkerType(CE->getType())) // the device itself, not where it goes
      return false;
    Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  }
  for (const Expr *Arg : Args) {
    if (isa<CXXDefaultArgExpr>(Arg) || !Profiles.isDeviceModelArg(Arg))
      continue;
    DeviceKind K = deviceKind(Arg);
    if (K == DeviceKind::Accelerator || (K == DeviceKind::UnknownDevice && !deviceTakenFromTensor(Arg, Profiles)))
      return true;
  }
  return false;
}

/// A call of a function another file defines is followed through that file's
/// summary unless a profile says what it does; a model's forward is followed
/// too: what it does (trains, differentiates) is in its summary.
static bool followedAcrossFiles(const std::optional<RoleMatch> &Role) { return !Role || Role->kind() == Kind::Forward; }

void ModelAnalysis::walk(const Stmt *S, const Stmt *Parent, const FunctionDecl *Owner) {
  if (!S)
    return;
  Parents[S] = Parent;
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (isa<CallExpr, CXXConstructExpr>(E)) {
      const FunctionDecl *Callee = nullptr;
      if (const auto *CE = dyn_cast<CallExpr>(E))
        Callee = definitionOf(CE->getDirectCallee());
      else
        Callee = definitionOf(cast<CXXConstructExpr>(E)->getConstructor());
      CallSite Site{E, Callee, Profiles.match(E), Owner};
      if (Site.Role && Site.Role->ByName && isInstantiatedTemplate(Owner))
        Site.Role.reset();
      if (const auto *CE = dyn_cast<CallExpr>(E);
          Project && !Callee && CE && CE->getDirectCallee() && followedAcrossFiles(Site.Role))
        Site.External = Project->function(usrOf(CE->getDirectCallee()), mainFileName());
      if (!DeviceAware) {
        if (const auto *CE = dyn_cast<CallExpr>(E);
            CE && CE->getDirectCallee() && Profiles.isDeviceMarkerCall(CE->getDirectCallee()))
          DeviceAware = true;
        if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && Profiles.isDeviceMarkerType(CE->getType()))
          DeviceAware = true;
      }
      if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
          CE && Site.Role && Site.Role->R == Role::Construct && Site.Role->kind() == Kind::Executable)
        for (const Expr *Arg : CE->arguments())
          if (const FunctionDecl *Fn = modelFunctionOf(Arg))
            ModelFunctions.insert(Fn);
      CallIndex[E] = Calls.size();
      Functions[Owner].Calls.push_back(Calls.size());
      Calls.push_back(Site);
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const auto *Name = dyn_cast_or_null<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()))
      CalleeNames.insert(Name);
  if (const auto *Name = dyn_cast<DeclRefExpr>(S))
    if (const auto *FD = dyn_cast<FunctionDecl>(Name->getDecl()); FD && !CalleeNames.contains(Name))
      NamedBesidesCalls.insert(FD->getCanonicalDecl());
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->getOpcode() == BO_Assign) {
    if (const ValueDecl *D = assignedDecl(B->getLHS()))
      Assigned[D].push_back(B->getRHS());
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S); OC && OC->getOperator() == OO_Equal) {
    if (const ValueDecl *D = assignedDecl(OC->getArg(0)))
      Assigned[D].push_back(OC->getArg(1));
  }
  if (loopKind(S)) {
    const SourceManager &SM = Ctx.getSourceManager();
    LoopKeywords.insert(SM.getFileLoc(S->getBeginLoc()).getRawEncoding());
    if (const auto *D = dyn_cast<DoStmt>(S))
      LoopKeywords.insert(SM.getFileLoc(D->getWhileLoc()).getRawEncoding());
  }
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    for (const Expr *Init : L->capture_inits())
      walk(Init, S, Owner);
    return; // the body is walked as its own function
  }
  for (const Stmt *Child : S->children())
    walk(Child, S, Owner);
}

const FunctionDecl *ModelAnalysis::owner(const Stmt *S) const {
  const Stmt *Top = S;
  while (const Stmt *P = Parents.lookup(Top))
    Top = P;
  return BodyOwner.lookup(Top);
}

std::vector<const Expr *> ModelAnalysis::callSites(const FunctionDecl *FD) const {
  std::vector<const Expr *> Sites;
  for (size_t I : Callers.lookup(FD))
    Sites.push_back(Calls[I].E);
  return Sites;
}

/// A function exported for code outside the C++ program to call: C linkage
/// (JNI, a WebAssembly or ctypes binding's `extern "C"` entry points) or
/// marked used (`EMSCRIPTEN_KEEPALIVE`, `__attribute__((used))`).
static bool exported(const FunctionDecl *FD) {
  return !FD->isMain() && FD->isExternallyVisible() && (FD->isExternC() || FD->hasAttr<UsedAttr>());
}

ModelAnalysis::WhoCalls ModelAnalysis::callersOf(const FunctionDecl *FD) const {
  WhoCalls C;
  FD = FD->getDefinition() ? FD->getDefinition() : FD;
  C.Here = callSites(FD);
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  C.Unseen = FD->isMain() || (MD && MD->isVirtual()) || referencedBesidesCalls(FD) ||
             (C.Here.empty() && (FD->isTemplated() || FD->isTemplateInstantiation() ||
                                 FD->getOverloadedOperator() == OO_Call || (MD && MD->getParent()->isLambda())));
  if (FD->isExternallyVisible()) {
    if (!Project)
      C.Unseen = true;
    else if (Project->calledFrom(usrOf(FD), mainFileName()))
      C.Elsewhere = true;
    else if (C.Here.empty() && (!Project->hasMain() || exported(FD)))
      C.Unseen = true;
  }
  return C;
}

void ModelAnalysis::callablesOf(const Expr *E, llvm::SmallVectorImpl<const FunctionDecl *> &Out,
                                llvm::DenseSet<const Decl *> &Seen) const {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *L = dyn_cast<LambdaExpr>(E)) {
      Out.push_back(L->getCallOperator());
      return;
    }
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() == 1)
      E = C->getArg(0);
    else if (const auto *F = dyn_cast<ExplicitCastExpr>(E))
      E = F->getSubExpr();
    else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr();
    else if (const auto *Ref = dyn_cast<CallExpr>(E);
             Ref && Ref->getNumArgs() == 1 && Ref->getDirectCallee() &&
             llvm::is_contained({"std::ref", "std::cref", "std::move"}, plainQualifiedName(Ref->getDirectCallee())))
      E = Ref->getArg(0);
    else if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      if (const FunctionDecl *Fn = definitionOf(dyn_cast<FunctionDecl>(D->getDecl())))
        Out.push_back(Fn);
      else if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
        heldCallables(V, Out, Seen);
      return;
    } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
      if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl()))
        heldCallables(F, Out, Seen);
      return;
    } else
      return;
  }
}

void ModelAnalysis::heldCallables(const ValueDecl *D, llvm::SmallVectorImpl<const FunctionDecl *> &Out,
                                  llvm::DenseSet<const Decl *> &Seen) const {
  if (!D || !Seen.insert(D).second)
    return;
  if (const auto *P = dyn_cast<ParmVarDecl>(D)) {
    const auto *Fn = definitionOf(dyn_cast<FunctionDecl>(P->getDeclContext()));
    unsigned Index = P->getFunctionScopeIndex();
    for (size_t I : Fn ? Callers.lookup(Fn) : std::vector<size_t>()) {
      const Expr *Arg = nullptr;
      if (const auto *CE = dyn_cast<CallExpr>(Calls[I].E)) {
        // An operator written as a member takes its object as argument 0.
        unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Fn) ? 1 : 0;
        if (Index + Shift < CE->getNumArgs())
          Arg = CE->getArg(Index + Shift);
      } else if (const auto *CE = dyn_cast<CXXConstructExpr>(Calls[I].E); CE && Index < CE->getNumArgs()) {
        Arg = CE->getArg(Index);
      }
      callablesOf(Arg, Out, Seen);
    }
  } else if (const auto *V = dyn_cast<VarDecl>(D)) {
    callablesOf(V->getInit(), Out, Seen);
  } else if (const auto *F = dyn_cast<FieldDecl>(D)) {
    callablesOf(F->getInClassInitializer(), Out, Seen);
  }
  for (const Expr *Value : Assigned.lookup(D))
    callablesOf(Value, Out, Seen);
}

/// A call that may run an override of its method defined here or in another file: a
/// virtual method called through an object, unqualified (`Base::f()` calls
/// that one).
static const CXXMethodDecl *dispatchesVirtually(const CallExpr *CE) {
  const auto *ME = dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts());
  const auto *MD = ME ? dyn_cast<CXXMethodDecl>(ME->getMemberDecl()) : nullptr;
  return MD && MD->isVirtual() && !ME->hasQualifier() ? MD : nullptr;
}

/// The methods defined here that override, directly or not, each virtual
/// method they override: keyed by the overridden method's canonical decl.
static llvm::DenseMap<const CXXMethodDecl *, std::vector<const FunctionDecl *>>
overridersDefinedHere(llvm::ArrayRef<const FunctionDecl *> Defined) {
  llvm::DenseMap<const CXXMethodDecl *, std::vector<const FunctionDecl *>> Out;
  for (const FunctionDecl *FD : Defined) {
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (!MD)
      continue;
    for (const CXXMethodDecl *Base : overriddenTransitively(MD))
      Out[Base].push_back(FD);
  }
  return Out;
}

/// The class whose member \p E calls or constructs, or null.
static const CXXRecordDecl *calledClass(const Expr *E) {
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return CE->getConstructor()->getParent();
  const auto *CE = dyn_cast<CallExpr>(E);
  const auto *MD = CE ? dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee()) : nullptr;
  return MD ? MD->getParent() : nullptr;
}

std::vector<const FunctionDecl *> ModelAnalysis::heldModuleForwards() const {
  std::vector<const FunctionDecl *> Out;
  auto AddForwards = [&](const CXXRecordDecl *RD) {
    RD = RD ? RD->getDefinition() : nullptr;
    if (!RD || declaredInSystemHeader(RD))
      return;
    for (const auto &P : Profiles.profiles())
      for (const ProfileEntry &E : P->Entries)
        if (E.R == Role::Step && !E.Method.empty() && isDerivedFromName(RD, E.ClassDerivedFrom))
          for (const CXXMethodDecl *M : RD->methods())
            if (const FunctionDecl *Def = M->getIdentifier() && M->getName() == E.Method ? definitionOf(M) : nullptr;
                Def && Functions.count(Def) && !llvm::is_contained(Out, Def))
              Out.push_back(Def);
  };
  for (const CallSite &C : Calls) {
    if (!Profiles.isModuleContainer(calledClass(C.E)))
      continue;
    llvm::ArrayRef<const Expr *> Args;
    if (const auto *CE = dyn_cast<CallExpr>(C.E))
      Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
    else
      Args = llvm::ArrayRef(cast<CXXConstructExpr>(C.E)->getArgs(), cast<CXXConstructExpr>(C.E)->getNumArgs());
    for (const Expr *Arg : Args) {
      // The module itself, or a holder of it (`ModuleHolder<LayerImpl>`, `shared_ptr<LayerImpl>`).
      const CXXRecordDecl *RD = Arg->getType().getNonReferenceType()->getAsCXXRecordDecl();
      AddForwards(RD);
      if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD))
        for (const TemplateArgument &T : Spec->getTemplateArgs().asArray())
          if (T.getKind() == TemplateArgument::Type)
            AddForwards(T.getAsType()->getAsCXXRecordDecl());
    }
  }
  return Out;
}

void ModelAnalysis::resolveCallables() {
  std::vector<const FunctionDecl *> Defined;
  for (const auto &[FD, Info] : Functions)
    Defined.push_back(FD);
  llvm::sort(Defined, [](const FunctionDecl *A, const FunctionDecl *B) {
    return A->getBeginLoc().getRawEncoding() < B->getBeginLoc().getRawEncoding();
  });
  auto Overriders = overridersDefinedHere(Defined);
  std::vector<const FunctionDecl *> Held = heldModuleForwards();
  for (size_t I = 0; I < Calls.size(); ++I) {
    CallSite &C = Calls[I];
    // A container's forward (`seq->forward(x, targets)`) may run the forward
    // of each module put into one that takes those arguments.
    if (C.Role && C.Role->R == Role::Step && !Held.empty() && Profiles.isModuleContainer(calledClass(C.E))) {
      const auto *CE = dyn_cast<CallExpr>(C.E);
      unsigned N = CE ? CE->getNumArgs() - objectArguments(CE) : 0;
      for (const FunctionDecl *F : Held)
        if (CE && F->getMinRequiredArguments() <= N && N <= F->getNumParams() && F != C.Caller &&
            !llvm::is_contained(C.Targets, F))
          C.Targets.push_back(F);
    }
    // A virtual call may run the overrides defined here.
    if (const auto *CE = dyn_cast<CallExpr>(C.E))
      if (const CXXMethodDecl *MD = dispatchesVirtually(CE))
        for (const FunctionDecl *O : Overriders.lookup(MD->getCanonicalDecl()))
          if (O != C.Callee && !llvm::is_contained(C.Targets, O))
            C.Targets.push_back(O);
    // A call of a lambda or functor defined here is an ordinary call already.
    if (C.Callee && Functions.count(C.Callee))
      continue;
    const ValueDecl *Holder = calledHolder(C.E);
    if (!Holder)
      continue;
    llvm::SmallVector<const FunctionDecl *, 2> Found;
    llvm::DenseSet<const Decl *> Seen;
    heldCallables(Holder, Found, Seen);
    for (const FunctionDecl *T : Found)
      if (Functions.count(T) && !llvm::is_contained(C.Targets, T))
        C.Targets.push_back(T);
  }
  for (size_t I = 0; I < Calls.size(); ++I)
    for (const FunctionDecl *T : Calls[I].Targets)
      Callers[T].push_back(I);
  if (!Project)
    return;
  forEachPassedCallable([&](const Expr *, const FunctionDecl *Callee, unsigned Index, const FunctionDecl *Callable) {
    PassedAcross.try_emplace(Callable, usrOf(Callee), Index);
  });
  // A parameter called here, passed by other files: what they pass runs.
  forEachParameterCall([&](const Expr *Call, const FunctionDecl *Owner, unsigned Index) {
    CallSite &C = Calls[CallIndex.lookup(Call)];
    if (!C.External)
      C.External = Project->passedCallables(usrOf(Owner), Index, mainFileName());
  });
}

void ModelAnalysis::forEachPassedCallable(
    llvm::function_ref<void(const Expr *, const FunctionDecl *, unsigned, const FunctionDecl *)> Fn) const {
  forEachExternalCall([&](const Expr *E, const FunctionDecl *, const FunctionDecl *Declared) {
    const auto *CE = cast<CallExpr>(E);
    unsigned Shift = objectArguments(CE);
    for (unsigned I = Shift; I < CE->getNumArgs(); ++I) {
      llvm::SmallVector<const FunctionDecl *, 2> Found;
      llvm::DenseSet<const Decl *> Seen;
      callablesOf(CE->getArg(I), Found, Seen);
      for (const FunctionDecl *T : Found)
        if (Functions.count(T))
          Fn(E, Declared, I - Shift, T);
    }
  });
}

void ModelAnalysis::forEachParameterCall(
    llvm::function_ref<void(const Expr *, const FunctionDecl *, unsigned)> Fn) const {
  for (const CallSite &C : Calls) {
    if (C.Callee && Functions.count(C.Callee))
      continue;
    const auto *P = dyn_cast_or_null<ParmVarDecl>(calledHolder(C.E));
    const auto *MD = dyn_cast<CXXMethodDecl>(C.Caller);
    if (P && P->getDeclContext() == C.Caller && !(MD && MD->getParent()->isLambda()))
      Fn(C.E, C.Caller, P->getFunctionScopeIndex());
  }
}

bool ModelAnalysis::anyCallee(const CallSite &C, llvm::function_ref<bool(const FunctionDecl *)> Pred) const {
  return (C.Callee && Pred(C.Callee)) || llvm::any_of(C.Targets, Pred);
}

/// The default argument of parameter \p P, on whichever declaration of its
/// function states it (the class's declaration for an out-of-line method).
static const Expr *defaultArgument(const ParmVarDecl *P) {
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!FD)
    return nullptr;
  unsigned I = P->getFunctionScopeIndex();
  for (const FunctionDecl *D : FD->redecls())
    if (const ParmVarDecl *Q = I < D->getNumParams() ? D->getParamDecl(I) : nullptr;
        Q && Q->hasDefaultArg() && !Q->hasUninstantiatedDefaultArg() && !Q->hasUnparsedDefaultArg())
      return Q->getDefaultArg();
  return nullptr;
}

bool ModelAnalysis::isLoop(const Stmt *S) const {
  if (!S || !loopKind(S))
    return false;
  if (!isa<ForStmt>(S))
    return true;
  if (auto It = RepeatsMemo.find(S); It != RepeatsMemo.end())
    return It->second;
  const ParmVarDecl *P = countingParameter(S);
  const Expr *Default = P ? defaultArgument(P) : nullptr;
  if (!Default)
    return RepeatsMemo[S] = true;
  const FunctionDecl *FD = owner(S);
  bool Once = FD && runsOnceWith(S, Default) && llvm::all_of(callSites(FD), [&](const Expr *Site) {
                return runsOnceWith(S, argumentFor(Site, P->getFunctionScopeIndex()));
              });
  return RepeatsMemo[S] = !Once;
}

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *F = dyn_cast_or_null<ForStmt>(Loop))
    return F->getBody();
  if (const auto *R = dyn_cast_or_null<CXXForRangeStmt>(Loop))
    return R->getBody();
  if (const auto *W = dyn_cast_or_null<WhileStmt>(Loop))
    return W->getBody();
  if (const auto *D = dyn_cast_or_null<DoStmt>(Loop))
    return D->getBody();
  return nullptr;
}

bool ModelAnalysis::isRepeatedBy(const Stmt *Child, const Stmt *Loop) const {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return Child != F->getInit();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return Child == R->getBody() || Child == R->getLoopVarStmt() || Child == R->getInc() || Child == R->getCond();
  return true;
}

std::vector<const Stmt *> ModelAnalysis::enclosingLoops(const Stmt *S) const {
  std::vector<const Stmt *> Loops;
  for (const Stmt *Child = S, *P = parent(S); P; Child = P, P = parent(P))
    if (isLoop(P) && isRepeatedBy(Child, P))
      Loops.push_back(P);
  return Loops;
}

const Stmt *ModelAnalysis::innermostLoop(const Stmt *S) const {
  for (const Stmt *Child = S, *P = parent(S); P; Child = P, P = parent(P))
    if (isLoop(P) && isRepeatedBy(Child, P))
      return P;
  return nullptr;
}

std::optional<RoleMatch> ModelAnalysis::role(const Expr *E) const {
  auto It = CallIndex.find(E);
  if (It != CallIndex.end())
    return Calls[It->second].Role;
  std::optional<RoleMatch> M = Profiles.match(E);
  if (M && M->ByName)
    return std::nullopt; // only calls the analysis has seen in an uninstantiated template
  return M;
}

bool ModelAnalysis::hasByNameRoles(const FunctionDecl *FD) const {
  auto It = Functions.find(FD);
  return It != Functions.end() &&
         llvm::any_of(It->second.Calls, [&](size_t I) { return Calls[I].Role && Calls[I].Role->ByName; });
}

bool ModelAnalysis::callIsStep(const CallSite &C) {
  if (C.Role && C.Role->R == Role::Step)
    return true;
  return anyCallee(C, [&](const FunctionDecl *F) { return stepsDirectly(F); }) ||
         (C.External && C.External->StepsDirectly);
}

template <class Key> static bool memoized(llvm::DenseMap<Key, int> &Memo, Key K, llvm::function_ref<bool()> Compute) {
  // Set before computing: a recursive query for the same key (a call cycle) answers false.
  auto [It, New] = Memo.try_emplace(K, 0);
  if (!New)
    return It->second > 0;
  bool Result = Compute();
  Memo[K] = Result ? 1 : 0;
  return Result;
}

bool ModelAnalysis::anyCall(const FunctionDecl *FD, llvm::function_ref<bool(const CallSite &)> Pred) const {
  auto FI = FD ? Functions.find(FD) : Functions.end();
  if (FI == Functions.end())
    return false;
  for (size_t I : FI->second.Calls)
    if (Pred(Calls[I]))
      return true;
  return false;
}

static bool isTrainingStep(const RoleMatch &M) {
  return M.R == Role::Step && (M.kind() == Kind::Backward || M.kind() == Kind::Optimizer);
}

static bool within(const ModelAnalysis &A, const Stmt *S, const Stmt *Loop) {
  for (const Stmt *Child = S, *P = A.parent(S); P; Child = P, P = A.parent(P))
    if (P == Loop)
      return A.isRepeatedBy(Child, Loop);
  return false;
}

bool ModelAnalysis::stepsDirectly(const FunctionDecl *FD) {
  return memoized(StepsDirectlyMemo, FD, [&] {
    return anyCall(FD, [&](const CallSite &C) { return !innermostLoop(C.E) && callIsStep(C) && !warmsUp(C, FD); });
  });
}

bool ModelAnalysis::warmsUp(const CallSite &C, const FunctionDecl *FD) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Text = sourceText(C.E->getSourceRange(), Ctx);
  if (Text.empty() || C.E->getBeginLoc().isMacroID())
    return false;
  return anyCall(FD, [&](const CallSite &Again) {
    return Again.E != C.E && innermostLoop(Again.E) &&
           SM.isBeforeInTranslationUnit(C.E->getEndLoc(), Again.E->getBeginLoc()) &&
           sourceText(Again.E->getSourceRange(), Ctx) == Text;
  });
}

bool ModelAnalysis::reachesStep(const FunctionDecl *FD) {
  return memoized(ReachesMemo, FD, [&] {
    return anyCall(FD, [&](const CallSite &C) {
      return (C.Role && C.Role->R == Role::Step) ||
             anyCallee(C, [&](const FunctionDecl *F) { return reachesStep(F); }) ||
             (C.External && C.External->ReachesStep);
    });
  });
}

bool ModelAnalysis::callTrains(const CallSite &C) {
  return (C.Role && isTrainingStep(*C.Role)) ||
         anyCallee(C, [&](const FunctionDecl *F) { return reachesTraining(F); }) || (C.External && C.External->Trains);
}

bool ModelAnalysis::reachesTraining(const FunctionDecl *FD) {
  return memoized(TrainingMemo, FD, [&] { return anyCall(FD, [&](const CallSite &C) { return callTrains(C); }); });
}

bool ModelAnalysis::callOptimizes(const CallSite &C) {
  return (C.Role && C.Role->R == Role::Step && C.Role->kind() == Kind::Optimizer) ||
         anyCallee(C, [&](const FunctionDecl *F) { return reachesOptimizer(F); });
}

bool ModelAnalysis::reachesOptimizer(const FunctionDecl *FD) {
  return memoized(OptimizerMemo, FD, [&] { return anyCall(FD, [&](const CallSite &C) { return callOptimizes(C); }); });
}

bool ModelAnalysis::accumulates(const Stmt *Loop) {
  const FunctionDecl *FD = owner(Loop);
  if (!anyCall(FD, [&](const CallSite &C) { return innermostLoop(C.E) == Loop && callOptimizes(C); }))
    return false;
  bool NestsTraining = false;
  bool OptimizesInside = anyCall(FD, [&](const CallSite &C) {
    const Stmt *Inner = innermostLoop(C.E);
    if (!Inner || Inner == Loop || !within(*this, Inner, Loop))
      return false;
    NestsTraining |= callTrains(C);
    return callOptimizes(C);
  });
  return NestsTraining && !OptimizesInside;
}

bool ModelAnalysis::isStepLoop(const Stmt *Loop) {
  return memoized(StepLoopMemo, Loop, [&] {
    return anyCall(owner(Loop),
                   [&](const CallSite &C) {
                     const Stmt *Inner = innermostLoop(C.E);
                     return (Inner == Loop || (Inner && layersOfStep(Inner) && innermostLoop(Inner) == Loop)) &&
                            callIsStep(C);
                   }) ||
           accumulates(Loop);
  });
}

static bool movesData(const std::optional<RoleMatch> &M) {
  return M && (M->R == Role::ToDevice || M->R == Role::Materialize || M->R == Role::Sync);
}

bool ModelAnalysis::layersOfStep(const Stmt *Loop) {
  return memoized(LayersMemo, Loop, [&] {
    const Stmt *Outer = innermostLoop(Loop);
    if (!Outer)
      return false;
    bool Computes = false, CopiesIn = false, CopiesOut = false;
    bool Pure = !anyCall(owner(Loop), [&](const CallSite &C) {
      if (within(*this, C.E, Loop)) {
        Computes |= callIsStep(C);
        return movesData(C.Role) || callTrains(C);
      }
      if (innermostLoop(C.E) == Outer && C.Role) {
        CopiesIn |= C.Role->R == Role::ToDevice;
        CopiesOut |= C.Role->R == Role::Materialize || C.Role->R == Role::Sync;
      } else if (innermostLoop(C.E) == Outer) { // `sample(logits, &token)`, here or in another file
        CopiesOut |= readsToHost(C);
      }
      return false;
    });
    return Pure && Computes && CopiesIn && CopiesOut;
  });
}

bool ModelAnalysis::inForwardOfCallersStep(const Stmt *Loop) {
  const FunctionDecl *FD = owner(Loop);
  if (!FD || !isHotRoot(FD))
    return false;
  hotFunction(FD);
  return RunByCallersStep.contains(FD);
}

bool ModelAnalysis::readsToHost(const CallSite &C) {
  return (C.Role && (C.Role->R == Role::Materialize || C.Role->R == Role::Sync)) ||
         anyCallee(C, [&](const FunctionDecl *F) { return readsToHost(F); }) || (C.External && C.External->ReadsToHost);
}

bool ModelAnalysis::readsToHost(const FunctionDecl *FD) {
  if (!ReadsMemo.insert({FD, false}).second)
    return ReadsMemo[FD];
  bool Reads = anyCall(FD, [&](const CallSite &C) { return readsToHost(C); });
  return ReadsMemo[FD] = Reads;
}

bool ModelAnalysis::readsToHost(const CallExpr *Call) {
  auto It = CallIndex.find(Call);
  return It != CallIndex.end() && readsToHost(Calls[It->second]);
}

bool ModelAnalysis::isEpochLoop(const Stmt *Loop) {
  return memoized(EpochLoopMemo, Loop, [&] {
    const FunctionDecl *FD = owner(Loop);
    bool NestsStepLoop = anyCall(FD, [&](const CallSite &C) {
      const Stmt *Inner = innermostLoop(C.E);
      if (!Inner || Inner == Loop || !within(*this, Inner, Loop) || !isStepLoop(Inner))
        return false;
      // Inside a loop over the layers of each step (its heads, its blocks): part of the step.
      const Stmt *Top = Inner;
      while (Top && innermostLoop(Top) != Loop)
        Top = innermostLoop(Top);
      return !(Top && layersOfStep(Top));
    });
    bool TrainsHere = anyCall(FD, [&](const CallSite &C) {
      return innermostLoop(C.E) == Loop &&
             ((C.Role && isTrainingStep(*C.Role)) ||
              anyCallee(C, [&](const FunctionDecl *F) { return stepsDirectly(F) && reachesTraining(F); }) ||
              (C.External && C.External->StepsDirectly && C.External->Trains));
    });
    return NestsStepLoop && !TrainsHere && !accumulates(Loop);
  });
}

bool ModelAnalysis::runsModel(const Stmt *Loop) {
  return memoized(RunsModelMemo, Loop, [&] {
    return anyCall(owner(Loop), [&](const CallSite &C) {
      return ((C.Role && C.Role->R == Role::Step) ||
              anyCallee(C, [&](const FunctionDecl *F) { return reachesStep(F); }) ||
              (C.External && C.External->ReachesStep)) &&
             within(*this, C.E, Loop);
    });
  });
}

bool ModelAnalysis::isTraining(const Stmt *Loop) {
  return memoized(TrainingLoopMemo, Loop, [&] {
    return anyCall(owner(Loop), [&](const CallSite &C) { return within(*this, C.E, Loop) && callTrains(C); });
  });
}

bool ModelAnalysis::trainsDirectly(const Stmt *Loop) {
  return anyCall(owner(Loop), [&](const CallSite &C) { return innermostLoop(C.E) == Loop && callTrains(C); });
}

bool ModelAnalysis::isPeriodicGuard(const Stmt *Cond) const {
  if (!Cond)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond); BO && BO->getOpcode() == BO_Rem)
    return true;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Cond); OC && OC->getOperator() == OO_Percent)
    return true;
  for (const Stmt *Child : Cond->children())
    if (isPeriodicGuard(Child))
      return true;
  return false;
}

bool ModelAnalysis::dropsLoop(const Stmt *Loop) {
  return memoized(DropsLoopMemo, Loop, [&] {
    const SourceManager &SM = Ctx.getSourceManager();
    CharSourceRange Range =
        Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Loop->getSourceRange()), SM, Ctx.getLangOpts());
    if (Range.isInvalid())
      return false;
    auto [File, Begin] = SM.getDecomposedLoc(Range.getBegin());
    unsigned End = SM.getFileOffset(Range.getEnd());
    bool Invalid = false;
    llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
    if (Invalid || End > Buffer.size())
      return false;
    Lexer Raw(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buffer.begin(), Buffer.begin() + Begin,
              Buffer.begin() + End);
    Token Tok;
    bool Dropped = false, More = true;
    while (More) {
      More = !Raw.LexFromRawLexer(Tok);
      // Preprocessor lines: a loop in a branch that is not compiled (`#ifdef
      // USE_CUDA`) is not dropped; such loops cannot be told apart here.
      if (Tok.is(tok::hash) && Tok.isAtStartOfLine())
        return false;
      if (Tok.is(tok::raw_identifier) && llvm::is_contained({"for", "while", "do"}, Tok.getRawIdentifier()) &&
          !LoopKeywords.count(Tok.getLocation().getRawEncoding()))
        Dropped = true;
    }
    return Dropped;
  });
}

bool ModelAnalysis::periodicIn(const Stmt *S, const Stmt *Loop) const {
  for (const Stmt *Child = S, *P = parent(S); P && P != Loop; Child = P, P = parent(P))
    if (const auto *If = dyn_cast<IfStmt>(P); If && Child == If->getThen() && isPeriodicGuard(If->getCond()))
      return true;
  return false;
}

/// The variables a `for` loop steps (`++i`, `i++`, `i += k`, `++b, ++step`).
static void stepped(const Expr *Inc, llvm::SmallVectorImpl<const VarDecl *> &Out) {
  Inc = Inc ? Inc->IgnoreParenImpCasts() : nullptr;
  const Expr *Target = nullptr;
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(Inc); B && B->getOpcode() == BO_Comma) {
    stepped(B->getLHS(), Out);
    stepped(B->getRHS(), Out);
  } else if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc); U && U->isIncrementDecrementOp()) {
    Target = U->getSubExpr();
  } else if (const auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    Target = C->getLHS();
  }
  if (const auto *DRE = Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr)
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      Out.push_back(VD);
}

static bool mentions(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == V)
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return mentions(C, V); });
}

/// `step == 0`, `b == batches - 1`, alone or in a conjunction, on a counter
/// of \p Loop: the guarded code runs once per execution of the loop.
static bool isOnceGuard(const Expr *Cond, const Stmt *Loop) {
  const auto *For = dyn_cast<ForStmt>(Loop);
  const auto *BO = For ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()) : nullptr;
  if (!BO)
    return false;
  if (BO->getOpcode() == BO_LAnd)
    return isOnceGuard(BO->getLHS(), Loop) || isOnceGuard(BO->getRHS(), Loop);
  if (BO->getOpcode() != BO_EQ)
    return false;
  llvm::SmallVector<const VarDecl *, 2> Counters;
  stepped(For->getInc(), Counters);
  auto Is = [](const Expr *E, const VarDecl *V) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  return llvm::any_of(Counters, [&](const VarDecl *V) {
    return (Is(BO->getLHS(), V) && !mentions(BO->getRHS(), V)) || (Is(BO->getRHS(), V) && !mentions(BO->getLHS(), V));
  });
}

/// `if (!started) { started = true; ... }`, `if (first) { first = false; ... }`,
/// `if (init == false) { init = true; ... }`: a flag set before \p Loop that
/// the branch flips and nothing else in the loop writes. The branch runs on
/// the first iteration only.
static bool latchedOnce(const IfStmt *If, const Stmt *Loop, ASTContext &Ctx) {
  const Expr *Cond = If->getCond()->IgnoreParenImpCasts();
  bool RunsWhen = true;
  if (const auto *U = dyn_cast<UnaryOperator>(Cond); U && U->getOpcode() == UO_LNot) {
    RunsWhen = false;
    Cond = U->getSubExpr()->IgnoreParenImpCasts();
  }
  const VarDecl *V = namedVar(Cond);
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond); BO && BO->isEqualityOp() && RunsWhen) {
    const Expr *Value = (V = namedVar(BO->getLHS()))   ? BO->getRHS()
                        : (V = namedVar(BO->getRHS())) ? BO->getLHS()
                                                       : nullptr;
    bool C = false;
    if (!Value || !Value->EvaluateAsBooleanCondition(C, Ctx))
      return false;
    RunsWhen = (BO->getOpcode() == BO_EQ) == C;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  if (!V || !V->getType()->isScalarType() ||
      (V->isLocalVarDecl() && !SM.isBeforeInTranslationUnit(V->getLocation(), Loop->getBeginLoc())))
    return false;
  // Every write of the flag in the loop: the branch's own, to the value that closes it.
  bool Flipped = false, OtherWrite = false;
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool InBranch) {
    if (!S || OtherWrite)
      return;
    InBranch |= S == If->getThen();
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && namedVar(BO->getLHS()) == V) {
      bool To = false;
      if (InBranch && BO->getOpcode() == BO_Assign && BO->getRHS()->EvaluateAsBooleanCondition(To, Ctx) &&
          To != RunsWhen)
        Flipped = true;
      else
        OtherWrite = true;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S);
        U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && namedVar(U->getSubExpr()) == V)
      OtherWrite = true;
    for (const Stmt *C : S->children())
      Walk(C, InBranch);
  };
  Walk(loopBody(Loop), false);
  return Flipped && !OtherWrite;
}

bool ModelAnalysis::onceIn(const Stmt *S, const Stmt *Loop) const {
  for (const Stmt *Child = S, *P = parent(S); P && P != Loop; Child = P, P = parent(P))
    if (const auto *If = dyn_cast<IfStmt>(P);
        If && Child == If->getThen() && (isOnceGuard(If->getCond(), Loop) || latchedOnce(If, Loop, Ctx)))
      return true;
  return false;
}

bool ModelAnalysis::isHotRoot(const FunctionDecl *FD) const {
  if (!FD)
    return false;
  if (ModelFunctions.count(FD) || ModelFunctions.count(FD->getCanonicalDecl()))
    return true;
  // A method that a profile calls a model step by itself (a module's forward).
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->getIdentifier() || isa<CXXConstructorDecl>(MD) || MD->getParent()->isLambda())
    return false;
  for (const auto &P : Profiles.profiles())
    for (const ProfileEntry &E : P->Entries)
      if (E.R == Role::Step && !E.Method.empty() && E.Method == MD->getName() &&
          isDerivedFromName(MD->getParent(), E.ClassDerivedFrom))
        return true;
  return false;
}

std::optional<HotContext> ModelAnalysis::hotFunction(const FunctionDecl *FD) {
  if (auto It = HotMemo.find(FD); It != HotMemo.end())
    return It->second;
  if (isHotRoot(FD)) {
    HotContext H;
    H.HotRoot = FD;
    // The forward of a model that a training loop runs, here or in another
    // file, directly or through a container of modules, is part of the
    // training step.
    if (HotInProgress.insert(FD).second) {
      for (size_t I : Callers.lookup(FD))
        if (std::optional<HotContext> C = perStep(Calls[I].E)) {
          RunByCallersStep.insert(FD);
          H.Training |= C->Training;
        }
      HotInProgress.erase(FD);
    }
    if (const HotCallSite *Site = Project ? Project->hotCaller(usrOf(FD), mainFileName()) : nullptr) {
      RunByCallersStep.insert(FD);
      H.Training |= Site->Training;
    }
    return HotMemo[FD] = H;
  }
  if (!HotInProgress.insert(FD).second)
    return std::nullopt;
  std::optional<HotContext> Result;
  for (size_t I : Callers.lookup(FD)) {
    if (auto H = perStep(Calls[I].E)) {
      H->CallChain.push_back(Calls[I].E);
      Result = std::move(H);
      break;
    }
  }
  HotInProgress.erase(FD);
  // Another file's loop calls it: a training step when that loop trains, or
  // when this function does (the caller's file may not know: a virtual call
  // of a base method that this file's override implements).
  if (!Result && Project)
    if (const HotCallSite *Site = Project->hotCaller(usrOf(FD), mainFileName())) {
      Result = HotContext();
      Result->External = Site;
      Result->Training = Site->Training || reachesTraining(FD);
    }
  // A lambda or function passed to another file's function, which calls it on every step.
  if (auto It = PassedAcross.find(FD); !Result && It != PassedAcross.end())
    if (const HotCallSite *Site = Project->paramCaller(It->second.first, It->second.second, mainFileName())) {
      Result = HotContext();
      Result->External = Site;
      Result->Training = Site->Training || reachesTraining(FD);
    }
  return HotMemo[FD] = Result;
}

/// The parameter that may hold nothing (Facts' mayBeEmpty) that \p Cond
/// tests for a value (`p`, `!p`, `p != nullptr`, `NULL == p`,
/// `opt.has_value()`, `if (opt)`, `!mask.empty()`, `if (verbose)`), and
/// whether the test is true when it holds nothing.
static std::optional<std::pair<const ParmVarDecl *, bool>> nullTest(const Expr *Cond, ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  bool Negated = false;
  if (const auto *U = dyn_cast<UnaryOperator>(Cond); U && U->getOpcode() == UO_LNot) {
    Negated = true;
    Cond = U->getSubExpr()->IgnoreParenImpCasts();
  }
  // An optional's `has_value()` or `operator bool`, a tensor's `defined()`,
  // a container's or image's `empty()`: the object is what is tested.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Cond);
      MC && MC->getNumArgs() == 0 && isa<MemberExpr>(MC->getCallee()->IgnoreParens()) &&
      !cast<MemberExpr>(MC->getCallee()->IgnoreParens())->isArrow()) {
    EmptinessTest T = emptinessTest(MC->getMethodDecl());
    if (T != EmptinessTest::None)
      Cond = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
    if (T == EmptinessTest::Empty)
      Negated = !Negated;
  }
  auto Param = [](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *PV = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    return PV && mayBeEmpty(PV->getType()) ? PV : nullptr;
  };
  if (const ParmVarDecl *PV = Param(Cond))
    return std::pair{PV, Negated};
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (Negated || !BO || !BO->isEqualityOp())
    return std::nullopt;
  auto Null = [&](const Expr *E) { return E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull); };
  const ParmVarDecl *PV = Null(BO->getRHS()) ? Param(BO->getLHS()) : Null(BO->getLHS()) ? Param(BO->getRHS()) : nullptr;
  return PV ? std::optional(std::pair{PV, BO->getOpcode() == BO_EQ}) : std::nullopt;
}

bool ModelAnalysis::alwaysNull(const ParmVarDecl *PV) const {
  const auto *FD = dyn_cast<FunctionDecl>(PV->getDeclContext());
  FD = FD ? FD->getDefinition() : nullptr;
  if (!FD || !FD->getBody() || assignsTo(FD->getBody(), PV))
    return false;
  WhoCalls W = callersOf(FD);
  unsigned Index = PV->getFunctionScopeIndex();
  if (W.Unseen || W.never() ||
      (W.Elsewhere && !(project() && project()->nullArgument(usrOf(FD), mainFileName(), Index))))
    return false;
  return llvm::all_of(W.Here, [&](const Expr *Site) { return passesNothing(argumentFor(Site, Index), Ctx); });
}

bool ModelAnalysis::neverRuns(const Stmt *S) {
  bool HoldsStepLoop = false; // a loop of model steps around S lies inside the `if` looked at
  for (const Stmt *Child = S, *P = parent(S); P; Child = P, P = parent(P)) {
    HoldsStepLoop = HoldsStepLoop || (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P) && isStepLoop(P));
    const auto *If = dyn_cast<IfStmt>(P);
    const Expr *Cond = If ? If->getCond() : nullptr;
    if (!Cond || Child == Cond || Cond->isValueDependent())
      continue;
    // `if (verbose)` with `const bool verbose = false`, `if (kDebug)`: a
    // branch the configuration turns off. One that holds the loop of the
    // model's steps is a mode of the program (`if (kTrain) { for (...) }`),
    // run by flipping the constant, unless it is a literal (`if (false)`).
    bool Value;
    if (Cond->EvaluateAsBooleanCondition(Value, Ctx) && Value == (Child == If->getElse()) &&
        (!HoldsStepLoop || isa<CXXBoolLiteralExpr, IntegerLiteral>(Cond->IgnoreParenImpCasts())))
      return true;
    // `if (mask != nullptr)` in a function every call passes no mask.
    if (auto Test = nullTest(Cond, Ctx); Test && Test->second == (Child == If->getElse()) && alwaysNull(Test->first))
      return true;
  }
  return false;
}

/// Whether \p Branch, the branch of an `if` in \p Loop, always ends by
/// leaving the loop: a `return`, a `throw`, a call that does not return
/// (`std::exit`, `abort`), or a `break` that ends \p Loop itself. What the
/// branch does then runs at most once per execution of the loop (an error
/// report before giving up), not on every step.
/// The statement a branch ends with (its block's last), or null for an empty block.
static const Stmt *lastStatementOf(const Stmt *Branch) {
  const Stmt *Last = Branch;
  if (const auto *CS = dyn_cast<CompoundStmt>(Branch))
    Last = CS->body_empty() ? nullptr : CS->body_back();
  if (const auto *E = dyn_cast_or_null<Expr>(Last))
    Last = E->IgnoreImplicit();
  return Last;
}

bool ModelAnalysis::endsProgram(const Stmt *Branch) const {
  const auto *CE = dyn_cast_or_null<CallExpr>(lastStatementOf(Branch));
  return CE && CE->getDirectCallee() && CE->getDirectCallee()->isNoReturn();
}

bool ModelAnalysis::leavesLoop(const Stmt *Branch, const Stmt *Loop) const {
  const Stmt *Last = lastStatementOf(Branch);
  if (isa_and_nonnull<ReturnStmt, CXXThrowExpr>(Last) || endsProgram(Branch))
    return true;
  if (!isa_and_nonnull<BreakStmt>(Last))
    return false;
  // The break ends the innermost loop or switch around the branch.
  for (const Stmt *P = parent(Branch); P; P = parent(P))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(P))
      return P == Loop;
  return false;
}

bool ModelAnalysis::onceBeforeLeaving(const Stmt *S, const Stmt *Loop) const {
  for (const Stmt *Child = S, *P = parent(S); P && P != Loop; Child = P, P = parent(P))
    if (const auto *If = dyn_cast<IfStmt>(P);
        If && Child != If->getCond() && Child != If->getInit() && leavesLoop(Child, Loop))
      return true;
  return false;
}

bool ModelAnalysis::partOfTrainingStep(const Stmt *Loop) {
  if (isTraining(Loop))
    return false;
  std::vector<const Stmt *> Around = enclosingLoops(Loop);
  return llvm::any_of(Around, [&](const Stmt *L) { return trainsDirectly(L); }) ||
         anyCall(owner(Loop), [&](const CallSite &C) { return !innermostLoop(C.E) && callTrains(C); });
}

const ModelSizes &ModelAnalysis::modelSizes() {
  if (!Sizes)
    Sizes = modelSizesOf(Ctx, Profiles);
  return *Sizes;
}

std::optional<HotContext> ModelAnalysis::perStep(const Stmt *S) {
  if (neverRuns(S))
    return std::nullopt;
  bool Guarded = false;
  const FunctionDecl *FD = nullptr;
  const Stmt *Child = S;
  llvm::SmallVector<const Stmt *, 2> Branches; // branches of ifs between S and the loop
  for (const Stmt *P = parent(S); P; Child = P, P = parent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P); If && Child == If->getThen())
      Guarded |= isPeriodicGuard(If->getCond());
    if (const auto *If = dyn_cast<IfStmt>(P); If && Child != If->getCond() && Child != If->getInit())
      Branches.push_back(Child);
    if (isLoop(P) && isRepeatedBy(Child, P) && isStepLoop(P) && !partOfTrainingStep(P) && !layersOfStep(P) &&
        !inForwardOfCallersStep(P)) {
      if (Guarded || isEpochLoop(P) || onceIn(S, P) ||
          llvm::any_of(Branches, [&](const Stmt *B) { return leavesLoop(B, P); }))
        return std::nullopt;
      HotContext H;
      H.Loop = P;
      H.Training = isTraining(P);
      return H;
    }
  }
  // A branch that ends the program (`exit(1)` after an error report) runs
  // at most once, wherever the loop that calls this function is.
  if (Guarded || llvm::any_of(Branches, [&](const Stmt *B) { return endsProgram(B); }))
    return std::nullopt;
  FD = BodyOwner.lookup(Child);
  if (!FD)
    return std::nullopt;
  return hotFunction(FD);
}

void ModelAnalysis::forEachFunction(llvm::function_ref<void(const FunctionDecl *)> Fn) const {
  for (const auto &[FD, Info] : Functions)
    Fn(FD);
}

void ModelAnalysis::forEachExternalCall(
    llvm::function_ref<void(const Expr *, const FunctionDecl *, const FunctionDecl *)> Fn) const {
  for (const CallSite &C : Calls) {
    const auto *CE = dyn_cast<CallExpr>(C.E);
    const FunctionDecl *Declared = CE ? CE->getDirectCallee() : nullptr;
    if ((C.Callee && !(CE && dispatchesVirtually(CE))) || !followedAcrossFiles(C.Role) || !Declared ||
        declaredInSystemHeader(Declared))
      continue;
    Fn(C.E, C.Caller, Declared);
  }
}

std::string ModelAnalysis::mainFileName() const {
  const SourceManager &SM = Ctx.getSourceManager();
  auto Entry = SM.getFileEntryRefForID(SM.getMainFileID());
  return Entry ? Entry->getName().str() : "";
}

std::optional<HotContext> ModelAnalysis::perRequest(const Stmt *S) {
  if (std::optional<HotContext> H = perStep(S))
    return H;
  const FunctionDecl *FD = owner(S);
  if (!FD || neverRuns(S) || !reachesStep(FD))
    return std::nullopt;
  llvm::DenseSet<const FunctionDecl *> Visiting;
  return requestFunction(FD, Visiting);
}

std::optional<HotContext> ModelAnalysis::requestFunction(const FunctionDecl *FD,
                                                         llvm::DenseSet<const FunctionDecl *> &Visiting) {
  if (FD->isMain() || !Visiting.insert(FD).second)
    return std::nullopt;
  std::vector<const Expr *> Sites = callSites(FD);
  // A callback the project hands to a library (a server's route handler): the
  // library calls it, once per request, whatever the project calls itself.
  if (const Expr *Handed = handedToLibrary(FD)) {
    HotContext H;
    H.HandedAt = Handed;
    H.Request = true;
    return H;
  }
  // A call from a loop that runs the model, or from a function that runs
  // once per request itself (a binding's entry point calling the model's method).
  for (const Expr *Site : Sites) {
    std::optional<HotContext> H = inModelLoop(Site);
    if (!H && owner(Site))
      H = requestFunction(owner(Site), Visiting);
    if (H) {
      H->CallChain.push_back(Site);
      H->Request = true;
      return H;
    }
  }
  // Called from nowhere in the project: from outside it (a binding, a
  // server's handler registered by address), once per request. In a program
  // (a file of the project defines main) an uncalled function that nothing
  // references never runs, nor does an uncalled one with internal linkage,
  // unless it is exported to a host language (a WebAssembly module's
  // `extern "C"` actions, a JNI method) and the program itself calls none of
  // its exported functions (a C program calling a .cu file's `extern "C"`
  // API uses it itself: what it leaves uncalled is a test's).
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  bool Program = mainOf() || (Project && Project->hasMain());
  bool Entry = exported(FD) && !exportsCalledInProgram();
  if (!Sites.empty() || (MD && MD->getParent()->isLambda()) || (!FD->isReferenced() && Program && !Entry) ||
      !FD->isExternallyVisible() || (Project && Project->calledFrom(usrOf(FD), mainFileName())))
    return std::nullopt;
  HotContext H;
  H.RequestEntry = FD;
  H.Request = true;
  return H;
}

bool ModelAnalysis::exportsCalledInProgram() {
  if (!ExportsCalled)
    ExportsCalled = anyFunction([&](const FunctionDecl *FD, const Stmt *) {
      return exported(FD) && (!callSites(FD).empty() || (Project && Project->calledFrom(usrOf(FD), mainFileName())));
    });
  return *ExportsCalled;
}

const Expr *ModelAnalysis::handedToLibrary(const FunctionDecl *FD) {
  if (!HandedOut) {
    HandedOut.emplace();
    auto Outside = [&](const Expr *Call) {
      if (isa<RecoveryExpr>(Call))
        return true;
      const FunctionDecl *Callee = nullptr;
      if (const auto *CE = dyn_cast<CallExpr>(Call); CE && !CE->getDirectCallee())
        return CE->getCallee()->containsErrors(); // a method of a type the parser could not resolve
      if (const auto *CE = dyn_cast<CallExpr>(Call))
        Callee = CE->getDirectCallee();
      else if (const auto *CE = dyn_cast<CXXConstructExpr>(Call))
        Callee = CE->getConstructor();
      if (!Callee || role(Call) || llvm::StringRef(Callee->getQualifiedNameAsString()).starts_with("std::"))
        return false;
      if (const FunctionDecl *Def = Callee->getDefinition(); Def && !declaredInSystemHeader(Def))
        return false;
      return !(Project && Project->defines(usrOf(Callee), mainFileName()));
    };
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S)
        return;
      const auto *E = dyn_cast<Expr>(S);
      llvm::SmallVector<const Stmt *, 4> Args;
      if (const auto *CE = dyn_cast_or_null<CallExpr>(E))
        Args.append(CE->arg_begin(), CE->arg_end()); // not the callee: what is called is not handed on
      else if (E && isa<CXXConstructExpr, RecoveryExpr>(E))
        Args.append(E->child_begin(), E->child_end());
      if (!Args.empty() && Outside(E))
        for (const Stmt *Arg : Args) {
          llvm::SmallVector<const FunctionDecl *, 2> Found;
          llvm::DenseSet<const Decl *> Seen;
          callablesOf(dyn_cast_or_null<Expr>(Arg), Found, Seen);
          for (const FunctionDecl *Callable : Found)
            HandedOut->try_emplace(Callable, E);
        }
      for (const Stmt *Child : S->children())
        Walk(Child);
    };
    anyBody([&](const Stmt *Body) {
      Walk(Body);
      return false;
    });
  }
  return HandedOut->lookup(FD);
}

const FunctionDecl *ModelAnalysis::mainOf() const {
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->isMain() && FD->hasBody())
      return FD->getDefinition();
  return nullptr;
}

std::optional<HotContext> ModelAnalysis::inModelLoopThroughCallers(const Stmt *S) {
  if (std::optional<HotContext> H = inModelLoop(S))
    return H;
  const FunctionDecl *FD = neverRuns(S) ? nullptr : owner(S);
  if (!FD || !CallersInProgress.insert(FD).second)
    return std::nullopt;
  std::optional<HotContext> Result;
  for (size_t I : Callers.lookup(FD))
    if ((Result = inModelLoopThroughCallers(Calls[I].E))) {
      Result->CallChain.push_back(Calls[I].E);
      break;
    }
  CallersInProgress.erase(FD);
  if (!Result && Project)
    if (const HotCallSite *Site = Project->loopCaller(usrOf(FD), mainFileName())) {
      Result = HotContext();
      Result->External = Site;
      Result->PerIteration = true;
      Result->Training = Site->Training || reachesTraining(FD);
    }
  return Result;
}

std::optional<HotContext> ModelAnalysis::inModelLoop(const Stmt *S) {
  if (neverRuns(S))
    return std::nullopt;
  const Stmt *Outermost = nullptr;
  for (const Stmt *L : enclosingLoops(S))
    if (runsModel(L) && !onceIn(S, L))
      Outermost = L;
  if (Outermost) {
    HotContext H;
    H.Loop = Outermost;
    H.Training = isTraining(Outermost);
    return H;
  }
  if (const FunctionDecl *FD = owner(S))
    return hotFunction(FD);
  return std::nullopt;
}

} // namespace clang::tidy::mlperf
