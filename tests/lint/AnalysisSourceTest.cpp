// The source-level helpers of checks/analysis on small programs: source text
// and constants (SourceUtils.h), hoisting fix-its (Hoist.h), model sizes
// (ModelSize.h), library code (LibraryCalls.h), device arguments
// (DeviceArgs.cpp) and what a profile parses to (ProfileParser.cpp).
#include "AnalysisTestSupport.h"
#include "analysis/Hoist.h"
#include "analysis/LibraryCalls.h"
#include "analysis/ModelSize.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include <gtest/gtest.h>

namespace mlperf::test {
namespace {

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::mlperf;

const char *const Constants = R"cc(
#define ZEROS(n) torch::zeros(n)
const int k = 4 * 8;
int mutable_k = 3;
constexpr const char *name = "cuda";
void f(torch::Tensor x, int n) {
  // the hot path
  torch::Tensor a = torch::zeros(3);
  torch::Tensor m = ZEROS(3);
  torch::Tensor b = x;  // a warmup copy
  b = a;
  b = m;
  int *p = &n;
  x.to(torch::Device(torch::kCUDA));
}
)cc";

TEST(AnalysisSourceUtils, SourceTextIndentationAndComments) {
  Snippet S(Constants);
  ASSERT_TRUE(S.ok());
  const SourceManager &SM = S.context().getSourceManager();
  const CallExpr *Zeros = S.call("f", "zeros", 0);
  EXPECT_EQ(sourceText(Zeros->getSourceRange(), S.context()), "torch::zeros(3)");
  EXPECT_EQ(sourceText(S.call("f", "zeros", 1)->getSourceRange(), S.context()), "") << "from a macro";
  EXPECT_TRUE(isMacroFree(Zeros->getSourceRange()));
  EXPECT_FALSE(isMacroFree(S.call("f", "zeros", 1)->getSourceRange()));
  EXPECT_EQ(indentationOf(Zeros->getBeginLoc(), S.context()), "  ");
  EXPECT_TRUE(commentMentions(S.var("a")->getLocation(), "HOT PATH", SM)) << "the comment line above";
  EXPECT_TRUE(commentMentions(S.var("b")->getLocation(), "warmup", SM)) << "on the line";
  EXPECT_FALSE(commentMentions(S.var("m")->getLocation(), "warmup", SM));
}

TEST(AnalysisSourceUtils, WrappersConversionsAndNamedVariables) {
  Snippet S(Constants);
  ASSERT_TRUE(S.ok());
  const CallExpr *To = S.call("f", "to");
  const Expr *Device = To->getArg(0);
  EXPECT_FALSE(isa<DeclRefExpr>(stripWrappers(Device))) << "torch::Device(...) stays";
  const auto *Kind = dyn_cast<DeclRefExpr>(stripConversions(Device));
  ASSERT_TRUE(Kind) << "torch::Device(torch::kCUDA) is made from kCUDA";
  EXPECT_EQ(Kind->getDecl()->getName(), "kCUDA");
  EXPECT_EQ(namedVar(S.init("p")), S.var("n")) << "through &";
  EXPECT_EQ(namedVar(S.init("a")), nullptr);
  EXPECT_EQ(namedVar(nullptr), nullptr);
}

TEST(AnalysisSourceUtils, AssignmentsOfAVariable) {
  Snippet S(Constants);
  ASSERT_TRUE(S.ok());
  const Stmt *Body = S.function("f")->getBody();
  llvm::SmallVector<const Expr *, 2> Values = assignedValues(Body, S.var("b"));
  ASSERT_EQ(Values.size(), 2u);
  EXPECT_EQ(namedVar(Values[0]), S.var("a"));
  EXPECT_EQ(namedVar(Values[1]), S.var("m"));
  EXPECT_TRUE(assignsTo(Body, S.var("b")));
  EXPECT_FALSE(assignsTo(Body, S.var("a"))) << "initialized, never assigned";
}

TEST(AnalysisSourceUtils, ConstantsThroughConstVariables) {
  Snippet S(Constants + std::string(R"cc(
#include <initializer_list>
void use_int(long);
void use_str(const char *);
struct Shape {
  Shape(std::initializer_list<long> dims);
};
void use_list(Shape);
void g() {
  use_int(k);
  use_int(mutable_k);
  use_str(name);
  use_list({3, 3});
  use_list({k, mutable_k});
}
)cc"));
  ASSERT_TRUE(S.ok());
  const ASTContext &Ctx = S.context();
  EXPECT_EQ(constInt(S.call("g", "use_int", 0)->getArg(0), Ctx), 32);
  EXPECT_EQ(constInt(S.call("g", "use_int", 1)->getArg(0), Ctx), std::nullopt) << "not const";
  EXPECT_TRUE(isConstant(S.call("g", "use_int", 0)->getArg(0), Ctx));
  EXPECT_FALSE(isConstant(S.call("g", "use_int", 1)->getArg(0), Ctx));
  EXPECT_EQ(constString(S.call("g", "use_str")->getArg(0)), "cuda");
  EXPECT_EQ(constString(S.call("g", "use_int", 0)->getArg(0)), std::nullopt);
  EXPECT_EQ(constVolume(S.call("g", "use_list", 0)->getArg(0), 1, Ctx), 9);
  EXPECT_EQ(constVolume(S.call("g", "use_list", 1)->getArg(0), 1, Ctx), std::nullopt);
  EXPECT_EQ(constVolume(S.call("g", "use_int", 0)->getArg(0), 2, Ctx), 32 * 32) << "an integer to the rank";
}

const char *const HoistLoop = R"cc(
void f(torch::Tensor x, int n) {
  int x2 = 0;
  for (int i = 0; i < n; ++i) {
    x.add_(torch::zeros(n));
    x.add_(torch::zeros(n));
    x.add_(torch::zeros(i));
  }
}
)cc";

TEST(AnalysisHoist, FreshNamesAndTheInsertionBeforeALoop) {
  Snippet S(HoistLoop);
  ASSERT_TRUE(S.ok());
  const FunctionDecl *F = S.function("f");
  EXPECT_EQ(freshName("x", F, S.context()), "x3") << "x and x2 are taken";
  EXPECT_EQ(freshName("zeros_n", F, S.context()), "zeros_n");
  EXPECT_EQ(freshName("add", F, S.context()), "add") << "add_ is another identifier";
  auto Fix = hoistBefore(S.loop("f"), "auto z = torch::zeros(n);", S.call("f", "zeros", 0), S.analysis(), S.context());
  ASSERT_TRUE(Fix);
  ASSERT_EQ(Fix->size(), 1u) << "a braced body: the statement alone, no braces";
  EXPECT_EQ((*Fix)[0].CodeToInsert, "auto z = torch::zeros(n);\n  ");
  EXPECT_EQ((*Fix)[0].RemoveRange.getBegin(), S.loop("f")->getBeginLoc());
  EXPECT_FALSE(
      hoistBefore(S.loop("f"), "auto z = torch::zeros(i);", S.call("f", "zeros", 2), S.analysis(), S.context()))
      << "zeros(i) uses the loop's own variable";
}

TEST(AnalysisHoist, TheSameExpressionInALoopIsHoistedOnce) {
  Snippet S(HoistLoop);
  ASSERT_TRUE(S.ok());
  const Stmt *Loop = S.loop("f");
  const CallExpr *First = S.call("f", "zeros", 0), *Second = S.call("f", "zeros", 1), *Other = S.call("f", "zeros", 2);
  llvm::SmallVector<const Expr *, 2> Same = sameExpressionsIn(Loop, First, S.context());
  ASSERT_EQ(Same.size(), 2u);
  EXPECT_EQ(Same[0], First);
  EXPECT_EQ(Same[1], Second);
  EXPECT_EQ(sameExpressionsIn(Loop, Other, S.context()).size(), 1u) << "zeros(i) is another computation";
  EXPECT_TRUE(firstHoistOf(First, Loop, S.context()));
  EXPECT_FALSE(firstHoistOf(Second, Loop, S.context())) << "already covered by the first";
  EXPECT_TRUE(firstHoistOf(Other, Loop, S.context()));
}

TEST(AnalysisHoist, RemovingAStatementTakesItsWholeLine) {
  Snippet S(HoistLoop);
  ASSERT_TRUE(S.ok());
  const auto *Decl = S.nth<DeclStmt>(declStmt(has(varDecl(hasName("x2")))));
  std::optional<FixItHint> Fix = removeStatement(Decl, S.analysis(), S.context());
  ASSERT_TRUE(Fix);
  const SourceManager &SM = S.context().getSourceManager();
  std::string Removed = Lexer::getSourceText(Fix->RemoveRange, SM, S.context().getLangOpts()).str();
  EXPECT_EQ(Removed, "\n  int x2 = 0;") << "the newline before it and its indentation";
  EXPECT_TRUE(Fix->CodeToInsert.empty());
}

TEST(AnalysisModelSize, LayersFromConstantConstructorArguments) {
  Snippet S(R"cc(
void f(long width) {
  torch::nn::Linear fc(128, 10);
  torch::nn::Linear dynamic(width, 10);
}
)cc");
  ASSERT_TRUE(S.ok());
  const Expr *Fc = S.init("fc"), *Dynamic = S.init("dynamic");
  const ProfileEntry *Layer = builtinProfiles().find(Fc, Role::Layer);
  ASSERT_TRUE(Layer);
  std::optional<LayerSize> L = layerSize(Fc, *Layer, S.context());
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Parameters, 128 * 10 + 10) << "weights and biases";
  EXPECT_EQ(L->OutputWidth, 10);
  EXPECT_EQ(L->ElementBytes, 4u);
  EXPECT_TRUE(L->Trainable);
  EXPECT_FALSE(layerSize(Dynamic, *Layer, S.context())) << "a width known only at run time";
  ASSERT_TRUE(argumentFor(Fc, 1, /*DefaultValue=*/false));
  EXPECT_EQ(constInt(argumentFor(Fc, 1, /*DefaultValue=*/false), S.context()), 10);
  EXPECT_EQ(argumentFor(Fc, 2, /*DefaultValue=*/false), nullptr);
  EXPECT_EQ(argumentFor(Fc, std::nullopt), nullptr);
}

