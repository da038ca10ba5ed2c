#include "ElementRead.h"
#include "Facts.h"
#include "Invariance.h"
#include "Purpose.h"
#include "SourceUtils.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::mlperf {

const Expr *readObject(const CallExpr *Read) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Read))
    return MC->getImplicitObjectArgument();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Read); OC && OC->getNumArgs() == 2)
    return OC->getArg(1);
  return nullptr;
}

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
} // namespace

std::optional<ElementRead> elementRead(const CallExpr *Read, ModelAnalysis &A) {
  const Expr *Object = readObject(Read);
  if ((Object && onHost(Object, A)) || A.neverRuns(Read))
    return std::nullopt;
  if (std::optional<Selection> Sel = Object ? selectionOf(Object, A.profiles()) : std::nullopt) {
    if (onHost(Sel->Base, A))
      return std::nullopt;
    for (const Stmt *Loop : A.enclosingLoops(Read))
      if (!readsChangedIn(Sel->Base, Loop) &&
          llvm::any_of(Sel->Indices, [&](const Expr *I) { return readsChangedIn(I, Loop); }))
        return ElementRead{Loop, Sel->Outer, Sel->Entry, A.perStep(Read)};
  }
  // A whole tensor copied per iteration (`cpu()` per image) is not one element.
  if (A.profiles().autogradTensorProfile(Read->getType()))
    return std::nullopt;
  std::optional<HotContext> Hot = A.perStep(Read);
  const Stmt *Inner = Hot ? A.innermostLoop(Read) : nullptr;
  if (!Inner || Inner == Hot->Loop)
    return std::nullopt;
  Purpose Why = purposeThroughCalls(Read, A, *Hot);
  if (Why != Purpose::Return && Why != Purpose::Store && Why != Purpose::Other)
    return std::nullopt;
  return ElementRead{Inner, nullptr, nullptr, std::move(Hot)};
}

} // namespace clang::tidy::mlperf
