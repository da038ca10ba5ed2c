#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels.h"
#include "mlperf/rt/error.h"
#include "mlperf/rt/rng.h"

namespace mlperf::rt::ref {

namespace {

// Integer arithmetic wraps (two's complement) as XLA's does: computed in the unsigned type,
// where C++ defines overflow. Floats are computed as they are.
template <class T, bool = std::is_integral_v<T>>
struct Wrapping {
  using type = T;
};
template <class T>
struct Wrapping<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <class T>
using W = typename Wrapping<T>::type;

template <class T>
T negate(T x) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(W<T>(0) - static_cast<W<T>>(x));
  return static_cast<T>(-x);
}

template <class T>
T unary_op(OpKind k, T x) {
  switch (k) {
    case OpKind::Neg: return negate(x);
    case OpKind::Abs: return x < 0 ? negate(x) : x;
    case OpKind::Relu: return x > 0 ? x : T(0);
    case OpKind::Square: return static_cast<T>(static_cast<W<T>>(x) * static_cast<W<T>>(x));
    case OpKind::Sign: return static_cast<T>(x > 0 ? 1 : (x < 0 ? -1 : 0));
    case OpKind::StopGradient: return x;
    default: break;
  }
  if constexpr (std::is_floating_point_v<T>) {
    switch (k) {
      case OpKind::Exp: return std::exp(x);
      case OpKind::Log: return std::log(x);
      case OpKind::Sqrt: return std::sqrt(x);
      case OpKind::Rsqrt: return T(1) / std::sqrt(x);
      case OpKind::Tanh: return std::tanh(x);
      case OpKind::Sigmoid: return T(1) / (T(1) + std::exp(-x));
      case OpKind::Gelu: {
        const T c = static_cast<T>(0.7978845608028654);
        return T(0.5) * x * (T(1) + std::tanh(c * (x + T(0.044715) * x * x * x)));
      }
      default: break;
    }
  }
  throw Error(std::string("reference backend: unsupported unary op ") + op_name(k));
}

template <class T>
void unary_t(OpKind k, const Arr& x, const Arr& out) {
  const T* in = x.as<T>();
  T* o = out.as<T>();
  int64_t n = x.n();
  for (int64_t i = 0; i < n; ++i) o[i] = unary_op<T>(k, in[i]);
}

template <class T>
T arith(OpKind k, T a, T b) {
  switch (k) {
    case OpKind::Add: return static_cast<T>(static_cast<W<T>>(a) + static_cast<W<T>>(b));
    case OpKind::Sub: return static_cast<T>(static_cast<W<T>>(a) - static_cast<W<T>>(b));
    case OpKind::Mul: return static_cast<T>(static_cast<W<T>>(a) * static_cast<W<T>>(b));
    case OpKind::Div:
      if constexpr (std::is_integral_v<T>) {
        if (std::is_signed_v<T> && b == T(-1)) return negate(a);  // min / -1 wraps to min
        return b == 0 ? T(0) : static_cast<T>(a / b);
      } else {
        return a / b;
      }
    case OpKind::Pow:
      if constexpr (std::is_floating_point_v<T>) return std::pow(a, b);
      break;
    case OpKind::Max: return a > b ? a : b;
    case OpKind::Min: return a < b ? a : b;
    case OpKind::LogicalAnd: return static_cast<T>(a && b);
    case OpKind::LogicalOr: return static_cast<T>(a || b);
    default: break;
  }
  throw Error(std::string("reference backend: unsupported binary op ") + op_name(k));
}

template <class T>
uint8_t compare(OpKind k, T a, T b) {
  switch (k) {
    case OpKind::Eq: return a == b;
    case OpKind::Ne: return a != b;
    case OpKind::Lt: return a < b;
    case OpKind::Le: return a <= b;
    case OpKind::Gt: return a > b;
    case OpKind::Ge: return a >= b;
    default: return 0;
  }
}

template <class T>
void binary_t(OpKind k, const Arr& a, const Arr& b, const Arr& out) {
  const T* x = a.as<T>();
  const T* y = b.as<T>();
  int64_t n = a.n();
  if (is_comparison(k)) {
    uint8_t* o = out.as<uint8_t>();
    for (int64_t i = 0; i < n; ++i) o[i] = compare<T>(k, x[i], y[i]);
    return;
  }
  T* o = out.as<T>();
  switch (k) {
    case OpKind::Add:
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(static_cast<W<T>>(x[i]) + static_cast<W<T>>(y[i]));
      return;
    case OpKind::Mul:
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(static_cast<W<T>>(x[i]) * static_cast<W<T>>(y[i]));
      return;
    default:
      for (int64_t i = 0; i < n; ++i) o[i] = arith<T>(k, x[i], y[i]);
  }
}

template <class T>
void where_t(const Arr& c, const Arr& a, const Arr& b, const Arr& out) {
  const uint8_t* cc = c.as<uint8_t>();
  const T* x = a.as<T>();
  const T* y = b.as<T>();
  T* o = out.as<T>();
  for (int64_t i = 0, n = out.n(); i < n; ++i) o[i] = cc[i] ? x[i] : y[i];
}

}  // namespace

