// Fused backends against the reference: random inputs, many shapes (including sizes that are
// not multiples of the vector width or the thread count), every kind of fused kernel.
#include <algorithm>
#include <cmath>
#include <functional>

#include "test_util.h"

using rt::Node;
using rt::Shape;

namespace {

using Fn = std::function<std::vector<Node>(rt::Graph&, const std::vector<Node>&)>;

std::vector<std::string> fused_backends() {
  std::vector<std::string> v;
  for (const auto& n : rt::registered_backends())
    if (n != "reference") v.push_back(n);
  if (v.empty()) v.push_back("none");
  return v;
}

class Fused : public ::testing::TestWithParam<std::string> {
 protected:
  std::shared_ptr<rt::Backend> fused, ref;
  void SetUp() override {
    if (GetParam() == "none") GTEST_SKIP() << "no fused backend is built";
    fused = rt::Backend::create(GetParam());
    ref = rt::Backend::create("reference");
  }
  // Runs fn on both backends with the same random inputs; compares every output. With
  // `normwise`, atol is relative to the output's largest magnitude: a sum of products that
  // cancels (a matmul's entry) is only as exact as its largest terms, and two correct f32
  // products that add in another order (OpenBLAS, the tiled kernel) differ by that much.
  void compare(const Fn& fn, const std::vector<Shape>& shapes, double rtol = 2e-5, double atol = 2e-5,
               uint64_t seed = 7, bool normwise = false) {
    std::vector<std::vector<float>> host;
    for (size_t i = 0; i < shapes.size(); ++i)
      host.push_back(random_floats(static_cast<size_t>(shapes[i].numel()), seed + i, -2.0f, 2.0f));
    auto run = [&](const std::shared_ptr<rt::Backend>& b) {
      rt::Exec e(b, fn, static_cast<int>(shapes.size()));
      std::vector<rt::Tensor> args;
      for (size_t i = 0; i < shapes.size(); ++i) args.push_back(upload(b, host[i], shapes[i]));
      std::vector<std::vector<double>> out;
      for (auto& t : e.run(args)) out.push_back(t.materialize<double>());
      return out;
    };
    auto a = run(fused), r = run(ref);
    ASSERT_EQ(a.size(), r.size());
    for (size_t o = 0; o < a.size(); ++o) {
      ASSERT_EQ(a[o].size(), r[o].size());
      double scale = 1.0;
      for (double y : r[o])
        if (normwise && std::isfinite(y)) scale = std::max(scale, std::fabs(y));
      for (size_t i = 0; i < a[o].size(); ++i) {
        double x = a[o][i], y = r[o][i];
        if (std::isnan(y)) {
          EXPECT_TRUE(std::isnan(x)) << "output " << o << " element " << i;
          continue;
        }
        ASSERT_NEAR(x, y, atol * scale + rtol * std::fabs(y))
            << "output " << o << " element " << i << " of " << a[o].size();
      }
    }
  }
};

const std::vector<Shape> kFlatShapes = {Shape{1},       Shape{7},       Shape{8},       Shape{9},      Shape{31},
                                        Shape{33},      Shape{1000},    Shape{65537},   Shape{140001}, Shape{3, 5},
                                        Shape{17, 129}, Shape{2, 3, 7}, Shape{4, 1, 9}, Shape{0},      Shape{3, 0}};

TEST_P(Fused, ElementwiseChainsOnManyShapes) {
  Fn fn = [](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
    Node x = in[0], y = in[1];
    Node a = rt::tanh(x * 1.5 + y) * rt::sigmoid(x) - rt::relu(y) / (rt::abs(x) + 1.0);
    Node b = rt::where(rt::gt(x, y), rt::exp(x * 0.5), rt::sqrt(rt::abs(y)) + rt::gelu(x));
    Node c = rt::max(rt::min(a, b), rt::neg(rt::square(y))) + rt::log(rt::abs(x) + 1e-3);
    return {a, b, c};
  };
  for (const Shape& s : kFlatShapes) {
    SCOPED_TRACE(s.to_string());
    compare(fn, {s, s});
  }
}

TEST_P(Fused, BroadcastsAndBiasEpilogues) {
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {3, 7}, {17, 129}, {128, 513}, {257, 33}}) {
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n));
    compare(
        [](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
          Node h = rt::relu(in[0] + in[1]) * in[2];  // [m,n] + [n], times [m,1]
          return {h, rt::sigmoid(in[1]) + in[2]};    // [n] + [m,1] -> [m,n]
        },
        {Shape{m, n}, Shape{n}, Shape{m, 1}});
  }
}

