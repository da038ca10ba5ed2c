// The data-flow analyses of checks/analysis on small programs: no-grad scopes
// and handles (DataFlow.h), facts the code states (Facts.h), what a loop
// changes (Invariance.h), why a value is read (Purpose.h) and per-element
// reads (ElementRead.h).
#include "AnalysisTestSupport.h"
#include "analysis/DataFlow.h"
#include "analysis/ElementRead.h"
#include "analysis/Facts.h"
#include "analysis/Invariance.h"
#include "analysis/Ownership.h"
#include "analysis/Purpose.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <gtest/gtest.h>

namespace mlperf::test {
namespace {

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::mlperf;

const char *const NetDecl = "struct Net : torch::nn::Module { torch::Tensor forward(const torch::Tensor &x); };\n";

/// The \p Index-th reference to variable \p Name.
const DeclRefExpr *ref(const Snippet &S, const std::string &Name, unsigned Index = 0) {
  return S.nth<DeclRefExpr>(declRefExpr(to(varDecl(hasName(Name))), isExpansionInMainFile()), Index);
}

TEST(AnalysisDataFlow, NoGradGuardsCoverTheirBlockAndTheFunctionsOnlyCalledThere) {
  Snippet S(std::string(NetDecl) + R"cc(
torch::Tensor helper(Net &net, const torch::Tensor &x) { return net.forward(x); }
torch::Tensor shared(Net &net, const torch::Tensor &x) { return net.forward(x); }
void guarded(Net &net, torch::Tensor x) {
  torch::NoGradGuard no_grad;
  net.forward(x);
  helper(net, x);
  shared(net, x);
}
void open(Net &net, torch::Tensor x) {
  c10::AutoGradMode on(true);
  net.forward(x);
  shared(net, x);
}
)cc");
  ASSERT_TRUE(S.ok());
  ModelAnalysis &A = S.analysis();
  EXPECT_TRUE(underNoGradGuard(S.call("guarded", "forward"), A));
  EXPECT_TRUE(underNoGradGuard(S.call("helper", "forward"), A)) << "its only call is guarded";
  EXPECT_FALSE(underNoGradGuard(S.call("shared", "forward"), A)) << "open() calls it with gradients on";
  EXPECT_FALSE(underNoGradGuard(S.call("open", "forward"), A)) << "AutoGradMode(true) turns gradients on";
}

TEST(AnalysisDataFlow, FlowFollowsLocalInitializersToADepth) {
  Snippet S(R"cc(
void f() {
  torch::Tensor a = torch::zeros(3);
  torch::Tensor b = a.cuda();
  torch::Tensor c = b + b;
}
)cc");
  ASSERT_TRUE(S.ok());
  auto IsZeros = [](const Stmt *St) {
    const auto *CE = dyn_cast<CallExpr>(St);
    // `b + b` calls operator+, whose name is no identifier.
    return CE && CE->getDirectCallee() && CE->getDirectCallee()->getIdentifier() &&
           CE->getDirectCallee()->getName() == "zeros";
  };
  EXPECT_EQ(findInFlow(S.init("c"), IsZeros), S.call("f", "zeros")) << "through b and a";
  EXPECT_EQ(findInFlow(S.init("c"), IsZeros, /*Depth=*/1), nullptr) << "a is two variables away";
  EXPECT_TRUE(isInside(S.call("f", "zeros"), S.nth<CompoundStmt>(compoundStmt(hasParent(functionDecl(hasName("f"))))),
                       S.analysis()));
  EXPECT_FALSE(isInside(S.call("f", "zeros"), S.init("c"), S.analysis()));
}

TEST(AnalysisDataFlow, TypeMentionsSeesTemplateArgumentsReferencesAndPointers) {
  Snippet S(std::string(NetDecl) + R"cc(
void f(torch::data::Iterator<torch::data::Example<>> &it, torch::Tensor *p, Net &net) {}
)cc");
  ASSERT_TRUE(S.ok());
  EXPECT_TRUE(typeMentions(S.var("it")->getType(), "torch::data::Example"));
  EXPECT_TRUE(typeMentions(S.var("it")->getType(), "at::Tensor")) << "Example<Tensor, Tensor>";
  EXPECT_TRUE(typeMentions(S.var("p")->getType(), "at::Tensor"));
  EXPECT_FALSE(typeMentions(S.var("net")->getType(), "at::Tensor"));
}

TEST(AnalysisDataFlow, AcquiredHandlesTheirReleaseAndExitsInBetween) {
  const std::string Code = R"cc(
#include <cuda_runtime_api.h>
void f(int n) {
  for (int i = 0; i < n; ++i) {
    float *buf, *other;
    cudaMalloc((void **)&buf, 64);
    EXIT
    cudaFree(buf);
  }
}
)cc";
  auto With = [&](const std::string &Exit) {
    std::string C = Code;
    return C.replace(C.find("EXIT"), 4, Exit);
  };
  Snippet S(With("if (i == 3) continue;"));
  ASSERT_TRUE(S.ok());
  const CallExpr *Malloc = S.call("f", "cudaMalloc");
  std::optional<RoleMatch> R = S.analysis().role(Malloc);
  ASSERT_TRUE(R);
  ASSERT_EQ(R->R, Role::Acquire);
  std::optional<Acquisition> Acq = acquisitionAt(Malloc, S.analysis());
  ASSERT_TRUE(Acq);
  EXPECT_EQ(acquiredHandleRef(Malloc, *Acq, S.analysis()).D, S.var("buf"));
  const Stmt *Body = loopBody(S.loop("f"));
  EXPECT_EQ(findReleaseOf(Body, HandleRef{S.var("buf")}, S.analysis()), S.call("f", "cudaFree"));
  EXPECT_EQ(findReleaseOf(Body, HandleRef{S.var("other")}, S.analysis()), nullptr);
  const SourceManager &SM = S.context().getSourceManager();
  SourceLocation From = Malloc->getBeginLoc(), To = S.call("f", "cudaFree")->getBeginLoc();
  EXPECT_TRUE(exitsBetween(Body, From, To, SM)) << "the continue skips the release";