TEST(AnalysisSource, ArgumentsForParametersSkipAMemberOperatorsObject) {
  Snippet S(R"cc(
struct Scale {
  int operator()(int a, int b = 7) const { return a * b; }
};
int add(int a, int b = 3) { return a + b; }
void run() {
  Scale s;
  s(1);
  add(2);
}
)cc");
  ASSERT_TRUE(S.ok());
  const CallExpr *Functor = S.call("run", "operator()"), *Add = S.call("run", "add");
  ASSERT_TRUE(Functor && Add);
  EXPECT_EQ(objectArguments(Functor), 1u) << "argument 0 is the object";
  EXPECT_EQ(objectArguments(Add), 0u);
  EXPECT_EQ(constInt(argumentFor(Functor, 0), S.context()), 1);
  EXPECT_EQ(constInt(argumentFor(Functor, 1), S.context()), 7) << "a default argument's value";
  EXPECT_EQ(argumentFor(Functor, 1, /*DefaultValue=*/false), nullptr);
  EXPECT_EQ(argumentFor(Functor, 2), nullptr);
  EXPECT_EQ(constInt(argumentFor(Add, 1), S.context()), 3);
}

TEST(AnalysisModelSize, TheMemoryOfAStepByTerm) {
  LayerSize L;
  L.Parameters = 1000;
  L.OutputWidth = 10;
  L.ElementBytes = 4;
  LayerSize Frozen = L;
  Frozen.Trainable = false;
  StepMemory M = estimateStep({L, Frozen}, /*Copies=*/2, /*OutOfPlace=*/false, /*Batch=*/32);
  EXPECT_EQ(M.ParameterCount, 2000);
  EXPECT_EQ(M.Parameters, 8000);
  EXPECT_EQ(M.Gradients, 4000) << "the frozen layer has none";
  EXPECT_EQ(M.OptimizerState, 8000);
  EXPECT_EQ(M.UpdatedCopies, 0);
  EXPECT_EQ(M.Activations, 32.0 * 2 * StepMemory::ValuesPerOutput * 10 * 4);
  EXPECT_TRUE(M.Wide);
  EXPECT_EQ(M.total(), M.fixed() + M.Activations);

  StepMemory NoBatch = estimateStep({L}, 0, /*OutOfPlace=*/true, std::nullopt);
  EXPECT_EQ(NoBatch.Activations, 0);
  EXPECT_EQ(NoBatch.UpdatedCopies, 4000) << "a new copy of the parameters each step";
}

