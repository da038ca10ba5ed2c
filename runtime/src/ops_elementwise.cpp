#include <algorithm>

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
    throw ShapeError(std::string(op) + ": axis " + std::to_string(axis) + " out of range for shape " + shape.to_string());
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
  if (x.dtype() == DType::Bool) throw DTypeError(std::string(op) + ": needs a numeric operand, got bool" + x.shape().to_string());
}

Node float_unary(OpKind k, Node x) {
  if (x.valid()) require_float(op_name(k), x);
  return unary(k, x, x.valid() ? x.dtype() : DType::F32);
}

Node numeric_unary(OpKind k, Node x) {
  if (x.valid()) require_numeric(op_name(k), x);
  return unary(k, x, x.valid() ? x.dtype() : DType::F32);
}

enum class BinKind { Arith, FloatOnly, Compare, Logical };

Node binary(OpKind k, Node a, Node b, BinKind bk) {
  const char* op = op_name(k);
  Graph& g = detail::same_graph(op, a, b);
  if (a.dtype() != b.dtype())
    throw DTypeError(std::string(op) + ": dtypes differ: " + dtype_name(a.dtype()) + a.shape().to_string() + " and " +
                     dtype_name(b.dtype()) + b.shape().to_string());
  switch (bk) {
    case BinKind::Arith: require_numeric(op, a); break;
    case BinKind::FloatOnly: require_float(op, a); break;
    case BinKind::Compare: break;
    case BinKind::Logical:
      if (a.dtype() != DType::Bool) throw DTypeError(std::string(op) + ": needs bool operands, got " + dtype_name(a.dtype()));
      break;
  }
  Shape s = broadcast_shapes(op, a.shape(), b.shape());
  Node ba = bcast(a, s), bb = bcast(b, s);
  DType out = bk == BinKind::Compare ? DType::Bool : a.dtype();
  return g.add_node(k, {ba.id(), bb.id()}, s, out);
}

}  // namespace

Node neg(Node x) { return numeric_unary(OpKind::Neg, x); }
Node abs(Node x) { return numeric_unary(OpKind::Abs, x); }
Node exp(Node x) { return float_unary(OpKind::Exp, x); }
Node log(Node x) { return float_unary(OpKind::Log, x); }
Node sqrt(Node x) { return float_unary(OpKind::Sqrt, x); }
Node rsqrt(Node x) { return float_unary(OpKind::Rsqrt, x); }
Node tanh(Node x) { return float_unary(OpKind::Tanh, x); }
Node sigmoid(Node x) { return float_unary(OpKind::Sigmoid, x); }
Node relu(Node x) { return numeric_unary(OpKind::Relu, x); }
Node gelu(Node x) { return float_unary(OpKind::Gelu, x); }
Node square(Node x) { return numeric_unary(OpKind::Square, x); }
Node sign(Node x) { return numeric_unary(OpKind::Sign, x); }
Node stop_gradient(Node x) { return unary(OpKind::StopGradient, x, x.valid() ? x.dtype() : DType::F32); }

Node logical_not(Node x) {
  if (x.valid() && x.dtype() != DType::Bool)
    throw DTypeError(std::string("logical_not: needs a bool operand, got ") + dtype_name(x.dtype()));
  return unary(OpKind::LogicalNot, x, DType::Bool);
}

Node cast(Node x, DType to) {
  if (x.valid() && x.dtype() == to) return x;
  return unary(OpKind::Cast, x, to);
}

Node add(Node a, Node b) { return binary(OpKind::Add, a, b, BinKind::Arith); }
Node sub(Node a, Node b) { return binary(OpKind::Sub, a, b, BinKind::Arith); }
Node mul(Node a, Node b) { return binary(OpKind::Mul, a, b, BinKind::Arith); }
Node div(Node a, Node b) { return binary(OpKind::Div, a, b, BinKind::Arith); }
Node pow(Node a, Node b) { return binary(OpKind::Pow, a, b, BinKind::FloatOnly); }
Node max(Node a, Node b) { return binary(OpKind::Max, a, b, BinKind::Arith); }
Node min(Node a, Node b) { return binary(OpKind::Min, a, b, BinKind::Arith); }
Node eq(Node a, Node b) { return binary(OpKind::Eq, a, b, BinKind::Compare); }
Node ne(Node a, Node b) { return binary(OpKind::Ne, a, b, BinKind::Compare); }
Node lt(Node a, Node b) { return binary(OpKind::Lt, a, b, BinKind::Compare); }
Node le(Node a, Node b) { return binary(OpKind::Le, a, b, BinKind::Compare); }
Node gt(Node a, Node b) { return binary(OpKind::Gt, a, b, BinKind::Compare); }
Node ge(Node a, Node b) { return binary(OpKind::Ge, a, b, BinKind::Compare); }
Node logical_and(Node a, Node b) { return binary(OpKind::LogicalAnd, a, b, BinKind::Logical); }
Node logical_or(Node a, Node b) { return binary(OpKind::LogicalOr, a, b, BinKind::Logical); }

Node where(Node cond, Node a, Node b) {
  Graph& g = detail::same_graph("where", a, b);
  detail::same_graph("where", cond, a);
  if (cond.dtype() != DType::Bool)
    throw DTypeError(std::string("where: condition must be bool, got ") + dtype_name(cond.dtype()) + cond.shape().to_string());
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
