#include <algorithm>

#include "mlperf/rt/op_table.h"
#include "ops_internal.h"

namespace mlperf::rt {
namespace detail {

std::string shapes_msg(const char* op, const Shape& a, const Shape& b) {
  return std::string(op) + ": incompatible shapes " + a.to_string() + " and " + b.to_string();
}

Graph& same_graph(const char* op, Node a, Node b) {
  if (!a.valid() || !b.valid()) throw ArgumentError(std::string(op) + ": empty Node operand");
  if (&a.graph() != &b.graph())
    throw ArgumentError(std::string(op) + ": operands belong to different graphs (a node of another graph)");
  return a.graph();
}

Node unary(OpKind k, Node x, DType out) {
  if (!x.valid()) throw ArgumentError(std::string(op_name(k)) + ": empty Node operand");
  return x.graph().add_node(k, {x.id()}, x.shape(), out);
}

Node bcast(Node x, const Shape& shape) {
  if (x.shape() == shape) return x;
  return broadcast_to(x, shape);
}

std::vector<int64_t> normalize_axes(const char* op, std::vector<int64_t> axes, const Shape& s) {
  if (axes.empty()) {
    for (int i = 0; i < s.rank(); ++i) axes.push_back(i);
    return axes;
  }
  for (auto& a : axes) a = normalize_axis(op, static_cast<int>(a), s.rank(), s);
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    throw ShapeError(std::string(op) + ": repeated axis for shape " + s.to_string());
  return axes;
}

}  // namespace detail

using detail::bcast;
using detail::unary;

int normalize_axis(const char* op, int axis, int rank, const Shape& shape) {
  int a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    throw ShapeError(std::string(op) + ": axis " + std::to_string(axis) + " out of range for shape " +
                     shape.to_string());
  return a;
}

Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b) {
  int r = std::max(a.rank(), b.rank());
  std::vector<int64_t> out(static_cast<size_t>(r));
  for (int i = 0; i < r; ++i) {
    int ia = a.rank() - r + i, ib = b.rank() - r + i;
    int64_t da = ia >= 0 ? a.dims[static_cast<size_t>(ia)] : 1;
    int64_t db = ib >= 0 ? b.dims[static_cast<size_t>(ib)] : 1;
    if (da != db && da != 1 && db != 1) throw ShapeError(detail::shapes_msg(op, a, b));
    out[static_cast<size_t>(i)] = da == 1 ? db : da;
  }
  return Shape(std::move(out));
}

namespace {

void require_float(const char* op, Node x) {
  if (!is_float(x.dtype()))
    throw DTypeError(std::string(op) + ": needs a float operand, got " + dtype_name(x.dtype()) + x.shape().to_string());
}

void require_numeric(const char* op, Node x) {
  if (x.dtype() == DType::Bool)
    throw DTypeError(std::string(op) + ": needs a numeric operand, got bool" + x.shape().to_string());
}

// A unary elementwise node, its operand checked by the op's dtype rule in ops.def.
Node unary_op(OpKind k, Node x) {
  const char* op = op_name(k);
  if (!x.valid()) return unary(k, x, DType::F32);  // unary() reports the empty operand
  switch (op_info(k).dtype_rule) {
    case DTypeRule::Float:
      require_float(op, x);
      break;
    case DTypeRule::Numeric:
      require_numeric(op, x);
      break;
    case DTypeRule::Bool:
      if (x.dtype() != DType::Bool)
        throw DTypeError(std::string(op) + ": needs a bool operand, got " + dtype_name(x.dtype()));
      break;
    default:
      break;
  }
  return unary(k, x, x.dtype());
}

// A binary elementwise node, its operands checked by the op's dtype rule in ops.def.
Node binary_op(OpKind k, Node a, Node b) {
  const char* op = op_name(k);
  Graph& g = detail::same_graph(op, a, b);
  if (a.dtype() != b.dtype())
    throw DTypeError(std::string(op) + ": dtypes differ: " + dtype_name(a.dtype()) + a.shape().to_string() + " and " +
                     dtype_name(b.dtype()) + b.shape().to_string());
  const DTypeRule rule = op_info(k).dtype_rule;
  switch (rule) {
    case DTypeRule::Arith:
      require_numeric(op, a);
      break;
    case DTypeRule::FloatOnly:
      require_float(op, a);
      break;
    case DTypeRule::Logical:
      if (a.dtype() != DType::Bool)
        throw DTypeError(std::string(op) + ": needs bool operands, got " + dtype_name(a.dtype()));
      break;
    default:
      break;
  }
  Shape s = broadcast_shapes(op, a.shape(), b.shape());
  Node ba = bcast(a, s), bb = bcast(b, s);
  DType out = rule == DTypeRule::Compare ? DType::Bool : a.dtype();
  return g.add_node(k, {ba.id(), bb.id()}, s, out);
}

}  // namespace

#define MLPERF_UNARY(Kind, name, ...) \
  Node name(Node x) { return unary_op(OpKind::Kind, x); }
#define MLPERF_BINARY(Kind, name, ...) \
  Node name(Node a, Node b) { return binary_op(OpKind::Kind, a, b); }
#define MLPERF_CONVERT(...)
#define MLPERF_TERNARY(...)
#define MLPERF_OP(...)
#include "mlperf/rt/ops.def"

Node cast(Node x, DType to) {
  if (x.valid() && x.dtype() == to) return x;
  return unary(OpKind::Cast, x, to);
}

Node where(Node cond, Node a, Node b) {
  Graph& g = detail::same_graph("where", a, b);
  detail::same_graph("where", cond, a);
  if (cond.dtype() != DType::Bool)
    throw DTypeError(std::string("where: condition must be bool, got ") + dtype_name(cond.dtype()) +
                     cond.shape().to_string());
  if (a.dtype() != b.dtype())
    throw DTypeError(std::string("where: dtypes differ: ") + dtype_name(a.dtype()) + a.shape().to_string() + " and " +
                     dtype_name(b.dtype()) + b.shape().to_string());
  Shape s = broadcast_shapes("where", a.shape(), b.shape());
  s = broadcast_shapes("where", cond.shape(), s);
  Node c = bcast(cond, s), ba = bcast(a, s), bb = bcast(b, s);
  return g.add_node(OpKind::Where, {c.id(), ba.id(), bb.id()}, s, a.dtype());
}

Node scalar_like(Node x, double value) { return x.graph().scalar(value, x.dtype()); }

Node operator+(Node a, Node b) { return add(a, b); }
Node operator-(Node a, Node b) { return sub(a, b); }
Node operator*(Node a, Node b) { return mul(a, b); }
Node operator/(Node a, Node b) { return div(a, b); }
Node operator-(Node a) { return neg(a); }
Node operator+(Node a, double b) { return add(a, scalar_like(a, b)); }
Node operator-(Node a, double b) { return sub(a, scalar_like(a, b)); }
Node operator*(Node a, double b) { return mul(a, scalar_like(a, b)); }
Node operator/(Node a, double b) { return div(a, scalar_like(a, b)); }
Node operator+(double a, Node b) { return add(scalar_like(b, a), b); }
Node operator-(double a, Node b) { return sub(scalar_like(b, a), b); }
Node operator*(double a, Node b) { return mul(scalar_like(b, a), b); }
Node operator/(double a, Node b) { return div(scalar_like(b, a), b); }

}  // namespace mlperf::rt
