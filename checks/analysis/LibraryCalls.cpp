#include "LibraryCalls.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::mlperf {

CodeScope::CodeScope(llvm::StringRef HeaderFilter, llvm::StringRef ExcludeHeaderFilter)
    : Header(HeaderFilter), Exclude(ExcludeHeaderFilter), HaveHeader(!HeaderFilter.empty() && Header.isValid()),
      HaveExclude(!ExcludeHeaderFilter.empty() && Exclude.isValid()) {}

bool CodeScope::isLibrary(SourceLocation Loc, const SourceManager &SM) const {
  Loc = SM.getExpansionLoc(Loc);
  if (Loc.isInvalid())
    return false;
  if (SM.isInSystemHeader(Loc))
    return true;
  FileID FID = SM.getFileID(Loc);
  if (FID == SM.getMainFileID())
    return false;
  auto Entry = SM.getFileEntryRefForID(FID);
  if (!Entry)
    return false;
  llvm::StringRef Name = Entry->getName();
  return !(HaveHeader && Header.match(Name)) || (HaveExclude && Exclude.match(Name));
}

std::optional<LibraryReach> LibraryReaches::find(const FunctionDecl *FD, Role R, unsigned Depth) {
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->getBody() || Def->isDependentContext())
    return std::nullopt;
  auto Key = std::make_pair(Def, static_cast<int>(R));
  if (auto It = Memo.find(Key); It != Memo.end())
    return It->second;
  Memo[Key] = std::nullopt; // a recursive library function reaches nothing through itself
  std::vector<const FunctionDecl *> Through = {Def};
  std::optional<LibraryReach> Result;
  if (const Expr *Inner = findIn(Def->getBody(), R, Depth, Through))
    Result = LibraryReach{Inner, Through};
  return Memo[Key] = Result;
}

const Expr *LibraryReaches::findIn(const Stmt *S, Role R, unsigned Depth, std::vector<const FunctionDecl *> &Through) {
  if (!S || isa<CXXThrowExpr, LambdaExpr>(S))
    return nullptr;
  if (const auto *E = dyn_cast<Expr>(S); E && isa<CallExpr, CXXConstructExpr>(E)) {
    if (auto M = Profiles.match(E)) {
      if (M->R == R)
        return E;
    } else if (const auto *CE = dyn_cast<CallExpr>(E); CE && Depth > 1) {
      if (auto Deeper = find(CE->getDirectCallee(), R, Depth - 1)) {
        Through.insert(Through.end(), Deeper->Through.begin(), Deeper->Through.end());
        return Deeper->Inner;
      }
    }
  }
  for (const Stmt *Child : S->children())
    if (const Expr *Found = findIn(Child, R, Depth, Through))
      return Found;
  return nullptr;
}

} // namespace clang::tidy::mlperf
