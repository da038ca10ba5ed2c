// ops.def is the single source of the runtime's ops: every row is complete (reference kernel,
// gradient rule or NOT_DIFFERENTIABLE, code template or a non-inlined fusion class), and every
// elementwise row, driven from the table alone, computes the same values and gradients on every
// backend as on the reference interpreter.
#include <cmath>
#include <set>
#include <string>

#include "test_util.h"

using rt::DTypeRule;
using rt::FusionClass;
using rt::Node;
using rt::OpClass;
using rt::OpKind;

namespace {

struct ElementwiseRow {
  OpKind kind;
  int arity;
  Node (*unary)(Node);
  Node (*binary)(Node, Node);
};

// The builder of each elementwise row, taken from ops.def itself.
const std::vector<ElementwiseRow>& elementwise_rows() {
  static const std::vector<ElementwiseRow> rows = {
#define MLPERF_UNARY(Kind, name, ...) {OpKind::Kind, 1, [](Node x) { return rt::name(x); }, nullptr},
#define MLPERF_BINARY(Kind, name, ...) {OpKind::Kind, 2, nullptr, [](Node a, Node b) { return rt::name(a, b); }},
#define MLPERF_CONVERT(Kind, ...)                                                                                  \
  {OpKind::Kind, 1, [](Node x) { return rt::cast(x, rt::is_float(x.dtype()) ? rt::DType::I64 : rt::DType::F32); }, \
   nullptr},
#define MLPERF_TERNARY(Kind, ...) {OpKind::Kind, 3, nullptr, nullptr},
#define MLPERF_OP(...)
#include "mlperf/rt/ops.def"
  };
  return rows;
}

bool admits_float(DTypeRule r) { return r != DTypeRule::Bool && r != DTypeRule::Logical; }
bool admits_int(DTypeRule r) { return r != DTypeRule::Float && r != DTypeRule::FloatOnly; }

TEST(OpTable, OneRowPerKindInEnumOrder) {
  auto table = rt::op_table();
  ASSERT_EQ(table.size(), static_cast<size_t>(OpKind::MatMul) + 1);
  std::set<std::string> names;
  for (size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(table[i].kind), i);
    EXPECT_STREQ(rt::op_name(table[i].kind), table[i].name);
    EXPECT_TRUE(names.insert(table[i].name).second) << "duplicate op name " << table[i].name;
    EXPECT_EQ(&rt::op_info(table[i].kind), &table[i]);
  }
  EXPECT_THROW(rt::op_info(static_cast<OpKind>(table.size())), rt::Error);
}

TEST(OpTable, EveryRowHasKernelGradientAndCode) {
  for (const rt::OpInfo& op : rt::op_table()) {
    SCOPED_TRACE(op.name);
    EXPECT_GT(std::string(op.reference).size(), 0u) << "no reference kernel";
    std::string grad = op.gradient;
    EXPECT_FALSE(grad.empty());
    EXPECT_EQ(op.differentiable, grad.find("NOT_DIFFERENTIABLE") == std::string::npos) << grad;
    const bool inlined = op.fusion == FusionClass::Inline;
    EXPECT_EQ(inlined, op.cls == OpClass::Unary || op.cls == OpClass::Binary || op.cls == OpClass::Ternary);
    EXPECT_EQ(inlined, rt::is_elementwise(op.kind));
    if (inlined) {
      EXPECT_EQ(op.shape_rule, rt::ShapeRule::Broadcast);
      if (admits_float(op.dtype_rule)) EXPECT_NE(op.code_float, nullptr) << "no code template for floats";
      if (admits_int(op.dtype_rule)) EXPECT_NE(op.code_int, nullptr) << "no code template for integers";
      if (!admits_float(op.dtype_rule)) EXPECT_EQ(op.code_float, nullptr) << "a float template the builder never uses";
      if (!admits_int(op.dtype_rule)) EXPECT_EQ(op.code_int, nullptr) << "an integer template the builder never uses";
    } else {
      EXPECT_EQ(op.code_float, nullptr);
      EXPECT_EQ(op.code_int, nullptr);
      if (op.differentiable) EXPECT_EQ(grad, "STRUCTURAL");
    }
  }
  size_t elementwise = 0;
  for (const rt::OpInfo& op : rt::op_table()) elementwise += op.fusion == FusionClass::Inline;
  EXPECT_EQ(elementwise_rows().size(), elementwise);
}

