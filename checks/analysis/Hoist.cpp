#include "Hoist.h"
#include "SourceUtils.h"

#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"

namespace clang::tidy::mlperf {

std::string freshName(llvm::StringRef Base, const FunctionDecl *FD, const ASTContext &Ctx) {
  std::string Body = FD && FD->getBody() ? sourceText(FD->getBody()->getSourceRange(), Ctx) : "";
  auto Used = [&](const std::string &Name) {
    for (size_t Pos = Body.find(Name); Pos != std::string::npos; Pos = Body.find(Name, Pos + 1)) {
      auto IsId = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
      bool Before = Pos > 0 && IsId(Body[Pos - 1]);
      bool After = Pos + Name.size() < Body.size() && IsId(Body[Pos + Name.size()]);
      if (!Before && !After)
        return true;
    }
    return false;
  };
  std::string Name = Base.str();
  for (int I = 2; Used(Name); ++I)
    Name = Base.str() + std::to_string(I);
  return Name;
}

FixItHint insertBefore(const Stmt *Loop, llvm::StringRef Statement, const ASTContext &Ctx) {
  std::string Indent = indentationOf(Loop->getBeginLoc(), Ctx);
  // Several findings may hoist in front of the same loop. Insertions at one
  // offset conflict when fixes are applied together (tooling::Replacements),
  // so the k-th hoist in front of a loop inserts k characters earlier, inside
  // the indentation, with text that keeps the layout the same.
  thread_local const ASTContext *SlotsCtx = nullptr;
  thread_local llvm::DenseMap<const Stmt *, unsigned> Slots;
  if (SlotsCtx != &Ctx) {
    SlotsCtx = &Ctx;
    Slots.clear();
  }
  unsigned K = Slots[Loop]++;
  SourceLocation Begin = Loop->getBeginLoc();
  bool FirstOnLine =
      !Begin.isMacroID() && Ctx.getSourceManager().getSpellingColumnNumber(Begin) == Indent.size() + 1;
  if (K == 0 || !FirstOnLine || K > Indent.size() + 1)
    return FixItHint::CreateInsertion(Begin, (Statement + "\n" + Indent).str());
  if (K == Indent.size() + 1)  // before the end of the previous line
    return FixItHint::CreateInsertion(Begin.getLocWithOffset(-static_cast<int>(K)),
                                      ("\n" + Indent + Statement).str());
  size_t Keep = Indent.size() - K;
  return FixItHint::CreateInsertion(Begin.getLocWithOffset(-static_cast<int>(K)),
                                    (llvm::StringRef(Indent).substr(Keep) + Statement + "\n" +
                                     llvm::StringRef(Indent).substr(0, Keep))
                                        .str());
}

namespace {
unsigned profileOf(const Expr *E, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID ID;
  E->Profile(ID, Ctx, /*Canonical=*/true);
  return ID.ComputeHash();
}

class SameExpressions : public RecursiveASTVisitor<SameExpressions> {
public:
  SameExpressions(const Expr *E, const ASTContext &Ctx) : Ctx(Ctx), Wanted(profileOf(E, Ctx)), Class(E->getStmtClass()) {}
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
  thread_local const ASTContext *SeenCtx = nullptr;
  thread_local llvm::DenseSet<std::pair<const Stmt *, unsigned>> Seen;
  if (SeenCtx != &Ctx) {
    SeenCtx = &Ctx;
    Seen.clear();
  }
  return Seen.insert({Loop, profileOf(E, Ctx)}).second;
}

llvm::SmallVector<const Expr *, 2> sameExpressionsIn(const Stmt *Loop, const Expr *E, const ASTContext &Ctx) {
  SameExpressions V(E, Ctx);
  V.TraverseStmt(const_cast<Stmt *>(Loop));
  return V.Found;
}

std::optional<FixItHint> removeStatement(const Stmt *S, const ASTContext &Ctx) {
  SourceRange R = S->getSourceRange();
  if (!isMacroFree(R))
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
  bool WholeLine = (LineStart == 0 || Buf[LineStart - 1] == '\n') &&
                   (LineEnd == Buf.size() || Buf[LineEnd] == '\n' || Crlf);
  if (WholeLine && LineStart > 0) {
    // Remove the line with the newline before it: clang's edit merging widens
    // a removal that is followed by a space (the next line's indentation).
    size_t From = LineStart - 1;
    if (Crlf && From > 0 && Buf[From - 1] == '\r')
      --From;
    SourceLocation FileStart = SM.getLocForStartOfFile(FID);
    return FixItHint::CreateRemoval(CharSourceRange::getCharRange(FileStart.getLocWithOffset(From),
                                                                  FileStart.getLocWithOffset(LineEnd)));
  }
  return FixItHint::CreateRemoval(CharSourceRange::getCharRange(R.getBegin(), End));
}

} // namespace clang::tidy::mlperf
