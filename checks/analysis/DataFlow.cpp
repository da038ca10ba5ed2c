#include "DataFlow.h"
#include "SourceUtils.h"
#include "SummaryCollector.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <optional>

namespace clang::tidy::mlperf {

static bool guardedInFunction(const Stmt *S, const ModelAnalysis &A) {
  for (const Stmt *Child = S, *P = A.parent(S); P; Child = P, P = A.parent(P)) {
    const auto *CS = dyn_cast<CompoundStmt>(P);
    if (!CS)
      continue;
    for (const Stmt *Item : CS->body()) {
      if (Item == Child)
        break;
      if (const auto *DS = dyn_cast<DeclStmt>(Item))
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            if (auto M = A.profiles().matchVarType(VD); M && M->R == Role::NoGradGuard) {
              // A grad-mode guard given `true` (AutoGradMode(true)) turns gradients on.
              const auto *CE =
                  dyn_cast_or_null<CXXConstructExpr>(VD->getInit() ? stripWrappers(VD->getInit()) : nullptr);
              if (std::optional<unsigned> I = M->Entry->GradModeArg; I && CE && *I < CE->getNumArgs())
                if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(CE->getArg(*I)->IgnoreParenImpCasts());
                    B && B->getValue())
                  continue;
              return true;
            }
    }
  }
  return false;
}

static bool definesMain(const ASTContext &Ctx) {
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->isMain() && FD->hasBody())
      return true;
  return false;
}

/// Grad mode is thread-local and callees inherit it: a function whose every
/// call in the TU, and in the other files of the project (their summaries),
/// is under a guard runs under it. In a program (the TU defines main), a
/// function nothing calls or references never runs: it constrains nothing. A
/// thread entry or a function called through a pointer is referenced without
/// a call and starts with grad mode on.
static bool guardedAt(const Stmt *S, const ModelAnalysis &A, llvm::DenseSet<const FunctionDecl *> &Visiting) {
  if (guardedInFunction(S, A))
    return true;
  const FunctionDecl *FD = A.owner(S);
  if (!FD || FD->isMain() || !Visiting.insert(FD).second)
    return false;
  std::vector<const Expr *> Sites = A.callSites(FD);
  const ProjectSummaries *P = A.project();
  bool Elsewhere = P && P->calledWithGradOff(usrOf(FD), A.mainFileName());
  bool Dead = Sites.empty() && !Elsewhere && !FD->isReferenced() && definesMain(A.context());
  bool All = Dead || ((Elsewhere || !Sites.empty()) &&
                      llvm::all_of(Sites, [&](const Expr *E) { return guardedAt(E, A, Visiting); }));
  Visiting.erase(FD);
  return All;
}

bool underNoGradGuard(const Stmt *S, const ModelAnalysis &A) {
  llvm::DenseSet<const FunctionDecl *> Visiting;
  return guardedAt(S, A, Visiting);
}

static const Stmt *findIn(const Stmt *S, llvm::function_ref<bool(const Stmt *)> Visit,
                          llvm::SmallVectorImpl<const VarDecl *> &Vars) {
  if (!S)
    return nullptr;
  if (Visit(S))
    return S;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->isLocalVarDecl())
      Vars.push_back(VD);
  if (isa<LambdaExpr>(S))
    return nullptr;
  for (const Stmt *C : S->children())
    if (const Stmt *R = findIn(C, Visit, Vars))
      return R;
  return nullptr;
}

const Stmt *findInFlow(const Expr *E, llvm::function_ref<bool(const Stmt *)> Visit, unsigned Depth) {
  llvm::DenseSet<const VarDecl *> Seen;
  llvm::SmallVector<const Stmt *, 8> Work{E};
  for (unsigned Level = 0; Level <= Depth && !Work.empty(); ++Level) {
    llvm::SmallVector<const VarDecl *, 8> Vars;
    for (const Stmt *S : Work)
      if (const Stmt *R = findIn(S, Visit, Vars))
        return R;
    Work.clear();
    for (const VarDecl *VD : Vars)
      if (Seen.insert(VD).second && VD->getInit())
        Work.push_back(VD->getInit());
  }
  return nullptr;
}

