#include "host_ref.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace href {

int64_t Arr::numel() const {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

Arr make(std::vector<int64_t> shape, std::vector<double> v) { return Arr{std::move(shape), std::move(v)}; }

std::vector<int64_t> strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size());
  int64_t acc = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

namespace {
std::vector<int64_t> unravel(int64_t i, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? i % shape[d] : 0;
    i = shape[d] ? i / shape[d] : 0;
  }
  return idx;
}
int64_t ravel(const std::vector<int64_t>& idx, const std::vector<int64_t>& shape) {
  int64_t off = 0;
  for (size_t d = 0; d < shape.size(); ++d) off = off * shape[d] + idx[d];
  return off;
}
}  // namespace

std::vector<int64_t> broadcast_shape(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t r = std::max(a.size(), b.size());
  std::vector<int64_t> out(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i + a.size() >= r ? a[i + a.size() - r] : 1;
    int64_t db = i + b.size() >= r ? b[i + b.size() - r] : 1;
    if (da != db && da != 1 && db != 1) throw std::runtime_error("href: bad broadcast");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Arr broadcast_to(const Arr& a, const std::vector<int64_t>& shape) {
  Arr o{shape, {}};
  o.v.resize(static_cast<size_t>(o.numel()));
  size_t lead = shape.size() - a.shape.size();
  for (int64_t i = 0; i < o.numel(); ++i) {
    auto idx = unravel(i, shape);
    std::vector<int64_t> ai(a.shape.size());
    for (size_t d = 0; d < a.shape.size(); ++d) ai[d] = a.shape[d] == 1 ? 0 : idx[d + lead];
    o.v[static_cast<size_t>(i)] = a.v[static_cast<size_t>(ravel(ai, a.shape))];
  }
  return o;
}

Arr unary(const Arr& a, const std::function<double(double)>& f) {
  Arr o = a;
  for (auto& x : o.v) x = f(x);
  return o;
}

Arr binary(const Arr& a, const Arr& b, const std::function<double(double, double)>& f) {
  auto s = broadcast_shape(a.shape, b.shape);
  Arr x = broadcast_to(a, s), y = broadcast_to(b, s);
  for (size_t i = 0; i < x.v.size(); ++i) x.v[i] = f(x.v[i], y.v[i]);
  return x;
}

Arr where(const Arr& c, const Arr& a, const Arr& b) {
  auto s = broadcast_shape(c.shape, broadcast_shape(a.shape, b.shape));
  Arr cc = broadcast_to(c, s), x = broadcast_to(a, s), y = broadcast_to(b, s);
  for (size_t i = 0; i < x.v.size(); ++i) x.v[i] = cc.v[i] != 0 ? x.v[i] : y.v[i];
  return x;
}

Arr transpose(const Arr& a, const std::vector<int64_t>& perm) {
  std::vector<int64_t> s;
  for (auto p : perm) s.push_back(a.shape[static_cast<size_t>(p)]);
  Arr o{s, std::vector<double>(a.v.size())};
  for (int64_t i = 0; i < o.numel(); ++i) {
    auto idx = unravel(i, s);
    std::vector<int64_t> ai(perm.size());
    for (size_t d = 0; d < perm.size(); ++d) ai[static_cast<size_t>(perm[d])] = idx[d];
    o.v[static_cast<size_t>(i)] = a.v[static_cast<size_t>(ravel(ai, a.shape))];
  }
  return o;
}

Arr slice(const Arr& a, const std::vector<int64_t>& st, const std::vector<int64_t>& lim,
          const std::vector<int64_t>& steps) {
  std::vector<int64_t> s;
  for (size_t d = 0; d < st.size(); ++d) s.push_back((lim[d] - st[d] + steps[d] - 1) / steps[d]);
  Arr o{s, {}};
  o.v.resize(static_cast<size_t>(o.numel()));
  for (int64_t i = 0; i < o.numel(); ++i) {
    auto idx = unravel(i, s);
    for (size_t d = 0; d < s.size(); ++d) idx[d] = st[d] + idx[d] * steps[d];
    o.v[static_cast<size_t>(i)] = a.v[static_cast<size_t>(ravel(idx, a.shape))];
  }
  return o;
}

Arr concat(const std::vector<Arr>& xs, int axis) {
  auto s = xs[0].shape;
  s[static_cast<size_t>(axis)] = 0;
  for (auto& x : xs) s[static_cast<size_t>(axis)] += x.shape[static_cast<size_t>(axis)];
  Arr o{s, {}};
  o.v.resize(static_cast<size_t>(o.numel()));
  int64_t off = 0;
  for (auto& x : xs) {
    for (int64_t i = 0; i < x.numel(); ++i) {
      auto idx = unravel(i, x.shape);
      idx[static_cast<size_t>(axis)] += off;
      o.v[static_cast<size_t>(ravel(idx, s))] = x.v[static_cast<size_t>(i)];
    }
    off += x.shape[static_cast<size_t>(axis)];
  }
  return o;
}

Arr pad(const Arr& a, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi, double value) {
  auto s = a.shape;
  for (size_t d = 0; d < s.size(); ++d) s[d] += lo[d] + hi[d];
  Arr o{s, {}};
  o.v.assign(static_cast<size_t>(o.numel()), value);
  for (int64_t i = 0; i < a.numel(); ++i) {
    auto idx = unravel(i, a.shape);
    for (size_t d = 0; d < s.size(); ++d) idx[d] += lo[d];
    o.v[static_cast<size_t>(ravel(idx, s))] = a.v[static_cast<size_t>(i)];
  }
  return o;
}

Arr reduce(const Arr& a, std::vector<int64_t> axes, bool keepdims, Red kind) {
  int r = static_cast<int>(a.shape.size());
  if (axes.empty())
    for (int i = 0; i < r; ++i) axes.push_back(i);
  for (auto& x : axes) x = x < 0 ? x + r : x;
  std::vector<bool> red(static_cast<size_t>(r), false);
  for (auto x : axes) red[static_cast<size_t>(x)] = true;
  std::vector<int64_t> kept;
  int64_t count = 1;
  for (int i = 0; i < r; ++i) {
    kept.push_back(red[static_cast<size_t>(i)] ? 1 : a.shape[static_cast<size_t>(i)]);
    if (red[static_cast<size_t>(i)]) count *= a.shape[static_cast<size_t>(i)];
  }
  Arr o{kept, {}};
  double init = kind == Red::Max ? -std::numeric_limits<double>::infinity() : 0.0;
  o.v.assign(static_cast<size_t>(o.numel()), init);
  for (int64_t i = 0; i < a.numel(); ++i) {
    auto idx = unravel(i, a.shape);
    for (int d = 0; d < r; ++d)
      if (red[static_cast<size_t>(d)]) idx[static_cast<size_t>(d)] = 0;
    double& t = o.v[static_cast<size_t>(ravel(idx, kept))];
    double x = a.v[static_cast<size_t>(i)];
    t = kind == Red::Max ? std::max(t, x) : t + x;
  }
  if (kind == Red::Mean)
    for (auto& x : o.v) x /= static_cast<double>(count);
  if (!keepdims) {
    std::vector<int64_t> s;
    for (int i = 0; i < r; ++i)
      if (!red[static_cast<size_t>(i)]) s.push_back(a.shape[static_cast<size_t>(i)]);
    o.shape = s;
  }
  return o;
}

Arr argmax(const Arr& a, int axis) {
  int r = static_cast<int>(a.shape.size());
  axis = axis < 0 ? axis + r : axis;
  std::vector<int64_t> s = a.shape;
  s.erase(s.begin() + axis);
  Arr o{s, {}};
  o.v.assign(static_cast<size_t>(o.numel()), 0);
  std::vector<double> best(o.v.size(), -std::numeric_limits<double>::infinity());
  for (int64_t i = 0; i < a.numel(); ++i) {
    auto idx = unravel(i, a.shape);
    int64_t k = idx[static_cast<size_t>(axis)];
    idx.erase(idx.begin() + axis);
    auto o_i = static_cast<size_t>(ravel(idx, s));
    if (a.v[static_cast<size_t>(i)] > best[o_i]) {
      best[o_i] = a.v[static_cast<size_t>(i)];
      o.v[o_i] = static_cast<double>(k);
    }
  }
  return o;
}

Arr matmul(const Arr& a, const Arr& b) {
  size_t ra = a.shape.size(), rb = b.shape.size();
  int64_t m = a.shape[ra - 2], k = a.shape[ra - 1], n = b.shape[rb - 1];
  std::vector<int64_t> ba(a.shape.begin(), a.shape.end() - 2), bb(b.shape.begin(), b.shape.end() - 2);
  auto batch = broadcast_shape(ba, bb);
  auto sa = batch, sb = batch;
  sa.insert(sa.end(), {m, k});
  sb.insert(sb.end(), {k, n});
  Arr x = broadcast_to(a, sa), y = broadcast_to(b, sb);
  auto so = batch;
  so.insert(so.end(), {m, n});
  Arr o{so, {}};
  o.v.assign(static_cast<size_t>(o.numel()), 0.0);
  int64_t nb = 1;
  for (auto d : batch) nb *= d;
  for (int64_t t = 0; t < nb; ++t)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p)
          s += x.v[static_cast<size_t>(t * m * k + i * k + p)] * y.v[static_cast<size_t>(t * k * n + p * n + j)];
        o.v[static_cast<size_t>(t * m * n + i * n + j)] = s;
      }
  return o;
}

Arr softmax(const Arr& a, int axis, bool log) {
  Arr mx = reduce(a, {axis}, true, Red::Max);
  Arr z = binary(a, mx, [](double x, double y) { return x - y; });
  Arr e = unary(z, [](double x) { return std::exp(x); });
  Arr s = reduce(e, {axis}, true, Red::Sum);
  if (log) return binary(z, s, [](double x, double y) { return x - std::log(y); });
  return binary(e, s, [](double x, double y) { return x / y; });
}

Arr cross_entropy(const Arr& logits, const Arr& targets) {
  Arr ls = softmax(logits, -1, true);
  Arr p = binary(ls, targets, [](double x, double t) { return -x * t; });
  return reduce(p, {-1}, false, Red::Sum);
}

}  // namespace href