  Snippet Nested(With("for (int j = 0; j < 2; ++j) continue;"));
  ASSERT_TRUE(Nested.ok());
  EXPECT_FALSE(exitsBetween(loopBody(Nested.loop("f")), Nested.call("f", "cudaMalloc")->getBeginLoc(),
                            Nested.call("f", "cudaFree")->getBeginLoc(), Nested.context().getSourceManager()))
      << "a nested loop's continue stays in it";

  auto ExitIn = [&](const std::string &Exit) {
    Snippet T(With(Exit));
    EXPECT_TRUE(T.ok()) << Exit;
    const CallExpr *Acquire = T.call("f", "cudaMalloc");
    return exitBetween(loopBody(T.loop("f")), Acquire->getBeginLoc(), T.call("f", "cudaFree")->getBeginLoc(),
                       T.context().getSourceManager(), Acquire, isHandle(HandleRef{T.var("buf")})) != nullptr;
  };
  EXPECT_FALSE(ExitIn("if (!buf) break;")) << "the branch where the handle is null holds nothing";
  EXPECT_FALSE(ExitIn("if (buf == NULL) { other = nullptr; continue; }"));
  EXPECT_FALSE(ExitIn("if (buf) other = buf; else break;"));
  EXPECT_TRUE(ExitIn("if (buf) break;")) << "the branch where it is live";
  EXPECT_TRUE(ExitIn("if (!other) break;")) << "a null test of another pointer";
  EXPECT_TRUE(ExitIn("if (!buf || i == 3) break;")) << "not a test of the handle alone";
}

TEST(AnalysisDataFlow, AReturnThatHoldsTheReleaseLeavesAfterIt) {
  Snippet S(R"cc(
#include <cuda_runtime_api.h>
#include <cstdlib>
static float *convert(float *in) { free(in); return nullptr; }
float *f(int n) {
  float *buf = (float *)malloc(n);
  if (n > 4)
    return nullptr;
  return convert(buf);
}
)cc");
  ASSERT_TRUE(S.ok());
  const CallExpr *Acquire = S.call("f", "malloc"), *Release = S.call("f", "convert");
  EXPECT_EQ(findReleaseOf(S.function("f")->getBody(), HandleRef{S.var("buf")}, S.analysis()), Release);
  const Stmt *Exit = exitBetween(S.function("f")->getBody(), Acquire->getEndLoc(), Release->getBeginLoc(),
                                 S.context().getSourceManager(), Acquire);
  ASSERT_TRUE(Exit);
  const auto *Early = dyn_cast<ReturnStmt>(Exit);
  ASSERT_TRUE(Early);
  EXPECT_TRUE(isa<CXXNullPtrLiteralExpr>(Early->getRetValue()->IgnoreImpCasts()))
      << "the early return, not the one whose value releases";
}

TEST(AnalysisDataFlow, AHandleWithoutAnArgumentIsTheVariableTheResultInitializes) {
  ApiProfiles P;
  ASSERT_EQ(llvm::toString(P.addJson(R"({"name": "res", "entries": [
      {"role": "acquire", "callee": "open_res", "pair": "close_res"},
      {"role": "release", "callee": "close_res"}]})",
                                     "res.json")),
            "");
  Snippet S(R"cc(
struct Res;
Res *open_res();
void close_res(Res *);
void f() { Res *r = open_res(); close_res(r); }
Res *g() { return open_res(); }
)cc",
            P);
  ASSERT_TRUE(S.ok());
  const CallExpr *Open = S.call("f", "open_res");
  Acquisition Acq{S.analysis().role(Open)->Entry, ""};
  EXPECT_EQ(acquiredHandleRef(Open, Acq, S.analysis()).D, S.var("r"));
  bool Returned = false;
  EXPECT_FALSE(acquiredHandleRef(S.call("g", "open_res"), Acq, S.analysis(), &Returned));
  EXPECT_TRUE(Returned);
}

