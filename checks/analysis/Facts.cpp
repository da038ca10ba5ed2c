#include "Facts.h"
#include "DataFlow.h"
#include "Invariance.h"
#include "SourceUtils.h"
#include "SummaryCollector.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>

namespace clang::tidy::mlperf {

namespace {
bool anyChild(const Stmt *S, llvm::function_ref<bool(const Stmt *)> Pred) {
  for (const Stmt *C : S->children())
    if (C && Pred(C))
      return true;
  return false;
}

/// A `continue` that starts another iteration of the loop holding \p S
/// (one in a nested loop belongs to that loop).
bool continuesLoop(const Stmt *S) {
  if (isa<ContinueStmt>(S))
    return true;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(S))
    return false;
  return anyChild(S, continuesLoop);
}

/// A tensor type of a framework with autograd (the profiles' `autograd_tensor_types`).
bool isTensorType(QualType T, const ApiProfiles &P) { return P.autogradTensorProfile(T) != nullptr; }

/// A tensor, or a tuple of tensors (`std::tuple<Tensor, Tensor>` of `sort`, `max`, `mode`).
bool holdsTensor(QualType T, const ApiProfiles &P) {
  if (isTensorType(T, P))
    return true;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || plainQualifiedName(Spec->getSpecializedTemplate()) != "std::tuple")
    return false;
  for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
    for (const TemplateArgument &Elem : Arg.getKind() == TemplateArgument::Pack ? Arg.pack_elements() : Arg)
      if (Elem.getKind() == TemplateArgument::Type && isTensorType(Elem.getAsType(), P))
        return true;
  return false;
}

/// A list of tensors (`at::TensorList`, `std::vector<at::Tensor>`): a
/// class template whose first argument is a tensor type.
bool holdsTensorList(QualType T, const ApiProfiles &P) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() == 0)
    return false;
  const TemplateArgument &First = Spec->getTemplateArgs()[0];
  return First.getKind() == TemplateArgument::Type && isTensorType(First.getAsType(), P);
}

bool isUserCode(const FunctionDecl *FD, const ASTContext &Ctx) {
  return FD && FD->getLocation().isValid() && !declaredInSystemHeader(FD);
}

/// A class of the program (not a framework's) with a tensor field: a batch, an example.
bool aggregateOfTensors(QualType T, const ApiProfiles &P) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || declaredInSystemHeader(RD) || isTensorType(T, P))
    return false;
  return llvm::any_of(RD->fields(), [&](const FieldDecl *F) { return isTensorType(F->getType(), P); });
}

} // namespace

bool carriesTensors(QualType T, const ApiProfiles &P) {
  return holdsTensor(T, P) || holdsTensorList(T, P) || aggregateOfTensors(T, P);
}

namespace {

bool onHostAt(const Expr *E, const ModelAnalysis &A, int Depth);

/// Whether every value the program's function \p FD returns at \p Call is
/// on the host: its return statements where this translation unit defines
/// it, with that call's arguments for its parameters, else the project's
/// summary of it (FunctionFacts::ReturnsHost).
bool returnsHostAt(const FunctionDecl *FD, const Expr *Call, const ModelAnalysis &A, int Depth) {
  if (const FunctionDecl *Def = FD->getDefinition(); Def && Def->hasBody()) {
    ModelAnalysis::CallBinding Bind(A, Call);
    llvm::SmallVector<const ReturnStmt *, 4> Returns = returnStatements(Def->getBody());
    return !Returns.empty() && llvm::all_of(Returns, [&](const ReturnStmt *RS) {
      return RS->getRetValue() && onHostAt(RS->getRetValue(), A, Depth + 1);
    });
  }
  if (!A.project())
    return false;
  const FunctionFacts *F = A.project()->function(usrOf(FD), A.mainFileName());
  return F && F->ReturnsHost;
}

/// Tensor options that name no device or the CPU (`torch::kFloat`,
/// `TensorOptions().dtype(...)`), unlike another tensor's `options()`.
bool optionsOnHost(const Expr *Opt, const ModelAnalysis &A, int Depth) {
  int Calls = 0;
  switch (A.deviceKind(Opt)) {
  case DeviceKind::Cpu:
    return true;
  case DeviceKind::Accelerator:
    return false;
  default:
    break;
  }
  // Options of no device, or another tensor's options (then the tensor says),
  // through at most 8 calls on them.
  if (Depth > 16)
    return false;
  for (const Expr *Cur = stripWrappers(Opt); Cur && Calls < 8; ++Calls) {
    if (const Expr *Other = A.profiles().followedTensor(Cur))
      return onHostAt(Other, A, Depth + 1);
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Cur)) {
      if (const CXXMethodDecl *MD = MC->getMethodDecl();
          MD && MD->getIdentifier() && MD->getName() == A.profiles().devices().OptionsDeviceMethod)
        return false; // a device set to something not known here
      const Expr *Obj = stripWrappers(MC->getImplicitObjectArgument());
      if (isTensorType(Obj->getType(), A.profiles()))
        return onHostAt(Obj, A, Depth + 1);
      Cur = Obj;
      continue;
    }
    if (const VarDecl *V = namedVar(Cur))
      return V->isLocalVarDecl() && V->getInit() && optionsOnHost(V->getInit(), A, Depth + 1);
    return true;
  }
  return false;
}

