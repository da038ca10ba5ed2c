#include <cmath>

#include "op_check.h"

using rt::DType;
using rt::Node;

TEST(HalfConversion, F16RoundTripsAndRounds) {
  for (float f : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f, 0.333251953125f})
    EXPECT_EQ(rt::f16_to_float(rt::float_to_f16(f)), f) << f;
  EXPECT_EQ(rt::float_to_f16(1.0f + 1.0f / 4096.0f), rt::float_to_f16(1.0f));  // ties to even
  EXPECT_TRUE(std::isinf(rt::f16_to_float(rt::float_to_f16(1e6f))));
  EXPECT_TRUE(std::isnan(rt::f16_to_float(rt::float_to_f16(NAN))));
  EXPECT_EQ(rt::f16_to_float(rt::float_to_f16(1e-9f)), 0.0f);
  for (int i = -1000; i <= 1000; ++i) {
    float f = static_cast<float>(i) * 0.0173f;
    float r = rt::f16_to_float(rt::float_to_f16(f));
    EXPECT_LE(std::fabs(r - f), std::fabs(f) * 4.9e-4f + 3e-8f) << f;
  }
}

TEST(HalfConversion, BF16RoundTripsAndRounds) {
  for (float f : {0.0f, 1.0f, -2.5f, 3.0e38f, 1.0e-38f})
    EXPECT_NEAR(rt::bf16_to_float(rt::float_to_bf16(f)), f, std::fabs(f) * 4e-3f);
  EXPECT_EQ(rt::bf16_to_float(rt::float_to_bf16(1.0f)), 1.0f);
  EXPECT_TRUE(std::isnan(rt::bf16_to_float(rt::float_to_bf16(NAN))));
}

class HalfOps : public BackendTest {};

TEST_P(HalfOps, HalfTensorsTakeTwoBytesAndRoundTrip) {
  std::vector<float> v = {1.5f, -2.25f, 1000.0f, 0.1f};
  for (DType d : {DType::F16, DType::BF16}) {
    size_t before = backend->bytes_in_use();
    auto t = rt::Tensor::from_host(backend, std::span<const float>(v), rt::Shape{4}, d);
    EXPECT_EQ(t.bytes(), 8u);
    EXPECT_EQ(backend->bytes_in_use(), before + 8);
    auto back = t.materialize<float>();
    double tol = d == DType::F16 ? 1e-3 : 8e-3;
    for (size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(back[i], v[i], tol * std::fabs(v[i]));
    EXPECT_THROW(t.materialize<int32_t>(), rt::DTypeError);
  }
}

// The same op chain computed in f32 and in a 16-bit type agree within the type's precision,
// forward and backward.
TEST_P(HalfOps, OpsAndGradientsInF16AndBF16MatchF32WithinTolerance) {
  std::vector<float> xv = random_floats(24, 3), wv = random_floats(12, 4);
  for (DType d : {DType::F16, DType::BF16}) {
    SCOPED_TRACE(rt::dtype_name(d));
    auto chain = [d](rt::Graph&, Node x, Node w, DType dt) {
      Node xh = rt::cast(x, dt), wh = rt::cast(w, dt);
      Node h = rt::gelu(rt::matmul(xh, wh)) + rt::tanh(rt::reduce_mean(xh, {1}, true));
      Node y = rt::log_softmax(h, -1);
      Node loss = rt::cast(rt::reduce_sum(y * rt::sigmoid(h)), DType::F32);
      auto g = rt::gradients(loss, {x, w});
      return std::vector<Node>{rt::cast(y, DType::F32), g[0], g[1]};
    };
    rt::Exec e32(backend, [&](rt::Graph& g, Node x, Node w) { return chain(g, x, w, DType::F32); });
    rt::Exec e16(backend, [&](rt::Graph& g, Node x, Node w) { return chain(g, x, w, d); });
    auto x = upload(backend, xv, rt::Shape{6, 4}), w = upload(backend, wv, rt::Shape{4, 3});
    auto a = e32.run(x, w), b = e16.run(x, w);
    double tol = d == DType::F16 ? 2e-2 : 1e-1;
    for (size_t k = 0; k < a.size(); ++k) {
      auto va = a[k].materialize<float>(), vb = b[k].materialize<float>();
      ASSERT_EQ(va.size(), vb.size());
      for (size_t i = 0; i < va.size(); ++i) EXPECT_NEAR(vb[i], va[i], tol * (1 + std::fabs(va[i]))) << k << ":" << i;
    }
  }
}

TEST_P(HalfOps, HalfInputsFlowThroughExecDirectly) {
  std::vector<float> v = {1, 2, 3, 4};
  auto t = rt::Tensor::from_host(backend, std::span<const float>(v), rt::Shape{2, 2}, DType::BF16);
  rt::Exec e(backend, [](rt::Graph&, Node x) { return rt::reduce_sum(x * x, {1}); });
  auto out = e.run(t)[0];
  EXPECT_EQ(out.dtype(), DType::BF16);
  EXPECT_EQ(out.materialize<float>(), (std::vector<float>{5, 25}));
}

// Float to integer is defined for every input, as XLA's convert: NaN is 0, out-of-range values
// saturate (was undefined behaviour, found by fuzz/GraphFuzzer.cpp).
TEST_P(HalfOps, FloatToIntegerCastsSaturateAndMapNaNToZero) {
  std::vector<float> v = {NAN, INFINITY, -INFINITY, 3e9f, -3e9f, 1e19f, -1e19f, -2.75f, 2.75f};
  rt::Exec cast(backend, [](rt::Graph&, Node x) -> std::vector<Node> {
    return {rt::cast(x, DType::I32), rt::cast(x, DType::I64)};
  });
  auto out = cast.run(upload(backend, v, rt::Shape{9}));
  EXPECT_EQ(out[0].materialize<int32_t>(),
            (std::vector<int32_t>{0, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, -2, 2}));
  EXPECT_EQ(out[1].materialize<int64_t>(),
            (std::vector<int64_t>{0, INT64_MAX, INT64_MIN, 3000000000LL, -3000000000LL, INT64_MAX, INT64_MIN, -2, 2}));
}

INSTANTIATE_FOR_ALL_BACKENDS(HalfOps);
