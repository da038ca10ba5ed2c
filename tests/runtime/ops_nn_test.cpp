#include <cmath>

#include "op_check.h"

using href::Arr;
using rt::Node;

namespace {
class NNOps : public BackendTest {};

struct Red {
  std::vector<int64_t> shape, axes;
  bool keep;
};
const std::vector<Red> kReductions = {{{3, 4}, {1}, false},   {{3, 4}, {0}, true}, {{2, 3, 4}, {0, 2}, false},
                                      {{2, 3, 4}, {}, false}, {{5}, {0}, true},    {{2, 0, 3}, {1}, false},
                                      {{0, 3}, {1}, true}};

void reduction_case(const std::shared_ptr<rt::Backend>& b, Node (*op)(Node, std::vector<int64_t>, bool),
                    href::Red kind) {
  for (const Red& r : kReductions) {
    if (kind != href::Red::Sum && r.shape.size() > 1 && r.shape[1] == 0) continue;  // empty max/mean
    OpCase c;
    c.shapes = {r.shape};
    c.build = [op, r](rt::Graph&, const std::vector<Node>& x) { return op(x[0], r.axes, r.keep); };
    c.ref = [r, kind](const std::vector<Arr>& x) { return href::reduce(x[0], r.axes, r.keep, kind); };
    check_op(b, c);
  }
}
}  // namespace

TEST_P(NNOps, ReduceSum) { reduction_case(backend, rt::reduce_sum, href::Red::Sum); }
TEST_P(NNOps, ReduceMean) { reduction_case(backend, rt::reduce_mean, href::Red::Mean); }
TEST_P(NNOps, ReduceMax) { reduction_case(backend, rt::reduce_max, href::Red::Max); }

TEST_P(NNOps, ArgMax) {
  for (auto [s, axis] :
       std::vector<std::pair<std::vector<int64_t>, int>>{{{3, 4}, 1}, {{3, 4}, 0}, {{2, 3, 4}, -2}, {{0, 3}, 1}}) {
    OpCase c;
    c.shapes = {s};
    c.grad = false;
    c.build = [a = axis](rt::Graph&, const std::vector<Node>& x) {
      Node r = rt::argmax(x[0], a);
      EXPECT_EQ(r.dtype(), rt::DType::I64);
      return r;
    };
    c.ref = [a = axis](const std::vector<Arr>& x) { return href::argmax(x[0], a); };
    check_op(backend, c);
  }
}

TEST_P(NNOps, ReductionsOnIntegers) {
  auto t = rt::Tensor::from_host(backend, std::vector<int32_t>{1, 9, 3, 4, -5, 6}, rt::Shape{2, 3});
  rt::Exec e(backend, [](rt::Graph&, Node x) {
    return std::vector<Node>{rt::reduce_sum(x, {1}), rt::reduce_max(x, {0}), rt::argmax(x, 1, true)};
  });
  auto out = e.run(t);
  EXPECT_EQ(out[0].materialize<int32_t>(), (std::vector<int32_t>{13, 5}));
  EXPECT_EQ(out[1].materialize<int32_t>(), (std::vector<int32_t>{4, 9, 6}));
  EXPECT_EQ(out[2].shape(), (rt::Shape{2, 1}));
  EXPECT_EQ(out[2].materialize<int64_t>(), (std::vector<int64_t>{1, 2}));
}

TEST_P(NNOps, SumAndMeanAliases) {
  auto t = upload(backend, {1, 2, 3, 6}, rt::Shape{2, 2});
  rt::Exec e(backend, [](rt::Graph&, Node x) { return std::vector<Node>{rt::sum(x), rt::mean(x, {0}, true)}; });
  auto out = e.run(t);
  EXPECT_EQ(out[0].materialize<float>(), (std::vector<float>{12}));
  EXPECT_EQ(out[1].shape(), (rt::Shape{1, 2}));
  EXPECT_EQ(out[1].materialize<float>(), (std::vector<float>{2, 4}));
}

TEST_P(NNOps, MatMulBatchedAndBroadcast) {
  for (const Shapes& s : std::vector<Shapes>{{{3, 4}, {4, 5}},
                                             {{2, 3, 4}, {4, 5}},
                                             {{2, 1, 3, 4}, {3, 4, 2}},
                                             {{1, 2, 3}, {4, 3, 2}},
                                             {{0, 4}, {4, 3}},
                                             {{3, 0}, {0, 2}},
                                             {{1, 1}, {1, 1}}}) {
    OpCase c;
    c.shapes = s;
    c.build = [](rt::Graph&, const std::vector<Node>& x) { return rt::matmul(x[0], x[1]); };
    c.ref = [](const std::vector<Arr>& x) { return href::matmul(x[0], x[1]); };
    check_op(backend, c);
  }
}