/// A factory that creates its tensor in host memory: not `*_like` (those
/// follow their argument) and no argument names an accelerator.
bool hostFactory(const CallExpr *CE, const ModelAnalysis &A, int Depth) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->getIdentifier() || FD->getName().ends_with("_like"))
    return false;
  for (const Expr *Arg : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    const auto *RD = Arg->getType().getNonReferenceType()->getAsCXXRecordDecl();
    std::string Type = RD ? plainQualifiedName(RD) : "";
    const DeviceModel &D = A.profiles().devices();
    if (llvm::is_contained(D.OptionsTypes, Type) && !optionsOnHost(Arg, A, Depth + 1))
      return false;
    if (llvm::is_contained(D.DeviceTypes, Type) || Arg->getType()->isEnumeralType()) {
      DeviceKind K = A.deviceKind(Arg);
      if (K != DeviceKind::Cpu && K != DeviceKind::NotDevice)
        return false;
    }
  }
  return true;
}

/// The tensor operands of a framework operation (declared in a system
/// header): the object and the arguments that hold tensors; empty for user code.
llvm::SmallVector<const Expr *, 4> tensorOperands(const CallExpr *CE, const ModelAnalysis &A) {
  llvm::SmallVector<const Expr *, 4> Operands;
  if (isUserCode(CE->getDirectCallee(), A.context()))
    return Operands;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Operands.push_back(MC->getImplicitObjectArgument());
  for (const Expr *Arg : CE->arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) &&
        (holdsTensor(Arg->getType(), A.profiles()) || holdsTensorList(Arg->getType(), A.profiles())))
      Operands.push_back(Arg);
  return Operands;
}

/// A framework operation (declared in a system header) whose tensor operands
/// (the object and the arguments that hold tensors) are all on the host.
bool hostOperation(const CallExpr *CE, const ModelAnalysis &A, int Depth) {
  llvm::SmallVector<const Expr *, 4> Operands = tensorOperands(CE, A);
  return !Operands.empty() && llvm::all_of(Operands, [&](const Expr *O) { return onHostAt(O, A, Depth + 1); });
}

bool madeInEachIteration(const Stmt *S, const Stmt *Loop, const ModelAnalysis &A) {
  for (const Stmt *Child = S, *P = A.parent(S); P; Child = P, P = A.parent(P))
    if (P == Loop)
      return A.isRepeatedBy(Child, Loop);
  return false;
}

/// \p E is computed from \p V alone by framework operations (`m.unsqueeze(0).expand(...)`):
/// assigned back to V, it keeps V where it was.
bool transformsOnly(const Expr *E, const VarDecl *V, const ModelAnalysis &A, int Depth) {
  E = stripWrappers(E);
  if (namedVar(E) == V)
    return true;
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE || Depth > 8 || A.role(CE))
    return false;
  llvm::SmallVector<const Expr *, 4> Operands = tensorOperands(CE, A);
  return !Operands.empty() && llvm::all_of(Operands, [&](const Expr *O) { return transformsOnly(O, V, A, Depth + 1); });
}

