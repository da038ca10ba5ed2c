#include <cmath>

#include "op_check.h"

using href::Arr;
using rt::Node;

namespace {

class ElementwiseOps : public BackendTest {};

const Shapes kUnaryShapes = {{}, {7}, {3, 4}, {2, 0, 3}, {2, 3, 5}};
const std::vector<Shapes> kBinaryShapes = {{{3, 4}, {3, 4}}, {{3, 4}, {4}}, {{2, 1, 4}, {3, 1}},
                                           {{}, {2, 3}},     {{0, 3}, {3}}, {{5}, {1}}};

using UnaryNode = Node (*)(Node);

void unary_case(const std::shared_ptr<rt::Backend>& b, UnaryNode op, double (*f)(double), double lo = -1,
                double hi = 1) {
  for (const auto& s : kUnaryShapes) {
    OpCase c;
    c.shapes = {s};
    c.build = [op](rt::Graph&, const std::vector<Node>& in) { return op(in[0]); };
    c.ref = [f](const std::vector<Arr>& in) { return href::unary(in[0], f); };
    c.ranges = {{lo, hi}};
    check_op(b, c);
  }
}

template <class Op, class F>
void binary_case(const std::shared_ptr<rt::Backend>& b, Op op, F f, std::pair<double, double> ra = {-1, 1},
                 std::pair<double, double> rb = {-1, 1}, bool grad = true, bool integer = false) {
  for (const auto& s : kBinaryShapes) {
    OpCase c;
    c.shapes = s;
    c.build = [op](rt::Graph&, const std::vector<Node>& in) { return op(in[0], in[1]); };
    c.ref = [f](const std::vector<Arr>& in) { return href::binary(in[0], in[1], f); };
    c.ranges = {ra, rb};
    c.grad = grad;
    c.integer_inputs = integer;
    check_op(b, c);
  }
}

double gelu_ref(double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))); }

}  // namespace

TEST_P(ElementwiseOps, Neg) {
  unary_case(backend, rt::neg, [](double x) { return -x; });
}
TEST_P(ElementwiseOps, Abs) {
  unary_case(backend, rt::abs, [](double x) { return std::fabs(x); });
}
TEST_P(ElementwiseOps, Exp) {
  unary_case(backend, rt::exp, [](double x) { return std::exp(x); });
}
TEST_P(ElementwiseOps, Log) {
  unary_case(backend, rt::log, [](double x) { return std::log(x); }, 0.2, 3);
}
TEST_P(ElementwiseOps, Sqrt) {
  unary_case(backend, rt::sqrt, [](double x) { return std::sqrt(x); }, 0.2, 3);
}
TEST_P(ElementwiseOps, Rsqrt) {
  unary_case(backend, rt::rsqrt, [](double x) { return 1 / std::sqrt(x); }, 0.2, 3);
}
TEST_P(ElementwiseOps, Tanh) {
  unary_case(backend, rt::tanh, [](double x) { return std::tanh(x); }, -2, 2);
}
TEST_P(ElementwiseOps, Sigmoid) {
  unary_case(backend, rt::sigmoid, [](double x) { return 1 / (1 + std::exp(-x)); }, -3, 3);
}
TEST_P(ElementwiseOps, Relu) {
  unary_case(backend, rt::relu, [](double x) { return x > 0 ? x : 0.0; });
}
TEST_P(ElementwiseOps, Gelu) { unary_case(backend, rt::gelu, gelu_ref, -3, 3); }
TEST_P(ElementwiseOps, Square) {
  unary_case(backend, rt::square, [](double x) { return x * x; });
}

TEST_P(ElementwiseOps, Add) {
  binary_case(backend, rt::add, [](double a, double b) { return a + b; });
}
TEST_P(ElementwiseOps, Sub) {
  binary_case(backend, rt::sub, [](double a, double b) { return a - b; });
}
TEST_P(ElementwiseOps, Mul) {
  binary_case(backend, rt::mul, [](double a, double b) { return a * b; });
}
TEST_P(ElementwiseOps, Div) {
  binary_case(backend, rt::div, [](double a, double b) { return a / b; }, {-1, 1}, {0.5, 2});
}
TEST_P(ElementwiseOps, Pow) {
  binary_case(backend, rt::pow, [](double a, double b) { return std::pow(a, b); }, {0.5, 2}, {-1.5, 1.5});
}
TEST_P(ElementwiseOps, Max) {
  binary_case(backend, static_cast<Node (*)(Node, Node)>(rt::max), [](double a, double b) { return std::max(a, b); });
}
TEST_P(ElementwiseOps, Min) {
  binary_case(backend, static_cast<Node (*)(Node, Node)>(rt::min), [](double a, double b) { return std::min(a, b); });
}