TEST_P(NNOps, MatMulWithVectors) {
  OpCase c;
  c.shapes = {{4}, {4, 3}};
  c.build = [](rt::Graph&, const std::vector<Node>& x) { return rt::matmul(x[0], x[1]); };
  c.ref = [](const std::vector<Arr>& x) {
    Arr a = x[0];
    a.shape = {1, 4};
    Arr r = href::matmul(a, x[1]);
    r.shape = {3};
    return r;
  };
  check_op(backend, c);
  c.shapes = {{2, 3, 4}, {4}};
  c.ref = [](const std::vector<Arr>& x) {
    Arr b = x[1];
    b.shape = {4, 1};
    Arr r = href::matmul(x[0], b);
    r.shape = {2, 3};
    return r;
  };
  check_op(backend, c);
}

TEST_P(NNOps, MatMulTransposedOperandsThroughGradients) {
  OpCase c;
  c.shapes = {{2, 4, 3}, {2, 5, 4}};
  c.build = [](rt::Graph&, const std::vector<Node>& x) { return rt::matmul(rt::transpose(x[0]), rt::transpose(x[1])); };
  c.ref = [](const std::vector<Arr>& x) {
    return href::matmul(href::transpose(x[0], {0, 2, 1}), href::transpose(x[1], {0, 2, 1}));
  };
  check_op(backend, c);
}

TEST_P(NNOps, SoftmaxAndLogSoftmax) {
  for (auto [s, axis] :
       std::vector<std::pair<std::vector<int64_t>, int>>{{{3, 5}, -1}, {{4, 3}, 0}, {{2, 3, 4}, 1}, {{0, 4}, -1}}) {
    for (bool lg : {false, true}) {
      OpCase c;
      c.shapes = {s};
      c.ranges = {{-4, 4}};
      c.build = [a = axis, lg](rt::Graph&, const std::vector<Node>& x) {
        return lg ? rt::log_softmax(x[0], a) : rt::softmax(x[0], a);
      };
      c.ref = [a = axis, lg](const std::vector<Arr>& x) { return href::softmax(x[0], a, lg); };
      check_op(backend, c);
    }
  }
}

TEST_P(NNOps, SoftmaxIsStableForLargeLogits) {
  auto t = rt::Tensor::from_host(backend, std::vector<float>{1000, 1001, 1002}, rt::Shape{3});
  rt::Exec e(backend, [](rt::Graph&, Node x) { return rt::softmax(x); });
  auto p = e.run(t)[0].materialize<float>();
  EXPECT_NEAR(p[2], 0.66524096, 1e-5);
}

TEST_P(NNOps, CrossEntropyWithIntegerLabels) {
  for (const std::vector<int64_t>& s : std::vector<std::vector<int64_t>>{{4, 5}, {2, 3, 4}, {0, 3}}) {
    std::vector<int64_t> ls(s.begin(), s.end() - 1);
    int64_t n = 1;
    for (auto d : ls) n *= d;
    std::vector<double> labels;
    for (int64_t i = 0; i < n; ++i) labels.push_back(static_cast<double>((i * 7 + 3) % s.back()));
    OpCase c;
    c.shapes = {s};
    c.ranges = {{-3, 3}};
    c.build = [labels, ls](rt::Graph& g, const std::vector<Node>& x) {
      return rt::softmax_cross_entropy(x[0], g.constant(labels, rt::Shape(ls), rt::DType::I64));
    };
    c.ref = [labels, s](const std::vector<Arr>& x) {
      Arr t{s, std::vector<double>(x[0].v.size(), 0.0)};
      for (size_t i = 0; i < labels.size(); ++i)
        t.v[i * static_cast<size_t>(s.back()) + static_cast<size_t>(labels[i])] = 1;
      return href::cross_entropy(x[0], t);
    };
    check_op(backend, c);
  }
}

TEST_P(NNOps, CrossEntropyWithOneHotOrSoftTargets) {
  OpCase c;
  c.shapes = {{3, 4}, {3, 4}};
  c.ranges = {{-3, 3}, {0, 1}};
  c.build = [](rt::Graph&, const std::vector<Node>& x) { return rt::softmax_cross_entropy_with_probs(x[0], x[1]); };
  c.ref = [](const std::vector<Arr>& x) { return href::cross_entropy(x[0], x[1]); };
  check_op(backend, c);
}

