#include "ElementRead.h"
#include "Cost.h"
#include "DataFlow.h"
#include "Facts.h"
#include "Invariance.h"
#include "Purpose.h"
#include "SourceUtils.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <functional>

namespace clang::tidy::mlperf {

namespace {

struct Selection {
  const Expr *Outer = nullptr; // `t[i][j]`
  const Expr *Base = nullptr;  // `t`
  const ProfileEntry *Entry = nullptr;
  llvm::SmallVector<const Expr *, 4> Indices;
};

/// `t[i][j]`, `t.select(0, i)`: the tensor selected from and the indices.
std::optional<Selection> selectionOf(const Expr *E, const ApiProfiles &P) {
  Selection S;
  S.Outer = E = stripWrappers(E);
  while (const auto *CE = dyn_cast<CallExpr>(E)) {
    const ProfileEntry *PE = P.find(CE, Role::ElementIndex);
    const Expr *Object = nullptr;
    unsigned First = 0;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      Object = MC->getImplicitObjectArgument();
    else if (isa<CXXOperatorCallExpr>(CE) && CE->getNumArgs() > 1)
      Object = CE->getArg(First++);
    if (!PE || !Object)
      break;
    S.Entry = S.Entry ? S.Entry : PE;
    for (unsigned I = First; I < CE->getNumArgs(); ++I)
      S.Indices.push_back(CE->getArg(I));
    E = stripWrappers(Object);
  }
  if (!S.Entry)
    return std::nullopt;
  S.Base = E;
  return S;
}

/// A selection that \p E is computed from element by element: the selection
/// itself, the one value of a local variable (`auto ret = ...; ret.item()`),
/// or a tensor operand of an operator on tensors (`t[i][6] == c`).
std::optional<Selection> selectionIn(const Expr *E, const ModelAnalysis &A, unsigned Depth = 3) {
  if (std::optional<Selection> S = selectionOf(E, A.profiles()))
    return S;
  E = stripWrappers(E);
  if (Depth == 0 || !A.profiles().autogradTensorProfile(E->getType()))
    return std::nullopt;
  if (const VarDecl *V = namedVar(E); V && V->isLocalVarDecl()) {
    bool Complete = false;
    llvm::SmallVector<const Expr *, 4> Values = reachingValues(V, E, A, Complete);
    return Complete && Values.size() == 1 ? selectionIn(Values.front(), A, Depth - 1) : std::nullopt;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getNumArgs() == 2)
    for (const Expr *Operand : OC->arguments())
      if (std::optional<Selection> S = selectionIn(Operand, A, Depth - 1))
        return S;
  return std::nullopt;
}
} // namespace

std::string waitText(const RoleMatch &Read, llvm::StringRef Result) {
  if (!Read.waitsOnly())
    return "copies a tensor from the device and waits for it";
  return (Read.Entry->WaitsFor == ProfileEntry::Wait::Shape ? "waits for the device to learn the size of "
                                                            : "waits for the device to check for errors in ") +
         Result.str();
}

std::optional<ElementRead> elementRead(const CallExpr *Read, ModelAnalysis &A) {
  const Expr *Object = readObject(Read, A.profiles());
  if ((Object && onHost(Object, A)) || A.neverRuns(Read))
    return std::nullopt;
  if (std::optional<Selection> Sel = Object ? selectionIn(Object, A) : std::nullopt) {
    if (onHost(Sel->Base, A))
      return std::nullopt;
    for (const Stmt *Loop : A.enclosingLoops(Read))
      if (!A.onceBeforeLeaving(Read, Loop) && !readsChangedIn(Sel->Base, Loop) &&
          llvm::any_of(Sel->Indices, [&](const Expr *I) { return readsChangedIn(I, Loop); }))
        return ElementRead{Loop, Sel->Outer, Sel->Entry, A.perStep(Read)};
  }
  // A whole tensor copied per iteration (`cpu()` per image) is not one
  // element; an asynchronous copy per output buffer does not wait (from
  // pageable memory it does: mlperf-pageable-async-copy's finding). A call
  // that only waits (`nonzero()` per kept box) waits whatever its result is for.
  std::optional<RoleMatch> Match = A.role(Read);
  const bool WaitsOnly = Match && Match->waitsOnly();
  if ((A.profiles().autogradTensorProfile(Read->getType()) && !WaitsOnly) || A.profiles().find(Read, Role::AsyncCopy))
    return std::nullopt;
  std::optional<HotContext> Hot = A.perStep(Read);
  const Stmt *Inner = Hot ? A.innermostLoop(Read) : nullptr;
  if (!Inner || Inner == Hot->Loop || A.onceBeforeLeaving(Read, Inner))
    return std::nullopt;
  Purpose Why = WaitsOnly ? Purpose::Other : purposeThroughCalls(Read, A, *Hot);
  if (Why != Purpose::Return && Why != Purpose::Store && Why != Purpose::Other)
    return std::nullopt;
  return ElementRead{Inner, nullptr, nullptr, std::move(Hot)};
}

namespace {
/// The list variable a call appends \p Arg to (`xs.push_back(arg)`).
const VarDecl *appendedTo(const Expr *Arg, const ModelAnalysis &A) {
  const Stmt *Child = Arg;
  for (const Stmt *P = A.parent(Arg); P; Child = P, P = A.parent(P)) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(P)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      bool Appends = MD && MD->getIdentifier() &&
                     llvm::is_contained({"push_back", "emplace_back", "push", "append"}, MD->getName());
      bool IsArgument = llvm::is_contained(MC->arguments(), Child);
      return Appends && IsArgument ? namedVar(MC->getImplicitObjectArgument()) : nullptr;
    }
    // `xs.push_back(std::move(x.to(device)))`: std::move hands the value on.
    if (const auto *CE = dyn_cast<CallExpr>(P)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      if (FD && FD->isInStdNamespace() && FD->getIdentifier() && llvm::is_contained({"move", "forward"}, FD->getName()))
        continue;
    }
    if (!isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, CXXConstructExpr, ParenExpr,
             CXXFunctionalCastExpr>(P))
      return nullptr;
  }
  return nullptr;
}

