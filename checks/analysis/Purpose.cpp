#include "Purpose.h"
#include "DataFlow.h"
#include "ProjectSummaries.h"
#include "SourceUtils.h"
#include "SummaryCollector.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>
#include <utility>

namespace clang::tidy::mlperf {

namespace {
bool isLoggingCallee(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  std::string N = FD->getName().lower();
  for (const char *Word : {"print", "log", "format", "puts", "write", "dump", "report", "trace", "record"})
    if (N.find(Word) != std::string::npos)
      return true;
  return false;
}

/// `std::isnan(x)` and friends: the value is only used to test a condition.
bool isPredicateCallee(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(FD->getName())
      .Cases("isnan", "isinf", "isfinite", "isnormal", "signbit", true)
      .Default(false);
}

bool isStreamInsertion(const CXXOperatorCallExpr *OC) {
  return OC->getOperator() == OO_LessLess && OC->getNumArgs() == 2;
}

int neededRank(Purpose P) {
  switch (P) {
  case Purpose::Return:
    return 5;
  case Purpose::Store:
    return 4;
  case Purpose::Other:
    return 3;
  case Purpose::Accumulate:
    return 2;
  case Purpose::Condition:
    return 1;
  case Purpose::Log:
    return 0;
  }
  return 0;
}

class UseFinder : public RecursiveASTVisitor<UseFinder> {
public:
  explicit UseFinder(const VarDecl *VD) : VD(VD) {}
  llvm::SmallVector<const DeclRefExpr *, 8> Uses;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() == VD)
      Uses.push_back(E);
    return true;
  }

private:
  const VarDecl *VD;
};

/// \p ThroughCalls: a value given to a call whose result is used has the
/// purpose of that result (a container given to `mean(losses)`).
Purpose purposeAt(const Expr *E, const ModelAnalysis &A, int Depth, bool ThroughCalls = false);

Purpose purposeOfVar(const VarDecl *VD, const ModelAnalysis &A, int Depth, const Expr *Skip = nullptr) {
  const Stmt *Top = VD->getInit();
  for (const Stmt *P = A.parent(Top); P; P = A.parent(P))
    Top = P;
  if (!Top || Depth > 3)
    return Purpose::Other;
  UseFinder F(VD);
  F.TraverseStmt(const_cast<Stmt *>(Top));
  if (F.Uses.empty())
    return Purpose::Log;
  Purpose Best = Purpose::Log;
  for (const DeclRefExpr *Use : F.Uses) {
    if (Use == Skip)
      continue;
    Purpose P = purposeAt(Use, A, Depth + 1);
    if (neededRank(P) > neededRank(Best))
      Best = P;
  }
  return Best;
}

/// A call whose result is dropped (`cudaMemcpy(&host, dev, n, kind);`) copies
/// into an output argument: the purpose is that of the local variable written.
Purpose purposeOfDiscarded(const Expr *E, const ModelAnalysis &A, int Depth) {
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE)
    return Purpose::Other;
  for (const Expr *Arg : CE->arguments()) {
    const Expr *Target = Arg->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Target); UO && UO->getOpcode() == UO_AddrOf)
      Target = UO->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Target); MC && MC->getMethodDecl() &&
                                                                   MC->getMethodDecl()->getIdentifier() &&
                                                                   MC->getMethodDecl()->getName() == "data")
      Target = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
    else if (!Target->getType()->isArrayType())
      continue;
    const auto *DRE = dyn_cast<DeclRefExpr>(Target);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (VD && VD->isLocalVarDecl())
      return purposeOfVar(VD, A, Depth, DRE);
  }
  return Purpose::Other;
}

/// The argument the device -> host copy \p Read writes (cudaMemcpy's
/// destination, a materializing entry's host buffer:
/// `ggml_backend_tensor_get(t, row.data(), ...)`), or null when it returns the value.
const Expr *hostDestination(const CallExpr *Read, const RoleMatch &R) {
  if (R.Entry->R == Role::Materialize)
    return R.Entry->ValueArg ? movedValue(Read, *R.Entry) : nullptr;
  if (R.Entry->R == Role::ToDevice && R.Entry->DestArg && *R.Entry->DestArg < Read->getNumArgs())
    return Read->getArg(*R.Entry->DestArg);
  return nullptr;
}

