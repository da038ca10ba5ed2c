#include "op_check.h"

using href::Arr;
using rt::Node;

namespace {
class LayoutOps : public BackendTest {};
}  // namespace

TEST_P(LayoutOps, Reshape) {
  for (auto [in, out] : std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>{
           {{2, 3, 4}, {6, 4}}, {{12}, {3, -1}}, {{2, 0}, {0, 5}}, {{1}, {}}}) {
    OpCase c;
    c.shapes = {in};
    c.build = [out](rt::Graph&, const std::vector<Node>& x) { return rt::reshape(x[0], rt::Shape(out)); };
    c.ref = [out, in](const std::vector<Arr>& x) {
      Arr a = x[0];
      std::vector<int64_t> s = out;
      for (auto& d : s)
        if (d == -1) d = a.numel() / 3;
      a.shape = s;
      return a;
    };
    check_op(backend, c);
  }
}

TEST_P(LayoutOps, Transpose) {
  for (auto [s, perm] : std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>{
           {{3, 4}, {1, 0}}, {{2, 3, 4}, {2, 0, 1}}, {{2, 3, 4, 5}, {0, 2, 1, 3}}, {{0, 3}, {1, 0}}}) {
    OpCase c;
    c.shapes = {s};
    c.build = [p = perm](rt::Graph&, const std::vector<Node>& x) { return rt::transpose(x[0], p); };
    c.ref = [p = perm](const std::vector<Arr>& x) { return href::transpose(x[0], p); };
    check_op(backend, c);
  }
}

TEST_P(LayoutOps, BroadcastTo) {
  for (auto [s, t] : std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>{
           {{3}, {2, 3}}, {{2, 1}, {2, 4}}, {{}, {3, 2}}, {{1, 3, 1}, {2, 3, 4}}, {{1}, {0}}}) {
    OpCase c;
    c.shapes = {s};
    c.build = [t](rt::Graph&, const std::vector<Node>& x) { return rt::broadcast_to(x[0], rt::Shape(t)); };
    c.ref = [t](const std::vector<Arr>& x) { return href::broadcast_to(x[0], t); };
    check_op(backend, c);
  }
}

TEST_P(LayoutOps, SliceWithStrides) {
  struct S {
    std::vector<int64_t> shape, st, lim, step;
  };
  for (const S& s : std::vector<S>{{{5, 6}, {1, 0}, {4, 6}, {1, 2}},
                                   {{4, 3, 5}, {0, 1, 1}, {4, 3, 5}, {3, 1, 2}},
                                   {{7}, {2}, {2}, {1}},
                                   {{3, 4}, {0, 0}, {3, 4}, {1, 1}}}) {
    OpCase c;
    c.shapes = {s.shape};
    c.build = [s](rt::Graph&, const std::vector<Node>& x) { return rt::slice(x[0], s.st, s.lim, s.step); };
    c.ref = [s](const std::vector<Arr>& x) { return href::slice(x[0], s.st, s.lim, s.step); };
    check_op(backend, c);
  }
}

TEST_P(LayoutOps, Concat) {
  for (auto [shapes, axis] : std::vector<std::pair<Shapes, int>>{
           {{{2, 3}, {4, 3}}, 0}, {{{2, 3}, {2, 1}, {2, 2}}, 1}, {{{2, 0, 3}, {2, 2, 3}}, 1}, {{{3}, {2}}, -1}}) {
    OpCase c;
    c.shapes = shapes;
    c.build = [a = axis](rt::Graph&, const std::vector<Node>& x) { return rt::concat(x, a); };
    c.ref = [a = axis](const std::vector<Arr>& x) {
      return href::concat(x, a < 0 ? a + static_cast<int>(x[0].shape.size()) : a);
    };
    check_op(backend, c);
  }
}

TEST_P(LayoutOps, Pad) {
  struct P {
    std::vector<int64_t> shape, lo, hi;
    double v;
  };
  for (const P& p :
       std::vector<P>{{{2, 3}, {1, 0}, {0, 2}, 0.0}, {{4}, {2}, {3}, -1.5}, {{0, 2}, {1, 1}, {1, 0}, 7.0}}) {
    OpCase c;
    c.shapes = {p.shape};
    c.build = [p](rt::Graph&, const std::vector<Node>& x) { return rt::pad(x[0], p.lo, p.hi, p.v); };
    c.ref = [p](const std::vector<Arr>& x) { return href::pad(x[0], p.lo, p.hi, p.v); };
    check_op(backend, c);
  }
}

TEST_P(LayoutOps, ExpandDimsAndSqueeze) {
  OpCase c;
  c.shapes = {{3, 4}};
  c.build = [](rt::Graph&, const std::vector<Node>& x) {
    Node e = rt::expand_dims(x[0], 1);
    EXPECT_EQ(e.shape(), (rt::Shape{3, 1, 4}));
    return rt::squeeze(e, 1) * 2.0;
  };
  c.ref = [](const std::vector<Arr>& x) { return href::unary(x[0], [](double v) { return 2 * v; }); };
  check_op(backend, c);
}

TEST_P(LayoutOps, LayoutOpsOnIntegersAndHalves) {
  auto t = rt::Tensor::from_host(backend, std::vector<int64_t>{1, 2, 3, 4, 5, 6}, rt::Shape{2, 3});
  std::vector<float> hv{1, 2, 3, 4, 5, 6};
  auto h = rt::Tensor::from_host(backend, std::span<const float>(hv), rt::Shape{2, 3}, rt::DType::F16);
  rt::Exec e(backend, [](rt::Graph&, Node x, Node y) {
    return std::vector<Node>{rt::transpose(x), rt::pad(rt::slice_axis(x, 1, 1, 3), {0, 1}, {0, 0}, -1),
                             rt::cast(rt::concat({rt::transpose(y), rt::transpose(y)}, 1), rt::DType::F32)};
  });
  auto out = e.run(t, h);
  EXPECT_EQ(out[0].materialize<int64_t>(), (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(out[1].materialize<int64_t>(), (std::vector<int64_t>{-1, 2, 3, -1, 5, 6}));
  EXPECT_EQ(out[2].materialize<float>(), (std::vector<float>{1, 4, 1, 4, 2, 5, 2, 5, 3, 6, 3, 6}));
}

INSTANTIATE_FOR_ALL_BACKENDS(LayoutOps);
