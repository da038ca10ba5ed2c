#include "Invariance.h"
#include "SourceUtils.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::mlperf {

namespace {
bool refersTo(const Expr *E, const VarDecl *VD) {
  if (!E)
    return false;
  E = stripWrappers(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == VD;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return refersTo(ME->getBase(), VD);
  return false;
}

class ChangeFinder : public RecursiveASTVisitor<ChangeFinder> {
public:
  explicit ChangeFinder(const VarDecl *VD) : VD(VD) {}
  bool Changed = false;

  bool VisitVarDecl(VarDecl *D) {
    if (D == VD)
      Changed = true;
    return !Changed;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && refersTo(BO->getLHS(), VD))
      Changed = true;
    return !Changed;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() && refersTo(UO->getSubExpr(), VD))
      Changed = true;
    return !Changed;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if ((OC->isAssignmentOp() || OC->getOperator() == OO_PlusPlus || OC->getOperator() == OO_MinusMinus) &&
        OC->getNumArgs() > 0 && refersTo(OC->getArg(0), VD))
      Changed = true;
    return !Changed;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && refersTo(MC->getImplicitObjectArgument(), VD) &&
        MD->getIdentifier() && MD->getName().ends_with("_"))
      Changed = true;
    return !Changed;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    unsigned Offset = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Offset; I < CE->getNumArgs() && I - Offset < FD->getNumParams(); ++I) {
      QualType PT = FD->getParamDecl(I - Offset)->getType();
      if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified() && refersTo(CE->getArg(I), VD))
        Changed = true;
    }
    return !Changed;
  }
  bool VisitUnaryAddrOf(UnaryOperator *UO) { return VisitUnaryOperator(UO); }

private:
  const VarDecl *VD;
};

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

bool contains(const Stmt *Region, SourceLocation Loc, const SourceManager &SM) {
  SourceRange R = Region->getSourceRange();
  return !SM.isBeforeInTranslationUnit(Loc, R.getBegin()) && !SM.isBeforeInTranslationUnit(R.getEnd(), Loc);
}
} // namespace

bool isChangedIn(const VarDecl *VD, const Stmt *Region) {
  ChangeFinder F(VD);
  F.TraverseStmt(const_cast<Stmt *>(Region));
  return F.Changed;
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
      if (contains(Loop, VD->getLocation(), SM) || isChangedIn(VD, Loop)) {
        Invariant = false;
        break;
      }
    if (!Invariant)
      break;
    Best = Loop;
  }
  return Best;
}

} // namespace clang::tidy::mlperf
