#include "Hoist.h"
#include "SourceUtils.h"

#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

namespace clang::tidy::mlperf {

namespace {
/// What the fixes of one translation unit handed out so far.
struct HoistState {
  const ASTContext *Ctx = nullptr;
  llvm::DenseMap<const Stmt *, unsigned> Slots;
  llvm::DenseSet<std::pair<const Stmt *, unsigned>> Seen;
  llvm::DenseMap<const FunctionDecl *, llvm::StringSet<>> Names;
};

thread_local HoistState Current;

HoistState &state(const ASTContext &Ctx) {
  if (Current.Ctx != &Ctx) {
    Current = HoistState();
    Current.Ctx = &Ctx;
  }
  return Current;
}

/// Whether \p Name occurs in \p Text as a whole identifier.
bool mentions(llvm::StringRef Text, llvm::StringRef Name) {
  for (size_t Pos = Text.find(Name); Pos != llvm::StringRef::npos; Pos = Text.find(Name, Pos + 1)) {
    bool Before = Pos > 0 && clang::isAsciiIdentifierContinue(Text[Pos - 1]);
    bool After = Pos + Name.size() < Text.size() && clang::isAsciiIdentifierContinue(Text[Pos + Name.size()]);
    if (!Before && !After)
      return true;
  }
  return false;
}

FixItHint insertBefore(const Stmt *Loop, llvm::StringRef Statement, const ASTContext &Ctx) {
  std::string Indent = indentationOf(Loop->getBeginLoc(), Ctx);
  // Several findings may hoist in front of the same loop. Insertions at one
  // offset conflict when fixes are applied together (tooling::Replacements),
  // so the k-th hoist in front of a loop inserts k characters earlier, inside
  // the indentation, with text that keeps the layout the same.
  unsigned K = state(Ctx).Slots[Loop]++;
  SourceLocation Begin = Loop->getBeginLoc();
  bool FirstOnLine = !Begin.isMacroID() && Ctx.getSourceManager().getSpellingColumnNumber(Begin) == Indent.size() + 1;
  if (K == 0 || !FirstOnLine || K > Indent.size() + 1)
    return FixItHint::CreateInsertion(Begin, (Statement + "\n" + Indent).str());
  if (K == Indent.size() + 1) // before the end of the previous line
    return FixItHint::CreateInsertion(Begin.getLocWithOffset(-static_cast<int>(K)), ("\n" + Indent + Statement).str());
  size_t Keep = Indent.size() - K;
  return FixItHint::CreateInsertion(
      Begin.getLocWithOffset(-static_cast<int>(K)),
      (llvm::StringRef(Indent).substr(Keep) + Statement + "\n" + llvm::StringRef(Indent).substr(0, Keep)).str());
}

/// Where a declaration in front of a loop goes: in its block, or in braces
/// that enclose the loop (opened after \p After when that is valid).
struct Placement {
  enum { Block, Braces, Refused } Kind = Refused;
  SourceLocation After;
};

Placement placementOf(const Stmt *Loop, const ModelAnalysis &A) {
  const Stmt *P = A.parent(Loop);
  auto Braces = [](SourceLocation After) { return Placement{Placement::Braces, After}; };
  if (!P)
    return {};
  if (isa<CompoundStmt>(P)) // a declaration among a switch's cases would be jumped over
    return isa_and_nonnull<SwitchStmt>(A.parent(P)) ? Braces({}) : Placement{Placement::Block, {}};
  if (const auto *If = dyn_cast<IfStmt>(P))
    return Braces(If->getThen() == Loop ? If->getRParenLoc() : If->getElseLoc());
  if (const auto *For = dyn_cast<ForStmt>(P); For && For->getBody() == Loop)
    return Braces(For->getRParenLoc());
  if (const auto *While = dyn_cast<WhileStmt>(P); While && While->getBody() == Loop)
    return Braces(While->getRParenLoc());
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(P); Range && Range->getBody() == Loop)
    return Braces(Range->getRParenLoc());
  if (const auto *Do = dyn_cast<DoStmt>(P); Do && Do->getBody() == Loop)
    return Braces(Do->getDoLoc());
  if (const auto *Case = dyn_cast<SwitchCase>(P); Case && Case->getSubStmt() == Loop)
    return Braces(Case->getColonLoc());
  if (const auto *Label = dyn_cast<LabelStmt>(P); Label && Label->getSubStmt() == Loop)
    return Braces({});
  return {};
}

/// Just past \p S, its semicolon included (a loop whose body is an expression ends before it).
SourceLocation statementEnd(const Stmt *S, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = Lexer::getLocForEndOfToken(S->getEndLoc(), 0, SM, Ctx.getLangOpts());
  auto [FID, Off] = SM.getDecomposedLoc(End);
  llvm::StringRef Buf = SM.getBufferData(FID);
  size_t I = Off;
  while (I < Buf.size() && llvm::StringRef(" \t\r\n").contains(Buf[I]))
    ++I;
  return I < Buf.size() && Buf[I] == ';' ? End.getLocWithOffset(static_cast<int>(I - Off) + 1) : End;
}

bool within(SourceLocation Loc, const Stmt *S, const SourceManager &SM) {
  return Loc.isValid() && SM.isPointWithin(SM.getExpansionLoc(Loc), SM.getExpansionLoc(S->getBeginLoc()),
                                           SM.getExpansionLoc(S->getEndLoc()));
}

/// Calls \p F on every reference to a declaration in \p S.
class References : public RecursiveASTVisitor<References> {
public:
  explicit References(std::function<bool(const NamedDecl *, bool ImplicitMember)> F) : F(std::move(F)) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) { return F(E->getDecl(), false); }
  bool VisitMemberExpr(MemberExpr *E) { return !E->isImplicitAccess() || F(E->getMemberDecl(), true); }

private:
  std::function<bool(const NamedDecl *, bool)> F;
};

