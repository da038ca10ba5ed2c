// ModelAnalysis (checks/analysis/ModelAnalysis.h) on small programs over the
// libtorch stand-in: which functions and loops run or train the model, which
// statements a loop repeats, guards, and what another file's summary adds.
#include "AnalysisTestSupport.h"
#include "analysis/Purpose.h"
#include "analysis/SummaryCollector.h"

#include <gtest/gtest.h>

namespace mlperf::test {
namespace {

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::mlperf;

const char *const Trainer = R"cc(
struct Net : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x) { return x.unsqueeze(0); }
};
torch::Tensor step(Net &net, const torch::Tensor &x) { return net.forward(x); }
void train(Net &net, torch::optim::SGD &opt, torch::Tensor x, int steps) {
  for (int i = 0; i < steps; ++i) {
    torch::Tensor y = step(net, x);
    y.backward();
    opt.step();
    if (i % 100 == 0)
      y.item();
  }
}
float evaluate(Net &net, torch::Tensor x, int n) {
  float total = 0;
  for (int i = 0; i < n; ++i)
    total += net.forward(x).item();
  return total;
}
void epochs(Net &net, torch::optim::SGD &opt, torch::Tensor x) {
  for (int e = 0; e < 3; ++e)
    for (int i = 0; i < 10; ++i) {
      net.forward(x).backward();
      opt.step();
    }
}
void idle(int n) {
  for (int i = 0; i < n; ++i) {
  }
}
)cc";

class AnalysisModel : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_TRUE(S.ok()); }
  Snippet S{Trainer};
};

TEST_F(AnalysisModel, HotRootsAndWhatFunctionsReach) {
  ModelAnalysis &A = S.analysis();
  EXPECT_TRUE(A.isHotRoot(S.function("forward"))) << "a module's forward runs every step by itself";
  EXPECT_FALSE(A.isHotRoot(S.function("step")));
  EXPECT_TRUE(A.stepsDirectly(S.function("step")));
  EXPECT_FALSE(A.stepsDirectly(S.function("train"))) << "its steps are in its loop";
  EXPECT_TRUE(A.reachesStep(S.function("train")));
  EXPECT_FALSE(A.reachesStep(S.function("idle")));
  EXPECT_TRUE(A.reachesTraining(S.function("train")));
  EXPECT_FALSE(A.reachesTraining(S.function("evaluate")));
}

TEST_F(AnalysisModel, TrainingLoopsAndTheLoopsThatTrainDirectly) {
  ModelAnalysis &A = S.analysis();
  EXPECT_TRUE(A.isTraining(S.loop("train")));
  EXPECT_FALSE(A.isTraining(S.loop("evaluate")));
  EXPECT_TRUE(A.trainsDirectly(S.loop("train")));
  const Stmt *Epoch = S.loop("epochs", 0), *Inner = S.loop("epochs", 1);
  EXPECT_TRUE(A.isTraining(Epoch)) << "a nested loop trains";
  EXPECT_FALSE(A.trainsDirectly(Epoch)) << "... but not the epoch loop's own body";
  EXPECT_TRUE(A.trainsDirectly(Inner));
}

TEST_F(AnalysisModel, PerStepStatementsInLoopsHotRootsAndUnderGuards) {
  ModelAnalysis &A = S.analysis();
  std::optional<HotContext> Backward = A.perStep(S.call("train", "backward"));
  ASSERT_TRUE(Backward);
  EXPECT_EQ(Backward->Loop, S.loop("train"));
  EXPECT_TRUE(Backward->Training);
  EXPECT_FALSE(A.perStep(S.call("train", "item"))) << "under `i % 100 == 0`";
  EXPECT_TRUE(A.periodicIn(S.call("train", "item"), S.loop("train")));
  EXPECT_FALSE(A.periodicIn(S.call("train", "backward"), S.loop("train")));

  std::optional<HotContext> InForward = A.perStep(S.call("forward", "unsqueeze"));
  ASSERT_TRUE(InForward);
  EXPECT_EQ(InForward->HotRoot, S.function("forward"));
  EXPECT_FALSE(InForward->Loop);
  EXPECT_FALSE(A.perStep(S.nth<DeclStmt>(declStmt(has(varDecl(hasName("total"))))))) << "before the loop";
}

TEST_F(AnalysisModel, LoopsParentsOwnersAndCallSites) {
  ModelAnalysis &A = S.analysis();
  const CallExpr *Backward = S.call("train", "backward");
  const Stmt *Loop = S.loop("train");
  EXPECT_TRUE(A.isLoop(Loop));
  EXPECT_FALSE(A.isLoop(Backward));
  EXPECT_EQ(A.owner(Backward), S.function("train"));
  EXPECT_EQ(A.innermostLoop(Backward), Loop);
  EXPECT_EQ(A.parent(loopBody(Loop)), Loop);
  const auto *For = cast<ForStmt>(Loop);
  EXPECT_TRUE(A.isRepeatedBy(For->getBody(), Loop));
  EXPECT_FALSE(A.isRepeatedBy(For->getInit(), Loop)) << "a for loop's initialization runs once";
  EXPECT_EQ(loopBody(Backward), nullptr);

  std::vector<const Expr *> Sites = A.callSites(S.function("step"));
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_EQ(Sites.front(), S.call("train", "step"));
  EXPECT_TRUE(A.callSites(S.function("idle")).empty());
  EXPECT_EQ(A.mainFileName(), "input.cc");
}