const CallExpr *createdOnHostAt(const Expr *E, const ModelAnalysis &A, const Stmt *Loop, int Depth) {
  if (!E || Depth > 8)
    return nullptr;
  E = stripWrappers(E);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (auto R = A.role(CE))
      return R->R == Role::Factory && !R->Entry->CopiesHostData && hostFactory(CE, A, Depth) ? CE : nullptr;
    llvm::SmallVector<const Expr *, 4> Operands = tensorOperands(CE, A);
    const CallExpr *Factory = nullptr;
    for (const Expr *O : Operands) {
      const CallExpr *F = createdOnHostAt(O, A, Loop, Depth + 1);
      if (!F)
        return nullptr;
      Factory = Factory ? Factory : F;
    }
    return Factory;
  }
  if (const VarDecl *V = namedVar(E); V && V->isLocalVarDecl() && !V->isStaticLocal() && V->getInit()) {
    const FunctionDecl *FD = A.owner(V->getInit());
    if (!FD || !llvm::all_of(assignedValues(FD->getBody(), V),
                             [&](const Expr *Value) { return transformsOnly(Value, V, A, Depth + 1); }))
      return nullptr;
    // Made in each iteration of the loop, or on each call of the per-step
    // function that holds it.
    if (Loop && A.owner(Loop) == FD && !madeInEachIteration(V->getInit(), Loop, A))
      return nullptr;
    return createdOnHostAt(V->getInit(), A, Loop, Depth + 1);
  }
  return nullptr;
}

/// Literals and constant expressions, lists of them, and `const` or
/// `constexpr` variables initialized with them.
bool constantData(const Expr *E, const ASTContext &Ctx, int Depth) {
  if (!E || Depth > 8 || E->isValueDependent())
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return constantData(M->getSubExpr(), Ctx, Depth + 1);
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return constantData(B->getSubExpr(), Ctx, Depth + 1);
  if (const auto *L = dyn_cast<CXXStdInitializerListExpr>(E))
    return constantData(L->getSubExpr(), Ctx, Depth + 1);
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    return IL->getNumInits() > 0 &&
           llvm::all_of(IL->inits(), [&](const Expr *I) { return constantData(I, Ctx, Depth + 1); });
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return CE->getNumArgs() > 0 &&
           llvm::all_of(CE->arguments(), [&](const Expr *I) { return constantData(I, Ctx, Depth + 1); });
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return (V->isConstexpr() || V->getType().isConstant(Ctx)) && V->getInit() &&
             constantData(V->getInit(), Ctx, Depth + 1);
  return E->getType()->isArithmeticType() && E->isEvaluatable(Ctx);
}

/// Whether nothing changes the local \p V after its declaration, in the
/// block that declares it.
bool unchangedAfterDeclaration(const VarDecl *V, const ModelAnalysis &A) {
  const Stmt *Decl = A.parent(V->getInit());
  while (Decl && !isa<DeclStmt>(Decl))
    Decl = A.parent(Decl);
  const auto *Block = Decl ? dyn_cast_or_null<CompoundStmt>(A.parent(Decl)) : nullptr;
  return Block && llvm::none_of(Block->body(), [&](const Stmt *S) { return S != Decl && isChangedIn(V, S); });
}

const CallExpr *madeFromConstantsAt(const Expr *E, const ModelAnalysis &A, int Depth) {
  if (!E || Depth > 8)
    return nullptr;
  E = stripWrappers(E);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (auto R = A.role(CE))
      return R->R == Role::Factory && R->Entry->CopiesHostData && CE->getNumArgs() > 0 &&
                     constantData(CE->getArg(0), A.context(), 0)
                 ? CE
                 : nullptr;
    llvm::SmallVector<const Expr *, 4> Operands = tensorOperands(CE, A);
    const CallExpr *Factory = nullptr;
    for (const Expr *O : Operands) {
      const CallExpr *F = madeFromConstantsAt(O, A, Depth + 1);
      if (!F)
        return nullptr;
      Factory = Factory ? Factory : F;
    }
    return Factory;
  }
  if (const VarDecl *V = namedVar(E);
      V && V->isLocalVarDecl() && !V->isStaticLocal() && V->getInit() && unchangedAfterDeclaration(V, A))
    return madeFromConstantsAt(V->getInit(), A, Depth + 1);
  return nullptr;
}

/// The list whose element \p CE reads (`xs[i]`, `xs.at(i)`, `xs.back()`,
/// `xs.front()` of a std::vector of tensors), or null.
const Expr *elementOf(const CallExpr *CE, const ApiProfiles &P) {
  const Expr *List = nullptr;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE); OC && OC->getOperator() == OO_Subscript)
    List = OC->getArg(0);
  else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
           MC && MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() &&
           llvm::is_contained({"at", "back", "front"}, MC->getMethodDecl()->getName()))
    List = MC->getImplicitObjectArgument();
  return List && holdsTensorList(List->getType(), P) ? List : nullptr;
}