namespace {
/// A write of a variable: the value it stores (null when not known) and the
/// statement or expression that stores it.
struct Write {
  const Expr *Value;
  const Stmt *At;
};

/// The writes of \p V in \p S; false when one cannot be followed.
bool collectWrites(const Stmt *S, const VarDecl *V, bool InLambda, llvm::SmallVectorImpl<Write> &Out) {
  if (!S)
    return true;
  auto Names = [&](const Expr *E) { return E && namedVar(E) == V && !isa<UnaryOperator>(stripWrappers(E)); };
  // `return v;` moves from v as it leaves: nothing reads it after.
  if (const auto *RS = dyn_cast<ReturnStmt>(S); RS && Names(RS->getRetValue()))
    return true;
  bool Assigns = false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && Names(BO->getLHS())) {
    if (BO->getOpcode() != BO_Assign)
      return false;
    Out.push_back({BO->getRHS(), BO});
    Assigns = true;
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
             OC && OC->isAssignmentOp() && OC->getNumArgs() == 2 && Names(OC->getArg(0))) {
    if (OC->getOperator() != OO_Equal)
      return false;
    Out.push_back({OC->getArg(1), OC});
    Assigns = true;
  } else if (const auto *U = dyn_cast<UnaryOperator>(S);
             U && (U->getOpcode() == UO_AddrOf || U->isIncrementDecrementOp()) && Names(U->getSubExpr())) {
    return false;
  } else if (isa<CallExpr, CXXConstructExpr>(S)) {
    const auto *CE = dyn_cast<CallExpr>(S);
    const auto *Ctor = dyn_cast<CXXConstructExpr>(S);
    const FunctionDecl *FD = CE ? CE->getDirectCallee() : Ctor->getConstructor();
    llvm::ArrayRef<const Expr *> Args =
        CE ? llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()) : llvm::ArrayRef(Ctor->getArgs(), Ctor->getNumArgs());
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    // A method called on the variable (`v.f()`, `v == w` as a member operator) may change it unless const.
    const Expr *Object = nullptr;
    unsigned Offset = 0;
    if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(CE))
      Object = MC->getImplicitObjectArgument();
    else if ((Offset = objectArguments(CE)) && !Args.empty())
      Object = Args[0];
    if (Names(Object) && (!MD || !MD->isConst()))
      return false;
    for (unsigned I = Offset; I < Args.size(); ++I) {
      if (!Names(Args[I]))
        continue;
      if (!FD || I - Offset >= FD->getNumParams())
        return false;
      QualType T = FD->getParamDecl(I - Offset)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        return false;
    }
  }
  if (Assigns && InLambda)
    return false;
  bool Lambda = InLambda || isa<LambdaExpr>(S);
  for (const Stmt *C : S->children())
    if (!collectWrites(C, V, Lambda, Out))
      return false;
  return true;
}

/// Whether \p W runs whenever \p Use does, before it: a statement of a
/// block around the use (or the declaration), not inside a branch or loop
/// of its own, ending before the use.
bool dominates(const Write &W, const Expr *Use, const ModelAnalysis &A, const SourceManager &SM) {
  if (!SM.isBeforeInTranslationUnit(W.At->getEndLoc(), Use->getBeginLoc()))
    return false;
  const Stmt *S = W.At;
  for (const Stmt *P = A.parent(S); P; S = P, P = A.parent(P)) {
    if (isa<CompoundStmt>(P))
      return isInside(Use, P, A);
    if (!isa<Expr, DeclStmt>(P))
      return false;
  }
  return false;
}
} // namespace