TEST(AnalysisModelConventions, AProjectsOwnBackwardPassMakesATrainingLoopALibrarysDoesNot) {
  Snippet S(R"cc(
struct Mlp {
  void forward(float *x);
  void backward(float *x);
};
void layer_backward(float *g);
void train(Mlp &m, float *x) {
  for (int i = 0; i < 10; ++i) { m.forward(x); m.backward(x); }
}
void train_free(Mlp &m, float *x) {
  for (int i = 0; i < 10; ++i) { m.forward(x); layer_backward(x); }
}
void library(torch::Tensor t) {
  for (int i = 0; i < 10; ++i) at::mse_loss_backward(t, t, t);
}
void forward_only(Mlp &m, float *x) {
  for (int i = 0; i < 10; ++i) m.forward(x);
}
)cc");
  ASSERT_TRUE(S.ok());
  ModelAnalysis &A = S.analysis();
  EXPECT_TRUE(A.isTraining(S.loop("train"))) << "Mlp::backward (profiles/conventions.json)";
  EXPECT_TRUE(A.isTraining(S.loop("train_free"))) << "layer_backward";
  EXPECT_FALSE(A.isTraining(S.loop("library"))) << "a library's function of that name, in a system header";
  EXPECT_FALSE(A.isTraining(S.loop("forward_only")));
}

TEST(AnalysisModelLoops, StatementMacroLoopsAndLoopsThatRunOnceAreNotLoops) {
  Snippet S(R"cc(
void f(torch::Tensor x, int n) {
  do { x.item(); } while (0);
  for (int i = 0; i < n; ++i) { x.item(); break; }
  while (n > 0) { x.item(); --n; }
}
)cc");
  ASSERT_TRUE(S.ok());
  EXPECT_FALSE(S.analysis().isLoop(S.loop("f", 0)));
  EXPECT_FALSE(S.analysis().isLoop(S.loop("f", 1)));
  EXPECT_TRUE(S.analysis().isLoop(S.loop("f", 2)));
}

TEST(AnalysisModelGuards, ConstantConditionsThatExcludeCodeNeverRun) {
  Snippet S(R"cc(
const bool verbose = false;
void f(torch::Tensor x, bool flag) {
  if (verbose) x.item();
  if (!verbose) x.cpu();
  if (flag) x.cuda();
}
)cc");
  ASSERT_TRUE(S.ok());
  EXPECT_TRUE(S.analysis().neverRuns(S.call("f", "item")));
  EXPECT_FALSE(S.analysis().neverRuns(S.call("f", "cpu")));
  EXPECT_FALSE(S.analysis().neverRuns(S.call("f", "cuda"))) << "a run-time condition";
}

TEST(AnalysisModelDrops, ALoopClangCouldNotTypeIsMissingFromItsParent) {
  const std::string Decls = "struct Net : torch::nn::Module { torch::Tensor forward(const torch::Tensor &x); };\n";
  Snippet Dropped(Decls + R"cc(
void f(Net &net, torch::Tensor x, int n) {
  for (int i = 0; i < n; ++i) {
    for (auto &batch : missing_loader) net.forward(batch);
    net.forward(x);
  }
}
)cc",
                  builtinProfiles(), Snippet::Errors::Allow);
  ASSERT_TRUE(Dropped.ok());
  ASSERT_TRUE(Dropped.loop("f"));
  EXPECT_TRUE(Dropped.analysis().dropsLoop(Dropped.loop("f")));

  Snippet Whole(Decls + R"cc(
void f(Net &net, torch::Tensor x, int n) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 2; ++j) net.forward(x);  // a for loop in a comment: while
  }
}
)cc");
  ASSERT_TRUE(Whole.ok());
  EXPECT_FALSE(Whole.analysis().dropsLoop(Whole.loop("f")));
}

TEST(AnalysisModelRoles, RolesOfCallsAndCallsMatchedByNameInTemplates) {
  Snippet S(R"cc(
template <class T> float pattern(T &t) { return t.item(); }
float use(torch::Tensor x) { x.backward(); return torch::to_float(x); }
)cc");
  ASSERT_TRUE(S.ok());
  ModelAnalysis &A = S.analysis();
  std::optional<RoleMatch> Backward = A.role(S.call("use", "backward"));
  ASSERT_TRUE(Backward);
  EXPECT_EQ(Backward->R, Role::Step);
  EXPECT_EQ(Backward->kind(), Kind::Backward);
  EXPECT_FALSE(A.role(S.call("use", "to_float"))) << "a library function without a role of its own";
  EXPECT_TRUE(A.hasByNameRoles(S.nth<FunctionDecl>(functionDecl(hasName("pattern")))))
      << "`t.item()` on a dependent type, matched by the member's name";
  EXPECT_FALSE(A.hasByNameRoles(S.function("use")));
}

