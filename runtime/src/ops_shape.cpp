#include <numeric>

#include "ops_internal.h"

namespace mlperf::rt {

namespace {
std::string ints(const std::vector<int64_t>& v) { return Shape(v).to_string(); }
void require(bool ok, const std::string& msg) {
  if (!ok) throw ShapeError(msg);
}
}  // namespace

Node reshape(Node x, Shape shape) {
  int infer = -1;
  int64_t known = 1;
  for (int i = 0; i < shape.rank(); ++i) {
    int64_t d = shape.dims[static_cast<size_t>(i)];
    if (d == -1) {
      require(infer < 0, "reshape: more than one -1 in " + shape.to_string());
      infer = i;
    } else {
      require(d >= 0, "reshape: bad target shape " + shape.to_string());
      known *= d;
    }
  }
  if (infer >= 0) {
    require(known != 0 && x.shape().numel() % known == 0,
            "reshape: cannot reshape " + x.shape().to_string() + " to " + shape.to_string());
    shape.dims[static_cast<size_t>(infer)] = x.shape().numel() / known;
  }
  require(shape.numel() == x.shape().numel(),
          "reshape: cannot reshape " + x.shape().to_string() + " to " + shape.to_string() + " (element counts differ)");
  if (shape == x.shape()) return x;
  return x.graph().add_node(OpKind::Reshape, {x.id()}, std::move(shape), x.dtype());
}

Node transpose(Node x, std::vector<int64_t> perm) {
  const Shape s = x.shape();
  require(static_cast<int>(perm.size()) == s.rank(),
          "transpose: permutation " + ints(perm) + " does not match shape " + s.to_string());
  std::vector<bool> seen(perm.size(), false);
  bool identity = true;
  Shape out;
  for (size_t i = 0; i < perm.size(); ++i) {
    int64_t p = perm[i] < 0 ? perm[i] + s.rank() : perm[i];
    require(p >= 0 && p < s.rank() && !seen[static_cast<size_t>(p)],
            "transpose: invalid permutation " + ints(perm) + " for shape " + s.to_string());
    seen[static_cast<size_t>(p)] = true;
    perm[i] = p;
    identity = identity && p == static_cast<int64_t>(i);
    out.dims.push_back(s.dims[static_cast<size_t>(p)]);
  }
  if (identity) return x;
  Attrs a;
  a.perm = std::move(perm);
  return x.graph().add_node(OpKind::Transpose, {x.id()}, std::move(out), x.dtype(), std::move(a));
}

Node transpose(Node x) {
  int r = x.rank();
  require(r >= 2, "transpose: needs rank >= 2 to swap the last two axes, got " + x.shape().to_string());
  std::vector<int64_t> perm(static_cast<size_t>(r));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[static_cast<size_t>(r - 1)], perm[static_cast<size_t>(r - 2)]);
  return transpose(x, std::move(perm));
}

Node broadcast_to(Node x, Shape shape) {
  const Shape s = x.shape();
  bool ok = s.rank() <= shape.rank();
  for (int i = 0; ok && i < s.rank(); ++i) {
    int64_t d = s.dims[static_cast<size_t>(i)];
    int64_t t = shape.dims[static_cast<size_t>(shape.rank() - s.rank() + i)];
    ok = d == t || d == 1;
  }
  require(ok, "broadcast_to: cannot broadcast shape " + s.to_string() + " to shape " + shape.to_string());
  if (s == shape) return x;
  return x.graph().add_node(OpKind::BroadcastTo, {x.id()}, std::move(shape), x.dtype());
}

Node slice(Node x, std::vector<int64_t> starts, std::vector<int64_t> limits, std::vector<int64_t> strides) {
  const Shape s = x.shape();
  if (strides.empty()) strides.assign(starts.size(), 1);
  require(
      static_cast<int>(starts.size()) == s.rank() && limits.size() == starts.size() && strides.size() == starts.size(),
      "slice: starts " + ints(starts) + ", limits " + ints(limits) + " do not match shape " + s.to_string());
  Shape out;
  for (size_t i = 0; i < starts.size(); ++i) {
    require(starts[i] >= 0 && starts[i] <= limits[i] && limits[i] <= s.dims[i] && strides[i] >= 1,
            "slice: range [" + std::to_string(starts[i]) + ":" + std::to_string(limits[i]) + ":" +
                std::to_string(strides[i]) + "] out of bounds on axis " + std::to_string(i) + " of shape " +
                s.to_string());
    out.dims.push_back((limits[i] - starts[i] + strides[i] - 1) / strides[i]);
  }
  Attrs a;
  a.starts = std::move(starts);
  a.limits = std::move(limits);
  a.strides = std::move(strides);
  return x.graph().add_node(OpKind::Slice, {x.id()}, std::move(out), x.dtype(), std::move(a));
}