llvm::SmallVector<const Expr *, 4> reachingValues(const VarDecl *V, const Expr *Use, const ModelAnalysis &A,
                                                  bool &Complete) {
  Complete = false;
  llvm::SmallVector<const Expr *, 4> Out;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  // A scalar declared without a value has none until it is assigned (reading it before is undefined).
  if (!V->isLocalVarDecl() || V->isStaticLocal() || (!V->getInit() && !V->getType()->isScalarType()) || !FD ||
      !FD->getBody())
    return Out;
  llvm::SmallVector<Write, 4> Writes;
  if (!collectWrites(FD->getBody(), V, false, Writes))
    return Out;
  // A read in a lambda runs when the lambda does: only the initializer is sure to be what it reads.
  bool InLambda = A.owner(Use) != FD;
  for (const Stmt *P = A.parent(Use); P && !InLambda; P = A.parent(P))
    InLambda = isa<LambdaExpr>(P);
  if (InLambda) {
    Complete = Writes.empty() && V->getInit();
    if (Complete)
      Out.push_back(V->getInit());
    return Out;
  }
  const SourceManager &SM = A.context().getSourceManager();
  auto Before = [&](SourceLocation L, SourceLocation R) { return SM.isBeforeInTranslationUnit(L, R); };
  // A write whose value reads the variable (`s = f(s)`) comes after that
  // read; only a loop around both brings it back to it.
  auto Around = [&](const Write &W) { return isInside(Use, W.At, A); };
  // The last write made on every path to the use, else the declaration's.
  const Write *Last = nullptr;
  for (const Write &W : Writes)
    if (!Around(W) && dominates(W, Use, A, SM) && (!Last || Before(Last->At->getBeginLoc(), W.At->getBeginLoc())))
      Last = &W;
  SourceLocation From = Last ? Last->At->getBeginLoc() : V->getLocation();
  std::vector<const Stmt *> Loops = A.enclosingLoops(Use);
  if (const Expr *First = Last ? Last->Value : V->getInit())
    Out.push_back(First);
  for (const Write &W : Writes) {
    if (&W == Last || !Before(From, W.At->getBeginLoc()))
      continue;
    bool BeforeUse = Before(W.At->getBeginLoc(), Use->getBeginLoc()) && !Around(W);
    // A loop around the use but not around the last write runs later writes again before it.
    bool Again = llvm::any_of(Loops, [&](const Stmt *L) { return isInside(W.At, L, A) && !contains(L, From, SM); });
    if (BeforeUse || Again)
      Out.push_back(W.Value);
  }
  Complete = true;
  return Out;
}

BlockItem blockItemOf(const Stmt *S, const ModelAnalysis &A) {
  const Stmt *Item = S;
  const Stmt *P = A.parent(Item);
  while (P && (!isa<CompoundStmt>(P) || isa_and_nonnull<DoStmt>(A.parent(P))) && !A.isLoop(P)) {
    Item = P;
    P = A.parent(P);
  }
  const auto *Block = dyn_cast_or_null<CompoundStmt>(P);
  if (!Block)
    return {};
  const auto *It = llvm::find(Block->body(), Item);
  return It == Block->body_end() ? BlockItem{} : BlockItem{Block, It};
}

bool isInside(const Stmt *S, const Stmt *Ancestor, const ModelAnalysis &A) {
  for (; S; S = A.parent(S))
    if (S == Ancestor)
      return true;
  return false;
}

bool typeMentions(QualType T, llvm::StringRef Name) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (plainQualifiedName(RD) == Name)
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type && typeMentions(Arg.getAsType(), Name))
        return true;
  return false;
}

/// Whether \p E is a null pointer literal (`nullptr`, `NULL`, `0`).
static bool isNullLiteral(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return true;
  const auto *I = dyn_cast<IntegerLiteral>(E);
  return I && I->getValue() == 0;
}

/// \p Leaf's answer for \p Cond, through logical negations (`!`) around it.
static std::optional<bool> throughNegations(const Expr *Cond,
                                            llvm::function_ref<std::optional<bool>(const Expr *)> Leaf) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond); U && U->getOpcode() == UO_LNot) {
    std::optional<bool> Inner = throughNegations(U->getSubExpr(), Leaf);
    return Inner ? std::optional<bool>(!*Inner) : std::nullopt;
  }
  return Leaf(Cond);
}

/// Whether \p Cond is a null test of the handle: true when it holds for a
/// null handle (`!p`, `p == NULL`), false when it holds for a live one (`p`,
/// `p != nullptr`); none for any other condition (`!p || n == 0`).
static std::optional<bool> trueWhenNull(const Expr *Cond, llvm::function_ref<bool(const Expr *)> IsHandle) {
  return throughNegations(Cond, [&](const Expr *C) -> std::optional<bool> {
    if (std::optional<Equality> Eq = equalityOperands(C)) {
      if ((isNullLiteral(Eq->RHS) && IsHandle(Eq->LHS)) || (isNullLiteral(Eq->LHS) && IsHandle(Eq->RHS)))
        return Eq->Equal;
      return std::nullopt;
    }
    if (C->getType()->isPointerType() && IsHandle(C))
      return false;
    return std::nullopt;
  });
}