TEST(AnalysisModelExternal, FunctionsDefinedHereAndCallsOfOtherFiles) {
  Snippet S(R"cc(
void elsewhere(torch::Tensor x);
void here(torch::Tensor x) {}
void f(torch::Tensor x) {
  here(x);
  elsewhere(x);
  x.item();
}
)cc");
  ASSERT_TRUE(S.ok());
  std::vector<std::string> Defined, External;
  S.analysis().forEachFunction([&](const FunctionDecl *FD) { Defined.push_back(FD->getNameAsString()); });
  S.analysis().forEachExternalCall([&](const Expr *, const FunctionDecl *Caller, const FunctionDecl *Callee) {
    External.push_back(Caller->getNameAsString() + "->" + Callee->getNameAsString());
  });
  llvm::sort(Defined);
  EXPECT_EQ(Defined, (std::vector<std::string>{"f", "here"})) << "not the stand-in's inline functions";
  EXPECT_EQ(External, (std::vector<std::string>{"f->elsewhere"})) << "not here(), not the framework's item()";
}

/// A per-step call from another file (its summary) makes a function's
/// statements per step, and another file's device use makes this one device aware.
TEST(AnalysisModelExternal, AnotherFilesSummaryMakesAFunctionHotAndTheFileDeviceAware) {
  const std::string Code = R"cc(
float helper(torch::Tensor x) { return x.item(); }
)cc";
  std::string Usr;
  {
    Snippet Alone(Code);
    ASSERT_TRUE(Alone.ok());
    EXPECT_FALSE(Alone.analysis().perStep(Alone.call("helper", "item")));
    EXPECT_FALSE(Alone.analysis().deviceAware());
    Usr = usrOf(Alone.function("helper"));
  }
  FileSummary Main;
  Main.File = "main.cc";
  Main.UsesDevice = true;
  Main.HotCalls[Usr].push_back(HotCallSite{"main.cc", 9, 5, "main.cc", 8, 3, "train", true, {}});
  auto P = std::make_shared<ProjectSummaries>();
  P->add(Main);
  P->resolve();
  ScopedSummaries Scope(P);
  Snippet S(Code);
  ASSERT_TRUE(S.ok());
  std::optional<HotContext> Hot = S.analysis().perStep(S.call("helper", "item"));
  ASSERT_TRUE(Hot);
  ASSERT_TRUE(Hot->External);
  EXPECT_EQ(Hot->External->Caller, "train");
  EXPECT_TRUE(Hot->Training);
  EXPECT_TRUE(S.analysis().deviceAware());
  EXPECT_FALSE(S.analysis().usesDeviceItself());
}

/// The USR of \p Function, defined in \p Code.
std::string usrIn(const std::string &Code, const std::string &Function) {
  Snippet Alone(Code);
  EXPECT_TRUE(Alone.ok());
  return Alone.ok() ? usrOf(Alone.function(Function)) : "";
}

/// A value that a per-step function of this file returns, read from the
/// device only to be returned, is explained by what the calling file does
/// with it (HotCallSite::ResultUse): an evaluation loop that sums accuracies.
TEST(AnalysisModelExternal, AReturnedValueTakesThePurposeOfTheCallInAnotherFile) {
  const std::string Code = R"cc(
float accuracy(torch::Tensor logits) { return logits.item(); }
)cc";
  std::string Usr = usrIn(Code, "accuracy");
  for (const auto &[Use, Expected] : {std::pair{"accumulate", Purpose::Accumulate},
                                      {"log", Purpose::Log},
                                      {"", Purpose::Return},
                                      {"store", Purpose::Store}}) {
    FileSummary Eval;
    Eval.File = "evaluate.cc";
    Eval.UsesDevice = true;
    Eval.HotCalls[Usr].push_back(HotCallSite{"evaluate.cc", 10, 14, "evaluate.cc", 8, 3, "evaluate", false, {}, Use});
    auto P = std::make_shared<ProjectSummaries>();
    P->add(Eval);
    P->resolve();
    ScopedSummaries Scope(P);
    Snippet S(Code);
    ASSERT_TRUE(S.ok());
    const Expr *Item = S.call("accuracy", "item");
    std::optional<HotContext> Hot = S.analysis().perStep(Item);
    ASSERT_TRUE(Hot && Hot->External);
    EXPECT_EQ(purposeThroughCalls(Item, S.analysis(), *Hot), Expected) << "result_use '" << Use << "'";
  }
}

} // namespace
} // namespace mlperf::test