Node slice_axis(Node x, int axis, int64_t start, int64_t limit) {
  int ax = normalize_axis("slice", axis, x.rank(), x.shape());
  std::vector<int64_t> st(static_cast<size_t>(x.rank()), 0), lim = x.shape().dims;
  st[static_cast<size_t>(ax)] = start;
  lim[static_cast<size_t>(ax)] = limit;
  return slice(x, st, lim);
}

Node concat(const std::vector<Node>& xs, int axis) {
  if (xs.empty()) throw ArgumentError("concat: no operands");
  Node first = xs[0];
  if (xs.size() == 1) return first;
  int ax = normalize_axis("concat", axis, first.rank(), first.shape());
  Shape out = first.shape();
  out.dims[static_cast<size_t>(ax)] = 0;
  std::vector<int> ids;
  for (const Node& n : xs) {
    detail::same_graph("concat", first, n);
    if (n.dtype() != first.dtype())
      throw DTypeError(std::string("concat: dtypes differ: ") + dtype_name(first.dtype()) + " and " +
                       dtype_name(n.dtype()));
    bool ok = n.rank() == first.rank();
    for (int i = 0; ok && i < n.rank(); ++i) ok = i == ax || n.shape()[i] == first.shape()[i];
    require(ok, "concat: incompatible shapes " + first.shape().to_string() + " and " + n.shape().to_string() +
                    " along axis " + std::to_string(axis));
    out.dims[static_cast<size_t>(ax)] += n.shape()[ax];
    ids.push_back(n.id());
  }
  Attrs a;
  a.axis = ax;
  return first.graph().add_node(OpKind::Concat, std::move(ids), std::move(out), first.dtype(), std::move(a));
}

Node pad(Node x, std::vector<int64_t> lo, std::vector<int64_t> hi, double value) {
  const Shape s = x.shape();
  require(static_cast<int>(lo.size()) == s.rank() && hi.size() == lo.size(),
          "pad: padding " + ints(lo) + "/" + ints(hi) + " does not match shape " + s.to_string());
  Shape out = s;
  for (size_t i = 0; i < lo.size(); ++i) {
    require(lo[i] >= 0 && hi[i] >= 0, "pad: negative padding " + ints(lo) + "/" + ints(hi));
    out.dims[i] += lo[i] + hi[i];
  }
  Attrs a;
  a.pad_lo = std::move(lo);
  a.pad_hi = std::move(hi);
  a.value = value;
  return x.graph().add_node(OpKind::Pad, {x.id()}, std::move(out), x.dtype(), std::move(a));
}

Node expand_dims(Node x, int axis) {
  int r = x.rank() + 1;
  int ax = normalize_axis("expand_dims", axis, r, x.shape());
  Shape s = x.shape();
  s.dims.insert(s.dims.begin() + ax, 1);
  return reshape(x, s);
}

Node squeeze(Node x, int axis) {
  int ax = normalize_axis("squeeze", axis, x.rank(), x.shape());
  require(x.shape()[ax] == 1,
          "squeeze: axis " + std::to_string(axis) + " of shape " + x.shape().to_string() + " is not 1");
  Shape s = x.shape();
  s.dims.erase(s.dims.begin() + ax);
  return reshape(x, s);
}

}  // namespace mlperf::rt

namespace mlperf::rt::detail {

Node pad_interior(Node x, std::vector<int64_t> lo, std::vector<int64_t> hi, std::vector<int64_t> interior) {
  Shape out = x.shape();
  for (size_t i = 0; i < lo.size(); ++i) {
    int64_t d = out.dims[i];
    out.dims[i] = lo[i] + hi[i] + d + (d > 0 ? (d - 1) * interior[i] : 0);
  }
  Attrs a;
  a.pad_lo = std::move(lo);
  a.pad_hi = std::move(hi);
  a.interior = std::move(interior);
  return x.graph().add_node(OpKind::Pad, {x.id()}, std::move(out), x.dtype(), std::move(a));
}

}  // namespace mlperf::rt::detail