TEST(AnalysisFacts, ALoopThatEndsInBreakRunsOnceUnlessAContinueStartsAnother) {
  Snippet S(R"cc(
void f(int n, bool c) {
  for (int i = 0; i < n; ++i) { n += 1; break; }
  for (int i = 0; i < n; ++i) { if (c) continue; break; }
  for (int i = 0; i < n; ++i) { for (int j = 0; j < n; ++j) continue; return; }
  for (int i = 0; i < n; ++i) { n += 1; }
}
)cc");
  ASSERT_TRUE(S.ok());
  EXPECT_TRUE(runsOnce(S.loop("f", 0)));
  EXPECT_FALSE(runsOnce(S.loop("f", 1)));
  EXPECT_TRUE(runsOnce(S.loop("f", 2))) << "the continue belongs to the nested loop";
  EXPECT_FALSE(runsOnce(S.loop("f", 4)));
}

TEST(AnalysisDataFlow, AWriteThatReadsTheVariableReachesThatReadOnlyThroughALoop) {
  Snippet S(R"cc(
void use(int);
void f(int n) {
  int a = 1;
  a = a + 2;
  use(a);
  int b = 1;
  for (int i = 0; i < n; ++i)
    b = b + 2;
}
)cc");
  ASSERT_TRUE(S.ok());
  // The references: a's are the assignment's left side, its right side and
  // use(a); b's, the left side and the right side.
  auto Reaching = [&](const std::string &Name, unsigned Index) {
    bool Complete = false;
    llvm::SmallVector<const Expr *, 4> Values =
        reachingValues(S.var(Name), ref(S, Name, Index), S.analysis(), Complete);
    EXPECT_TRUE(Complete) << Name << " " << Index;
    std::vector<std::string> Kinds;
    for (const Expr *V : Values)
      Kinds.push_back(V->IgnoreImpCasts()->getStmtClassName());
    return Kinds;
  };
  EXPECT_EQ(Reaching("a", 1), std::vector<std::string>{"IntegerLiteral"}) << "a = a + 2 reads the initial value";
  EXPECT_EQ(Reaching("a", 2), std::vector<std::string>{"BinaryOperator"});
  EXPECT_EQ(Reaching("b", 1), (std::vector<std::string>{"IntegerLiteral", "BinaryOperator"}))
      << "the loop brings the previous iteration's write back";
}