TEST(AnalysisModelSize, OptimizerStateCopiesAndMomentum) {
  Snippet S(R"cc(
void f(torch::nn::Module &m) {
  torch::optim::SGD plain(m, torch::optim::SGDOptions(0.1));
  torch::optim::SGD momentum(m, torch::optim::SGDOptions(0.1).momentum(0.9));
  torch::optim::SGD zero(m, torch::optim::SGDOptions(0.1).momentum(0.0));
  torch::optim::Adam adam(m, torch::optim::AdamOptions(1e-3));
}
)cc");
  ASSERT_TRUE(S.ok());
  auto Copies = [&](const std::string &Var) {
    const Expr *E = S.init(Var);
    const ProfileEntry *Entry = builtinProfiles().find(E, Role::OptimizerState);
    return Entry ? static_cast<int>(optimizerCopies(E, *Entry, S.context())) : -1;
  };
  EXPECT_EQ(Copies("plain"), 0);
  EXPECT_EQ(Copies("momentum"), 1);
  EXPECT_EQ(Copies("zero"), 0) << "a momentum of zero keeps no buffer";
  EXPECT_EQ(Copies("adam"), 2);
}

TEST(AnalysisLibraryCalls, LibraryCodeIsSystemHeadersAndHeadersOutsideTheFilter) {
  Snippet S(R"cc(
#include <cuda_runtime_api.h>
void f(torch::Tensor x) { x.item(); cudaDeviceSynchronize(); }
)cc");
  ASSERT_TRUE(S.ok());
  const SourceManager &SM = S.context().getSourceManager();
  SourceLocation Main = S.function("f")->getLocation();
  SourceLocation System = S.call("f", "item")->getDirectCallee()->getLocation();
  SourceLocation Project = S.call("f", "cudaDeviceSynchronize")->getDirectCallee()->getLocation();
  CodeScope All(".*", "");
  EXPECT_FALSE(All.isLibrary(Main, SM));
  EXPECT_TRUE(All.isLibrary(System, SM));
  EXPECT_FALSE(All.isLibrary(Project, SM)) << "a header the filter reports";
  EXPECT_TRUE(CodeScope("", "").isLibrary(Project, SM)) << "without a header filter only the main file is reported";
  EXPECT_TRUE(CodeScope(".*", "cuda_runtime").isLibrary(Project, SM)) << "excluded";
}

