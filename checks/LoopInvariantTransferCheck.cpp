#include "LoopInvariantTransferCheck.h"
#include "analysis/Facts.h"
#include "analysis/Hoist.h"
#include "analysis/Invariance.h"
#include "analysis/Purpose.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

void LoopInvariantTransferCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()), hasRole(this, Role::ToDevice), onDevice(this), runsEveryStep(this))
          .bind("call"),
      this);
}

/// What every finding of this check costs: one host-to-device copy of
/// \p Bytes per step.
static CostFacts transferFacts(Quantity Bytes) {
  CostFacts F;
  F.HostToDevice = 1;
  F.Bytes = std::move(Bytes);
  return F;
}

/// A method that copies its object's constant host data to the device on
/// every call, and is called on every step: no loop of its own to hoist out
/// of, so no fix-it; the copy belongs in the constructor.
void LoopInvariantTransferCheck::reportPerCallConstant(const CallExpr *Call, const Expr *Value, const HotContext &Hot,
                                                       const MatchFinder::MatchResult &Result) {
  ModelAnalysis &A = analysis(*Result.Context);
  const FieldDecl *Field = perCallConstant(Value, A);
  const FunctionDecl *Method = A.owner(Call);
  if (!Field || !Method)
    return;
  const SourceManager &SM = *Result.SourceManager;
  diag(reportLoc(Call->getExprLoc(), SM),
       "%0 is copied to the device on every call of %1, on every step, although %select{no method changes "
       "it|nothing changes it after the object is built}2; keep a copy on the device, made once when the object is "
       "built")
      << Field << Method << (Field->getAccess() == AS_public);
  explainHot(Hot, SM);
  noteCost(reportLoc(Call->getExprLoc(), SM), transferFacts(Quantity::unknown(Field->getName().str())), &Hot, Call, A);
}

/// The bytes of a tensor made from a list of constants (`torch::tensor({1.0,
/// 2.0})`: two doubles), else unknown.
static Quantity constantDataBytes(const CallExpr *Made, const ASTContext &Ctx) {
  const Expr *Data = Made->getArg(0);
  for (int Depth = 0; Data && Depth < 6; ++Depth) {
    Data = Data->IgnoreParenImpCasts();
    if (const auto *IL = dyn_cast<InitListExpr>(Data))
      return IL->getNumInits() && !IL->getInit(0)->getType()->isDependentType()
                 ? Quantity::known(static_cast<double>(IL->getNumInits()) *
                                   static_cast<double>(Ctx.getTypeSizeInChars(IL->getInit(0)->getType()).getQuantity()))
                 : Quantity::unknown("the constants");
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Data))
      Data = M->getSubExpr();
    else if (const auto *L = dyn_cast<CXXStdInitializerListExpr>(Data))
      Data = L->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(Data); C && C->getNumArgs() == 1)
      Data = C->getArg(0);
    else
      break;
  }
  return Quantity::unknown("the constants");
}

/// A tensor made on the host from constants, on every step (in the loop or
/// on every call of a per-step function), and copied to the device: the same
/// bytes cross the bus every step.
void LoopInvariantTransferCheck::reportConstantData(const CallExpr *Call, const CallExpr *Made, const HotContext &Hot,
                                                    const MatchFinder::MatchResult &Result) {
  ModelAnalysis &A = analysis(*Result.Context);
  const SourceManager &SM = *Result.SourceManager;
  const FunctionDecl *FD = A.owner(Call);
  const bool InLoop = Hot.Loop && A.owner(Hot.Loop) == FD;
  if (!FD)
    return;
  diag(reportLoc(Call->getExprLoc(), SM),
       "a tensor made by %0 from constants is copied to the device on every %select{call of %2, on every "
       "step|step}1, although it is the same every time; make it on the device once%select{ (when the object is "
       "built, or a static made on first use) and reuse it| before the loop}1")
      << Made->getDirectCallee() << InLoop << FD;
  explainHot(Hot, SM);
  noteCost(reportLoc(Call->getExprLoc(), SM), transferFacts(constantDataBytes(Made, *Result.Context)), &Hot, Call, A);
}

/// A function called on every step that copies one of its parameters to the
/// device, when the call passes the same variable on every step
/// (`loss_fn(out, target, anchors)` with `anchors` made before the loop).
void LoopInvariantTransferCheck::reportInvariantParameter(const CallExpr *Call, const ParmVarDecl *Param,
                                                          const HotContext &Hot,
                                                          const MatchFinder::MatchResult &Result) {
  ModelAnalysis &A = analysis(*Result.Context);
  const FunctionDecl *FD = A.owner(Call);
  if (!FD || Param->getDeclContext() != FD || isChangedIn(Param, FD->getBody(), Call))
    return;
  if (!parameterInvariant(Param, Hot, A))
    return;
  const SourceManager &SM = *Result.SourceManager;
  diag(reportLoc(Call->getExprLoc(), SM),
       "%0 is copied to the device on every call of %1, on every step, although every call passes the same "
       "tensor; copy it once, before the loop that calls %1, and pass the device copy")
      << Param << FD;
  explainHot(Hot, SM);
  noteCost(reportLoc(Call->getExprLoc(), SM), transferFacts(Quantity::unknown(Param->getName().str())), &Hot, Call, A);
}