TEST(AnalysisFacts, OnHostFollowsFactoriesCopiesOperationsAndLocals) {
  Snippet S(R"cc(
template <class... T> void consume(const T &...values);
void f(torch::Tensor x, torch::data::Example<> batch) {
  torch::Tensor a = torch::zeros(3);
  torch::Tensor d = torch::zeros(3, torch::kCUDA);
  torch::Tensor h = x.cpu();
  torch::Tensor sum = a + h;
  torch::Tensor mixed = a + x;
  torch::Tensor follows = a.to(x);
  torch::Tensor re = torch::zeros(3);
  re = x;
  torch::Tensor twice = torch::zeros(3);
  twice = twice + a;
  torch::Tensor data = batch.data;
  consume(a, d, h, sum, mixed, follows, re, twice, data);
}
)cc");
  ASSERT_TRUE(S.ok());
  // The last reference: the read in consume().
  auto OnHost = [&](const std::string &Name) {
    const DeclRefExpr *Ref = nullptr;
    for (unsigned I = 0; const DeclRefExpr *Next = ref(S, Name, I); ++I)
      Ref = Next;
    EXPECT_TRUE(Ref) << Name;
    return Ref && onHost(Ref, S.analysis());
  };
  EXPECT_TRUE(OnHost("a"));
  EXPECT_FALSE(OnHost("d")) << "made on the accelerator";
  EXPECT_TRUE(OnHost("h"));
  EXPECT_TRUE(OnHost("sum"));
  EXPECT_FALSE(OnHost("mixed")) << "x may be anywhere";
  EXPECT_FALSE(OnHost("follows")) << "moved to x's device";
  EXPECT_FALSE(OnHost("re")) << "reassigned a tensor that may be anywhere";
  EXPECT_TRUE(OnHost("twice")) << "reassigned a value computed from its host value";
  EXPECT_FALSE(OnHost("x"));
  EXPECT_TRUE(OnHost("data")) << "a data loader's example";
}

TEST(AnalysisFacts, AMoveFollowsAnotherTensorsDevice) {
  Snippet S(R"cc(
void f(torch::Tensor a, torch::Tensor x) {
  a.to(x);
  a.to(x.options());
  a.to(torch::kCUDA);
}
)cc");
  ASSERT_TRUE(S.ok());
  auto Followed = [&](unsigned I) -> const Expr * {
    const CallExpr *To = S.call("f", "to", I);
    std::optional<RoleMatch> R = S.analysis().role(To);
    return R ? followedByMove(To, *R, S.analysis()) : nullptr;
  };
  ASSERT_TRUE(Followed(0) && Followed(1));
  EXPECT_EQ(namedVar(Followed(0)), S.var("x"));
  EXPECT_EQ(namedVar(Followed(1)), S.var("x"));
  EXPECT_EQ(Followed(2), nullptr);
}