TEST(AnalysisLibraryCalls, ARoleALibraryFunctionReachesThroughItsCallees) {
  Snippet S("void f(torch::Tensor x) { torch::mean_of(x); }\n");
  ASSERT_TRUE(S.ok());
  const FunctionDecl *MeanOf = S.call("f", "mean_of")->getDirectCallee();
  LibraryReaches Reaches(builtinProfiles());
  std::optional<LibraryReach> R = Reaches.find(MeanOf, Role::Materialize);
  ASSERT_TRUE(R);
  const auto *Item = dyn_cast<CXXMemberCallExpr>(R->Inner);
  ASSERT_TRUE(Item);
  EXPECT_EQ(Item->getMethodDecl()->getName(), "item");
  ASSERT_EQ(R->Through.size(), 2u);
  EXPECT_EQ(R->Through[0]->getName(), "mean_of");
  EXPECT_EQ(R->Through[1]->getName(), "to_float");
  EXPECT_FALSE(Reaches.find(MeanOf, Role::Sync));
  EXPECT_FALSE(LibraryReaches(builtinProfiles()).find(MeanOf, Role::Materialize, /*Depth=*/1))
      << "item() is one call deeper";
}

TEST(AnalysisDeviceArgs, WhereADeviceArgumentSendsATensor) {
  Snippet S(R"cc(
template <class... T> void use(const T &...args);
void f(torch::Tensor x, bool gpu) {
  torch::DeviceType host = torch::kCPU;
  torch::DeviceType changed = torch::kCPU;
  if (gpu) changed = torch::kCUDA;
  use(torch::kCUDA, torch::kCPU, torch::Device(torch::kCUDA), gpu ? torch::kCUDA : torch::kCPU, host, changed,
      x.device(), torch::TensorOptions().device(torch::kCUDA), torch::kFloat, "cpu:0", 3);
}
)cc");
  ASSERT_TRUE(S.ok());
  const CallExpr *Use = S.call("f", "use");
  const ApiProfiles &P = builtinProfiles();
  auto Kind = [&](unsigned I) { return P.classifyDeviceArg(Use->getArg(I)); };
  EXPECT_EQ(Kind(0), DeviceKind::Accelerator);
  EXPECT_EQ(Kind(1), DeviceKind::Cpu);
  EXPECT_EQ(Kind(2), DeviceKind::Accelerator) << "a Device made from a kind";
  EXPECT_EQ(Kind(3), DeviceKind::UnknownDevice) << "chosen at run time";
  EXPECT_EQ(Kind(4), DeviceKind::Cpu) << "a local never reassigned";
  EXPECT_EQ(Kind(5), DeviceKind::UnknownDevice) << "reassigned to the accelerator";
  EXPECT_EQ(Kind(6), DeviceKind::UnknownDevice) << "another tensor's device";
  EXPECT_EQ(Kind(7), DeviceKind::Accelerator) << "options with a device";
  EXPECT_EQ(Kind(8), DeviceKind::NotDevice) << "a dtype";
  EXPECT_EQ(Kind(9), DeviceKind::Cpu) << "a device string";
  EXPECT_EQ(Kind(10), DeviceKind::NotDevice);
  EXPECT_TRUE(P.isDeviceModelArg(Use->getArg(0)));
  EXPECT_TRUE(P.isDeviceModelArg(Use->getArg(7)));
  EXPECT_FALSE(P.isDeviceModelArg(Use->getArg(8)));
}