TEST_P(ElementwiseOps, Comparisons) {
  binary_case(backend, rt::eq, [](double a, double b) { return double(a == b); }, {-1, 1}, {-1, 1}, false, true);
  binary_case(backend, rt::ne, [](double a, double b) { return double(a != b); }, {-1, 1}, {-1, 1}, false, true);
  binary_case(backend, rt::lt, [](double a, double b) { return double(a < b); }, {-1, 1}, {-1, 1}, false, true);
  binary_case(backend, rt::le, [](double a, double b) { return double(a <= b); }, {-1, 1}, {-1, 1}, false, true);
  binary_case(backend, rt::gt, [](double a, double b) { return double(a > b); }, {-1, 1}, {-1, 1}, false, true);
  binary_case(backend, rt::ge, [](double a, double b) { return double(a >= b); }, {-1, 1}, {-1, 1}, false, true);
}

TEST_P(ElementwiseOps, WhereBroadcastsAllThreeOperands) {
  for (const Shapes& s : std::vector<Shapes>{{{3, 4}, {3, 4}, {3, 4}}, {{4}, {3, 1}, {3, 4}}, {{0, 2}, {2}, {1}}}) {
    OpCase c;
    c.shapes = s;
    c.build = [](rt::Graph&, const std::vector<Node>& in) {
      return rt::where(rt::gt(in[2], rt::scalar_like(in[2], 0)), in[0], in[1]);
    };
    c.ref = [](const std::vector<Arr>& in) {
      Arr cond = href::unary(in[2], [](double x) { return double(x > 0); });
      return href::where(cond, in[0], in[1]);
    };
    check_op(backend, c);
  }
}

TEST_P(ElementwiseOps, OperatorsWithScalars) {
  OpCase c;
  c.shapes = {{2, 3}};
  c.build = [](rt::Graph&, const std::vector<Node>& in) { return (2.0 * in[0] + 1.0) / 4.0 - (3.0 - in[0]) * 0.5; };
  c.ref = [](const std::vector<Arr>& in) {
    return href::unary(in[0], [](double x) { return (2 * x + 1) / 4 - (3 - x) * 0.5; });
  };
  check_op(backend, c);
}

TEST_P(ElementwiseOps, CastThroughIntegerTruncatesAndStopsGradient) {
  OpCase c;
  c.shapes = {{4, 5}};
  c.ranges = {{-5, 5}};
  c.build = [](rt::Graph&, const std::vector<Node>& in) {
    return rt::cast(rt::cast(in[0], rt::DType::I32), rt::DType::F32) + in[0] * 0.0;
  };
  c.ref = [](const std::vector<Arr>& in) { return href::unary(in[0], [](double x) { return std::trunc(x); }); };
  check_op(backend, c);
}

TEST_P(ElementwiseOps, CastToI64AndBool) {
  auto x = rt::Tensor::from_host(backend, std::vector<float>{-2.7f, 0.0f, 3.9f, 0.5f}, rt::Shape{4});
  rt::Exec e(backend, [](rt::Graph&, Node a) {
    return std::vector<Node>{rt::cast(a, rt::DType::I64), rt::cast(a, rt::DType::Bool),
                             rt::cast(rt::cast(a, rt::DType::Bool), rt::DType::I32)};
  });
  auto out = e.run(x);
  EXPECT_EQ(out[0].materialize<int64_t>(), (std::vector<int64_t>{-2, 0, 3, 0}));
  EXPECT_EQ(out[1].materialize<bool>(), (std::vector<bool>{true, false, true, true}));
  EXPECT_EQ(out[2].materialize<int32_t>(), (std::vector<int32_t>{1, 0, 1, 1}));
}

TEST_P(ElementwiseOps, IntegerArithmeticAndLogic) {
  auto a = rt::Tensor::from_host(backend, std::vector<int32_t>{7, -3, 0, 5}, rt::Shape{4});
  auto b = rt::Tensor::from_host(backend, std::vector<int32_t>{2, 2, 0, -5}, rt::Shape{4});
  rt::Exec e(backend, [](rt::Graph&, Node x, Node y) {
    Node m = rt::logical_and(rt::ge(x, y), rt::logical_not(rt::eq(x, y)));
    return std::vector<Node>{x + y,      x * y,       x / y, rt::max(x, y),
                             rt::abs(x), rt::relu(x), m,     rt::logical_or(m, rt::lt(x, y))};
  });
  auto out = e.run(a, b);
  EXPECT_EQ(out[0].materialize<int32_t>(), (std::vector<int32_t>{9, -1, 0, 0}));
  EXPECT_EQ(out[1].materialize<int32_t>(), (std::vector<int32_t>{14, -6, 0, -25}));
  EXPECT_EQ(out[2].materialize<int32_t>(), (std::vector<int32_t>{3, -1, 0, -1}));
  EXPECT_EQ(out[3].materialize<int32_t>(), (std::vector<int32_t>{7, 2, 0, 5}));
  EXPECT_EQ(out[4].materialize<int32_t>(), (std::vector<int32_t>{7, 3, 0, 5}));
  EXPECT_EQ(out[5].materialize<int32_t>(), (std::vector<int32_t>{7, 0, 0, 5}));
  EXPECT_EQ(out[6].materialize<bool>(), (std::vector<bool>{true, false, false, true}));
  EXPECT_EQ(out[7].materialize<bool>(), (std::vector<bool>{true, true, false, true}));
}

