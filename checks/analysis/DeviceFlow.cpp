// Device arguments through the variables that hold them: a local's values
// where it is read, a parameter's from the calls of its function.
#include "DataFlow.h"
#include "ModelAnalysis.h"
#include "SourceUtils.h"
#include "SummaryCollector.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::mlperf {

namespace {
constexpr unsigned MaxDepth = 6;

/// Two values that may reach one read: the same kind, or unknown.
DeviceKind join(std::optional<DeviceKind> A, DeviceKind B) {
  if (B == DeviceKind::NotDevice)
    B = DeviceKind::UnknownDevice;
  return !A || *A == B ? B : DeviceKind::UnknownDevice;
}

/// Whether \p Cond, when it holds, says the program computes on the CPU
/// (`device == torch::kCPU`, `!torch::cuda::is_available()`: true) or not
/// (`device != kCPU`, `device_count() > 0` written `device_count()`: false);
/// nullopt when it says neither.
std::optional<bool> testsCpu(const Expr *Cond, const ApiProfiles &P, unsigned Depth = 0) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond); U && U->getOpcode() == UO_LNot) {
    std::optional<bool> Inner = testsCpu(U->getSubExpr(), P, Depth);
    return Inner ? std::optional<bool>(!*Inner) : std::nullopt;
  }
  // `bool gpu = torch::cuda::is_available(); ... if (!gpu)`: a local never assigned again.
  if (const VarDecl *V = namedVar(Cond); V && V->isLocalVarDecl() && V->getInit() && Depth < 2)
    return assignedAfterDeclaration(V) ? std::nullopt : testsCpu(V->getInit(), P, Depth + 1);
  // A probe for the accelerator holds when there is one (`is_available()`, `device_count()`).
  auto AbsentMeansCpu = [&](const Expr *E) {
    const ProfileEntry *Probe = P.find(E->IgnoreParenImpCasts(), Role::DeviceProbe);
    return Probe && Probe->AbsentMeansCpu;
  };
  if (AbsentMeansCpu(Cond))
    return false;
  std::optional<Equality> Eq = equalityOperands(Cond);
  if (!Eq)
    return std::nullopt;
  for (auto [Value, Constant] : {std::pair{Eq->LHS, Eq->RHS}, std::pair{Eq->RHS, Eq->LHS}}) {
    if (P.isDeviceModelArg(Value) && P.classifyDeviceArg(Constant) == DeviceKind::Cpu)
      return Eq->Equal;
    // `device_count() == 0`, `is_available() == false`.
    const Expr *C = Constant->IgnoreParenImpCasts();
    std::optional<bool> Zero;
    if (const auto *I = dyn_cast<IntegerLiteral>(C))
      Zero = I->getValue() == 0;
    else if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(C))
      Zero = !B->getValue();
    if (Zero && AbsentMeansCpu(Value))
      return *Zero == Eq->Equal;
  }
  return std::nullopt;
}
} // namespace

bool ModelAnalysis::onCpuOnly(const Stmt *S) {
  const FunctionDecl *FD = owner(S);
  if (!FD)
    return false;
  for (const Stmt *Child = S, *P = parent(S); P && P != FD->getBody(); Child = P, P = parent(P))
    if (const auto *If = dyn_cast<IfStmt>(P); If && Child != If->getCond())
      if (std::optional<bool> Cpu = testsCpu(If->getCond(), Profiles); Cpu && *Cpu == (Child == If->getThen()))
        return true;
  auto [It, New] = CpuOnlyMemo.try_emplace(FD, 0); // a call cycle sees no
  if (!New)
    return It->second;
  WhoCalls C = callersOf(FD);
  // A private method's callers are its class's methods, defined with it.
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  bool Private = MD && MD->getAccess() == AS_private && !MD->isVirtual() && !referencedBesidesCalls(FD);
  bool OnlyHere = !C.Elsewhere && (!C.Unseen || Private);
  bool Cpu = OnlyHere && !C.Here.empty() && llvm::all_of(C.Here, [&](const Expr *Site) { return onCpuOnly(Site); });
  CpuOnlyMemo[FD] = Cpu;
  return Cpu;
}