/// Whether every local that \p Moved names is declared outside \p Loop (or inside \p Moved itself).
bool declaredOutside(const Stmt *Moved, const Stmt *Loop, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  References V([&](const NamedDecl *D, bool) {
    return !within(D->getLocation(), Loop, SM) || within(D->getLocation(), Moved, SM);
  });
  return V.TraverseStmt(const_cast<Stmt *>(Moved));
}
} // namespace

void resetHoists() { Current = HoistState(); }

std::string freshName(llvm::StringRef Base, const FunctionDecl *FD, const ASTContext &Ctx) {
  std::string Body = FD && FD->getBody() ? sourceText(FD->getBody()->getSourceRange(), Ctx) : "";
  llvm::StringSet<> &Given = state(Ctx).Names[FD];
  std::string Name = Base.str();
  for (int I = 2; mentions(Body, Name) || Given.contains(Name); ++I)
    Name = Base.str() + std::to_string(I);
  Given.insert(Name);
  return Name;
}

std::optional<llvm::SmallVector<FixItHint, 3>> hoistBefore(const Stmt *Loop, llvm::StringRef Statement,
                                                           const Stmt *Moved, const ModelAnalysis &A,
                                                           const ASTContext &Ctx) {
  if (!Loop || !isMacroFree(Loop->getSourceRange()) || (Moved && !declaredOutside(Moved, Loop, Ctx)))
    return std::nullopt;
  Placement P = placementOf(Loop, A);
  if (P.Kind == Placement::Refused)
    return std::nullopt;
  if (P.Kind == Placement::Block)
    return llvm::SmallVector<FixItHint, 3>{insertBefore(Loop, Statement, Ctx)};
  // One pair of braces per loop: a second hoist in front of it would need
  // its braces at the same places, so it offers no fix.
  if (state(Ctx).Slots[Loop]++ > 0)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Indent = indentationOf(Loop->getBeginLoc(), Ctx);
  SourceLocation End = statementEnd(Loop, Ctx);
  if (P.After.isValid() && !P.After.isMacroID()) {
    std::string Outer = indentationOf(A.parent(Loop)->getBeginLoc(), Ctx);
    return llvm::SmallVector<FixItHint, 3>{
        FixItHint::CreateInsertion(Lexer::getLocForEndOfToken(P.After, 0, SM, Ctx.getLangOpts()), " {"),
        FixItHint::CreateInsertion(Loop->getBeginLoc(), (Statement + "\n" + Indent).str()),
        FixItHint::CreateInsertion(End, "\n" + Outer + "}")};
  }
  return llvm::SmallVector<FixItHint, 3>{
      FixItHint::CreateInsertion(Loop->getBeginLoc(), ("{\n" + Indent + Statement + "\n" + Indent).str()),
      FixItHint::CreateInsertion(End, "\n" + Indent + "}")};
}