TEST_P(ElementwiseOps, ConstantsScalarsAndIota) {
  rt::Exec e(backend, [](rt::Graph& g, const std::vector<Node>&) {
    return std::vector<Node>{g.constant({1, 2, 3, 4, 5, 6}, rt::Shape{2, 3}),
                             g.scalar(2.5),
                             g.iota(rt::Shape{2, 3}, 1, rt::DType::I64),
                             g.iota(rt::Shape{2, 3}, 0, rt::DType::F32),
                             g.zeros(rt::Shape{2}),
                             g.ones(rt::Shape{2}, rt::DType::I32)};
  });
  auto out = e.run(std::vector<rt::Tensor>{});
  EXPECT_EQ(out[0].materialize<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(out[1].shape().rank(), 0);
  EXPECT_EQ(out[1].materialize<float>(), (std::vector<float>{2.5f}));
  EXPECT_EQ(out[2].materialize<int64_t>(), (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(out[3].materialize<float>(), (std::vector<float>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(out[4].materialize<float>(), (std::vector<float>{0, 0}));
  EXPECT_EQ(out[5].materialize<int32_t>(), (std::vector<int32_t>{1, 1}));
}

// Integer arithmetic wraps (two's complement) on every backend, as XLA's does; it was undefined
// behaviour in the kernels (and INT32_MIN / -1 a SIGFPE), found by fuzz/GraphFuzzer.cpp.
TEST_P(ElementwiseOps, IntegerArithmeticWrapsOnOverflow) {
  std::vector<int32_t> v = {INT32_MAX, INT32_MIN, 65536, -7};
  auto x = rt::Tensor::from_host(backend, v, rt::Shape{4});
  rt::Exec e(backend, [](rt::Graph& g, Node a) -> std::vector<Node> {
    Node minus_one = g.scalar(-1, rt::DType::I32);
    return {a + 1.0, a * a, -a, rt::abs(a), a / minus_one, rt::square(a), a - 1.0};
  });
  auto out = e.run(x);
  auto at = [&](size_t i) { return out[i].materialize<int32_t>(); };
  EXPECT_EQ(at(0), (std::vector<int32_t>{INT32_MIN, INT32_MIN + 1, 65537, -6}));
  EXPECT_EQ(at(1), (std::vector<int32_t>{1, 0, 0, 49}));
  EXPECT_EQ(at(2), (std::vector<int32_t>{INT32_MIN + 1, INT32_MIN, -65536, 7}));
  EXPECT_EQ(at(3), (std::vector<int32_t>{INT32_MAX, INT32_MIN, 65536, 7}));
  EXPECT_EQ(at(4), (std::vector<int32_t>{INT32_MIN + 1, INT32_MIN, -65536, 7}));
  EXPECT_EQ(at(5), at(1));
  EXPECT_EQ(at(6), (std::vector<int32_t>{INT32_MAX - 1, INT32_MAX, 65535, -8}));
}

TEST_P(ElementwiseOps, IntegerSumsWrapOnOverflow) {
  std::vector<int64_t> v = {INT64_MIN, INT64_MIN, INT64_MAX, 3};
  auto x = rt::Tensor::from_host(backend, v, rt::Shape{2, 2});
  rt::Exec e(backend,
             [](rt::Graph&, Node a) -> std::vector<Node> { return {rt::reduce_sum(a, {0}), rt::reduce_sum(a)}; });
  auto out = e.run(x);
  EXPECT_EQ(out[0].materialize<int64_t>(), (std::vector<int64_t>{-1, INT64_MIN + 3}));
  EXPECT_EQ(out[1].materialize<int64_t>(), (std::vector<int64_t>{INT64_MIN + 2}));
}

INSTANTIATE_FOR_ALL_BACKENDS(ElementwiseOps);
