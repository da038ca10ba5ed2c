// Bad inputs found by writing programs against runtime/README.md: each is a typed error with a
// message naming the problem, the same on every backend, never a crash.
#include <cstdlib>
#include <limits>
#include <new>

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

// Issue 26: each of these is a typed error on every backend.

TEST_P(BadInputs, ANodeKeptFromAnEarlierBuildIsAnArgumentError) {
  Node kept;
  rt::Exec e(backend, [&kept](rt::Graph&, Node x) {
    Node out = kept.valid() ? x + kept : x;  // the second build adds a Node of the first, destroyed, graph
    kept = x;
    return out;
  });
  e.run(upload(backend, {1, 2}, Shape{2}))[0].materialize<float>();
  auto three = upload(backend, {1, 2, 3}, Shape{3});
  EXPECT_THROW(e.run(three), rt::ArgumentError);
  kept = Node();
  e.run(upload(backend, {1, 2}, Shape{2}));
  kept = Node();
  EXPECT_NO_THROW(e.run(three));
}

TEST(GraphErrors, ANodeOfADestroyedGraphIsAnErrorEvenWhereANewGraphTookItsPlace) {
  alignas(rt::Graph) unsigned char storage[sizeof(rt::Graph)];
  auto* first = new (storage) rt::Graph;
  Node stale = first->constant({1, 2}, Shape{2});
  first->~Graph();
  auto* second = new (storage) rt::Graph;
  Node fresh = second->constant({10, 20}, Shape{2});
  EXPECT_THROW(stale + fresh, rt::ArgumentError);
  EXPECT_NE(message_of([&] { stale.shape(); }).find("a Node of a graph that no longer exists"), std::string::npos);
  EXPECT_NO_THROW(fresh + fresh);
  second->~Graph();
}

TEST_P(BadInputs, ALossOverZeroClassesIsAShapeError) {
  rt::Exec ids(backend, [](rt::Graph&, Node logits, Node labels) {
    return rt::reduce_mean(rt::softmax_cross_entropy(logits, labels));
  });
  rt::Exec probs(backend, [](rt::Graph&, Node logits, Node targets) {
    return rt::reduce_mean(rt::softmax_cross_entropy_with_probs(logits, targets));
  });
  auto logits = upload(backend, {}, Shape{3, 0});
  auto labels = rt::Tensor::from_host<int32_t>(backend, std::vector<int32_t>{0, 0, 0}, Shape{3});
  EXPECT_THROW(ids.run(logits, labels), rt::ShapeError);
  EXPECT_NE(message_of([&] { ids.run(logits, labels); }).find("0 classes"), std::string::npos);
  EXPECT_THROW(probs.run(logits, upload(backend, {}, Shape{3, 0})), rt::ShapeError);
}

TEST_P(BadInputs, NegativeDimensionsAreShapeErrors) {
  EXPECT_THROW(rt::Tensor::from_host<float>(backend, std::vector<float>{}, Shape{-2, 0}), rt::ShapeError);
  EXPECT_THROW(rt::Tensor::from_host<float>(backend, std::vector<float>{1}, Shape{-1, -1}), rt::ShapeError);
  EXPECT_THROW((Shape{3, -1}).numel(), rt::ShapeError);
  rt::Exec e(backend, [](rt::Graph& g, Node x) { return x + g.zeros(Shape{-2, -1}); });
  EXPECT_THROW(e.run(upload(backend, {1, 2}, Shape{2})), rt::ShapeError);
}

class EnvVar {
 public:
  EnvVar(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~EnvVar() {
    if (old_.empty())
      unsetenv(name_);
    else
      setenv(name_, old_.c_str(), 1);
  }

 private:
  const char* name_;
  std::string old_;
};

TEST_P(BadInputs, MemoryLimitsThatDoNotFitAreArgumentErrorsAndRequestsNeverWrap) {
  for (const char* limit : {"1e30", "16777216T", "20000000T", "9.3e18"}) {
    EnvVar env("MLPERF_DEVICE_MEMORY_LIMIT", limit);
    EXPECT_THROW(rt::Backend::create(GetParam()), rt::ArgumentError) << limit;
    EXPECT_NE(message_of([&] { rt::Backend::create(GetParam()); }).find("MLPERF_DEVICE_MEMORY_LIMIT"),
              std::string::npos);
  }
  {
    EnvVar env("MLPERF_DEVICE_MEMORY_LIMIT", "8T");
    EXPECT_EQ(rt::Backend::create(GetParam())->memory_limit(), size_t{8} << 40);
  }
  backend->set_memory_limit(size_t{1} << 20);
  auto held = backend->allocate(1000);
  // in use + request would wrap past 2^64 and pass the limit check.
  EXPECT_THROW(backend->allocate(std::numeric_limits<size_t>::max() - 100), rt::OutOfDeviceMemory);
  EXPECT_THROW(backend->allocate(std::numeric_limits<size_t>::max()), rt::OutOfDeviceMemory);
  EXPECT_EQ(backend->bytes_in_use(), 1000u);
}

INSTANTIATE_FOR_ALL_BACKENDS(BadInputs);

}  // namespace
