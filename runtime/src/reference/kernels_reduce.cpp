#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernels.h"
#include "mlperf/rt/error.h"

#ifdef MLPERF_RT_HAVE_BLAS
#include <cblas.h>
#endif

namespace mlperf::rt::ref {

namespace {

// Output offset stride for each input axis (0 on reduced axes).
std::vector<int64_t> reduce_strides(const Shape& in, const std::vector<int64_t>& axes) {
  Shape out;
  std::vector<bool> red(static_cast<size_t>(in.rank()), false);
  for (int64_t a : axes) red[static_cast<size_t>(a)] = true;
  for (int i = 0; i < in.rank(); ++i)
    if (!red[static_cast<size_t>(i)]) out.dims.push_back(in[i]);
  std::vector<int64_t> ost = strides_of(out), st;
  size_t j = 0;
  for (int i = 0; i < in.rank(); ++i) st.push_back(red[static_cast<size_t>(i)] ? 0 : ost[j++]);
  return st;
}

template <class T, class Acc>
void reduce_t(OpKind k, const Arr& x, const std::vector<int64_t>& axes, const Arr& out) {
  std::vector<Acc> acc(static_cast<size_t>(out.n()));
  const Acc init = k == OpKind::ReduceSum                   ? Acc(0)
                   : std::numeric_limits<Acc>::has_infinity ? -std::numeric_limits<Acc>::infinity()
                                                            : std::numeric_limits<Acc>::lowest();
  std::fill(acc.begin(), acc.end(), init);
  std::vector<int64_t> st = reduce_strides(x.shape, axes);
  const T* in = x.as<T>();
  int r = x.shape.rank();
  std::vector<int64_t> idx(static_cast<size_t>(r), 0);
  int64_t off = 0;
  for (int64_t i = 0, n = x.n(); i < n; ++i) {
    Acc v = static_cast<Acc>(in[i]);
    Acc& a = acc[static_cast<size_t>(off)];
    if (k == OpKind::ReduceSum) {
      if constexpr (std::is_integral_v<Acc>) {
        a = static_cast<Acc>(static_cast<uint64_t>(a) + static_cast<uint64_t>(v));  // wraps, as XLA's
      } else {
        a += v;
      }
    } else if (v > a || std::isnan(static_cast<double>(v))) {
      a = v;
    }
    for (int d = r - 1; d >= 0; --d) {
      auto u = static_cast<size_t>(d);
      if (++idx[u] < x.shape.dims[u]) {
        off += st[u];
        break;
      }
      off -= st[u] * (idx[u] - 1);
      idx[u] = 0;
    }
  }
  T* o = out.as<T>();
  for (size_t i = 0; i < acc.size(); ++i) o[i] = static_cast<T>(acc[i]);
}

template <class T>
void argmax_t(const Arr& x, int axis, const Arr& out) {
  int64_t outer = 1, inner = 1, dim = x.shape[axis];
  for (int i = 0; i < axis; ++i) outer *= x.shape[i];
  for (int i = axis + 1; i < x.shape.rank(); ++i) inner *= x.shape[i];
  const T* in = x.as<T>();
  auto* o = out.as<int64_t>();
  for (int64_t a = 0; a < outer; ++a) {
    for (int64_t c = 0; c < inner; ++c) {
      const T* p = in + a * dim * inner + c;
      int64_t best = 0;
      for (int64_t j = 1; j < dim; ++j)
        if (p[j * inner] > p[best * inner]) best = j;
      o[a * inner + c] = best;
    }
  }
}

}  // namespace

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    std::memset(c, 0, static_cast<size_t>(m * n) * sizeof(float));
    return;
  }
#ifdef MLPERF_RT_HAVE_BLAS
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0f, a, static_cast<int>(ta ? m : k), b,
              static_cast<int>(tb ? k : n), 0.0f, c, static_cast<int>(n));
#else
  std::memset(c, 0, static_cast<size_t>(m * n) * sizeof(float));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t p = 0; p < k; ++p) {
      float av = ta ? a[p * m + i] : a[i * k + p];
      float* crow = c + i * n;
      if (!tb) {
        const float* brow = b + p * n;
        for (int64_t j = 0; j < n; ++j) crow[j] += av * brow[j];
      } else {
        for (int64_t j = 0; j < n; ++j) crow[j] += av * b[j * k + p];
      }
    }
  }
#endif
}

void reduce(OpKind k, const Arr& x, const std::vector<int64_t>& axes, const Arr& out) {
  switch (x.dtype) {
    case DType::F32:
      if (k == OpKind::ReduceSum) {
        reduce_t<float, double>(k, x, axes, out);
      } else {
        reduce_t<float, float>(k, x, axes, out);
      }
      break;
    case DType::I32:
      reduce_t<int32_t, int64_t>(k, x, axes, out);
      break;
    case DType::I64:
      reduce_t<int64_t, int64_t>(k, x, axes, out);
      break;
    default:
      throw Error(std::string("reference backend: cannot reduce ") + dtype_name(x.dtype));
  }
}

void argmax(const Arr& x, int axis, const Arr& out) {
  switch (x.dtype) {
    case DType::F32:
      argmax_t<float>(x, axis, out);
      break;
    case DType::I32:
      argmax_t<int32_t>(x, axis, out);
      break;
    case DType::I64:
      argmax_t<int64_t>(x, axis, out);
      break;
    default:
      throw Error(std::string("reference backend: cannot argmax ") + dtype_name(x.dtype));
  }
}

void matmul(const Arr& a, const Arr& b, bool ta, bool tb, const Arr& out) {
  int r = out.shape.rank();
  int64_t m = out.shape[r - 2], n = out.shape[r - 1];
  int64_t k = ta ? a.shape[r - 2] : a.shape[r - 1];
  int64_t batch = 1;
  for (int i = 0; i < r - 2; ++i) batch *= out.shape[i];
  for (int64_t i = 0; i < batch; ++i)
    gemm(ta, tb, m, n, k, a.as<float>() + i * m * k, b.as<float>() + i * k * n, out.as<float>() + i * m * n);
}

}  // namespace mlperf::rt::ref