/// A join of \p List in \p S, after \p After.
const CallExpr *joinOf(const Stmt *S, const VarDecl *List, SourceLocation After, const ModelAnalysis &A) {
  if (!S)
    return nullptr;
  const SourceManager &SM = A.context().getSourceManager();
  if (const auto *CE = dyn_cast<CallExpr>(S);
      CE && SM.isBeforeInTranslationUnit(After, CE->getBeginLoc()) && A.profiles().find(CE, Role::Join) &&
      llvm::any_of(CE->arguments(), [&](const Expr *Arg) { return namedVar(stripConversions(Arg)) == List; }))
    return CE;
  for (const Stmt *C : S->children())
    if (const CallExpr *Found = joinOf(C, List, After, A))
      return Found;
  return nullptr;
}
} // namespace

namespace {
/// `dst + i`, `&dst[i]`, `dst`: the buffer, and the position when there is one.
std::pair<const Expr *, const Expr *> bufferAndPosition(const Expr *Dest) {
  Dest = stripConversions(Dest)->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Dest); BO && BO->isAdditiveOp() && BO->getType()->isPointerType())
    return BO->getLHS()->getType()->isPointerType() ? std::pair(BO->getLHS(), BO->getRHS())
                                                    : std::pair(BO->getRHS(), BO->getLHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(Dest); UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
      return {AS->getBase(), AS->getIdx()};
  return {Dest, nullptr};
}