TEST_P(Fused, ReductionsOverEveryAxisSet) {
  for (const Shape& s : {Shape{5}, Shape{1, 1}, Shape{13, 17}, Shape{128, 10}, Shape{3, 33, 9}, Shape{2, 1, 65}}) {
    SCOPED_TRACE(s.to_string());
    int r = s.rank();
    for (int mask = 0; mask < (1 << r); ++mask) {
      std::vector<int64_t> axes;
      for (int a = 0; a < r; ++a)
        if (mask & (1 << a)) axes.push_back(a);
      compare(
          [axes](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
            Node e = rt::exp(in[0] * 0.5) - in[0];
            return {rt::reduce_sum(e, axes), rt::reduce_max(e * e, axes, true), rt::reduce_mean(in[0], axes)};
          },
          {s}, 1e-5, 1e-4);
    }
    compare(
        [](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
          return {rt::cast(rt::argmax(in[0], -1), rt::DType::F32)};
        },
        {s});
  }
}

TEST_P(Fused, SoftmaxAndCrossEntropy) {
  for (auto [n, c] : std::vector<std::pair<int64_t, int64_t>>{{1, 2}, {7, 10}, {128, 10}, {33, 257}}) {
    compare(
        [c](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
          Node labels = rt::cast(rt::argmax(in[1], -1), rt::DType::I32);
          (void)c;
          return {rt::softmax(in[0]), rt::log_softmax(in[0], 0), rt::softmax_cross_entropy(in[0], labels)};
        },
        {Shape{n, c}, Shape{n, c}}, 1e-5, 1e-5);
  }
}

TEST_P(Fused, LayoutOpsInlineIntoConsumers) {
  compare(
      [](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
        Node t = rt::transpose(in[0], {1, 0, 2}) + 1.0;              // [5,3,7]
        Node s = rt::slice(in[0], {0, 1, 0}, {3, 5, 7}, {2, 2, 3});  // [2,2,3]
        Node p = rt::pad(rt::exp(s), {1, 0, 2}, {0, 3, 1}, -1.0);    // [3,5,6]
        Node c = rt::concat({rt::tanh(in[0]), in[0] * 2.0, rt::reshape(in[1], Shape{3, 5, 7})}, 1);
        return {t, p, c, rt::reshape(t, Shape{15, 7}) * 3.0};
      },
      {Shape{3, 5, 7}, Shape{105}});
}

