#include <cstdlib>

#include "test_util.h"

using rt::Node;
using rt::Shape;

TEST(Registry, ReferenceIsRegisteredAndSelectable) {
  auto names = rt::registered_backends();
  ASSERT_FALSE(names.empty());
  EXPECT_NE(std::find(names.begin(), names.end(), "reference"), names.end());
  EXPECT_EQ(rt::Backend::create("reference")->name(), "reference");
  unsetenv("MLPERF_BACKEND");
  EXPECT_EQ(rt::Backend::create()->name(), names.front());  // highest priority
  setenv("MLPERF_BACKEND", "reference", 1);
  EXPECT_EQ(rt::Backend::create()->name(), "reference");
  setenv("MLPERF_BACKEND", "nope", 1);
  EXPECT_THROW(rt::Backend::create(), rt::BackendError);
  unsetenv("MLPERF_BACKEND");
}

namespace {
// A backend defined outside the core: registered explicitly, counted by the core.
class CountingBackend : public rt::BackendImpl {
 public:
  std::string name() const override { return "counting-test"; }
  void* allocate(size_t bytes) override { return std::malloc(bytes ? bytes : 1); }
  void free(void* p, size_t) override { std::free(p); }
  void copy_host_to_device(void* d, const void* s, size_t n) override { std::memcpy(d, s, n); }
  void copy_device_to_host(void* d, const void* s, size_t n) override { std::memcpy(d, s, n); }
  struct Exe : rt::Executable {
    int64_t kernel_count() const override { return 1; }
    size_t bytes;
  };
  std::unique_ptr<rt::Executable> compile(const rt::Graph& g) override {
    auto e = std::make_unique<Exe>();
    const auto& n = g.node(g.outputs()[0]);
    e->bytes = static_cast<size_t>(n.shape.numel()) * rt::dtype_size(n.dtype);
    return e;
  }
  void launch(rt::Executable& e, const rt::LaunchArgs& a) override {
    std::memset(a.outputs[0], 0, static_cast<Exe&>(e).bytes);
  }
  nlohmann::json extra_stats() const override { return {{"custom", 1}}; }
};
}  // namespace

TEST(Registry, ExternalBackendsPlugInThroughTheInterface) {
  rt::register_backend("counting-test", -100, [] { return std::make_unique<CountingBackend>(); });
  auto b = rt::Backend::create("counting-test");
  rt::Exec e(b, [](rt::Graph&, Node x) { return x * 5.0; });
  auto out = e.run(upload(b, {1, 2}, Shape{2}))[0];
  EXPECT_EQ(out.materialize<float>(), (std::vector<float>{0, 0}));
  EXPECT_EQ(b->stats().kernel_launches, 1);
  EXPECT_EQ(b->stats_json()["backend_stats"]["custom"], 1);
  EXPECT_NE(rt::registered_backends().front(), "counting-test");
}

TEST(GraphIR, IsAPlainWalkableStructure) {
  rt::Graph g;
  Node x = g.parameter(Shape{4, 3}, rt::DType::F32, "x");
  Node y = g.parameter(Shape{3}, rt::DType::F32, "y");
  Node z = rt::reduce_sum(rt::exp(x + y), {1});
  g.set_outputs({z});
  std::vector<rt::OpKind> kinds;
  for (const rt::NodeData& n : g.nodes()) kinds.push_back(n.kind);
  EXPECT_EQ(kinds, (std::vector<rt::OpKind>{rt::OpKind::Parameter, rt::OpKind::Parameter, rt::OpKind::BroadcastTo,
                                            rt::OpKind::Add, rt::OpKind::Exp, rt::OpKind::ReduceSum}));
  const rt::NodeData& add = g.node(3);
  EXPECT_EQ(add.inputs, (std::vector<int>{0, 2}));
  EXPECT_EQ(add.shape, (Shape{4, 3}));
  EXPECT_TRUE(rt::is_elementwise(add.kind));
  EXPECT_TRUE(rt::is_reduction(g.node(5).kind));
  EXPECT_EQ(g.node(5).attrs.axes, (std::vector<int64_t>{1}));
  EXPECT_EQ(g.parameters(), (std::vector<int>{0, 1}));
  EXPECT_EQ(g.outputs(), (std::vector<int>{5}));
  std::string text = g.to_string();
  EXPECT_NE(text.find("reduce_sum(%4) : f32[4] axes=[1]"), std::string::npos) << text;
}

TEST(GraphIR, NodesFromAnotherGraphAreRejected) {
  rt::Graph a, b;
  Node x = a.parameter(Shape{2}, rt::DType::F32);
  Node y = b.parameter(Shape{2}, rt::DType::F32);
  EXPECT_THROW(rt::add(x, y), rt::ArgumentError);
  EXPECT_THROW(b.set_outputs({x}), rt::ArgumentError);
}

class BackendBasics : public BackendTest {};

TEST_P(BackendBasics, SynchronizeCountsAWaitAndScalarsRoundTrip) {
  backend->reset_stats();
  backend->synchronize();
  EXPECT_EQ(backend->stats().waits, 1);
  EXPECT_EQ(rt::Tensor::scalar<int64_t>(backend, 42).materialize<int64_t>(), (std::vector<int64_t>{42}));
  EXPECT_EQ(rt::Tensor::from_host(backend, std::vector<bool>{true, false}, Shape{2}).materialize<bool>(),
            (std::vector<bool>{true, false}));
  auto z = upload(backend, {}, Shape{0, 3});
  EXPECT_TRUE(z.materialize<float>().empty());
}

TEST_P(BackendBasics, ExecAcceptsVectorModelFunctionsAndSingleNodeResults) {
  rt::Exec vec(backend, [](rt::Graph&, const std::vector<Node>& in) {
    Node s = in[0];
    for (size_t i = 1; i < in.size(); ++i) s = s + in[i];
    return std::vector<Node>{s};
  });
  auto a = upload(backend, {1}, Shape{1});
  EXPECT_EQ(vec.run(a, a, a)[0].materialize<float>()[0], 3.0f);
  EXPECT_EQ(vec.run(std::vector<rt::Tensor>{a, a})[0].materialize<float>()[0], 2.0f);
  rt::Exec one(backend, [](rt::Graph&, Node x) { return x; });
  EXPECT_EQ(one.run(a)[0].materialize<float>()[0], 1.0f);
}

INSTANTIATE_FOR_ALL_BACKENDS(BackendBasics);