Purpose purposeAt(const Expr *E, const ModelAnalysis &A, int Depth, bool ThroughCalls) {
  const Stmt *Child = E;
  // The value is a pointer into the tensor's host memory (`data_ptr<T>()`):
  // handed whole to a container or a copy, the data itself is what the
  // program keeps.
  bool Pointer = false;
  for (const Stmt *P = A.parent(E); P; Child = P, P = A.parent(P)) {
    if (const auto *C = dyn_cast<CXXConstructExpr>(P); C && Pointer && C->getNumArgs() >= 2)
      return Purpose::Store;
    if (isa<ParenExpr, ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ExprWithCleanups,
            ExplicitCastExpr, CXXConstructExpr, ArraySubscriptExpr>(P))
      continue;
    if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
      if (UO->getOpcode() == UO_LNot)
        return Purpose::Condition;
      continue;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (Child == CO->getCond())
        return Purpose::Condition;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isComparisonOp() || BO->isLogicalOp())
        return Purpose::Condition;
      if (BO->isCompoundAssignmentOp())
        return Child == BO->getRHS() ? Purpose::Accumulate : Purpose::Other;
      if (BO->getOpcode() == BO_Assign) {
        if (Child != BO->getRHS())
          return Purpose::Other;
        if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
            UseFinder Self(VD);
            Self.TraverseStmt(BO->getRHS());
            return Self.Uses.empty() ? purposeOfVar(VD, A, Depth) : Purpose::Accumulate;
          }
        return Purpose::Store;
      }
      continue; // arithmetic: keep following the value
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P)) {
      if (isStreamInsertion(OC))
        return Purpose::Log;
      if (OC->isComparisonOp())
        return Purpose::Condition;
      if (OC->getOperator() == OO_PlusEqual || OC->getOperator() == OO_MinusEqual)
        return Purpose::Accumulate;
      if (OC->getOperator() == OO_Equal)
        return Purpose::Store;
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(P)) {
      if (Child == MC->getImplicitObjectArgument() || Child == MC->getCallee()) {
        if (A.profiles().find(MC, Role::HostRead))
          Pointer = true;

        continue;
      }
      if (Pointer)
        return Purpose::Store;
      if (ThroughCalls && !MC->getType()->isVoidType() && !isLoggingCallee(MC->getMethodDecl()))
        continue;
      if (addsElement(MC))
        return Purpose::Store;
      return isLoggingCallee(MC->getMethodDecl()) ? Purpose::Log : Purpose::Other;
    }
    if (isa<MemberExpr>(P))
      continue;
    if (const auto *CE = dyn_cast<CallExpr>(P)) {
      if (Child == CE->getCallee())
        continue;
      // `__builtin_expect(x, 0)` (TORCH_CHECK, C10_UNLIKELY) passes the value on.
      if (CE->getBuiltinCallee() == Builtin::BI__builtin_expect)
        continue;
      if (isPredicateCallee(CE->getDirectCallee()))
        return Purpose::Condition;
      if (Pointer)
        return Purpose::Store;
      if (ThroughCalls && !CE->getType()->isVoidType() && !isLoggingCallee(CE->getDirectCallee()))
        continue;
      return isLoggingCallee(CE->getDirectCallee()) ? Purpose::Log : Purpose::Other;
    }
    if (const auto *If = dyn_cast<IfStmt>(P))
      return Child == If->getCond() ? Purpose::Condition : Purpose::Other;
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return Child == W->getCond() ? Purpose::Condition : Purpose::Other;
    if (const auto *D = dyn_cast<DoStmt>(P))
      return Child == D->getCond() ? Purpose::Condition : Purpose::Other;
    if (const auto *F = dyn_cast<ForStmt>(P))
      return Child == F->getCond() ? Purpose::Condition : Purpose::Other;
    if (isa<ReturnStmt>(P))
      return Purpose::Return;
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
          return purposeOfVar(VD, A, Depth);
      return Purpose::Other;
    }
    if (isa<InitListExpr, CXXStdInitializerListExpr>(P))
      return Purpose::Store;
    if (isa<CompoundStmt>(P))
      return purposeOfDiscarded(E, A, Depth);
    return Purpose::Other;
  }
  return Purpose::Other;
}
} // namespace