TEST(AnalysisDeviceArgs, TheTensorWhoseDeviceAnArgumentFollows) {
  Snippet S(R"cc(
void f(torch::Tensor a, torch::Tensor x) {
  a.to(x);
  a.to(x.options());
  a.to(torch::kCUDA);
}
)cc");
  ASSERT_TRUE(S.ok());
  const ApiProfiles &P = builtinProfiles();
  EXPECT_EQ(namedVar(P.followedTensor(S.call("f", "to", 0)->getArg(0))), S.var("x"));
  EXPECT_EQ(namedVar(P.followedTensor(S.call("f", "to", 1)->getArg(0))), S.var("x"));
  EXPECT_EQ(P.followedTensor(S.call("f", "to", 2)->getArg(0)), nullptr);
  EXPECT_EQ(P.followedTensor(S.call("f", "to", 2)->getArg(1)), nullptr) << "a defaulted argument";
}

TEST(AnalysisProfileParser, AProfileParsesToItsEntriesDevicesAndMemory) {
  llvm::Expected<std::unique_ptr<Profile>> P = parseProfileJson(R"({
    "name": "p", "description": "d", "device_context": "always",
    "memory": {"dtype_bytes": {"F16": 2}, "default_bytes": 4, "half_precision": "use F16"},
    "device_markers": {"calls": ["p::gpu"]},
    "autograd_tensor_types": ["p::T"],
    "devices": {"cpu_names": ["kCPU"], "accelerator_names": ["k*"]},
    "entries": [
      {"role": "step", "kind": "backward", "callee": ["p::T::backward", "p::grad"]},
      {"role": "layer", "constructs": "p::Dense", "size_args": [0, 1], "bias_arg": 1, "dtype_arg": 2},
      {"role": "to-device", "callee": "p::T::to", "device_arg": 0, "cpu_role": "materialize"}
    ]})",
                                                                "p.json");
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  const Profile &Pr = **P;
  EXPECT_EQ(Pr.Name, "p");
  EXPECT_EQ(Pr.Source, "p.json");
  EXPECT_EQ(Pr.Device, DeviceContext::Always);
  EXPECT_EQ(Pr.Memory.DTypeBytes.at("F16"), 2u);
  EXPECT_EQ(Pr.MarkerCalls, std::vector<std::string>{"p::gpu"});
  EXPECT_EQ(Pr.Devices.AcceleratorNames, std::vector<std::string>{"k*"});
  ASSERT_EQ(Pr.Entries.size(), 3u);
  EXPECT_EQ(Pr.Entries[0].R, Role::Step);
  EXPECT_EQ(Pr.Entries[0].K, Kind::Backward);
  EXPECT_EQ(Pr.Entries[0].Callees, (std::vector<std::string>{"p::T::backward", "p::grad"}));
  EXPECT_EQ(Pr.Entries[1].Layer.SizeArgs, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(Pr.Entries[1].Layer.DTypeArg, 2u);
  EXPECT_EQ(Pr.Entries[2].DeviceArg, 0u);
  EXPECT_EQ(Pr.Entries[2].CpuRole, Role::Materialize);
  for (const ProfileEntry &E : Pr.Entries)
    EXPECT_EQ(E.Owner, &Pr);
  EXPECT_FALSE(static_cast<bool>(parseProfileJson("[]", "q.json")));
}

