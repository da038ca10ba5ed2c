#include "ops_internal.h"

namespace mlperf::rt {

namespace {

Node reduce(OpKind k, const char* op, Node x, std::vector<int64_t> axes, bool keepdims) {
  if (x.dtype() == DType::Bool) throw DTypeError(std::string(op) + ": cannot reduce bool" + x.shape().to_string());
  axes = detail::normalize_axes(op, std::move(axes), x.shape());
  Shape out, kept;
  size_t j = 0;
  for (int i = 0; i < x.rank(); ++i) {
    if (j < axes.size() && axes[j] == i) {
      ++j;
      kept.dims.push_back(1);
    } else {
      out.dims.push_back(x.shape()[i]);
      kept.dims.push_back(x.shape()[i]);
    }
  }
  Node r = x;
  if (!axes.empty()) {
    Attrs a;
    a.axes = std::move(axes);
    r = x.graph().add_node(k, {x.id()}, std::move(out), x.dtype(), std::move(a));
  }
  return keepdims ? reshape(r, kept) : r;
}

}  // namespace

Node reduce_sum(Node x, std::vector<int64_t> axes, bool keepdims) {
  return reduce(OpKind::ReduceSum, "reduce_sum", x, std::move(axes), keepdims);
}

Node reduce_max(Node x, std::vector<int64_t> axes, bool keepdims) {
  return reduce(OpKind::ReduceMax, "reduce_max", x, std::move(axes), keepdims);
}

Node reduce_mean(Node x, std::vector<int64_t> axes, bool keepdims) {
  if (!is_float(x.dtype()))
    throw DTypeError(std::string("reduce_mean: needs a float operand, got ") + dtype_name(x.dtype()));
  auto norm = detail::normalize_axes("reduce_mean", axes, x.shape());
  int64_t count = 1;
  for (int64_t a : norm) count *= x.shape()[static_cast<int>(a)];
  Node s = reduce_sum(x, std::move(axes), keepdims);
  return s * (1.0 / static_cast<double>(count));
}

Node sum(Node x, std::vector<int64_t> axes, bool keepdims) { return reduce_sum(x, std::move(axes), keepdims); }
Node mean(Node x, std::vector<int64_t> axes, bool keepdims) { return reduce_mean(x, std::move(axes), keepdims); }

Node argmax(Node x, int axis, bool keepdims) {
  if (x.dtype() == DType::Bool) throw DTypeError("argmax: cannot take argmax of bool" + x.shape().to_string());
  int ax = normalize_axis("argmax", axis, x.rank(), x.shape());
  if (x.shape()[ax] == 0)
    throw ShapeError("argmax: empty axis " + std::to_string(axis) + " in shape " + x.shape().to_string());
  Shape out = x.shape(), kept = x.shape();
  out.dims.erase(out.dims.begin() + ax);
  kept.dims[static_cast<size_t>(ax)] = 1;
  Attrs a;
  a.axis = ax;
  Node r = x.graph().add_node(OpKind::ArgMax, {x.id()}, std::move(out), DType::I64, std::move(a));
  return keepdims ? reshape(r, kept) : r;
}

Node detail::matmul_raw(Node a, Node b, bool ta, bool tb) {
  Graph& g = detail::same_graph("matmul", a, b);
  const Shape sa = a.shape(), sb = b.shape();
  int r = sa.rank();
  if (r < 2 || sb.rank() != r) throw ShapeError(detail::shapes_msg("matmul", sa, sb));
  int64_t m = ta ? sa[r - 1] : sa[r - 2], ka = ta ? sa[r - 2] : sa[r - 1];
  int64_t kb = tb ? sb[r - 1] : sb[r - 2], n = tb ? sb[r - 2] : sb[r - 1];
  bool ok = ka == kb;
  for (int i = 0; ok && i < r - 2; ++i) ok = sa[i] == sb[i];
  if (!ok) throw ShapeError(detail::shapes_msg("matmul", sa, sb) + " (contracted or batch dims differ)");
  Shape out(std::vector<int64_t>(sa.dims.begin(), sa.dims.end() - 2));
  out.dims.push_back(m);
  out.dims.push_back(n);
  Attrs at;
  at.transpose_a = ta;
  at.transpose_b = tb;
  return g.add_node(OpKind::MatMul, {a.id(), b.id()}, std::move(out), a.dtype(), std::move(at));
}

Node matmul(Node a, Node b) {
  detail::same_graph("matmul", a, b);
  if (a.dtype() != b.dtype())
    throw DTypeError(std::string("matmul: dtypes differ: ") + dtype_name(a.dtype()) + a.shape().to_string() + " and " +
                     dtype_name(b.dtype()) + b.shape().to_string());
  if (!is_float(a.dtype())) throw DTypeError(std::string("matmul: needs float operands, got ") + dtype_name(a.dtype()));
  if (a.rank() == 0 || b.rank() == 0)
    throw ShapeError(detail::shapes_msg("matmul", a.shape(), b.shape()) + " (scalar operand)");
  const Shape sa0 = a.shape(), sb0 = b.shape();
  bool va = a.rank() == 1, vb = b.rank() == 1;
  Node x = va ? reshape(a, Shape{1, sa0[0]}) : a;
  Node y = vb ? reshape(b, Shape{sb0[0], 1}) : b;
  const Shape sa = x.shape(), sb = y.shape();
  if (sa[sa.rank() - 1] != sb[sb.rank() - 2])
    throw ShapeError(detail::shapes_msg("matmul", sa0, sb0) + " (contracted dims " + std::to_string(sa[sa.rank() - 1]) +
                     " and " + std::to_string(sb[sb.rank() - 2]) + " differ)");
  Shape ba(std::vector<int64_t>(sa.dims.begin(), sa.dims.end() - 2));
  Shape bb(std::vector<int64_t>(sb.dims.begin(), sb.dims.end() - 2));
  Shape batch;
  try {
    batch = broadcast_shapes("matmul", ba, bb);
  } catch (const ShapeError&) {
    throw ShapeError(detail::shapes_msg("matmul", sa0, sb0) + " (batch dims do not broadcast)");
  }
  Shape ta = batch, tb = batch;
  ta.dims.push_back(sa[sa.rank() - 2]);
  ta.dims.push_back(sa[sa.rank() - 1]);
  tb.dims.push_back(sb[sb.rank() - 2]);
  tb.dims.push_back(sb[sb.rank() - 1]);
  Node out = detail::matmul_raw(detail::bcast(x, ta), detail::bcast(y, tb), false, false);
  if (va || vb) {
    Shape s = batch;
    if (!va) s.dims.push_back(sa[sa.rank() - 2]);
    if (!vb) s.dims.push_back(sb[sb.rank() - 1]);
    out = reshape(out, s);
  }
  return out;
}

Node softmax(Node logits, int axis) {
  int ax = normalize_axis("softmax", axis, logits.rank(), logits.shape());
  Node m = stop_gradient(reduce_max(logits, {ax}, true));
  Node e = exp(logits - m);
  return e / reduce_sum(e, {ax}, true);
}

Node log_softmax(Node logits, int axis) {
  int ax = normalize_axis("log_softmax", axis, logits.rank(), logits.shape());
  Node z = logits - stop_gradient(reduce_max(logits, {ax}, true));
  return z - log(reduce_sum(exp(z), {ax}, true));
}

Node one_hot(Node labels, int64_t depth, DType dtype) {
  if (!is_integer(labels.dtype()))
    throw DTypeError(std::string("one_hot: labels must be integers, got ") + dtype_name(labels.dtype()));
  Shape s = labels.shape();
  s.dims.push_back(depth);
  Node ids = labels.graph().iota(s, -1, labels.dtype());
  return cast(eq(broadcast_to(expand_dims(labels, -1), s), ids), dtype);
}

Node softmax_cross_entropy(Node logits, Node labels) {
  if (!is_float(logits.dtype()))
    throw DTypeError(std::string("softmax_cross_entropy: logits must be float, got ") + dtype_name(logits.dtype()));
  if (!is_integer(labels.dtype()))
    throw DTypeError(std::string("softmax_cross_entropy: labels must be integer class ids, got ") +
                     dtype_name(labels.dtype()) + labels.shape().to_string() +
                     " (use softmax_cross_entropy_with_probs for one-hot targets)");
  Shape expect = logits.shape();
  if (expect.rank() == 0) throw ShapeError("softmax_cross_entropy: logits must have rank >= 1, got []");
  int64_t depth = expect.dims.back();
  if (depth == 0)
    throw ShapeError("softmax_cross_entropy: logits " + logits.shape().to_string() +
                     " have 0 classes (last axis); a class id needs at least one class");
  expect.dims.pop_back();
  if (labels.shape() != expect)
    throw ShapeError("softmax_cross_entropy: labels shape " + labels.shape().to_string() +
                     " does not match logits shape " + logits.shape().to_string() + " without its last axis");
  // one_hot, with its comparison tagged so the reference backend checks the ids (class_ids_attr).
  Graph& g = detail::same_graph("softmax_cross_entropy", logits, labels);
  Shape s = labels.shape();
  s.dims.push_back(depth);
  Node ids = g.iota(s, -1, labels.dtype());
  Node wide = broadcast_to(expand_dims(labels, -1), s);
  Attrs a;
  a.name = kClassIdsAttr;
  Node hit = g.add_node(OpKind::Eq, {wide.id(), ids.id()}, s, DType::Bool, std::move(a));
  return softmax_cross_entropy_with_probs(logits, cast(hit, logits.dtype()));
}

Node softmax_cross_entropy_with_probs(Node logits, Node targets) {
  if (logits.shape() != targets.shape())
    throw ShapeError(detail::shapes_msg("softmax_cross_entropy", logits.shape(), targets.shape()));
  if (logits.rank() == 0 || logits.shape().dims.back() == 0)
    throw ShapeError("softmax_cross_entropy_with_probs: logits " + logits.shape().to_string() +
                     " have no classes (last axis); the loss needs at least one");
  return -reduce_sum(targets * log_softmax(logits, -1), {-1});
}

Node random_uniform(Graph& g, Shape shape, uint64_t seed, DType dtype) {
  if (!is_float(dtype)) throw DTypeError(std::string("random_uniform: dtype must be float, got ") + dtype_name(dtype));
  Attrs a;
  a.seed = seed;
  return g.add_node(OpKind::RngUniform, {}, std::move(shape), dtype, std::move(a));
}

namespace {
Node apply_dropout(Node x, double rate, Node u) {
  Node keep = ge(u, x.graph().scalar(rate, u.dtype()));
  return where(keep, x * (1.0 / (1.0 - rate)), scalar_like(x, 0.0));
}
void check_rate(Node x, double rate) {
  if (!(rate >= 0.0 && rate < 1.0)) throw ArgumentError("dropout: rate must be in [0, 1), got " + std::to_string(rate));
  if (!is_float(x.dtype()))
    throw DTypeError(std::string("dropout: needs a float operand, got ") + dtype_name(x.dtype()));
}
}  // namespace

Node dropout(Node x, double rate, uint64_t seed) {
  check_rate(x, rate);
  if (rate == 0.0) return x;
  return apply_dropout(x, rate, random_uniform(x.graph(), x.shape(), seed));
}

Node dropout(Node x, double rate, Node seed) {
  check_rate(x, rate);
  if (seed.dtype() != DType::I64 || seed.rank() != 0)
    throw DTypeError("dropout: seed must be an i64 scalar, got " + std::string(dtype_name(seed.dtype())) +
                     seed.shape().to_string());
  if (rate == 0.0) return x;
  Node u = x.graph().add_node(OpKind::RngUniform, {seed.id()}, x.shape(), DType::F32);
  return apply_dropout(x, rate, u);
}

}  // namespace mlperf::rt