Purpose purposeOf(const Expr *E, const ModelAnalysis &A) {
  // A copy into an argument returns a status (`CUDA_CHECK(cudaMemcpy(...))`
  // tests it): what the data is for is what the memory written is for.
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (std::optional<RoleMatch> R = A.role(CE); R && R->copiesToHost() && hostDestination(CE, *R))
      return purposeOfDiscarded(CE, A, 0);
  return purposeAt(E, A, 0);
}

Purpose storedFor(const Expr *E, const ModelAnalysis &A) {
  auto [S, P] = climbThrough<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                             CXXFunctionalCastExpr, CStyleCastExpr>(E, A);
  const auto *Add = dyn_cast_or_null<CXXMemberCallExpr>(P);
  const VarDecl *Container = Add && addsElement(Add) ? namedVar(Add->getImplicitObjectArgument()) : nullptr;
  const FunctionDecl *FD = A.owner(E);
  if (!E->getType()->isArithmeticType() || !Container || !Container->isLocalVarDecl() || Container->isStaticLocal() ||
      Container->getType()->isReferenceType() || !FD || !FD->getBody())
    return Purpose::Store;
  UseFinder F(Container);
  F.TraverseStmt(FD->getBody());
  const SourceManager &SM = A.context().getSourceManager();
  llvm::SmallVector<const CXXForRangeStmt *, 2> Loops;
  Purpose Best = Purpose::Log;
  auto Consider = [&](Purpose Q) {
    if (neededRank(Q) > neededRank(Best))
      Best = Q;
  };
  for (const DeclRefExpr *Use : F.Uses) {
    if (llvm::any_of(Loops,
                     [&](const CXXForRangeStmt *L) { return contains(L->getRangeInit(), Use->getBeginLoc(), SM); }))
      continue;
    auto [Object, User] = climbThrough<ImplicitCastExpr>(Use, A);
    const auto *Member = dyn_cast_or_null<MemberExpr>(User);
    const auto *Method = Member ? dyn_cast_or_null<CXXMemberCallExpr>(A.parent(Member)) : nullptr;
    if (Method && (addsElement(Method) || Method->getType()->isVoidType()))
      continue; // filled, cleared or reserved
    // One element read back (`labels.front()`, `labels[0]`): the values themselves are kept.
    const auto *Index = dyn_cast_or_null<CXXOperatorCallExpr>(User);
    if ((Method && Method->isGLValue()) ||
        (Index && Index->getOperator() == OO_Subscript && Index->getArg(0) == Object)) {
      Consider(Purpose::Store);
      continue;
    }
    // `for (float l : losses) sum += l;`: summed; printed one by one, kept.
    const Stmt *Up = Use;
    while (Up && !isa<CXXForRangeStmt>(Up) && isa<Expr, DeclStmt>(Up))
      Up = A.parent(Up);
    if (const auto *Loop = dyn_cast_or_null<CXXForRangeStmt>(Up);
        Loop && contains(Loop->getRangeInit(), Use->getBeginLoc(), SM)) {
      Loops.push_back(Loop);
      Purpose Each = purposeOfVar(Loop->getLoopVariable(), A, 1);
      Consider(Each == Purpose::Accumulate ? Each : Purpose::Store);
      continue;
    }
    Consider(purposeAt(Use, A, 1, /*ThroughCalls=*/true));
  }
  return neededRank(Best) < neededRank(Purpose::Other) ? Best : Purpose::Store;
}

Purpose purposeThroughCalls(const Expr *E, const ModelAnalysis &A, llvm::ArrayRef<const Expr *> CallChain) {
  Purpose P = purposeOf(E, A);
  for (auto It = CallChain.rbegin(); P == Purpose::Return && It != CallChain.rend(); ++It) {
    // Only when the returned value is what the call site receives.
    if (A.owner(E) != A.owner(*It) && isa<CallExpr>(*It))
      P = purposeOf(*It, A);
    E = *It;
  }
  return P;
}