TEST(AnalysisProfileParser, RoleAndKindNames) {
  EXPECT_EQ(parseRole("to-device"), Role::ToDevice);
  EXPECT_EQ(parseRole("element-index"), Role::ElementIndex);
  EXPECT_EQ(parseRole("todevice"), std::nullopt);
  EXPECT_EQ(roleName(Role::OptimizerState), "optimizer-state");
  EXPECT_EQ(kindName(Kind::DataLoader), "data-loader");
  EXPECT_EQ(kindName(Kind::None), "");
  EXPECT_TRUE(isPrimaryRole(Role::HostData));
  EXPECT_FALSE(isPrimaryRole(Role::Layer)) << "a fact";
  for (int R = 0; R <= static_cast<int>(Role::OutputRead); ++R)
    EXPECT_EQ(parseRole(roleName(static_cast<Role>(R))), static_cast<Role>(R)) << R;
}

TEST(AnalysisApiProfile, NamesTypesMarkersAndFixes) {
  Snippet S(R"cc(
struct Net : torch::nn::Module {};
void f(torch::Tensor x) {
  torch::NoGradGuard guard;
  Net net;
  x.to(torch::kCUDA);
  torch::cuda::synchronize();
}
)cc");
  ASSERT_TRUE(S.ok());
  const ApiProfiles &P = builtinProfiles();
  const CallExpr *To = S.call("f", "to");
  EXPECT_EQ(plainQualifiedName(To->getDirectCallee()), "at::Tensor::to");
  EXPECT_EQ(lastComponent("at::Tensor::to"), "to");
  EXPECT_EQ(lastComponent("to"), "to");
  const auto *Net = S.var("net")->getType()->getAsCXXRecordDecl();
  EXPECT_TRUE(isDerivedFromName(Net, "torch::nn::Module"));
  EXPECT_FALSE(isDerivedFromName(Net, "torch::optim::Optimizer"));

  std::optional<RoleMatch> Guard = P.matchVarType(S.var("guard"));
  ASSERT_TRUE(Guard);
  EXPECT_EQ(Guard->R, Role::NoGradGuard);
  EXPECT_FALSE(P.matchVarType(S.var("net")));
  EXPECT_TRUE(P.matchType(S.var("guard")->getType()));
  EXPECT_TRUE(P.autogradTensorProfile(S.var("x")->getType()));
  EXPECT_FALSE(P.autogradTensorProfile(S.var("net")->getType()));

  const auto *KCuda = cast<DeclRefExpr>(stripConversions(To->getArg(0)))->getDecl();
  EXPECT_TRUE(P.isDeviceMarkerDecl(KCuda));
  EXPECT_FALSE(P.isDeviceMarkerDecl(S.var("x")));
  EXPECT_TRUE(P.isDeviceMarkerCall(S.call("f", "synchronize")->getDirectCallee()));
  EXPECT_FALSE(P.isDeviceMarkerCall(To->getDirectCallee()));
  EXPECT_FALSE(P.isDeviceMarkerType(S.var("x")->getType()));

  ASSERT_FALSE(P.entries(Role::NoGradGuard).empty());
  const ProfileEntry *Fix = P.fixFor(*Guard->Entry->Owner, Role::NoGradGuard);
  ASSERT_TRUE(Fix);
  EXPECT_EQ(Fix->Fix, "torch::NoGradGuard no_grad;");
  EXPECT_EQ(P.fixFor(*Guard->Entry->Owner, Role::Timer), nullptr);
}

} // namespace
} // namespace mlperf::test