/// The allocation call whose result \p E is (through parentheses, casts and
/// an assignment of it: `(d = (float *)malloc(n))`), or null.
static const CallExpr *allocationResult(const Expr *E, llvm::function_ref<bool(const CallExpr *)> IsAllocation) {
  E = E->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Assign)
    E = BO->getRHS()->IgnoreParenCasts();
  const auto *Call = dyn_cast<CallExpr>(E);
  return Call && IsAllocation(Call) ? Call : nullptr;
}

/// Whether \p Cond holds when an allocation in it fails: a null test of the
/// pointer it returns (true when null), or a test of the status it returns
/// (`!= cudaSuccess` or the bare status: true on an error); none for any
/// other condition.
static std::optional<bool> trueWhenAllocationFails(const Expr *Cond,
                                                   llvm::function_ref<bool(const CallExpr *)> IsAllocation) {
  return throughNegations(Cond, [&](const Expr *C) -> std::optional<bool> {
    if (std::optional<Equality> Eq = equalityOperands(C)) {
      for (auto [Side, Other] : {std::pair(Eq->LHS, Eq->RHS), std::pair(Eq->RHS, Eq->LHS)})
        if (const CallExpr *Call = allocationResult(Side, IsAllocation)) {
          if (Call->getType()->isPointerType())
            return isNullLiteral(Other) ? std::optional<bool>(Eq->Equal) : std::nullopt;
          return !Eq->Equal; // a status compared with success
        }
      return std::nullopt;
    }
    if (const CallExpr *Call = allocationResult(C, IsAllocation))
      return !Call->getType()->isPointerType(); // a live pointer, or an error status
    return std::nullopt;
  });
}

const Stmt *exitBetween(const Stmt *Region, SourceLocation From, SourceLocation To, const SourceManager &SM,
                        const Stmt *Acquire, llvm::function_ref<bool(const Expr *)> IsHandle,
                        llvm::function_ref<bool(const CallExpr *)> IsAllocation) {
  const Stmt *Found = nullptr;
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool NestedLoop) {
    if (!S || Found || isa<LambdaExpr>(S))
      return;
    if (const auto *If = dyn_cast<IfStmt>(S); If && If->getCond()) {
      if (Acquire && If->getCond()->getSourceRange().fullyContains(Acquire->getSourceRange()))
        return;
      std::optional<bool> Failed = IsAllocation && !If->getConditionVariable()
                                       ? trueWhenAllocationFails(If->getCond(), IsAllocation)
                                       : std::nullopt;
      if (Failed) { // out of memory: that branch is not a path of the step
        Walk(If->getInit(), NestedLoop);
        Walk(*Failed ? If->getElse() : If->getThen(), NestedLoop);
        return;
      }
      if (std::optional<bool> Null =
              IsHandle && !If->getConditionVariable() ? trueWhenNull(If->getCond(), IsHandle) : std::nullopt) {
        Walk(If->getInit(), NestedLoop);
        Walk(*Null ? If->getElse() : If->getThen(), NestedLoop);
        return;
      }
    }
    bool InRange =
        SM.isBeforeInTranslationUnit(From, S->getBeginLoc()) && SM.isBeforeInTranslationUnit(S->getBeginLoc(), To);
    bool Holds = isa<ReturnStmt>(S) && !SM.isBeforeInTranslationUnit(S->getEndLoc(), To);
    if (InRange && ((isa<ReturnStmt>(S) && !Holds) || (!NestedLoop && isa<ContinueStmt, BreakStmt>(S)))) {
      Found = S;
      return;
    }
    bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
    for (const Stmt *C : S->children())
      Walk(C, NestedLoop || Loop);
  };
  for (const Stmt *C : Region->children())
    Walk(C, false);
  return Found;
}

bool addsElement(const CXXMemberCallExpr *MC) {
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  return MD && MD->getIdentifier() &&
         llvm::is_contained({"push_back", "emplace_back", "insert", "emplace"}, MD->getName());
}