/// The parameters whose arguments are being followed on this thread: a value
/// that comes back around a cycle of calls (a list a function filters and
/// passes on) holds what enters the cycle elsewhere.
thread_local llvm::SmallPtrSet<const ParmVarDecl *, 8> ArgumentsInProgress;

/// Whether every argument that \p P may receive is on the host: at each call
/// in this translation unit, and at each call from another file as the
/// project's summaries record it. A function of the program that nothing
/// calls nor names receives nothing.
bool argumentsOnHost(const ParmVarDecl *P, const ModelAnalysis &A, int Depth) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
  FD = FD ? FD->getDefinition() : nullptr;
  if (!FD || !FD->getBody())
    return false;
  if (!ArgumentsInProgress.insert(P).second)
    return true;
  auto Done = llvm::make_scope_exit([&] { ArgumentsInProgress.erase(P); });
  // Asked about the result of one call (ModelAnalysis::CallBinding): that
  // call's argument.
  size_t Level = 0;
  if (const Expr *Arg = A.boundArgument(P, Level)) {
    ModelAnalysis::OutsideCall Outside(A, Level);
    return onHostAt(stripConversions(Arg), A, Depth + 1);
  }
  unsigned Index = P->getFunctionScopeIndex();
  ModelAnalysis::WhoCalls C = A.callersOf(FD);
  if (C.Unseen || (C.Elsewhere && !A.project()->hostArgument(usrOf(FD), A.mainFileName(), Index)))
    return false;
  return llvm::all_of(C.Here, [&](const Expr *Call) {
    const Expr *Arg = argumentFor(Call, Index);
    return Arg && onHostAt(stripConversions(Arg), A, Depth + 1);
  });
}

/// A parameter nothing in its function reassigns, on the host at each call
/// (at the bound call only, see ModelAnalysis::CallBinding).
bool parameterOnHost(const ParmVarDecl *P, const ModelAnalysis &A, int Depth) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
  FD = FD ? FD->getDefinition() : nullptr;
  if (!FD || !FD->getBody() || isWrittenIn(P, FD->getBody()))
    return false;
  return argumentsOnHost(P, A, Depth);
}

/// Whether every tensor a list of tensors (a local or a parameter) may hold
/// is on the host: what its function and the functions it is passed to by
/// reference put in it, and with \p Entry, a parameter's arguments.
bool listOnHost(const VarDecl *V, const ModelAnalysis &A, int Depth, bool Entry) {
  if (Depth > 16)
    return false;
  ContainerContents C = containerContents(V, A);
  const auto *P = dyn_cast<ParmVarDecl>(V);
  if (!C.Complete || (C.Values.empty() && C.Fillers.empty() && !(Entry && P)))
    return false;
  return llvm::all_of(C.Values, [&](const Expr *Value) { return onHostAt(Value, A, Depth + 1); }) &&
         llvm::all_of(C.Fillers, [&](const ParmVarDecl *F) { return listOnHost(F, A, Depth + 1, false); }) &&
         (!Entry || !P || argumentsOnHost(P, A, Depth));
}

