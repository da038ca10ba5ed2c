#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels.h"
#include "mlperf/rt/error.h"
#include "mlperf/rt/op_table.h"
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
T wadd(T a, T b) {
  return static_cast<T>(static_cast<W<T>>(a) + static_cast<W<T>>(b));
}
template <class T>
T wsub(T a, T b) {
  return static_cast<T>(static_cast<W<T>>(a) - static_cast<W<T>>(b));
}
template <class T>
T wmul(T a, T b) {
  return static_cast<T>(static_cast<W<T>>(a) * static_cast<W<T>>(b));
}
template <class T>
T idiv(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    if (std::is_signed_v<T> && b == T(-1)) return negate(a);  // min / -1 wraps to min
    return b == 0 ? T(0) : static_cast<T>(a / b);
  } else {
    return a / b;
  }
}
template <class T>
T gelu_tanh(T x) {
  const T c = static_cast<T>(0.7978845608028654);
  return T(0.5) * x * (T(1) + std::tanh(c * (x + T(0.044715) * x * x * x)));
}

// Which compute types an op's dtype rule admits (the builders reject the others).
template <class T>
constexpr bool admits(DTypeRule r) {
  if (r == DTypeRule::Float || r == DTypeRule::FloatOnly) return std::is_floating_point_v<T>;
  return true;
}

[[noreturn]] void unsupported(const char* what, OpKind k) {
  throw Error(std::string("reference backend: unsupported ") + what + " op " + op_name(k));
}

// One loop per elementwise row of ops.def, its body the row's reference expression.
template <class T>
void unary_t(OpKind k, const Arr& xa, const Arr& out) {
  const T* in = xa.as<T>();
  T* o = out.as<T>();
  const int64_t n = xa.n();
  switch (k) {
#define MLPERF_UNARY(Kind, name, rule, ref, code_float, code_int, grad) \
  case OpKind::Kind:                                                    \
    if constexpr (admits<T>(DTypeRule::rule)) {                         \
      for (int64_t i = 0; i < n; ++i) {                                 \
        [[maybe_unused]] const T x = in[i];                             \
        o[i] = static_cast<T>(ref);                                     \
      }                                                                 \
      return;                                                           \
    }                                                                   \
    break;
#define MLPERF_CONVERT(...)
#define MLPERF_OP(...)
#define MLPERF_BINARY(...)
#define MLPERF_TERNARY(...)
#include "mlperf/rt/ops.def"
    default:
      break;
  }
  unsupported("unary", k);
}

template <class T>
void binary_t(OpKind k, const Arr& aa, const Arr& ba, const Arr& out) {
  const T* x = aa.as<T>();
  const T* y = ba.as<T>();
  const int64_t n = aa.n();
  switch (k) {
#define MLPERF_BINARY(Kind, name, rule, ref, code_float, code_int, grad)               \
  case OpKind::Kind:                                                                   \
    if constexpr (admits<T>(DTypeRule::rule)) {                                        \
      using R = std::conditional_t<DTypeRule::rule == DTypeRule::Compare, uint8_t, T>; \
      R* o = out.as<R>();                                                              \
      for (int64_t i = 0; i < n; ++i) {                                                \
        const T a = x[i], b = y[i];                                                    \
        o[i] = static_cast<R>(ref);                                                    \
      }                                                                                \
      return;                                                                          \
    }                                                                                  \
    break;
#define MLPERF_OP(...)
#define MLPERF_UNARY(...)
#define MLPERF_TERNARY(...)
#include "mlperf/rt/ops.def"
    default:
      break;
  }
  unsupported("binary", k);
}

template <class T>
void where_t(const Arr& ca, const Arr& aa, const Arr& ba, const Arr& out) {
  const uint8_t* cc = ca.as<uint8_t>();
  const T* x = aa.as<T>();
  const T* y = ba.as<T>();
  T* o = out.as<T>();
  for (int64_t i = 0, n = out.n(); i < n; ++i) {
    const uint8_t c = cc[i];
    const T a = x[i], b = y[i];
#define MLPERF_TERNARY(Kind, name, rule, ref, code_float, code_int, grad) o[i] = static_cast<T>(ref);
#define MLPERF_OP(...)
#define MLPERF_UNARY(...)
#define MLPERF_BINARY(...)
#include "mlperf/rt/ops.def"
  }
}

}  // namespace

#define MLPERF_REF_DISPATCH(dtype, FN, ...)                                     \
  switch (dtype) {                                                              \
    case DType::F32:                                                            \
      FN<float>(__VA_ARGS__);                                                   \
      break;                                                                    \
    case DType::I32:                                                            \
      FN<int32_t>(__VA_ARGS__);                                                 \
      break;                                                                    \
    case DType::I64:                                                            \
      FN<int64_t>(__VA_ARGS__);                                                 \
      break;                                                                    \
    case DType::Bool:                                                           \
      FN<uint8_t>(__VA_ARGS__);                                                 \
      break;                                                                    \
    default:                                                                    \
      throw Error("reference backend: kernel called on a 16-bit float buffer"); \
  }

void unary(OpKind k, const Arr& x, const Arr& out) { MLPERF_REF_DISPATCH(x.dtype, unary_t, k, x, out) }

void binary(OpKind k, const Arr& a, const Arr& b, const Arr& out) {
  MLPERF_REF_DISPATCH(a.dtype, binary_t, k, a, b, out)
}

void where(const Arr& c, const Arr& a, const Arr& b, const Arr& out) {
  MLPERF_REF_DISPATCH(a.dtype, where_t, c, a, b, out)
}

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