namespace {
/// Collects the values a container receives, one use of it at a time.
class ContainerUses {
public:
  explicit ContainerUses(const ModelAnalysis &A) : A(A) {}
  ContainerContents Out{{}, {}, true};

  void initializer(const Expr *Init) {
    const auto *C = dyn_cast<CXXConstructExpr>(stripWrappers(Init));
    if (!C) {
      Out.Values.push_back(Init); // a container returned by a call, copied
      return;
    }
    for (const Expr *Arg : C->arguments()) {
      Arg = stripWrappers(Arg);
      if (const auto *L = dyn_cast<CXXStdInitializerListExpr>(Arg))
        Out.Values.push_back(L); // `{a, b}`: onHost looks at each
      else if (!Arg->getType()->isIntegralOrEnumerationType() && !isa<CXXDefaultArgExpr>(Arg))
        Out.Values.push_back(Arg); // a copied container, or the fill value of `(n, value)`
    }
  }

  void use(const DeclRefExpr *Ref) {
    auto [S, P] = climbThrough<ImplicitCastExpr, ParenExpr>(Ref, A);
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
      const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(A.parent(ME));
      return MC ? method(MC) : fail();
    }
    if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P); OC && OC->getNumArgs() > 0 && OC->getArg(0) == S) {
      if (OC->getOperator() == OO_Subscript)
        return element(OC);
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
        return Out.Values.push_back(OC->getArg(1));
      return fail();
    }
    if (isa_and_nonnull<ReturnStmt>(P))
      return;
    if (const auto *FR = dyn_cast_or_null<CXXForRangeStmt>(A.parent(P)); FR && P == FR->getRangeStmt())
      return readOnlyRef(FR->getLoopVariable()->getType()) ? void() : fail();
    // Copied or moved into another container (`return out;`): nothing enters this one.
    if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(P); C && C->getConstructor()->isCopyOrMoveConstructor())
      return;
    if (isa_and_nonnull<CallExpr, CXXConstructExpr>(P)) {
      if (byValueOrConst(S, P))
        return;
      if (const ParmVarDecl *Filler = fillerOf(S, P))
        return Out.Fillers.push_back(Filler);
      return fail();
    }
    if (const auto *D = dyn_cast_or_null<VarDecl>(declOf(P)); D && D->getInit() == S)
      return readOnlyRef(D->getType()) ? void() : fail();
    fail();
  }

