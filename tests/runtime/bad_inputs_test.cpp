// Bad inputs found by writing programs against runtime/README.md: each is a typed error with a
// message naming the problem, the same on every backend, never a crash.
#include "test_util.h"

using rt::Node;
using rt::Shape;

namespace {

class BadInputs : public BackendTest {};

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const rt::Error& e) {
    return e.what();
  }
  return "";
}

TEST_P(BadInputs, AnExecWhoseContextWasDestroyedThrows) {
  auto ctx = std::make_unique<rt::Context>(backend, 1);
  rt::Exec e(backend, *ctx, [](rt::Context& c, rt::Graph& g, Node x) { return x * c.variable(g, "w", Shape{2}); });
  auto x = upload(backend, {1, 2}, Shape{2});
  e.run(x)[0].materialize<float>();
  ctx.reset();
  EXPECT_THROW(e.run(x), rt::ArgumentError);
  EXPECT_NE(message_of([&] { e.run(x); }).find("Context this Exec was built with has been destroyed"),
            std::string::npos);
}

TEST_P(BadInputs, AModelFunctionReadingADestroyedContextThrows) {
  auto ctx = std::make_unique<rt::Context>(backend, 1);
  rt::Context* c = ctx.get();
  rt::Exec e(backend, [c](rt::Graph& g, Node x) { return x * c->variable(g, "w", Shape{2}); });
  auto x = upload(backend, {1, 2}, Shape{2});
  e.run(x);
  ctx.reset();
  EXPECT_NE(message_of([&] { e.run(x); }).find("has been destroyed"), std::string::npos);
}

TEST(ShapeArithmetic, OverflowIsAShapeError) {
  EXPECT_THROW((Shape{int64_t{1} << 40, int64_t{1} << 30}).numel(), rt::ShapeError);
  EXPECT_EQ((Shape{int64_t{1} << 40, int64_t{1} << 20}).numel(), int64_t{1} << 60);
}

TEST_P(BadInputs, ABroadcastToMoreElementsThanCanBeCountedIsAShapeError) {
  rt::Exec e(backend, [](rt::Graph&, Node x) {
    return rt::sum(rt::broadcast_to(x, Shape{int64_t{1} << 40, int64_t{1} << 30}));
  });
  auto x = upload(backend, {1}, Shape{1});
  EXPECT_THROW(e.run(x), rt::ShapeError);
  EXPECT_NE(message_of([&] { e.run(x); }).find("broadcast_to"), std::string::npos);
}

TEST_P(BadInputs, AParameterTheModelFunctionDoesNotTakeIsNamedAtBuildTime) {
  rt::Exec e(backend, [](rt::Graph& g, Node x) { return x + g.parameter(Shape{2}, rt::DType::F32, "bias"); });
  auto x = upload(backend, {1, 2}, Shape{2});
  backend->synchronize();
  EXPECT_THROW(e.run(x), rt::ArgumentError);
  std::string m = message_of([&] { e.run(x); });
  EXPECT_NE(m.find("g.parameter([2], \"bias\")"), std::string::npos) << m;
  EXPECT_EQ(backend->pending_tasks(), 0u);
}

TEST_P(BadInputs, ANodeOfAnotherGraphIsTheSameArgumentErrorOnEveryBackend) {
  rt::Graph other;
  Node k = other.constant({1, 2}, Shape{2});
  auto x = upload(backend, {1, 2}, Shape{2});
  rt::Exec unary(backend, [k](rt::Graph&, Node v) { return v + rt::relu(k); });
  rt::Exec binary(backend, [k](rt::Graph&, Node v) { return v * k; });
  rt::Exec output(backend, [k](rt::Graph&, Node) { return k; });
  for (rt::Exec* e : {&unary, &binary, &output}) {
    EXPECT_THROW(e->run(x), rt::ArgumentError);
    std::string m = message_of([&] { e->run(x); });
    EXPECT_TRUE(m.find("another graph") != std::string::npos || m.find("not a node of this graph") != std::string::npos)
        << m;
  }
}

TEST(BadInputsReference, AClassIdOutsideTheClassesIsAnError) {
  auto b = rt::Backend::create("reference");
  rt::Exec e(b, [](rt::Graph&, Node logits, Node labels) {
    return rt::reduce_mean(rt::softmax_cross_entropy(logits, labels));
  });
  auto logits = upload(b, random_floats(30, 3), Shape{3, 10});
  auto good = rt::Tensor::from_host<int32_t>(b, std::vector<int32_t>{0, 9, 4}, Shape{3});
  auto bad = rt::Tensor::from_host<int32_t>(b, std::vector<int32_t>{0, 12, 4}, Shape{3});
  EXPECT_TRUE(std::isfinite(e.run(logits, good)[0].materialize<float>()[0]));
  auto out = e.run(logits, bad)[0];
  std::string m = message_of([&] { out.materialize<float>(); });
  EXPECT_NE(m.find("label 12 of example 1 is not a class id in [0, 10)"), std::string::npos) << m;
}

TEST(BadInputsCuda, ABuiltButUnusableCudaBackendSaysWhy) {
#ifdef MLPERF_RT_HAVE_CUDA
  auto names = rt::registered_backends();
  if (std::find(names.begin(), names.end(), "cuda") != names.end()) GTEST_SKIP() << "a CUDA device is present";
  std::string m = message_of([] { rt::Backend::create("cuda"); });
  EXPECT_NE(m.find("the cuda backend is built, but no CUDA driver/device was found"), std::string::npos) << m;
#else
  std::string m = message_of([] { rt::Backend::create("cuda"); });
  EXPECT_NE(m.find("unknown backend 'cuda'"), std::string::npos) << m;
#endif
}

INSTANTIATE_FOR_ALL_BACKENDS(BadInputs);

}  // namespace