#define MLPERF_REF_DISPATCH(dtype, FN, ...)                                          \
  switch (dtype) {                                                                   \
    case DType::F32: FN<float>(__VA_ARGS__); break;                                  \
    case DType::I32: FN<int32_t>(__VA_ARGS__); break;                                \
    case DType::I64: FN<int64_t>(__VA_ARGS__); break;                                \
    case DType::Bool: FN<uint8_t>(__VA_ARGS__); break;                               \
    default: throw Error("reference backend: kernel called on a 16-bit float buffer"); \
  }

void unary(OpKind k, const Arr& x, const Arr& out) {
  if (k == OpKind::LogicalNot) {
    const uint8_t* in = x.as<uint8_t>();
    uint8_t* o = out.as<uint8_t>();
    for (int64_t i = 0, n = x.n(); i < n; ++i) o[i] = !in[i];
    return;
  }
  MLPERF_REF_DISPATCH(x.dtype, unary_t, k, x, out)
}

void binary(OpKind k, const Arr& a, const Arr& b, const Arr& out) { MLPERF_REF_DISPATCH(a.dtype, binary_t, k, a, b, out) }

void where(const Arr& c, const Arr& a, const Arr& b, const Arr& out) { MLPERF_REF_DISPATCH(a.dtype, where_t, c, a, b, out) }

void cast(const Arr& x, const Arr& out) {
  constexpr int64_t kChunk = 4096;
  std::vector<double> tmp(static_cast<size_t>(std::min<int64_t>(x.n(), kChunk)));
  size_t in_es = dtype_size(x.dtype), out_es = dtype_size(out.dtype);
  for (int64_t i = 0; i < x.n(); i += kChunk) {
    auto m = static_cast<size_t>(std::min(kChunk, x.n() - i));
    convert_from_storage(x.dtype, static_cast<const uint8_t*>(x.p) + static_cast<size_t>(i) * in_es, tmp.data(), m);
    convert_to_storage(out.dtype, static_cast<uint8_t*>(out.p) + static_cast<size_t>(i) * out_es, tmp.data(), m);
  }
}

void iota(int axis, const Arr& out) {
  std::vector<int64_t> st = strides_of(out.shape);
  int64_t dim = out.shape[axis], stride = st[static_cast<size_t>(axis)];
  std::vector<double> v(static_cast<size_t>(out.n()));
  for (int64_t i = 0; i < out.n(); ++i) v[static_cast<size_t>(i)] = static_cast<double>((i / stride) % dim);
  convert_to_storage(out.dtype, out.p, v.data(), v.size());
}

void rng_uniform(uint64_t seed, const Arr& out) {
  float* o = out.as<float>();
  for (int64_t i = 0; i < out.n(); ++i) o[i] = rng_uniform_value(seed, static_cast<uint64_t>(i));
}

}  // namespace mlperf::rt::ref