private:
  void fail() { Out.Complete = false; }
  static bool readOnlyRef(QualType T) { return !T->isReferenceType() || T.getNonReferenceType().isConstQualified(); }
  static const Decl *declOf(const Stmt *P) {
    const auto *DS = dyn_cast_or_null<DeclStmt>(P);
    return DS && DS->isSingleDecl() ? DS->getSingleDecl() : nullptr;
  }
  /// \p Arg given to the call or construction \p P: by value or const reference.
  static bool byValueOrConst(const Stmt *Arg, const Stmt *P) {
    const FunctionDecl *FD = nullptr;
    llvm::ArrayRef<const Expr *> Args;
    if (const auto *CE = dyn_cast<CallExpr>(P)) {
      FD = CE->getDirectCallee();
      Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
    } else if (const auto *C = dyn_cast<CXXConstructExpr>(P)) {
      FD = C->getConstructor();
      Args = llvm::ArrayRef(C->getArgs(), C->getNumArgs());
    }
    unsigned Offset = isa_and_nonnull<CXXOperatorCallExpr>(P) && isa_and_nonnull<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Offset; FD && I < Args.size() && I - Offset < FD->getNumParams(); ++I)
      if (Args[I] == Arg)
        return readOnlyRef(FD->getParamDecl(I - Offset)->getType());
    return false;
  }
  /// The parameter of a function defined here, not virtual, that receives
  /// \p Arg of the direct call \p P by non-const reference to its own type.
  static const ParmVarDecl *fillerOf(const Stmt *Arg, const Stmt *P) {
    const auto *CE = dyn_cast<CallExpr>(P);
    const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
    FD = FD ? FD->getDefinition() : nullptr;
    if (!FD || !FD->hasBody() || isa<CXXOperatorCallExpr>(CE))
      return nullptr;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual())
      return nullptr;
    for (unsigned I = 0; I < CE->getNumArgs() && I < FD->getNumParams(); ++I) {
      const ParmVarDecl *Param = FD->getParamDecl(I);
      QualType T = Param->getType();
      if (CE->getArg(I) == Arg && T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified() &&
          T.getNonReferenceType().getCanonicalType().getUnqualifiedType() ==
              cast<Expr>(Arg)->getType().getCanonicalType().getUnqualifiedType())
        return Param;
    }
    return nullptr;
  }
  void method(const CXXMemberCallExpr *MC) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    llvm::StringRef Name = MD && MD->getIdentifier() ? MD->getName() : "";
    if (llvm::is_contained({"push_back", "emplace_back", "push_front", "emplace_front"}, Name) && MC->getNumArgs() == 1)
      return Out.Values.push_back(MC->getArg(0));
    if (llvm::is_contained({"at", "back", "front"}, Name))
      return element(MC);
    if (llvm::is_contained(
            {"size", "empty", "clear", "reserve", "capacity", "pop_back", "pop_front", "shrink_to_fit", "resize"},
            Name) ||
        (MD && MD->isConst()))
      return;
    fail();
  }
  /// An element (`xs[i]`, `xs.back()`): assigned a value, or read.
  void element(const Expr *Access) {
    auto [S, P] = climbThrough<ImplicitCastExpr, ParenExpr>(Access, A);
    if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && OC->getArg(0) == S)
      return Out.Values.push_back(OC->getArg(1));
    // A handle's method or operator (`xs.back()[i]`) returns new tensors or
    // changes values, never the device of the element; a non-const reference
    // to it may reassign it.
    if (isa_and_nonnull<MemberExpr>(P))
      return;
    if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P);
        OC && OC->getNumArgs() > 0 && OC->getArg(0) == S && !OC->isAssignmentOp() &&
        isa_and_nonnull<CXXMethodDecl>(OC->getDirectCallee()))
      return;
    if (const auto *D = dyn_cast_or_null<VarDecl>(declOf(P)); D && D->getInit() == S && !readOnlyRef(D->getType()))
      return fail();
    if (isa_and_nonnull<CallExpr, CXXConstructExpr>(P) && !byValueOrConst(S, P))
      return fail();
    if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P); OC && OC->isAssignmentOp() && OC->getArg(0) == S)
      return fail(); // `xs[i] += y` keeps the device, but say nothing of unusual assignments
  }

  const ModelAnalysis &A;
};

void forEachRef(const Stmt *S, const VarDecl *V, llvm::function_ref<void(const DeclRefExpr *)> Fn) {
  if (!S)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == V)
    Fn(Ref);
  for (const Stmt *C : S->children())
    forEachRef(C, V, Fn);
}
} // namespace

ContainerContents containerContents(const VarDecl *V, const ModelAnalysis &A) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    FD = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
  bool Local = V->isLocalVarDecl() && !V->isStaticLocal() && !V->getType()->isReferenceType();
  // A parameter by value, or by non-const reference: what its function puts in it.
  bool Parameter = isa<ParmVarDecl>(V) &&
                   (!V->getType()->isReferenceType() ||
                    (V->getType()->isLValueReferenceType() && !V->getType().getNonReferenceType().isConstQualified()));
  if (!FD || !FD->getBody() || !(Local || Parameter))
    return {};
  ContainerUses U(A);
  if (const Expr *Init = Local ? V->getInit() : nullptr)
    U.initializer(Init);
  forEachRef(FD->getBody(), V, [&](const DeclRefExpr *Ref) {
    if (U.Out.Complete)
      U.use(Ref);
  });
  return U.Out;
}

const VarDecl *resultVariable(const Expr *E, const ModelAnalysis &A) {
  auto [S, P] = climbThrough<ImplicitCastExpr, CXXFunctionalCastExpr, CStyleCastExpr, ParenExpr,
                             MaterializeTemporaryExpr, CXXBindTemporaryExpr, ExprWithCleanups>(E, A);
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(P))
    return DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
    return BO->getOpcode() == BO_Assign && BO->getRHS() == S ? namedVar(BO->getLHS()) : nullptr;
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P))
    return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 && Op->getArg(1) == S ? namedVar(Op->getArg(0))
                                                                                        : nullptr;
  return nullptr;
}

} // namespace clang::tidy::mlperf

