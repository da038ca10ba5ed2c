#include "SourceUtils.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

namespace clang::tidy::mlperf {

std::string sourceText(SourceRange R, const ASTContext &Ctx) {
  if (!isMacroFree(R))
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), Ctx.getSourceManager(), Ctx.getLangOpts()).str();
}

std::string fileLine(SourceLocation Loc, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  return P.isValid() ? (llvm::sys::path::filename(P.getFilename()) + ":" + llvm::Twine(P.getLine())).str() : "";
}

std::string indentationOf(SourceLocation Loc, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  StringRef Buf = SM.getBufferData(FID);
  size_t LineStart = Buf.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  size_t End = LineStart;
  while (End < Buf.size() && (Buf[End] == ' ' || Buf[End] == '\t'))
    ++End;
  return Buf.substr(LineStart, End - LineStart).str();
}

bool commentMentions(SourceLocation Loc, StringRef Word, const SourceManager &SM) {
  auto [FID, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
  StringRef Buf = SM.getBufferData(FID);
  auto LineAt = [&](size_t Pos) {
    size_t Begin = Pos == 0 ? 0 : Buf.rfind('\n', Pos - 1);
    Begin = Begin == StringRef::npos ? 0 : Begin + 1;
    return std::make_pair(Begin, std::min(Buf.find('\n', Pos), Buf.size()));
  };
  auto [Begin, End] = LineAt(Offset);
  StringRef Line = Buf.slice(Begin, End);
  size_t Comment = std::min(Line.find("//"), Line.find("/*"));
  if (Comment != StringRef::npos && Line.substr(Comment).contains_insensitive(Word))
    return true;
  if (Begin == 0)
    return false;
  auto [AboveBegin, AboveEnd] = LineAt(Begin - 1);
  StringRef Above = Buf.slice(AboveBegin, AboveEnd).trim();
  return (Above.starts_with("//") || Above.starts_with("/*") || Above.starts_with("*")) &&
         Above.contains_insensitive(Word);
}

const Expr *stripWrappers(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(Next))
      Next = C->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(Next);
             C && C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor())
      Next = C->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

const Expr *stripConversions(const Expr *E) {
  while (true) {
    E = stripWrappers(E);
    if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && !isa<CXXTemporaryObjectExpr>(C) && C->getNumArgs() >= 1 &&
             (C->getNumArgs() == 1 || isa<CXXDefaultArgExpr>(C->getArg(1))))
      E = C->getArg(0);
    else
      return E;
  }
}

bool contains(const Stmt *Region, SourceLocation Loc, const SourceManager &SM) {
  SourceRange R = Region->getSourceRange();
  return !SM.isBeforeInTranslationUnit(Loc, R.getBegin()) && !SM.isBeforeInTranslationUnit(R.getEnd(), Loc);
}

bool assignedAfterDeclaration(const VarDecl *V) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  return !FD || assignsTo(FD->getBody(), V);
}

std::optional<Equality> equalityOperands(const Expr *Cond) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond); BO && BO->isEqualityOp())
    return Equality{BO->getLHS(), BO->getRHS(), BO->getOpcode() == BO_EQ};
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Cond);
      OC && OC->getNumArgs() == 2 && (OC->getOperator() == OO_EqualEqual || OC->getOperator() == OO_ExclaimEqual))
    return Equality{OC->getArg(0), OC->getArg(1), OC->getOperator() == OO_EqualEqual};
  return std::nullopt;
}

unsigned objectArguments(const Expr *Call) {
  const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(Call);
  return OC && isa_and_nonnull<CXXMethodDecl>(OC->getDirectCallee()) ? 1 : 0;
}

const Expr *argumentFor(const Expr *Call, std::optional<unsigned> Param, bool DefaultValue) {
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *CE = dyn_cast_or_null<CallExpr>(Call))
    Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  else if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(Call))
    Args = llvm::ArrayRef(C->getArgs(), C->getNumArgs());
  unsigned I = Param ? *Param + objectArguments(Call) : Args.size();
  if (I >= Args.size())
    return nullptr;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(Args[I]))
    return DefaultValue ? D->getExpr() : nullptr;
  return Args[I];
}

bool declaredInSystemHeader(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  return D->getLocation().isValid() && SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

llvm::SmallVector<const CXXMethodDecl *, 4> overriddenTransitively(const CXXMethodDecl *MD) {
  llvm::SmallVector<const CXXMethodDecl *, 4> Out;
  llvm::SmallVector<const CXXMethodDecl *, 4> Todo(MD->overridden_methods());
  while (!Todo.empty()) {
    const CXXMethodDecl *Base = Todo.pop_back_val()->getCanonicalDecl();
    if (llvm::is_contained(Out, Base))
      continue;
    Out.push_back(Base);
    Todo.append(Base->overridden_methods().begin(), Base->overridden_methods().end());
  }
  return Out;
}

bool refersToAnyOf(const Stmt *S, llvm::ArrayRef<const VarDecl *> Vars) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return llvm::is_contained(Vars, DRE->getDecl());
  return llvm::any_of(S->children(), [&](const Stmt *C) { return refersToAnyOf(C, Vars); });
}