TEST(AnalysisFacts, CreatedOnHostFindsTheFactoryMadeInEachIteration) {
  Snippet S(R"cc(
void f(int n) {
  torch::Tensor before = torch::arange(5);
  for (int i = 0; i < n; ++i) {
    torch::Tensor t = torch::arange(5).unsqueeze(0);
    torch::Tensor copy = torch::tensor(1.f);
    torch::Tensor dev = torch::zeros(3, torch::kCUDA);
    (t + before + copy + dev).cuda();
  }
}
)cc");
  ASSERT_TRUE(S.ok());
  const Stmt *Loop = S.loop("f");
  const CallExpr *Factory = createdOnHost(ref(S, "t", 0), S.analysis(), Loop);
  EXPECT_EQ(Factory, S.call("f", "arange", 1));
  EXPECT_EQ(createdOnHost(ref(S, "before"), S.analysis(), Loop), nullptr) << "made once, before the loop";
  EXPECT_EQ(createdOnHost(ref(S, "before"), S.analysis()), S.call("f", "arange", 0)) << "without a loop";
  EXPECT_EQ(createdOnHost(ref(S, "copy"), S.analysis(), Loop), nullptr) << "a copy of host values";
  EXPECT_EQ(createdOnHost(ref(S, "dev"), S.analysis(), Loop), nullptr);
}

TEST(AnalysisFacts, ABackwardPassProvesAGraph) {
  Snippet S(std::string(NetDecl) + R"cc(
void f(Net &net, torch::Tensor x) {
  torch::Tensor loss = net.forward(x).sum();
  torch::Tensor other = loss.detach();
  loss.backward();
  auto later = [&] { other.backward(); };
}
)cc");
  ASSERT_TRUE(S.ok());
  const Stmt *Body = S.function("f")->getBody();
  EXPECT_TRUE(provesGraph(S.var("loss"), Body, S.analysis()));
  EXPECT_FALSE(provesGraph(S.var("other"), Body, S.analysis())) << "only in a lambda";
}

const char *const Loops = R"cc(
void use(const torch::Tensor &t, int k);
void fill(float *p);
int g_k = 1;
void f(torch::Tensor a, torch::Tensor b, int n) {
  float buf[4];
  float v = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      a.add_(b);
      fill(&v);
      float &alias = buf[0];
      use(b, i);
      use(b + b, j);
      torch::zeros(n);
      torch::zeros(i);
      use(b, g_k);
    }
  }
}
)cc";

TEST(AnalysisInvariance, WhatALoopChanges) {
  Snippet S(Loops);
  ASSERT_TRUE(S.ok());
  const Stmt *Inner = S.loop("f", 1);
  EXPECT_TRUE(isChangedIn(S.var("a"), Inner)) << "add_ works in place";
  EXPECT_FALSE(isChangedIn(S.var("b"), Inner)) << "passed by const reference";
  EXPECT_TRUE(isChangedIn(S.var("v"), Inner)) << "its address goes to a float *";
  EXPECT_TRUE(isChangedIn(S.var("buf"), Inner)) << "bound to a mutable reference";
  EXPECT_FALSE(isChangedIn(S.var("n"), Inner));
  EXPECT_TRUE(readsChangedIn(S.call("f", "use", 1), S.loop("f", 0))) << "j changes in the outer loop";
  EXPECT_FALSE(readsChangedIn(S.call("f", "zeros", 0), S.loop("f", 0)));
}

TEST(AnalysisInvariance, ALibrarysForwardingReferenceCopiesAnArgumentStdMoveDoesNot) {
  Snippet S(R"cc(
#include <utility>
#include <vector>
void f(torch::Tensor a, torch::Tensor b, int n) {
  std::vector<torch::Tensor> kept;
  for (int i = 0; i < n; ++i) {
    kept.emplace_back(a);
    kept.push_back(std::move(b));
  }
}
)cc");
  ASSERT_TRUE(S.ok());
  EXPECT_FALSE(isChangedIn(S.var("a"), S.loop("f"))) << "emplace_back(Args &&...) constructs from an lvalue";
  EXPECT_TRUE(isChangedIn(S.var("b"), S.loop("f"))) << "moved from";
  EXPECT_TRUE(isChangedIn(S.var("kept"), S.loop("f")));
}

