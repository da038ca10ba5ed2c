#include "SourceUtils.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::mlperf {

std::string sourceText(SourceRange R, const ASTContext &Ctx) {
  if (!isMacroFree(R))
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), Ctx.getSourceManager(), Ctx.getLangOpts()).str();
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

bool isMacroFree(SourceRange R) { return R.isValid() && !R.getBegin().isMacroID() && !R.getEnd().isMacroID(); }

} // namespace clang::tidy::mlperf