bool hoistKeepsNames(const VarDecl *VD, const Stmt *Loop, const ModelAnalysis &A) {
  // The new declaration is seen from the loop to the end of its block (or
  // the braces that enclose the loop).
  llvm::SmallVector<const Stmt *, 8> Region{Loop};
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(A.parent(Loop));
      Block && placementOf(Loop, A).Kind == Placement::Block) {
    Region.clear();
    bool From = false;
    for (const Stmt *S : Block->body())
      if ((From = From || S == Loop))
        Region.push_back(S);
  }
  const SourceManager &SM = VD->getASTContext().getSourceManager();
  for (const Stmt *S : Region) {
    References V([&](const NamedDecl *D, bool ImplicitMember) {
      if (D == VD || D->getDeclName() != VD->getDeclName())
        return true;
      return !ImplicitMember && llvm::any_of(Region, [&](const Stmt *R) { return within(D->getLocation(), R, SM); });
    });
    if (!V.TraverseStmt(const_cast<Stmt *>(S)))
      return false;
  }
  return true;
}

namespace {
unsigned profileOf(const Expr *E, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID ID;
  E->Profile(ID, Ctx, /*Canonical=*/true);
  return ID.ComputeHash();
}

class SameExpressions : public RecursiveASTVisitor<SameExpressions> {
public:
  SameExpressions(const Expr *E, const ASTContext &Ctx)
      : Ctx(Ctx), Wanted(profileOf(E, Ctx)), Class(E->getStmtClass()) {}
  bool VisitExpr(Expr *E) {
    if (E->getStmtClass() == Class && profileOf(E, Ctx) == Wanted)
      Found.push_back(E);
    return true;
  }
  llvm::SmallVector<const Expr *, 2> Found;

private:
  const ASTContext &Ctx;
  unsigned Wanted;
  Stmt::StmtClass Class;
};
} // namespace

bool firstHoistOf(const Expr *E, const Stmt *Loop, const ASTContext &Ctx) {
  return state(Ctx).Seen.insert({Loop, profileOf(E, Ctx)}).second;
}

llvm::SmallVector<const Expr *, 2> sameExpressionsIn(const Stmt *Loop, const Expr *E, const ASTContext &Ctx) {
  SameExpressions V(E, Ctx);
  V.TraverseStmt(const_cast<Stmt *>(Loop));
  return V.Found;
}

std::optional<FixItHint> removeStatement(const Stmt *S, const ModelAnalysis &A, const ASTContext &Ctx) {
  SourceRange R = S->getSourceRange();
  if (!isMacroFree(R) || !isa_and_nonnull<CompoundStmt>(A.parent(S)))
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, Ctx.getLangOpts());
  auto [FID, BeginOff] = SM.getDecomposedLoc(R.getBegin());
  unsigned EndOff = SM.getFileOffset(End);
  StringRef Buf = SM.getBufferData(FID);
  // A declaration's range may end at its semicolon or just past it.
  if (unsigned Last = SM.getFileOffset(R.getEnd()); Last < Buf.size() && Buf[Last] == ';')
    EndOff = Last + 1;
  else if (Last > 0 && Buf[Last - 1] == ';')
    EndOff = Last;
  End = SM.getLocForStartOfFile(FID).getLocWithOffset(EndOff);
  size_t LineStart = BeginOff;
  while (LineStart > 0 && (Buf[LineStart - 1] == ' ' || Buf[LineStart - 1] == '\t'))
    --LineStart;
  size_t LineEnd = EndOff;
  while (LineEnd < Buf.size() && (Buf[LineEnd] == ' ' || Buf[LineEnd] == '\t'))
    ++LineEnd;
  // A CRLF line ends with "\r\n": the '\r' belongs to the line ending.
  bool Crlf = LineEnd + 1 < Buf.size() && Buf[LineEnd] == '\r' && Buf[LineEnd + 1] == '\n';
  bool WholeLine =
      (LineStart == 0 || Buf[LineStart - 1] == '\n') && (LineEnd == Buf.size() || Buf[LineEnd] == '\n' || Crlf);
  if (WholeLine && LineStart > 0) {
    // Remove the line with the newline before it: clang's edit merging widens
    // a removal that is followed by a space (the next line's indentation).
    size_t From = LineStart - 1;
    if (Crlf && From > 0 && Buf[From - 1] == '\r')
      --From;
    SourceLocation FileStart = SM.getLocForStartOfFile(FID);
    return FixItHint::CreateRemoval(
        CharSourceRange::getCharRange(FileStart.getLocWithOffset(From), FileStart.getLocWithOffset(LineEnd)));
  }
  return FixItHint::CreateRemoval(CharSourceRange::getCharRange(R.getBegin(), End));
}

} // namespace clang::tidy::mlperf