/// Whether \p Loop brings the variable \p Value names back from the device
/// before the copy: a copy to the host into it (`cudaMemcpy(&token, d_out,
/// ...)`), or a call that reads the device and fills it through a pointer or
/// returns it (`sample(logits, &token)`, `token = sample(logits)`). A
/// generation loop feeds each step's token back for the next step, which
/// needs it on the device before it runs: one copy per step is inherent.
bool fedBackFromDevice(const Expr *Value, const Stmt *Loop, ModelAnalysis &A) {
  const VarDecl *V = namedVar(Value);
  if (!V)
    return false;
  // A copy to the host itself (not a wait, which fills nothing), or a function that reads the device.
  auto Reads = [&](const CallExpr *CE) {
    std::optional<RoleMatch> R = A.role(CE);
    return R ? R->R == Role::Materialize : A.readsToHost(CE);
  };
  std::function<bool(const Stmt *)> Find = [&](const Stmt *S) -> bool {
    if (!S)
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(S); CE && Reads(CE)) {
      if (llvm::any_of(CE->arguments(), [&](const Expr *Arg) { return namedVar(Arg) == V; }))
        return true;
      if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(A.parent(CE));
          Assign && Assign->isAssignmentOp() && namedVar(Assign->getLHS()) == V)
        return true;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD == V && VD->getInit())
          if (const auto *CE = dyn_cast<CallExpr>(stripWrappers(VD->getInit())); CE && Reads(CE))
            return true;
    return llvm::any_of(S->children(), Find);
  };
  return Find(Loop);
}

/// A C API copy of a few bytes per iteration into one buffer (elementUpload's second form).
std::optional<ElementUpload> scatteredUpload(const CallExpr *Move, const Stmt *Loop, ModelAnalysis &A) {
  std::optional<RoleMatch> R = A.role(Move);
  const ProfileEntry *E = R && R->R == Role::ToDevice && (R->deviceAlways() || A.deviceAware()) ? R->Entry : nullptr;
  if (!E || !E->DestArg || !E->SizeArg)
    return std::nullopt;
  std::optional<int64_t> Bytes = constInt(argumentFor(Move, E->SizeArg), A.context());
  const Expr *Dest = argumentFor(Move, E->DestArg);
  if (!Bytes || *Bytes <= 0 || *Bytes > MaxElementBytes || !Dest)
    return std::nullopt;
  auto [Buffer, Position] = bufferAndPosition(Dest);
  const Expr *Offset = E->OffsetArg ? argumentFor(Move, E->OffsetArg) : nullptr;
  // The same buffer on every iteration: writes into it are the copies' output.
  const Expr *Root = stripWrappers(Buffer);
  const VarDecl *VD = namedVar(Root);
  bool SameBuffer = VD ? !isReassignedIn(VD, Loop) : isa<MemberExpr>(Root) && !readsChangedIn(Root, Loop);
  if (!SameBuffer || !(readsChangedIn(Position, Loop) || readsChangedIn(Offset, Loop)))
    return std::nullopt;
  if (std::optional<double> Trips = tripCount(Loop, A.context()).Value; Trips && *Trips < 2)
    return std::nullopt;
  if (E->ValueArg && fedBackFromDevice(argumentFor(Move, E->ValueArg), Loop, A))
    return std::nullopt;
  return ElementUpload{Loop, nullptr, nullptr, Root, *Bytes, A.perStep(Loop)};
}
} // namespace

std::optional<ElementUpload> elementUpload(const CallExpr *Move, ModelAnalysis &A) {
  const Stmt *Loop = A.innermostLoop(Move);
  const FunctionDecl *FD = A.owner(Move);
  if (!Loop || !FD || A.neverRuns(Move))
    return std::nullopt;
  if (std::optional<ElementUpload> Scattered = scatteredUpload(Move, Loop, A))
    return Scattered;
  if (!A.deviceAware())
    return std::nullopt;
  const VarDecl *List = appendedTo(Move, A);
  const SourceManager &SM = A.context().getSourceManager();
  if (!List || !List->isLocalVarDecl() || contains(Loop, List->getLocation(), SM))
    return std::nullopt;
  const CallExpr *Join = joinOf(FD->getBody(), List, Loop->getEndLoc(), A);
  if (!Join)
    return std::nullopt;
  return ElementUpload{Loop, Join, List, nullptr, 0, A.perStep(Loop)};
}

} // namespace clang::tidy::mlperf