class TableOps : public BackendTest {};

// sum(op(inputs)) and its gradients on `b`, for F32 inputs in [lo, hi] (or I32 in {-3..3} \ {0}).
struct RowResult {
  std::vector<double> out;
  std::vector<std::vector<float>> grads;
};

RowResult run_row(const std::shared_ptr<rt::Backend>& b, const ElementwiseRow& row, bool integer,
                  const std::vector<std::vector<float>>& xs, bool grads) {
  const rt::Shape shape{static_cast<int64_t>(xs[0].size())};
  rt::Exec exec(b, [&](rt::Graph& g, const std::vector<Node>& in) -> std::vector<Node> {
    std::vector<Node> outs;
    Node y = row.arity == 1 ? row.unary(in[0]) : row.binary(in[0], in[1]);
    outs.push_back(y);
    if (grads) {
      Node loss = rt::reduce_sum(y * g.constant(std::vector<double>(xs[0].size(), 0.5), shape, y.dtype()));
      for (Node d : rt::gradients(loss, in)) outs.push_back(d);
    }
    return outs;
  });
  std::vector<rt::Tensor> args;
  for (const auto& x : xs) {
    if (integer) {
      std::vector<int32_t> v(x.begin(), x.end());
      args.push_back(rt::Tensor::from_host(b, v, shape));
    } else {
      args.push_back(rt::Tensor::from_host(b, x, shape));
    }
  }
  std::vector<rt::Tensor> res = exec.run(args);
  RowResult r;
  r.out = res[0].materialize<double>();
  for (size_t i = 1; i < res.size(); ++i) r.grads.push_back(res[i].materialize<float>());
  return r;
}

TEST_P(TableOps, EveryElementwiseRowMatchesTheReferenceAndItsGradient) {
  auto ref = rt::Backend::create("reference");
  for (const ElementwiseRow& row : elementwise_rows()) {
    const rt::OpInfo& op = rt::op_info(row.kind);
    if (row.arity == 3 || op.dtype_rule == DTypeRule::Bool || op.dtype_rule == DTypeRule::Logical) continue;
    for (bool integer : {false, true}) {
      if (integer ? !admits_int(op.dtype_rule) : !admits_float(op.dtype_rule)) continue;
      SCOPED_TRACE(std::string(op.name) + (integer ? " i32" : " f32"));
      std::vector<std::vector<float>> xs;
      for (int i = 0; i < row.arity; ++i) {
        std::vector<float> v =
            random_floats(64, 7 + static_cast<uint64_t>(i), integer ? -3.f : 0.3f, integer ? 3.f : 2.f);
        if (integer)
          for (float& f : v) f = std::round(f) == 0 ? 1.f : std::round(f);
        xs.push_back(v);
      }
      const bool grads = !integer && op.differentiable && op.dtype_rule != DTypeRule::Convert;
      RowResult got = run_row(backend, row, integer, xs, grads), want = run_row(ref, row, integer, xs, grads);
      ASSERT_EQ(got.out.size(), want.out.size());
      for (size_t i = 0; i < got.out.size(); ++i)
        EXPECT_NEAR(got.out[i], want.out[i], 1e-5 * (1 + std::fabs(want.out[i]))) << "element " << i;
      if (!grads) continue;
      // The table's gradient against central differences of the reference forward pass.
      ASSERT_EQ(got.grads.size(), xs.size());
      for (size_t a = 0; a < xs.size(); ++a)
        for (size_t i = 0; i < xs[a].size(); i += 9) {
          auto shifted = [&](float h) {
            auto p = xs;
            p[a][i] += h;
            return run_row(ref, row, false, p, false).out[i];
          };
          const float h = 1e-2f;
          double fd = 0.5 * (shifted(h) - shifted(-h)) / (2 * h);
          EXPECT_NEAR(got.grads[a][i], fd, 2e-2 * (1 + std::fabs(fd))) << "input " << a << " element " << i;
        }
    }
  }
}

INSTANTIATE_FOR_ALL_BACKENDS(TableOps);

}  // namespace
