#include "mlperf/rt/autodiff.h"

#include <cmath>
#include <numeric>
#include <optional>

#include "ops_internal.h"

namespace mlperf::rt {

namespace {

using Grads = std::vector<std::optional<Node>>;  // one per input; empty: no gradient

Node zero_like(Node x) { return scalar_like(x, 0.0); }

Node gelu_grad(Node x) {
  const double c = std::sqrt(2.0 / M_PI), k = 0.044715;
  Node t = tanh(c * (x + k * (x * x * x)));
  Node dt = c * (1.0 + (3.0 * k) * (x * x));
  return 0.5 * (1.0 + t) + 0.5 * x * ((1.0 - t * t) * dt);
}

// Gradients of a max/min: the adjoint goes to a where `first` holds, else to b.
Grads select_vjp(Node first, Node g) { return {where(first, g, zero_like(g)), where(first, zero_like(g), g)}; }

// The elementwise rows of ops.def: each case returns the row's gradient expression.
#define NOT_DIFFERENTIABLE Grads(n.inputs.size())
Grads elementwise_vjp(const NodeData& n, Node g, const std::vector<Node>& in, Node y) {
  switch (n.kind) {
#define MLPERF_UNARY(Kind, name, rule, ref, code_float, code_int, grad) \
  case OpKind::Kind: {                                                  \
    [[maybe_unused]] Node x = in[0];                                    \
    return Grads grad;                                                  \
  }
#define MLPERF_BINARY(Kind, name, rule, ref, code_float, code_int, grad) \
  case OpKind::Kind: {                                                   \
    [[maybe_unused]] Node a = in[0], b = in[1];                          \
    return Grads grad;                                                   \
  }
#define MLPERF_TERNARY(Kind, name, rule, ref, code_float, code_int, grad) \
  case OpKind::Kind: {                                                    \
    [[maybe_unused]] Node c = in[0], a = in[1], b = in[2];                \
    return Grads grad;                                                    \
  }
#define MLPERF_OP(...)
#include "mlperf/rt/ops.def"
    default:
      return Grads(n.inputs.size());
  }
}
#undef NOT_DIFFERENTIABLE

Shape kept_shape(const Shape& in, const std::vector<int64_t>& axes) {
  Shape k = in;
  for (int64_t a : axes) k.dims[static_cast<size_t>(a)] = 1;
  return k;
}

Grads layout_vjp(const NodeData& n, int id, Node g, Graph& gr) {
  Node x = gr.handle(n.inputs[0]);
  const Shape xs = x.shape();
  const Attrs& at = n.attrs;
  switch (n.kind) {
    case OpKind::Reshape:
      return {reshape(g, xs)};
    case OpKind::Transpose: {
      std::vector<int64_t> inv(at.perm.size());
      for (size_t i = 0; i < at.perm.size(); ++i) inv[static_cast<size_t>(at.perm[i])] = static_cast<int64_t>(i);
      return {transpose(g, inv)};
    }
    case OpKind::BroadcastTo: {
      int lead = n.shape.rank() - xs.rank();
      std::vector<int64_t> axes;
      for (int i = 0; i < n.shape.rank(); ++i)
        if (i < lead || (xs[i - lead] == 1 && n.shape[i] != 1)) axes.push_back(i);
      Node s = axes.empty() ? g : reduce_sum(g, axes);
      return {reshape(s, xs)};
    }
    case OpKind::Slice: {
      if (n.shape.numel() == 0) return {gr.zeros(xs, x.dtype())};
      std::vector<int64_t> lo = at.starts, hi, interior;
      for (int i = 0; i < xs.rank(); ++i) {
        auto u = static_cast<size_t>(i);
        int64_t last = at.starts[u] + (n.shape[i] - 1) * at.strides[u];
        hi.push_back(xs[i] - last - 1);
        interior.push_back(at.strides[u] - 1);
      }
      return {detail::pad_interior(g, lo, hi, interior)};
    }
    case OpKind::Pad: {
      std::vector<int64_t> st = at.pad_lo, lim, strides;
      for (int i = 0; i < xs.rank(); ++i) {
        auto u = static_cast<size_t>(i);
        int64_t step = at.interior.empty() ? 1 : at.interior[u] + 1;
        lim.push_back(xs[i] == 0 ? st[u] : st[u] + (xs[i] - 1) * step + 1);
        strides.push_back(step);
      }
      return {slice(g, st, lim, strides)};
    }
    case OpKind::ReduceSum:
      return {broadcast_to(reshape(g, kept_shape(xs, at.axes)), xs)};
    case OpKind::ReduceMax: {
      Shape k = kept_shape(xs, at.axes);
      Node y = gr.handle(id);
      Node mask = cast(eq(x, broadcast_to(reshape(y, k), xs)), g.dtype());
      Node count = reduce_sum(mask, at.axes, true);
      return {broadcast_to(reshape(g, k), xs) * mask / count};
    }
    default:
      return {std::nullopt};
  }
}

Grads vjp(const NodeData& n, int id, Node g, Graph& gr) {
  auto in = [&](size_t i) { return gr.handle(n.inputs[i]); };
  Node y = gr.handle(id);
  if (is_elementwise(n.kind)) {
    std::vector<Node> xs;
    for (size_t i = 0; i < n.inputs.size(); ++i) xs.push_back(in(i));
    return elementwise_vjp(n, g, xs, y);
  }
  switch (n.kind) {
    case OpKind::Concat: {
      Grads out;
      int64_t off = 0;
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        int64_t d = in(i).shape()[n.attrs.axis];
        out.push_back(slice_axis(g, n.attrs.axis, off, off + d));
        off += d;
      }
      return out;
    }
    case OpKind::MatMul: {
      Node a = in(0), b = in(1);
      bool ta = n.attrs.transpose_a, tb = n.attrs.transpose_b;
      if (!ta && !tb) return {detail::matmul_raw(g, b, false, true), detail::matmul_raw(a, g, true, false)};
      if (ta && !tb) return {detail::matmul_raw(b, g, false, true), detail::matmul_raw(a, g, false, false)};
      if (!ta && tb) return {detail::matmul_raw(g, b, false, false), detail::matmul_raw(g, a, true, false)};
      return {detail::matmul_raw(b, g, true, true), detail::matmul_raw(g, a, true, true)};
    }
    case OpKind::Reshape:
    case OpKind::Transpose:
    case OpKind::BroadcastTo:
    case OpKind::Slice:
    case OpKind::Pad:
    case OpKind::ReduceSum:
    case OpKind::ReduceMax:
      return layout_vjp(n, id, g, gr);
    default:
      return Grads(n.inputs.size());
  }
}

}  // namespace