TEST(AnalysisInvariance, TheOutermostLoopAnExpressionDoesNotDependOn) {
  Snippet S(Loops);
  ASSERT_TRUE(S.ok());
  const Stmt *Outer = S.loop("f", 0), *Inner = S.loop("f", 1);
  std::vector<const Stmt *> Both = {Inner, Outer};
  const ApiProfiles &P = builtinProfiles();
  EXPECT_EQ(outermostInvariantLoop(S.call("f", "zeros", 0), Both, P), Outer);
  EXPECT_EQ(outermostInvariantLoop(S.call("f", "zeros", 1), Both, P), Inner) << "i changes in the outer loop";
  EXPECT_EQ(outermostInvariantLoop(S.call("f", "use", 1), Both, P), nullptr) << "j changes in the inner loop";

  EXPECT_EQ(loopsUpTo(S.call("f", "zeros", 0), Outer, S.analysis()), Both);
  EXPECT_EQ(loopsUpTo(S.call("f", "zeros", 0), Inner, S.analysis()), std::vector<const Stmt *>{Inner});
  EXPECT_TRUE(loopsUpTo(S.call("f", "zeros", 0), S.call("f", "use"), S.analysis()).empty());
}

TEST(AnalysisInvariance, ArgumentsThatNameTheSameVariableEveryIteration) {
  Snippet S(Loops);
  ASSERT_TRUE(S.ok());
  const Stmt *Outer = S.loop("f", 0);
  const CallExpr *Use = S.call("f", "use", 0);
  EXPECT_TRUE(argumentInvariantIn(Use, 0, Outer, S.analysis()));
  EXPECT_FALSE(argumentInvariantIn(Use, 1, Outer, S.analysis())) << "the loop's counter";
  EXPECT_TRUE(argumentInvariantIn(Use, 1, S.loop("f", 1), S.analysis())) << "i is fixed in the inner loop";
  EXPECT_FALSE(argumentInvariantIn(S.call("f", "use", 1), 0, Outer, S.analysis())) << "an expression";
  EXPECT_FALSE(argumentInvariantIn(S.call("f", "use", 2), 1, Outer, S.analysis())) << "a global";
}

TEST(AnalysisInvariance, ParametersEveryPerStepCallPassesUnchanged) {
  Snippet S(std::string(NetDecl) + R"cc(
torch::Tensor helper(Net &net, const torch::Tensor &w, int k) { return net.forward(w); }
void train(Net &net, torch::Tensor w, int steps) {
  for (int i = 0; i < steps; ++i)
    helper(net, w, i).backward();
}
)cc");
  ASSERT_TRUE(S.ok());
  std::optional<HotContext> Hot = S.analysis().perStep(S.call("helper", "forward"));
  ASSERT_TRUE(Hot);
  const FunctionDecl *Helper = S.function("helper");
  EXPECT_TRUE(parameterInvariant(Helper->getParamDecl(1), *Hot, S.analysis()));
  EXPECT_FALSE(parameterInvariant(Helper->getParamDecl(2), *Hot, S.analysis())) << "the step counter";
}