Purpose purposeThroughCalls(const Expr *E, const ModelAnalysis &A, const HotContext &H) {
  Purpose P = purposeThroughCalls(E, A, H.CallChain);
  if (P == Purpose::Return && H.External)
    return purposeNamed(H.External->ResultUse).value_or(P);
  return P;
}

bool feedsNextIteration(const Expr *Read, const Expr *Object, const Stmt *Loop, const ModelAnalysis &A) {
  llvm::SmallVector<const VarDecl *, 2> Sources;
  if (const VarDecl *V = Object ? namedVar(Object) : nullptr)
    Sources.push_back(V);
  if (const VarDecl *V = resultVariable(Read, A))
    Sources.push_back(V);
  if (Sources.empty() || !Loop)
    return false;
  const SourceManager &SM = A.context().getSourceManager();
  // The loop reads the variable somewhere else than where it assigns it:
  // the next step's input.
  std::function<bool(const Stmt *, const VarDecl *, const Expr *)> ReadElsewhere = [&](const Stmt *S, const VarDecl *W,
                                                                                       const Expr *LHS) {
    if (!S || S == LHS)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      return DRE->getDecl() == W;
    return llvm::any_of(S->children(), [&](const Stmt *C) { return ReadElsewhere(C, W, LHS); });
  };
  auto CarriedBy = [&](const Expr *LHS, const Expr *RHS) {
    const VarDecl *W = LHS ? namedVar(LHS) : nullptr;
    return W && !llvm::is_contained(Sources, W) &&
           SM.isBeforeInTranslationUnit(W->getLocation(), Loop->getBeginLoc()) && refersToAnyOf(RHS, Sources) &&
           ReadElsewhere(Loop, W, LHS);
  };
  std::function<bool(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      if (CarriedBy(BO->getLHS(), BO->getRHS()))
        return true;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S); OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      if (CarriedBy(OC->getArg(0), OC->getArg(1)))
        return true;
    return llvm::any_of(S->children(), Walk);
  };
  return Walk(Loop);
}

namespace {
/// The object whose storage \p E points into (`buf.data()`, `&buf[0]`), else \p E.
const Expr *storageOf(const Expr *E) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && MC->getNumArgs() == 0 && MC->getMethodDecl() && MC->getMethodDecl()->getName() == "data")
    return MC->getImplicitObjectArgument();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
      return AS->getBase();
  return E;
}

/// A field of the object a method runs on, named as `field` or `this->field`.
const FieldDecl *ownField(const Expr *E) {
  const auto *ME = dyn_cast_or_null<MemberExpr>(E ? E->IgnoreParenCasts() : nullptr);
  return ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ? dyn_cast<FieldDecl>(ME->getMemberDecl())
                                                                      : nullptr;
}

/// The host memory \p E names: a local or parameter buffer (`buf`,
/// `buf.data()`, `&buf[0]`), or a field of this object holding one
/// (`inputData`, `(void *)this->host.data()`).
const ValueDecl *hostMemory(const Expr *E) {
  if (!E)
    return nullptr;
  if (const VarDecl *V = namedVar(storageOf(stripConversions(E)->IgnoreParenImpCasts())))
    return V;
  return ownField(storageOf(stripConversions(E)->IgnoreParenCasts()));
}

bool mentions(const Stmt *S, const ValueDecl *D) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == D)
    return true;
  if (ownField(dyn_cast<Expr>(S)) == D)
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return mentions(C, D); });
}

const CallExpr *uploadOf(const Stmt *S, const ValueDecl *Buffer, const ModelAnalysis &A) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (std::optional<RoleMatch> R = A.role(Call); R && R->R == Role::ToDevice && R->Entry->R == Role::ToDevice)
      if (hostMemory(movedValue(Call, *R->Entry)) == Buffer)
        return Call;
  for (const Stmt *C : S->children())
    if (const CallExpr *Up = uploadOf(C, Buffer, A))
      return Up;
  return nullptr;
}

/// A method of this object that \p S calls (`inference();`) whose own body
/// uses \p Field: defined in this translation unit.
const CXXMethodDecl *methodUsing(const Stmt *S, const FieldDecl *Field) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
    if (const CXXMethodDecl *MD = MC->getMethodDecl();
        MD && isa<CXXThisExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts()) && MD->hasBody() &&
        mentions(MD->getBody(), Field))
      return cast<CXXMethodDecl>(MD->getDefinition());
  for (const Stmt *C : S->children())
    if (const CXXMethodDecl *MD = methodUsing(C, Field))
      return MD;
  return nullptr;
}