TEST_P(Fused, MatmulWithFusedEpilogues) {
  for (auto [m, k, n] : std::vector<std::array<int64_t, 3>>{{1, 1, 1}, {7, 13, 5}, {33, 65, 17}, {128, 784, 10}}) {
    SCOPED_TRACE(std::to_string(m) + "," + std::to_string(k) + "," + std::to_string(n));
    compare(
        [](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
          Node h = rt::gelu(rt::matmul(in[0], in[1]) + in[2]);
          Node g = rt::matmul(rt::transpose(in[0] * 2.0), h);  // [k,n]
          return {h, g, rt::matmul(rt::transpose(in[0]), rt::relu(h))};
        },
        {Shape{m, k}, Shape{k, n}, Shape{n}}, 1e-4, 1e-4, 7, /*normwise=*/true);
  }
  compare([](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> { return {rt::matmul(in[0], in[1]) * 0.5}; },
          {Shape{3, 4, 9}, Shape{3, 9, 6}}, 1e-5, 1e-5);
}

TEST_P(Fused, HalfPrecisionChainsMatchTheReference) {
  for (rt::DType h : {rt::DType::F16, rt::DType::BF16}) {
    compare(
        [h](rt::Graph&, const std::vector<Node>& in) -> std::vector<Node> {
          Node x = rt::cast(in[0], h), y = rt::cast(in[1], h);
          Node z = rt::tanh(x * y + x) - rt::reduce_sum(y, {1}, true);
          return {rt::cast(z, rt::DType::F32), rt::cast(rt::matmul(x, rt::transpose(y)), rt::DType::F32)};
        },
        {Shape{9, 17}, Shape{9, 17}}, 1e-6, 1e-6);
  }
}

TEST_P(Fused, IntegersBoolsIotaAndRandom) {
  compare(
      [](rt::Graph& g, const std::vector<Node>& in) -> std::vector<Node> {
        Node i = rt::cast(in[0] * 10.0, rt::DType::I32);
        Node io = rt::cast(g.iota(Shape{37, 11}, 1, rt::DType::I64), rt::DType::I32);
        Node q = (i + io) * i / (io + rt::scalar_like(io, 1.0));
        Node mask = rt::logical_and(rt::gt(in[0], rt::scalar_like(in[0], 0.0)), rt::lt(i, io));
        Node r = rt::random_uniform(g, Shape{37, 11}, 1234);
        return {rt::cast(q, rt::DType::F32), rt::cast(mask, rt::DType::F32), r, rt::dropout(in[0], 0.3, 99)};
      },
      {Shape{37, 11}}, 0, 0);
}

TEST_P(Fused, ElementwiseChainIsOneKernel) {
  rt::Exec e(fused, [](rt::Graph&, Node x) {
    Node y = x;
    for (int i = 0; i < 12; ++i) y = rt::tanh(y * 1.01 + 0.1);
    return y;
  });
  auto x = upload(fused, random_floats(4099, 3), Shape{4099});
  fused->synchronize();
  fused->reset_stats();
  e.run(x)[0].materialize<float>();
  EXPECT_EQ(fused->stats().kernel_launches, 1);
}

TEST_P(Fused, TrainingStepsMatchTheReference) {
  auto train = [](const std::shared_ptr<rt::Backend>& b) {
    rt::Context ctx(b, 5);
    rt::Adam adam(1e-2);
    rt::Exec step(b, ctx, [&](rt::Context& c, rt::Graph& g, Node x, Node y) {
      Node h = rt::relu(rt::matmul(x, c.variable(g, "w1", Shape{13, 33})) +
                        c.variable(g, "b1", Shape{33}, rt::Initializer::zeros()));
      Node logits =
          rt::matmul(h, c.variable(g, "w2", Shape{33, 5})) + c.variable(g, "b2", Shape{5}, rt::Initializer::zeros());
      Node loss = rt::reduce_mean(rt::softmax_cross_entropy(logits, y));
      adam.minimize(c, g, loss);
      return loss;
    });
    std::vector<float> losses;
    auto xs = random_floats(29 * 13, 11);
    std::vector<int32_t> ys;
    for (int i = 0; i < 29; ++i) ys.push_back(i % 5);
    auto x = upload(b, xs, Shape{29, 13});
    auto y = rt::Tensor::from_host(b, ys, Shape{29});
    for (int i = 0; i < 5; ++i) losses.push_back(step.run(x, y)[0].materialize<float>()[0]);
    auto w = ctx.get("w1").materialize<float>();
    losses.insert(losses.end(), w.begin(), w.end());
    return losses;
  };
  auto a = train(fused), r = train(ref);
  ASSERT_EQ(a.size(), r.size());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], r[i], 1e-4 + 1e-4 * std::fabs(r[i])) << i;
}

INSTANTIATE_TEST_SUITE_P(FusedBackends, Fused, ::testing::ValuesIn(fused_backends()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