bool onHostAt(const Expr *E, const ModelAnalysis &A, int Depth) {
  // Deep enough for a list returned through two functions, filled by a third
  // and read in a fourth.
  if (!E || Depth > 16)
    return false;
  E = stripWrappers(E);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // An element of a list of tensors (`xs[i]`, `xs.back()`): where the list's tensors are.
    if (const Expr *List = elementOf(CE, A.profiles()))
      return onHostAt(List, A, Depth + 1);
    if (A.profiles().find(CE, Role::ModuleState))
      return false; // the module's to(device) moves what it registers
    if (auto R = A.role(CE)) {
      if (R->R == Role::Factory)
        return hostFactory(CE, A, Depth);
      if (const Expr *Other = R->R == Role::ToDevice ? followedByMove(CE, *R, A) : nullptr)
        return onHostAt(Other, A, Depth + 1);
      // Dropping history, or waiting for a data-dependent size, keeps the
      // tensor where it is.
      if (R->waitsOnly()) {
        const Expr *In = readObject(CE, A.profiles());
        return In && onHostAt(In, A, Depth + 1);
      }
      // Selecting an element or joining tensors keeps them where they are.
      if (R->R == Role::ElementIndex || R->R == Role::Join)
        return hostOperation(CE, A, Depth);
      if (R->R != Role::Detach)
        return R->copiesToHost() || R->R == Role::HostWrap;
    }
    // A function of the program that returns host tensors (a data class's `next()`).
    if (const FunctionDecl *FD = CE->getDirectCallee(); FD && isUserCode(FD, A.context()))
      return carriesTensors(CE->getType(), A.profiles()) && returnsHostAt(FD, CE, A, Depth);
    return hostOperation(CE, A, Depth);
  }
  // A list of tensors (`torch::stack({xs, ys})`): on the host when each is.
  if (const auto *L = dyn_cast<CXXStdInitializerListExpr>(E))
    return onHostAt(L->getSubExpr(), A, Depth);
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    return IL->getNumInits() > 0 && llvm::all_of(IL->inits(), [&](const Expr *I) { return onHostAt(I, A, Depth + 1); });
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && CE->getNumArgs() == 1 && holdsTensorList(CE->getType(), A.profiles()))
    return onHostAt(CE->getArg(0), A, Depth);
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // `batch.data` of a data loader's example: datasets produce host tensors.
    if (auto R = A.profiles().matchType(ME->getBase()->getType()); R && R->R == Role::HostData)
      return true;
    // A private field of the object a method runs on: on the host when every
    // value its class stores into it is (`ys_(torch::randint(...))`).
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!F || !isTensorType(F->getType(), A.profiles()))
      return false;
    const Expr *Base = stripWrappers(ME->getBase());
    if (isa<CXXThisExpr>(Base->IgnoreParenImpCasts())) {
      // A value computed from the field itself (`t_ = t_.pow(2).cumsum(0)`)
      // is where the field's other values are: asked again while they are
      // being decided, the field answers yes, and an operation that moves
      // it (`t_.to(device)`) still answers no.
      thread_local llvm::SmallPtrSet<const FieldDecl *, 4> Deciding;
      if (Deciding.contains(F))
        return true;
      std::optional<llvm::SmallVector<const Expr *, 4>> Values = storedValues(F, A);
      if (!Values || Values->empty())
        return false;
      Deciding.insert(F);
      bool Host = llvm::all_of(*Values, [&](const Expr *V) { return onHostAt(V, A, Depth + 1); });
      Deciding.erase(F);
      return Host;
    }
    // A field of a batch that is on the host as a whole: returned by such a
    // function, or a local initialized from one that nothing changes after
    // (`Batch b = loader.next(64); b.y`).
    if (!aggregateOfTensors(Base->getType(), A.profiles()))
      return false;
    if (isa<CallExpr>(Base))
      return onHostAt(Base, A, Depth + 1);
    if (const VarDecl *V = namedVar(Base); V && V->isLocalVarDecl() && !V->isStaticLocal() &&
                                           !V->getType()->isReferenceType() && V->getInit() &&
                                           unchangedAfterDeclaration(V, A))
      return onHostAt(V->getInit(), A, Depth + 1);
    return false;
  }
  const VarDecl *V = namedVar(E);
  if (V && (V->isLocalVarDecl() || isa<ParmVarDecl>(V)) && holdsTensorList(V->getType(), A.profiles()))
    return listOnHost(V, A, Depth, true);
  if (V && V->isLocalVarDecl() && V->getInit() && !assignedAfterDeclaration(V))
    return onHostAt(V->getInit(), A, Depth + 1);
  // A local assigned again (`sigmas = appendZero(sigmas)`): each value that
  // reaches this use.
  if (V && V->isLocalVarDecl() && !V->isStaticLocal() && V->getInit() && isTensorType(V->getType(), A.profiles())) {
    bool Complete = false;
    llvm::SmallVector<const Expr *, 4> Values = reachingValues(V, E, A, Complete);
    return Complete && !Values.empty() && Values.size() <= 4 &&
           llvm::all_of(Values, [&](const Expr *Value) { return onHostAt(Value, A, Depth + 1); });
  }
  if (const auto *P = dyn_cast_or_null<ParmVarDecl>(V))
    return parameterOnHost(P, A, Depth);
  return false;
}
} // namespace