DeviceKind ModelAnalysis::deviceKindAt(const Expr *E, unsigned Depth) const {
  return Profiles.classifyDeviceArg(E,
                                    [&](const VarDecl *V, const Expr *Use) { return variableDevice(V, Use, Depth); });
}

std::optional<DeviceKind> ModelAnalysis::variableDevice(const VarDecl *V, const Expr *Use, unsigned Depth) const {
  if (Depth >= MaxDepth)
    return std::nullopt;
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return parameterDevice(P, Depth);
  if (!V->isLocalVarDecl() || V->isStaticLocal() || !V->getInit())
    return std::nullopt;
  bool Complete = false;
  llvm::SmallVector<const Expr *, 4> Values = reachingValues(V, Use, *this, Complete);
  if (!Complete) // written where its value is not followed
    return DeviceKind::UnknownDevice;
  std::optional<DeviceKind> K;
  for (const Expr *Value : Values)
    K = join(K, deviceKindAt(Value, Depth + 1));
  return K;
}

const Expr *ModelAnalysis::boundArgument(const ParmVarDecl *P, size_t &Level) const {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
  for (size_t I = BoundCalls.size(); FD && I-- > 0;) {
    const FunctionDecl *Callee = nullptr;
    if (const auto *CE = dyn_cast<CallExpr>(BoundCalls[I]))
      Callee = CE->getDirectCallee();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(BoundCalls[I]))
      Callee = C->getConstructor();
    if (Callee && Callee->getCanonicalDecl() == FD->getCanonicalDecl()) {
      Level = I;
      return argumentFor(BoundCalls[I], P->getFunctionScopeIndex());
    }
  }
  return nullptr;
}

std::optional<DeviceKind> ModelAnalysis::parameterDevice(const ParmVarDecl *P, unsigned Depth) const {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
  if (!FD || !FD->getBody() || assignsTo(FD->getBody(), P))
    return std::nullopt;
  size_t Level = 0;
  if (const Expr *Arg = boundArgument(P, Level)) {
    OutsideCall Outside(*this, Level);
    return deviceKindAt(Arg, Depth + 1);
  }
  WhoCalls C = callersOf(FD);
  if (C.Unseen)
    return std::nullopt;
  unsigned Index = P->getFunctionScopeIndex();
  std::optional<DeviceKind> K;
  for (const Expr *Call : C.Here) {
    const Expr *Arg = argumentFor(Call, Index);
    if (!Arg)
      return std::nullopt;
    K = join(K, deviceKindAt(Arg, Depth + 1));
  }
  if (C.Elsewhere)
    if (std::optional<std::string> Elsewhere = Project->deviceArgument(usrOf(FD), mainFileName(), Index))
      K = join(K, deviceKindNamed(*Elsewhere));
  return K;
}

void ModelAnalysis::forEachDeviceArgument(
    llvm::function_ref<void(const FunctionDecl *, unsigned, DeviceKind)> Fn) const {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const CallSite &C : Calls) {
    const FunctionDecl *Callee = C.Callee;
    if (!Callee) {
      if (const auto *CE = dyn_cast<CallExpr>(C.E))
        Callee = CE->getDirectCallee();
      else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(C.E))
        Callee = Ctor->getConstructor();
    }
    if (!Callee || declaredInSystemHeader(Callee))
      continue;
    for (const ParmVarDecl *P : Callee->parameters()) {
      const Expr *Arg = argumentFor(C.E, P->getFunctionScopeIndex());
      if (Arg && Profiles.isDeviceModelArg(Arg))
        Fn(Callee, P->getFunctionScopeIndex(), deviceKind(Arg));
    }
  }
}

} // namespace clang::tidy::mlperf