std::vector<Node> gradients(Node loss, const std::vector<Node>& wrt) {
  if (!loss.valid()) throw ArgumentError("gradients: empty loss node");
  Graph& g = loss.graph();
  if (loss.rank() != 0) throw ShapeError("gradients: the loss must be a scalar, got shape " + loss.shape().to_string());
  if (!is_float(loss.dtype()))
    throw DTypeError(std::string("gradients: the loss must be float, got ") + dtype_name(loss.dtype()));
  const size_t n = static_cast<size_t>(loss.id()) + 1;

  std::vector<bool> needed(n, false);
  for (const Node& w : wrt) {
    if (&w.graph() != &g) throw ArgumentError("gradients: a wrt node belongs to another graph");
    if (static_cast<size_t>(w.id()) < n) needed[static_cast<size_t>(w.id())] = true;
  }
  for (size_t i = 0; i < n; ++i) {
    if (needed[i]) continue;
    const NodeData& d = g.node(static_cast<int>(i));
    if (!is_float(d.dtype) || d.kind == OpKind::StopGradient) continue;
    for (int in : d.inputs)
      if (needed[static_cast<size_t>(in)]) needed[i] = true;
  }

  std::vector<std::optional<Node>> adj(n);
  adj[n - 1] = g.scalar(1.0, loss.dtype());
  for (size_t i = n; i-- > 0;) {
    if (!adj[i] || !needed[i]) continue;
    const NodeData node = g.node(static_cast<int>(i));
    if (node.inputs.empty()) continue;
    bool any = false;
    for (int in : node.inputs) any = any || needed[static_cast<size_t>(in)];
    if (!any) continue;
    Grads gs = vjp(node, static_cast<int>(i), *adj[i], g);
    for (size_t j = 0; j < node.inputs.size() && j < gs.size(); ++j) {
      auto in = static_cast<size_t>(node.inputs[j]);
      if (!gs[j] || !needed[in] || !is_float(g.node(node.inputs[j]).dtype)) continue;
      adj[in] = adj[in] ? add(*adj[in], *gs[j]) : *gs[j];
    }
  }

  std::vector<Node> out;
  for (const Node& w : wrt) {
    auto id = static_cast<size_t>(w.id());
    if (id < n && adj[id]) {
      out.push_back(*adj[id]);
    } else {
      out.push_back(g.zeros(w.shape(), w.dtype()));
    }
  }
  return out;
}

}  // namespace mlperf::rt