static void collectReturns(const Stmt *S, llvm::SmallVectorImpl<const ReturnStmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *RS = dyn_cast<ReturnStmt>(S))
    Out.push_back(RS);
  for (const Stmt *C : S->children())
    collectReturns(C, Out);
}

llvm::SmallVector<const ReturnStmt *, 4> returnStatements(const Stmt *Body) {
  llvm::SmallVector<const ReturnStmt *, 4> Out;
  collectReturns(Body, Out);
  return Out;
}

const VarDecl *namedVar(const Expr *E) {
  if (!E)
    return nullptr;
  E = stripWrappers(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = stripWrappers(U->getSubExpr());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

static const VarDecl *firstVariableIn(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return dyn_cast<VarDecl>(DRE->getDecl());
  for (const Stmt *C : S->children())
    if (const VarDecl *V = firstVariableIn(C))
      return V;
  return nullptr;
}

/// The container a range-for's reference variable walks: through the
/// implicit `__begin` and `__range` variables clang declares for it.
static const VarDecl *walkedContainer(const VarDecl *LoopVar) {
  if (!LoopVar->isCXXForRangeDecl() || !LoopVar->getType()->isReferenceType())
    return nullptr;
  const VarDecl *V = firstVariableIn(LoopVar->getInit());
  for (unsigned Depth = 0; V && V->isImplicit() && Depth < 4; ++Depth)
    V = firstVariableIn(V->getInit());
  return V && !V->isImplicit() ? V : nullptr;
}

const VarDecl *namedVarOrElementOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = stripWrappers(E);
  if (const VarDecl *V = namedVar(E))
    if (const VarDecl *Container = walkedContainer(V))
      return Container;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return namedVar(AS->getBase());
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript)
    return namedVar(OC->getArg(0));
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() && MC->getMethodDecl()->getName() == "at")
    return namedVar(MC->getImplicitObjectArgument());
  return namedVar(E);
}

static void collectAssignedValues(const Stmt *S, const VarDecl *V, llvm::SmallVectorImpl<const Expr *> &Out) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign && namedVar(BO->getLHS()) == V)
    Out.push_back(BO->getRHS());
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
      OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && namedVar(OC->getArg(0)) == V)
    Out.push_back(OC->getArg(1));
  for (const Stmt *C : S->children())
    collectAssignedValues(C, V, Out);
}

llvm::SmallVector<const Expr *, 2> assignedValues(const Stmt *S, const VarDecl *V) {
  llvm::SmallVector<const Expr *, 2> Out;
  collectAssignedValues(S, V, Out);
  return Out;
}

bool assignsTo(const Stmt *S, const VarDecl *V) { return !assignedValues(S, V).empty(); }

std::optional<int64_t> constInt(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = stripWrappers(E);
  if (E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  if (const VarDecl *VD = namedVar(E); VD && VD->getType().isConstQualified() && VD->getInit())
    return constInt(VD->getInit(), Ctx);
  return std::nullopt;
}

bool isConstant(const Expr *E, const ASTContext &Ctx) {
  E = stripWrappers(E);
  if (E->isValueDependent())
    return false;
  if (E->isIntegerConstantExpr(Ctx))
    return true;
  if (const VarDecl *VD = namedVar(E); VD && VD->getType().isConstQualified() && VD->getInit())
    return isConstant(VD->getInit(), Ctx);
  return false;
}

std::optional<std::string> constString(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = stripWrappers(E);
  if (const auto *SL = dyn_cast<StringLiteral>(E))
    return SL->getString().str();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() >= 1)
    return constString(CE->getArg(0));
  if (const VarDecl *VD = namedVar(E); VD && VD->getInit() && VD->getType().isConstQualified())
    return constString(VD->getInit());
  return std::nullopt;
}

std::optional<int64_t> constVolume(const Expr *E, unsigned Rank, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = stripWrappers(E);
  if (std::optional<int64_t> V = constInt(E, Ctx)) {
    int64_t P = 1;
    for (unsigned I = 0; I < Rank; ++I)
      P *= *V;
    return P;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    int64_t P = 1;
    for (const Expr *Init : IL->inits()) {
      std::optional<int64_t> V = constInt(Init, Ctx);
      if (!V)
        return std::nullopt;
      P *= *V;
    }
    return IL->getNumInits() ? std::optional<int64_t>(P) : std::nullopt;
  }
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
    return constVolume(SIL->getSubExpr(), Rank, Ctx);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() >= 1)
    return constVolume(CE->getArg(0), Rank, Ctx);
  return std::nullopt;
}

bool isMacroFree(SourceRange R) { return R.isValid() && !R.getBegin().isMacroID() && !R.getEnd().isMacroID(); }

} // namespace clang::tidy::mlperf