namespace {
/// `for (int i = A; i < B; ++i)` whose body does not change i.
struct CountedFor {
  const VarDecl *I;
  const BinaryOperator *Cond;
};
std::optional<CountedFor> countedFor(const Stmt *Loop) {
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  const auto *Init = For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
  const auto *I = Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl()) : nullptr;
  const auto *Cond = For ? dyn_cast_or_null<BinaryOperator>(For->getCond()) : nullptr;
  const auto *Inc = For ? dyn_cast_or_null<UnaryOperator>(For->getInc()) : nullptr;
  if (!I || !I->getInit() || !I->getType()->isIntegerType() || !Cond || !Inc || !Inc->isIncrementOp() ||
      namedVar(Inc->getSubExpr()) != I || namedVar(Cond->getLHS()) != I || isWrittenIn(I, For->getBody()))
    return std::nullopt;
  return CountedFor{I, Cond};
}

/// The number of times a counted loop runs its body when its bound is \p To.
std::optional<int64_t> tripsUpTo(const CountedFor &L, const Expr *To) {
  Expr::EvalResult From, Bound;
  ASTContext &Ctx = L.I->getASTContext();
  if (!To || !L.I->getInit()->EvaluateAsInt(From, Ctx) || !To->EvaluateAsInt(Bound, Ctx))
    return std::nullopt;
  int64_t Lo = From.Val.getInt().getExtValue(), Hi = Bound.Val.getInt().getExtValue();
  if (L.Cond->getOpcode() == BO_LT || L.Cond->getOpcode() == BO_NE)
    return std::max<int64_t>(0, Hi - Lo);
  if (L.Cond->getOpcode() == BO_LE)
    return std::max<int64_t>(0, Hi - Lo + 1);
  return std::nullopt;
}
} // namespace

static bool isOptional(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "optional";
}

EmptinessTest emptinessTest(const CXXMethodDecl *MD) {
  if (!MD || MD->getNumParams() != 0)
    return EmptinessTest::None;
  if (isa<CXXConversionDecl>(MD))
    return EmptinessTest::Holds;
  if (!MD->getIdentifier())
    return EmptinessTest::None;
  if (MD->getName() == "has_value" || MD->getName() == "defined")
    return EmptinessTest::Holds;
  return MD->getName() == "empty" ? EmptinessTest::Empty : EmptinessTest::None;
}

/// A class whose objects say whether they hold anything (see mayBeEmpty).
static bool testsEmptiness(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || isOptional(T))
    return false;
  return llvm::any_of(RD->methods(), [](const CXXMethodDecl *MD) {
    return !isa<CXXConversionDecl>(MD) && emptinessTest(MD) != EmptinessTest::None;
  });
}

bool mayBeEmpty(QualType T) {
  // Such an object only when the function cannot fill it (`const T &`).
  return T->isPointerType() || T->isBooleanType() || isOptional(T) ||
         (testsEmptiness(T) && T.getNonReferenceType().isConstQualified());
}

bool passesNothing(const Expr *Arg, ASTContext &Ctx) {
  if (!Arg)
    return false;
  if (Arg->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return true;
  if (bool Value; Arg->getType()->isBooleanType() && !Arg->isValueDependent())
    return Arg->EvaluateAsBooleanCondition(Value, Ctx) && !Value;
  if (testsEmptiness(Arg->getType())) {
    const auto *C = dyn_cast<CXXConstructExpr>(stripWrappers(Arg));
    return C && C->getNumArgs() == 0;
  }
  if (!isOptional(Arg->getType()))
    return false;
  // `nullopt` converted to the optional, or an optional made with no value (`{}`, `optional<T>()`).
  const Expr *E = Arg->IgnoreImplicit();
  if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
    if (C->getNumArgs() == 0)
      return true;
    if (C->getNumArgs() == 1)
      E = C->getArg(0)->IgnoreImplicit();
  }
  const auto *RD = E->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "nullopt_t";
}

const ParmVarDecl *countingParameter(const Stmt *Loop) {
  std::optional<CountedFor> L = countedFor(Loop);
  const auto *P = L ? dyn_cast_or_null<ParmVarDecl>(namedVar(L->Cond->getRHS())) : nullptr;
  const auto *FD = P ? dyn_cast<FunctionDecl>(P->getDeclContext()) : nullptr;
  return FD && FD->getBody() && !isWrittenIn(P, FD->getBody()) ? P : nullptr;
}