/// The bytes of the host value \p Var a copy sends: a host factory's tensor
/// (factoryBytes), a fixed-size array, or a container of one element type
/// built with a constant count (`std::vector<float> w(64 * 128)`: 32 KiB);
/// else unknown, naming the variable.
static Quantity hostValueBytes(const VarDecl *Var, const ModelAnalysis &A) {
  const ASTContext &Ctx = A.context();
  Quantity Unknown = Quantity::unknown(Var->getName().str());
  QualType T = Var->getType().getNonReferenceType();
  if (T->isDependentType())
    return Unknown;
  if (const auto *CAT = Ctx.getAsConstantArrayType(T))
    return Quantity::known(static_cast<double>(Ctx.getTypeSizeInChars(CAT).getQuantity()));
  const Expr *Init = Var->getInit() ? Var->getInit()->IgnoreImplicit() : nullptr;
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Init ? stripWrappers(Init) : nullptr)) {
    std::optional<RoleMatch> Made = A.role(Call);
    return Made && Made->R == Role::Factory ? factoryBytes(Call, Ctx) : Unknown;
  }
  // A container of T built with a count: its first argument, an integer, is
  // the number of elements (`vector(n)`, `vector(n, value)`).
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init);
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Construct || !Spec || Construct->getNumArgs() == 0 || Construct->getNumArgs() > 3 ||
      Spec->getTemplateArgs().size() == 0 || Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return Unknown;
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  QualType Element = Spec->getTemplateArgs()[0].getAsType();
  if (!Ctor->getParamDecl(0)->getType()->isIntegerType() || !Element->isArithmeticType())
    return Unknown;
  std::optional<int64_t> N = constInt(Construct->getArg(0), Ctx);
  if (!N || *N < 0)
    return Unknown;
  return Quantity::known(static_cast<double>(*N) * static_cast<double>(Ctx.getTypeSizeInChars(Element).getQuantity()));
}

/// A second copy of the same variable to the same device in one step, with
/// nothing changing it in between: the first copy is still on the device.
bool LoopInvariantTransferCheck::reportRepeatedCopy(const CallExpr *Call, const Expr *Value, const VarDecl *Var,
                                                    const HotContext &Hot, const MatchFinder::MatchResult &Result) {
  ModelAnalysis &A = analysis(*Result.Context);
  const CallExpr *First = earlierSameCopy(Call, Var, A);
  if (!First || A.deviceKind(Value) == DeviceKind::Accelerator) // already there: no copy
    return false;
  const SourceManager &SM = *Result.SourceManager;
  diag(reportLoc(Call->getExprLoc(), SM),
       "%0 is copied to the device again on every step, unchanged since an earlier copy to the same device in "
       "%1; reuse that copy")
      << Var << A.owner(Call);
  diag(reportLoc(First->getExprLoc(), SM), "copied here first", DiagnosticIDs::Note);
  explainHot(Hot, SM);
  noteCost(reportLoc(Call->getExprLoc(), SM), transferFacts(hostValueBytes(Var, A)), &Hot, Call, A);
  return true;
}

/// A copy of a value the loop never changes; %1: into a C API's buffer,
/// whose use by the model between copies is not visible.
static constexpr llvm::StringLiteral UnchangedCopyMessage =
    "%0 is copied to the device on every step although the loop never changes it; copy it once before the "
    "loop%select{|, or, where the loop overwrites the destination on the device, keep one device copy and restore "
    "the destination from it with a device-to-device copy}1";

/// A C API's copy from an object's data pointer (`cudaMemcpyAsync(dst,
/// enc.hostBuffer.data(), ...)`) whose memory the loop never names nor writes
/// through a pointer into it: filled once before the loop, copied every step.
bool LoopInvariantTransferCheck::reportUnchangedObject(const CallExpr *Call, const Expr *Value, const HotContext &Hot,
                                                       const MatchFinder::MatchResult &Result) {
  ModelAnalysis &A = analysis(*Result.Context);
  std::optional<RoleMatch> M = A.role(Call);
  std::optional<ObjectMemory> Mem = dataPointerOf(Value);
  const FunctionDecl *Owner = A.owner(Call);
  if (!M || !M->Entry->DestArg || !Mem || !Owner || A.owner(Hot.Loop) != Owner ||
      contains(Hot.Loop, Mem->Root->getLocation(), *Result.SourceManager) ||
      objectMemoryChangedIn(*Mem, Hot.Loop, Call, Owner->getBody()))
    return false;
  const SourceManager &SM = *Result.SourceManager;
  std::string Name = sourceText(Mem->Object->getSourceRange(), *Result.Context);
  diag(reportLoc(Call->getExprLoc(), SM), UnchangedCopyMessage) << ("'" + Name + "'") << /*IntoBuffer=*/true;
  explainHot(Hot, SM);
  noteCost(reportLoc(Call->getExprLoc(), SM), transferFacts(Quantity::unknown(Name)), &Hot, Call, A);
  return true;
}

void LoopInvariantTransferCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ModelAnalysis &A = analysis(*Result.Context);
  std::optional<RoleMatch> M = A.role(Call);
  const Expr *Value = M ? movedValue(Call, *M->Entry) : nullptr;
  const auto *Ref = Value ? dyn_cast<DeclRefExpr>(stripWrappers(Value)) : nullptr;
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  std::optional<HotContext> Hot = A.perStep(Call);
  if (!Hot)
    return;
  // Host memory that another pointer may write: no proof it stays the same.
  if (const FunctionDecl *Owner = A.owner(Call); Var && Owner && pointerMayBeAliased(Var, Owner->getBody(), A))
    return;
  // Made from constants on every step: inline, or a local declared where
  // each step runs (one declared before the loop is the hoist below).
  if (const CallExpr *Made = Value ? madeFromConstants(Value, A) : nullptr) {
    const Stmt *PerStep = Hot->Loop && A.owner(Hot->Loop) == A.owner(Call) ? Hot->Loop : nullptr;
    if (!Var || !PerStep || contains(PerStep, Var->getLocation(), *Result.SourceManager)) {
      reportConstantData(Call, Made, *Hot, Result);
      return;
    }
  }
  if (!Var && Hot->Loop && reportUnchangedObject(Call, Value, *Hot, Result))
    return;
  // No loop here to hoist out of: the copy is made on every call of a
  // per-step function, of its object's data or of a parameter.
  const auto *Param = dyn_cast_or_null<ParmVarDecl>(Var);
  if (!Var || !Hot->Loop || (Param && A.owner(Hot->Loop) != A.owner(Call))) {
    if (const Expr *Other = followedByMove(Call, *M, A); Other && onHost(Other, A))
      return; // a move to the host tensor's place: nothing is copied
    if (Param && !reportRepeatedCopy(Call, Value, Param, *Hot, Result))
      reportInvariantParameter(Call, Param, *Hot, Result);
    else
      reportPerCallConstant(Call, Value, *Hot, Result);
    return;
  }
  // Only loops up to the one that runs the model every step.
  const Stmt *Target = outermostInvariantLoop(Call, loopsUpTo(Call, Hot->Loop, A), profiles());
  if (!Target) {
    reportRepeatedCopy(Call, Value, Var, *Hot, Result);
    return;
  }
  // Keep going outward while the copy stays invariant: the epoch loop too.
  std::vector<const Stmt *> Outer = A.enclosingLoops(Call);
  if (const Stmt *Wider = outermostInvariantLoop(Call, Outer, profiles()))
    Target = Wider;

  const SourceManager &SM = *Result.SourceManager;
  // A C API's copy into a buffer of the caller's (`cudaMemcpyAsync(dst, src,
  // ...)`): what the model does with the destination between copies is not
  // visible (a state buffer reset every step), so no fix-it moves the copy.
  const bool IntoBuffer = M->Entry->DestArg.has_value();
  {
    auto D = diag(reportLoc(Call->getExprLoc(), SM), UnchangedCopyMessage) << Var << IntoBuffer;
    std::string Text = sourceText(Call->getSourceRange(), *Result.Context);
    // The same copy made twice in the loop is hoisted once, by the first
    // finding's fix, which replaces every copy.
    if (!IntoBuffer && !Text.empty() && isMacroFree(Target->getSourceRange()) &&
        firstHoistOf(Call, Target, *Result.Context)) {
      std::string Name = freshName(Var->getName().str() + "_on_device", A.owner(Call), *Result.Context);
      if (auto Hoist = hoistBefore(Target, "auto " + Name + " = " + Text + ";", Call, A, *Result.Context)) {
        for (const FixItHint &H : *Hoist)
          D << H;
        for (const Expr *Same : sameExpressionsIn(Target, Call, *Result.Context))
          if (isMacroFree(Same->getSourceRange()))
            D << FixItHint::CreateReplacement(Same->getSourceRange(), Name);
      }
    }
  }
  explainHot(*Hot, SM);
  noteCost(reportLoc(Call->getExprLoc(), SM), transferFacts(hostValueBytes(Var, A)), &*Hot, Call, A);
}

} // namespace clang::tidy::mlperf