TEST_P(NNOps, OneHot) {
  auto t = rt::Tensor::from_host(backend, std::vector<int32_t>{2, 0, 1}, rt::Shape{3});
  rt::Exec e(backend, [](rt::Graph&, Node l) { return rt::one_hot(l, 3); });
  EXPECT_EQ(e.run(t)[0].materialize<float>(), (std::vector<float>{0, 0, 1, 1, 0, 0, 0, 1, 0}));
}

TEST_P(NNOps, DropoutKeepsAboutOneMinusRateScaledAndDeterministicForSeed) {
  const int64_t n = 20000;
  std::vector<float> ones(n, 1.0f);
  auto x = rt::Tensor::from_host(backend, ones, rt::Shape{n});
  auto run = [&](uint64_t seed) {
    rt::Exec e(backend, [seed](rt::Graph&, Node v) {
      Node y = rt::dropout(v, 0.25, seed);
      Node g = rt::gradients(rt::reduce_sum(y * 3.0), {v})[0];
      return std::vector<Node>{y, g};
    });
    auto out = e.run(x);
    return std::make_pair(out[0].materialize<float>(), out[1].materialize<float>());
  };
  auto [y1, g1] = run(7);
  auto [y2, g2] = run(7);
  auto [y3, g3] = run(8);
  EXPECT_EQ(y1, y2);
  EXPECT_NE(y1, y3);
  int64_t kept = 0;
  for (int64_t i = 0; i < n; ++i) {
    float v = y1[static_cast<size_t>(i)];
    ASSERT_TRUE(v == 0.0f || std::fabs(v - 1.0f / 0.75f) < 1e-6) << v;
    ASSERT_FLOAT_EQ(g1[static_cast<size_t>(i)], 3.0f * v);
    kept += v != 0.0f;
  }
  EXPECT_NEAR(static_cast<double>(kept) / n, 0.75, 0.02);
}

TEST_P(NNOps, DropoutWithSeedInputVariesPerCall) {
  auto x = rt::Tensor::from_host(backend, std::vector<float>(1000, 1.0f), rt::Shape{1000});
  rt::Exec e(backend, [](rt::Graph&, Node v, Node seed) { return rt::dropout(v, 0.5, seed); });
  auto a = e.run(x, rt::Tensor::scalar<int64_t>(backend, 1))[0].materialize<float>();
  auto b = e.run(x, rt::Tensor::scalar<int64_t>(backend, 2))[0].materialize<float>();
  auto c = e.run(x, rt::Tensor::scalar<int64_t>(backend, 1))[0].materialize<float>();
  EXPECT_NE(a, b);
  EXPECT_EQ(a, c);
  EXPECT_EQ(e.compilations(), 1);
}

TEST_P(NNOps, GradientOfSharedSubexpressionAccumulates) {
  OpCase c;
  c.shapes = {{3}, {3}};
  c.build = [](rt::Graph&, const std::vector<Node>& x) {
    Node t = rt::tanh(x[0] * x[1]);
    return t * t + rt::exp(t) * x[0];
  };
  c.ref = [](const std::vector<Arr>& x) {
    return href::binary(x[0], x[1], [](double a, double b) {
      double t = std::tanh(a * b);
      return t * t + std::exp(t) * a;
    });
  };
  check_op(backend, c);
}

TEST_P(NNOps, GradientOfUnrelatedNodeIsZeros) {
  auto x = rt::Tensor::from_host(backend, std::vector<float>{1, 2}, rt::Shape{2});
  rt::Exec e2(backend, [](rt::Graph& g, Node a) {
    Node other = g.iota(rt::Shape{3}, 0, rt::DType::F32);
    auto grads = rt::gradients(rt::reduce_sum(a * a), {a, other});
    return std::vector<Node>{grads[0], grads[1]};
  });
  auto out = e2.run(x);
  EXPECT_EQ(out[0].materialize<float>(), (std::vector<float>{2, 4}));
  EXPECT_EQ(out[1].materialize<float>(), (std::vector<float>{0, 0, 0}));
}

INSTANTIATE_FOR_ALL_BACKENDS(NNOps);

TEST_P(NNOps, ReduceMaxGradientSplitsTiesEvenly) {
  auto x = upload(backend, {1, 3, 3, 2, 5, 5, 5, 0}, rt::Shape{2, 4});
  rt::Exec e(backend, [](rt::Graph&, Node v) { return rt::gradients(rt::reduce_sum(rt::reduce_max(v, {1})), {v})[0]; });
  auto g = e.run(x)[0].materialize<float>();
  std::vector<float> want = {0, 0.5f, 0.5f, 0, 1 / 3.f, 1 / 3.f, 1 / 3.f, 0};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_FLOAT_EQ(g[i], want[i]) << i;
}