/// The upload that is the first use of \p Buffer among \p Items, with a
/// method of this object that uses the field \p Buffer looked into (one level).
const CallExpr *firstUseUploads(llvm::ArrayRef<const Stmt *> Items, const ValueDecl *Buffer, const ModelAnalysis &A,
                                bool Into) {
  const auto *Field = dyn_cast<FieldDecl>(Buffer);
  for (const Stmt *S : Items) {
    if (mentions(S, Buffer))
      return uploadOf(S, Buffer, A); // the next use: a copy back, or a read on the host
    if (const CXXMethodDecl *MD = Field && Into ? methodUsing(S, Field) : nullptr) {
      const auto *Body = dyn_cast<CompoundStmt>(MD->getBody());
      return Body ? firstUseUploads(llvm::ArrayRef(Body->body_begin(), Body->body_end()), Buffer, A, false) : nullptr;
    }
  }
  return nullptr;
}

/// The copy to the device that is the next use of \p Buffer after the
/// statement \p After, in its block; null when something else uses it first
/// or the block ends first.
const CallExpr *nextUseUploads(const Stmt *After, const ValueDecl *Buffer, const ModelAnalysis &A) {
  auto [Block, It] = blockItemOf(After, A);
  if (!Block || !Buffer)
    return nullptr;
  return firstUseUploads(llvm::ArrayRef(std::next(It), Block->body_end()), Buffer, A, true);
}

/// Whether nothing after \p S in its function uses \p Param: \p S is a
/// statement of the function's body and no later one names it.
bool lastUse(const CallExpr *S, const ParmVarDecl *Param, const ModelAnalysis &A) {
  auto [Block, It] = blockItemOf(S, A);
  const FunctionDecl *FD = A.owner(S);
  return Block && FD && FD->getBody() == Block &&
         llvm::none_of(llvm::make_range(std::next(It), Block->body_end()),
                       [&](const Stmt *Later) { return mentions(Later, Param); });
}

} // namespace

const Expr *movedValue(const CallExpr *Call, const ProfileEntry &E) {
  if (E.ValueArg)
    return *E.ValueArg < Call->getNumArgs() ? Call->getArg(*E.ValueArg) : nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return MC->getImplicitObjectArgument();
  return nullptr;
}

const CallExpr *copiedBackAfter(const CallExpr *Call, unsigned Arg, const ModelAnalysis &A) {
  if (Arg >= Call->getNumArgs() || !Call->getArg(Arg)->getType()->isPointerType())
    return nullptr;
  const ValueDecl *Buffer = hostMemory(Call->getArg(Arg));
  const auto *Local = dyn_cast_or_null<VarDecl>(Buffer);
  if (!Buffer || (Local && !Local->getType()->isPointerType() && !Local->getType()->isArrayType() &&
                  !Local->getType()->isRecordType()))
    return nullptr;
  return nextUseUploads(Call, Buffer, A);
}