TEST(AnalysisInvariance, PerCallConstantsAreFieldsOnlyConstructorsSet) {
  Snippet S(R"cc(
class Fixed {
public:
  Fixed() : scale_(torch::zeros(3)), mean_(0.5f) {}
  torch::Tensor apply(const torch::Tensor &x) const { return x * scale_ + torch::tensor(mean_); }
private:
  torch::Tensor scale_;
  float mean_;
};
class Changing {
public:
  Changing() : scale_(torch::zeros(3)) {}
  torch::Tensor apply(const torch::Tensor &x) const { return x * scale_; }
  void reset() { scale_ = torch::ones(3); }
private:
  torch::Tensor scale_;
};
)cc");
  ASSERT_TRUE(S.ok());
  auto Member = [&](const std::string &Class) {
    return S.nth<MemberExpr>(memberExpr(member(hasName("scale_")), hasAncestor(cxxMethodDecl(hasName("apply"))),
                                        hasAncestor(cxxRecordDecl(hasName(Class)))));
  };
  const FieldDecl *Scale = perCallConstant(Member("Fixed"), S.analysis());
  ASSERT_TRUE(Scale);
  EXPECT_EQ(Scale->getName(), "scale_");
  const FieldDecl *Mean = perCallConstant(S.call("apply", "tensor"), S.analysis());
  ASSERT_TRUE(Mean) << "torch::tensor(mean_) turns the same host value into a tensor";
  EXPECT_EQ(Mean->getName(), "mean_");
  EXPECT_EQ(perCallConstant(Member("Changing"), S.analysis()), nullptr) << "reset() changes it";
}

const char *const Reads = R"cc(
void log_value(float v);
void consume(float v);
float read(torch::Tensor t) { return t.item(); }
float f(torch::Tensor x, float *out) {
  log_value(x.item());
  if (x.item() > 0.5f) {}
  float total = 0;
  total += x.item();
  out[0] = x.item();
  consume(x.item());
  if (read(x) > 0) {}
  return x.item();
}
)cc";

TEST(AnalysisPurpose, WhyAValueIsReadToTheHost) {
  Snippet S(Reads);
  ASSERT_TRUE(S.ok());
  auto Why = [&](unsigned I) { return purposeOf(S.call("f", "item", I), S.analysis()); };
  EXPECT_EQ(Why(0), Purpose::Log);
  EXPECT_EQ(Why(1), Purpose::Condition);
  EXPECT_EQ(Why(2), Purpose::Accumulate);
  EXPECT_EQ(Why(3), Purpose::Store);
  EXPECT_EQ(Why(4), Purpose::Other);
  EXPECT_EQ(Why(5), Purpose::Return);
  EXPECT_EQ(describe(Purpose::Log), "to log it");
  EXPECT_EQ(describe(Purpose::Other), "");
}

TEST(AnalysisPurpose, AValueAHelperReturnsIsFollowedToTheCall) {
  Snippet S(Reads);
  ASSERT_TRUE(S.ok());
  const CallExpr *Item = S.call("read", "item");
  EXPECT_EQ(purposeOf(Item, S.analysis()), Purpose::Return);
  const Expr *Chain[] = {S.call("f", "read")};
  EXPECT_EQ(purposeThroughCalls(Item, S.analysis(), Chain), Purpose::Condition);
  EXPECT_EQ(purposeThroughCalls(Item, S.analysis(), llvm::ArrayRef<const Expr *>()), Purpose::Return);
}

TEST(AnalysisElementRead, OneElementPerIterationOfADeviceTensor) {
  Snippet S(R"cc(
float f(torch::Tensor out, int n) {
  float s = 0;
  torch::Tensor host = out.cpu();
  for (int i = 0; i < n; ++i) {
    s += out[i].item();
    s += host[i].item();
    s += out[0].item();
  }
  return s;
}
)cc");
  ASSERT_TRUE(S.ok());
  std::optional<ElementRead> R = elementRead(S.call("f", "item", 0), S.analysis());
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Loop, S.loop("f"));
  ASSERT_TRUE(R->Selection && R->Entry);
  EXPECT_EQ(R->Entry->R, Role::ElementIndex);
  EXPECT_FALSE(R->Hot) << "no model runs here";
  EXPECT_FALSE(elementRead(S.call("f", "item", 1), S.analysis())) << "a host copy";
  EXPECT_FALSE(elementRead(S.call("f", "item", 2), S.analysis())) << "the same element every time";
}

} // namespace
} // namespace mlperf::test
