// Small ASTs for the unit tests of checks/analysis: a snippet of C++ parsed
// after `#include <mini_torch.h>` (tests/lint/data/analysis, a system header as
// libtorch's is) with the fixtures' include paths (fixtures/common,
// profiles/include), and the model analysis of it under the built-in profiles.
#pragma once

#include "analysis/ApiProfile.h"
#include "analysis/ModelAnalysis.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"

#include <memory>
#include <string>
#include <vector>

namespace mlperf::test {

/// The profiles shipped with mlperf-lint, loaded once.
const clang::tidy::mlperf::ApiProfiles &builtinProfiles();

class Snippet {
public:
  enum class Errors { Fail, Allow };
  /// Parses \p Code (after the stand-in's include) as "input.cc"; unless
  /// allowed, a compiler error fails the current test and leaves ok() false.
  explicit Snippet(const std::string &Code, const clang::tidy::mlperf::ApiProfiles &Profiles = builtinProfiles(),
                   Errors E = Errors::Fail);
  bool ok() const { return Analysis != nullptr; }
  clang::ASTContext &context() const { return AST->getASTContext(); }
  clang::tidy::mlperf::ModelAnalysis &analysis() const { return *Analysis; }

  /// The \p Index-th node that \p M matches in source order (of two that
  /// begin at one place, the outer first), or null.
  template <class T, class Matcher> const T *nth(const Matcher &M, unsigned Index = 0) const {
    std::vector<const T *> Found;
    for (const clang::ast_matchers::BoundNodes &N : clang::ast_matchers::match(M.bind("n"), context()))
      if (const T *Node = N.template getNodeAs<T>("n"))
        Found.push_back(Node);
    const clang::SourceManager &SM = context().getSourceManager();
    llvm::sort(Found, [&](const T *A, const T *B) {
      if (A->getBeginLoc() != B->getBeginLoc())
        return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
      return SM.isBeforeInTranslationUnit(B->getEndLoc(), A->getEndLoc());
    });
    return Index < Found.size() ? Found[Index] : nullptr;
  }
  // The finders below look in the snippet only, not in the headers it includes.
  /// The \p Index-th call, in function \p Fn, of a function or method named \p Name.
  const clang::CallExpr *call(const std::string &Fn, const std::string &Name, unsigned Index = 0) const;
  /// The \p Index-th loop (for, range-for, while, do) in function \p Fn.
  const clang::Stmt *loop(const std::string &Fn, unsigned Index = 0) const;
  const clang::VarDecl *var(const std::string &Name) const;
  const clang::FunctionDecl *function(const std::string &Name) const;
  /// The initializer of variable \p Name, without its implicit wrappers.
  const clang::Expr *init(const std::string &Name) const;

private:
  std::unique_ptr<clang::DiagnosticConsumer> Quiet; // outlives the AST, which keeps a pointer to it
  std::unique_ptr<clang::ASTUnit> AST;
  std::unique_ptr<clang::tidy::mlperf::ModelAnalysis> Analysis;
};

/// Installs project summaries for the analyses built while it lives.
class ScopedSummaries {
public:
  explicit ScopedSummaries(std::shared_ptr<const clang::tidy::mlperf::ProjectSummaries> S);
  ~ScopedSummaries();
};

} // namespace mlperf::test