namespace clang::tidy::mlperf {

/// Whether \p Ref (a use of a local variable) hands its object to something
/// that may outlive the variable's function: moved or copied into a field, a
/// global or a container that is not a local, moved into a call, released
/// from its owner. \p Returned is set when the function returns it.
static bool handsObjectOn(const DeclRefExpr *Ref, const ModelAnalysis &A, bool &Returned) {
  const Stmt *S = Ref;
  bool Moved = false;
  for (const Stmt *P = A.parent(S);; S = P, P = A.parent(P)) {
    if (!P)
      return false;
    if (isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ExprWithCleanups, ParenExpr,
            CXXFunctionalCastExpr, CStyleCastExpr>(P))
      continue;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(P); CE && CE->getNumArgs() == 1)
      continue; // a copy or move of the object: where it goes decides
    const auto *Call = dyn_cast<CallExpr>(P);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (Callee && Call->getNumArgs() == 1 && Callee->isInStdNamespace() &&
        llvm::is_contained({"move", "forward"}, Callee->getName())) {
      Moved = true;
      continue;
    }
    break;
  }
  const Stmt *P = A.parent(S);
  if (isa<ReturnStmt>(P)) {
    Returned = true;
    return false;
  }
  auto IntoNonLocal = [](const Expr *LHS) {
    const VarDecl *VD = namedVar(LHS);
    return !VD || !VD->hasLocalStorage();
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(P); BO && BO->isAssignmentOp() && BO->getRHS() == S)
    return IntoNonLocal(BO->getLHS());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P); Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
    return Op->getArg(1) == S && IntoNonLocal(Op->getArg(0));
  if (const auto *DS = dyn_cast<DeclStmt>(P))
    return llvm::any_of(DS->decls(), [](const Decl *D) {
      const auto *VD = dyn_cast<VarDecl>(D);
      return VD && !VD->hasLocalStorage();
    });
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(P)) {
    if (MC->getImplicitObjectArgument() == S) // `p.release()`: the object leaves its owner
      return MC->getMethodDecl() && MC->getMethodDecl()->getName() == "release";
    return addsElement(MC) && IntoNonLocal(MC->getImplicitObjectArgument());
  }
  return Moved && isa<CallExpr, CXXConstructExpr, InitListExpr>(P);
}

const VarDecl *callLocalHolder(const Expr *E, const ModelAnalysis &A, unsigned Depth) {
  const Expr *Value = E;
  for (unsigned I = 0; I <= Depth; ++I) {
    auto [S, P] = climbThrough<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ExprWithCleanups,
                               CXXConstructExpr, CXXFunctionalCastExpr, ParenExpr, CStyleCastExpr>(Value, A);
    const FunctionDecl *FD = P ? A.owner(P) : nullptr;
    if (!FD || !FD->getBody())
      return nullptr;
    const VarDecl *VD = nullptr;
    if (const auto *DS = dyn_cast<DeclStmt>(P); DS && DS->isSingleDecl())
      VD = dyn_cast<VarDecl>(DS->getSingleDecl());
    bool Returned = isa<ReturnStmt>(P);
    if (VD) {
      if (!VD->hasLocalStorage() || VD->getType()->isReferenceType())
        return nullptr;
      bool Escapes = false;
      std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
        if (!St || Escapes)
          return;
        if (const auto *Ref = dyn_cast<DeclRefExpr>(St); Ref && Ref->getDecl() == VD)
          Escapes = handsObjectOn(Ref, A, Returned);
        for (const Stmt *Child : St->children())
          Walk(Child);
      };
      Walk(FD->getBody());
      if (Escapes)
        return nullptr;
      if (!Returned)
        return VD;
    } else if (!Returned) {
      return nullptr; // stored elsewhere, or a temporary: not followed
    }
    // Returned: held by the one call of the function, if it keeps it.
    ModelAnalysis::WhoCalls Callers = A.callersOf(FD);
    if (Callers.Unseen || Callers.Elsewhere || Callers.Here.size() != 1)
      return nullptr;
    Value = Callers.Here.front();
  }
  return nullptr;
}

} // namespace clang::tidy::mlperf