std::optional<Reupload> reuploadOf(const CallExpr *Read, const ModelAnalysis &A) {
  std::optional<RoleMatch> R = A.role(Read);
  if (!R || !R->copiesToHost())
    return std::nullopt;
  // The host memory written, or the variable a materializing call's result initializes.
  const Expr *Into = hostDestination(Read, *R);
  const ValueDecl *Buffer = Into                               ? hostMemory(Into)
                            : R->Entry->R == Role::Materialize ? resultVariable(Read, A)
                                                               : nullptr;
  if (!Buffer)
    return std::nullopt;
  if (const auto *V = dyn_cast<VarDecl>(Buffer); (V && V->isLocalVarDecl()) || isa<FieldDecl>(Buffer))
    if (const CallExpr *Up = nextUseUploads(Read, Buffer, A))
      return Reupload{Up, ""};
  // A parameter the function fills last: each caller's next use of the memory it passed.
  const auto *Param = dyn_cast<ParmVarDecl>(Buffer);
  const auto *FD = Param ? dyn_cast_or_null<FunctionDecl>(Param->getDeclContext()) : nullptr;
  if (!FD || !Param->getType()->isPointerType() || !lastUse(Read, Param, A))
    return std::nullopt;
  ModelAnalysis::WhoCalls Who = A.callersOf(FD);
  if (Who.Unseen || Who.never())
    return std::nullopt;
  unsigned Index = Param->getFunctionScopeIndex();
  std::optional<Reupload> Out;
  for (const Expr *Site : Who.Here) {
    const auto *CE = dyn_cast<CallExpr>(Site);
    const CallExpr *Up = CE ? copiedBackAfter(CE, Index, A) : nullptr;
    if (!Up)
      return std::nullopt;
    if (!Out)
      Out = Reupload{Up, ""};
  }
  if (Who.Elsewhere) {
    std::optional<std::string> Where =
        A.project() ? A.project()->copiedBackBy(usrOf(FD), A.mainFileName(), Index) : std::nullopt;
    if (!Where)
      return std::nullopt;
    if (!Out)
      Out = Reupload{nullptr, *Where};
  }
  return Out;
}

/// Whether \p E is the model's whole output; see printsPrediction.
static bool isModelPrediction(const Expr *E, const ModelAnalysis &A) {
  auto TakesTensor = [&](const CallExpr *Call) {
    return llvm::any_of(Call->arguments(),
                        [&](const Expr *Arg) { return A.profiles().autogradTensorProfile(Arg->getType()) != nullptr; });
  };
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = stripConversions(E)->IgnoreParenImpCasts();
    if (const auto *Call = dyn_cast<CallExpr>(E); Call && A.role(Call) && A.role(Call)->R == Role::Step)
      return A.role(Call)->kind() == Kind::Forward;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      if (TakesTensor(MC) || !A.profiles().find(MC, Role::Whole))
        return false;
      E = MC->getImplicitObjectArgument();
      continue;
    }
    const VarDecl *V = namedVar(E);
    if (!V || !V->isLocalVarDecl())
      return false;
    bool Complete = false;
    llvm::SmallVector<const Expr *, 4> Values = reachingValues(V, E, A, Complete);
    if (!Complete || Values.size() != 1)
      return false;
    E = Values.front();
  }
  return false;
}

bool printsPrediction(const CallExpr *Read, const Expr *Object, const ModelAnalysis &A) {
  auto [S, P] = climbThrough<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                             CXXFunctionalCastExpr, CStyleCastExpr>(Read, A);
  bool Printed = false;
  if (const auto *Self = dyn_cast<CXXOperatorCallExpr>(Read); Self && isStreamInsertion(Self))
    Printed = true; // `std::cout << tensor`: the read is the print
  else if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P))
    Printed = isStreamInsertion(OC) && OC->getArg(1) == S;
  else if (const auto *Call = dyn_cast_or_null<CallExpr>(P))
    Printed = isLoggingCallee(Call->getDirectCallee()) && llvm::is_contained(Call->arguments(), S);
  return Printed && isModelPrediction(Object, A);
}

namespace {
constexpr std::pair<Purpose, const char *> PurposeNames[] = {
    {Purpose::Log, "log"},     {Purpose::Condition, "condition"}, {Purpose::Accumulate, "accumulate"},
    {Purpose::Store, "store"}, {Purpose::Return, "return"},       {Purpose::Other, "other"}};
} // namespace

llvm::StringRef purposeName(Purpose P) {
  for (const auto &[Q, Name] : PurposeNames)
    if (Q == P)
      return Name;
  return "";
}

std::optional<Purpose> purposeNamed(llvm::StringRef Name) {
  for (const auto &[Q, N] : PurposeNames)
    if (Name == N)
      return Q;
  return std::nullopt;
}

llvm::StringRef describe(Purpose P) {
  switch (P) {
  case Purpose::Log:
    return "to log it";
  case Purpose::Condition:
    return "to test a condition";
  case Purpose::Accumulate:
    return "to accumulate a metric";
  case Purpose::Store:
    return "to store it";
  case Purpose::Return:
    return "to return it";
  case Purpose::Other:
    return "";
  }
  return "";
}

} // namespace clang::tidy::mlperf