bool runsOnceWith(const Stmt *Loop, const Expr *Bound) {
  std::optional<CountedFor> L = countedFor(Loop);
  std::optional<int64_t> Trips = L ? tripsUpTo(*L, Bound) : std::nullopt;
  return Trips && *Trips <= 1;
}

bool runsOnce(const Stmt *Loop) {
  // `for (int i = 0; i < 1; i++)`: a loop in form only.
  if (std::optional<CountedFor> L = countedFor(Loop))
    if (std::optional<int64_t> Trips = tripsUpTo(*L, L->Cond->getRHS()); Trips && *Trips <= 1)
      return true;
  const Stmt *Body = loopBody(Loop);
  if (!Body)
    return false;
  const Stmt *Last = Body;
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    Last = CS->body_empty() ? nullptr : CS->body_back();
  if (!isa_and_nonnull<BreakStmt, ReturnStmt>(Last))
    return false;
  return !continuesLoop(Body);
}

bool onHost(const Expr *E, const ModelAnalysis &A) { return onHostAt(E, A, 0); }

bool returnsHost(const FunctionDecl *FD, const ModelAnalysis &A) {
  return carriesTensors(FD->getReturnType(), A.profiles()) && returnsHostAt(FD, nullptr, A, 0);
}

const Expr *followedByMove(const CallExpr *CE, const RoleMatch &R, const ModelAnalysis &A) {
  if (!R.Entry || !R.Entry->DeviceArg)
    return nullptr;
  unsigned I = *R.Entry->DeviceArg;
  return I < CE->getNumArgs() ? A.profiles().followedTensor(CE->getArg(I)) : nullptr;
}

const CallExpr *createdOnHost(const Expr *E, const ModelAnalysis &A, const Stmt *Loop) {
  return createdOnHostAt(E, A, Loop, 0);
}

const CallExpr *madeFromConstants(const Expr *E, const ModelAnalysis &A) { return madeFromConstantsAt(E, A, 0); }

bool provesGraph(const VarDecl *V, const Stmt *Scope, const ModelAnalysis &A) {
  if (!V || !Scope)
    return false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Scope); MC && namedVar(MC->getImplicitObjectArgument()) == V)
    if (auto R = A.role(MC); R && R->R == Role::Step && R->kind() == Kind::Backward)
      return true;
  if (isa<LambdaExpr>(Scope))
    return false;
  return anyChild(Scope, [&](const Stmt *C) { return provesGraph(V, C, A); });
}

bool differentiatedAfter(const Stmt *Loop, const ModelAnalysis &A, const VarDecl *Only) {
  const FunctionDecl *FD = Loop ? A.owner(Loop) : nullptr;
  if (!FD || !FD->getBody())
    return false;
  const SourceManager &SM = A.context().getSourceManager();
  auto Collected = [&](const Stmt *S) {
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    return V && (!Only || V == Only) && SM.isBeforeInTranslationUnit(V->getLocation(), Loop->getBeginLoc()) &&
           isChangedIn(V, Loop);
  };
  std::function<bool(const Stmt *)> Search = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(S);
        CE && SM.isBeforeInTranslationUnit(Loop->getEndLoc(), CE->getBeginLoc()))
      if (auto R = A.role(CE); R && R->R == Role::Step && R->kind() == Kind::Backward) {
        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
            MC && findInFlow(MC->getImplicitObjectArgument(), Collected))
          return true;
        for (const Expr *Arg : CE->arguments())
          if (findInFlow(Arg, Collected))
            return true;
      }
    return anyChild(S, Search);
  };
  return Search(FD->getBody());
}

const CallExpr *forwardKeptForTraining(const FunctionDecl *FD, ModelAnalysis &A) {
  if (!FD || !FD->getBody())
    return nullptr;
  std::function<const CallExpr *(const Stmt *)> Find = [&](const Stmt *S) -> const CallExpr * {
    if (!S || isa<LambdaExpr>(S))
      return nullptr;
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      std::optional<RoleMatch> M = A.role(CE);
      if (M && M->kind() == Kind::Forward && !M->deviceAlways() && !underNoGradGuard(CE, A))
        if (std::optional<HotContext> H = A.perStep(CE); H && H->Training)
          return CE;
    }
    for (const Stmt *C : S->children())
      if (const CallExpr *Found = Find(C))
        return Found;
    return nullptr;
  };
  return Find(FD->getBody());
}

} // namespace clang::tidy::mlperf
