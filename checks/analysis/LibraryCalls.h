// Code the user cannot change: system headers, and headers outside what the
// run reports (the header filter, less the exclude filter). A cost inside such
// a library function is reported at the project's call of it.
#pragma once

#include "ApiProfile.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Regex.h"

#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::mlperf {

class CodeScope {
public:
  CodeScope(llvm::StringRef HeaderFilter, llvm::StringRef ExcludeHeaderFilter);
  /// Whether the code at \p Loc (its expansion) is in a library.
  bool isLibrary(SourceLocation Loc, const SourceManager &SM) const;

private:
  llvm::Regex Header, Exclude;
  bool HaveHeader, HaveExclude;
};

/// A call with a role, reached by calling a library function.
struct LibraryReach {
  const Expr *Inner;                         // the call with the role, inside the library
  std::vector<const FunctionDecl *> Through; // the library functions from the called one to Inner's
};

/// Finds, per translation unit, the first call with a given role that a
/// library function runs on every call: in its body or in the library
/// functions it calls, a few levels deep, outside `throw` expressions.
class LibraryReaches {
public:
  explicit LibraryReaches(const ApiProfiles &Profiles) : Profiles(Profiles) {}
  std::optional<LibraryReach> find(const FunctionDecl *FD, Role R, unsigned Depth = 3);

private:
  const Expr *findIn(const Stmt *S, Role R, unsigned Depth, std::vector<const FunctionDecl *> &Through);
  const ApiProfiles &Profiles;
  llvm::DenseMap<std::pair<const FunctionDecl *, int>, std::optional<LibraryReach>> Memo;
};

} // namespace clang::tidy::mlperf
