#include "AnalysisTestSupport.h"
#include "LintTestSupport.h"

#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

namespace mlperf::test {

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::mlperf;

const ApiProfiles &builtinProfiles() {
  static const ApiProfiles *P = [] {
    auto *Loaded = new ApiProfiles();
    Loaded->addBuiltins();
    return Loaded;
  }();
  return *P;
}

Snippet::Snippet(const std::string &Code, const ApiProfiles &Profiles, Errors E) {
  std::vector<std::string> Args = fixtureArgs(/*NeedsTorch=*/false);
  Args.push_back("-isystem" MLPERF_SOURCE_DIR "/tests/lint/data/analysis");
  if (E == Errors::Allow) // errors a test allows are not printed
    Quiet = std::make_unique<IgnoringDiagConsumer>();
  AST = tooling::buildASTFromCodeWithArgs(
      "#include <mini_torch.h>\n" + Code, Args, "input.cc", "clang-tool", std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(), tooling::FileContentMappings(), Quiet.get());
  if (!AST || (E == Errors::Fail && AST->getDiagnostics().hasErrorOccurred())) {
    ADD_FAILURE() << "the snippet does not compile (the compiler's errors are above):\n" << Code;
    return;
  }
  Analysis = std::make_unique<ModelAnalysis>(AST->getASTContext(), Profiles);
}

const CallExpr *Snippet::call(const std::string &Fn, const std::string &Name, unsigned Index) const {
  return nth<CallExpr>(
      callExpr(callee(functionDecl(hasName(Name))), isExpansionInMainFile(), hasAncestor(functionDecl(hasName(Fn)))),
      Index);
}

const Stmt *Snippet::loop(const std::string &Fn, unsigned Index) const {
  return nth<Stmt>(stmt(anyOf(forStmt(), cxxForRangeStmt(), whileStmt(), doStmt()), isExpansionInMainFile(),
                        hasAncestor(functionDecl(hasName(Fn)))),
                   Index);
}

const VarDecl *Snippet::var(const std::string &Name) const {
  return nth<VarDecl>(varDecl(hasName(Name), isExpansionInMainFile()));
}

const FunctionDecl *Snippet::function(const std::string &Name) const {
  return nth<FunctionDecl>(functionDecl(hasName(Name), isDefinition(), isExpansionInMainFile()));
}

const Expr *Snippet::init(const std::string &Name) const {
  const VarDecl *V = var(Name);
  return V && V->getInit() ? V->getInit()->IgnoreImplicit() : nullptr;
}

ScopedSummaries::ScopedSummaries(std::shared_ptr<const ProjectSummaries> S) { setProjectSummaries(std::move(S)); }
ScopedSummaries::~ScopedSummaries() { setProjectSummaries(nullptr); }

} // namespace mlperf::test
