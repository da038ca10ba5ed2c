#include <cstring>

#include "kernels.h"

namespace mlperf::rt::ref {

namespace {

// Visits every multi-index of `shape` in row-major order, tracking an offset
// that advances by strides[d] along axis d.
template <class F>
void for_each_offset(const Shape& shape, const std::vector<int64_t>& strides, int64_t base, F&& f) {
  int r = shape.rank();
  int64_t n = shape.numel();
  if (n == 0) return;
  std::vector<int64_t> idx(static_cast<size_t>(r), 0);
  int64_t off = base;
  for (int64_t i = 0; i < n; ++i) {
    f(i, off);
    for (int d = r - 1; d >= 0; --d) {
      auto u = static_cast<size_t>(d);
      if (++idx[u] < shape.dims[u]) {
        off += strides[u];
        break;
      }
      off -= strides[u] * (idx[u] - 1);
      idx[u] = 0;
    }
  }
}

template <size_t ES>
void gather_es(const uint8_t* in, int64_t base, const std::vector<int64_t>& st, const Shape& shape, uint8_t* out) {
  for_each_offset(shape, st, base, [&](int64_t i, int64_t off) {
    std::memcpy(out + static_cast<size_t>(i) * ES, in + static_cast<size_t>(off) * ES, ES);
  });
}

}  // namespace

void gather(const Arr& in, int64_t base, const std::vector<int64_t>& strides, const Arr& out) {
  auto* src = static_cast<const uint8_t*>(in.p);
  auto* dst = static_cast<uint8_t*>(out.p);
  switch (dtype_size(in.dtype)) {
    case 1:
      gather_es<1>(src, base, strides, out.shape, dst);
      break;
    case 2:
      gather_es<2>(src, base, strides, out.shape, dst);
      break;
    case 4:
      gather_es<4>(src, base, strides, out.shape, dst);
      break;
    default:
      gather_es<8>(src, base, strides, out.shape, dst);
      break;
  }
}

void transpose(const Arr& x, const std::vector<int64_t>& perm, const Arr& out) {
  std::vector<int64_t> in_st = strides_of(x.shape), st;
  for (int64_t p : perm) st.push_back(in_st[static_cast<size_t>(p)]);
  gather(x, 0, st, out);
}

void broadcast(const Arr& x, const Arr& out) {
  std::vector<int64_t> in_st = strides_of(x.shape), st(static_cast<size_t>(out.shape.rank()), 0);
  int lead = out.shape.rank() - x.shape.rank();
  for (int i = 0; i < x.shape.rank(); ++i)
    if (x.shape[i] != 1) st[static_cast<size_t>(lead + i)] = in_st[static_cast<size_t>(i)];
  gather(x, 0, st, out);
}

void slice(const Arr& x, const Attrs& a, const Arr& out) {
  std::vector<int64_t> in_st = strides_of(x.shape), st;
  int64_t base = 0;
  for (size_t i = 0; i < in_st.size(); ++i) {
    base += a.starts[i] * in_st[i];
    st.push_back(a.strides[i] * in_st[i]);
  }
  gather(x, base, st, out);
}

void concat(const std::vector<Arr>& xs, int axis, const Arr& out) {
  size_t es = dtype_size(out.dtype);
  int64_t outer = 1;
  for (int i = 0; i < axis; ++i) outer *= out.shape[i];
  int64_t out_row = out.n() / (outer ? outer : 1);
  if (outer == 0) return;
  int64_t col = 0;
  for (const Arr& x : xs) {
    int64_t row = x.n() / outer;
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(static_cast<uint8_t*>(out.p) + static_cast<size_t>(o * out_row + col) * es,
                  static_cast<const uint8_t*>(x.p) + static_cast<size_t>(o * row) * es, static_cast<size_t>(row) * es);
    col += row;
  }
}

void pad(const Arr& x, const Attrs& a, const Arr& out) {
  size_t es = dtype_size(out.dtype);
  std::vector<uint8_t> v(es);
  convert_to_storage(out.dtype, v.data(), &a.value, 1);
  auto* o = static_cast<uint8_t*>(out.p);
  for (int64_t i = 0; i < out.n(); ++i) std::memcpy(o + static_cast<size_t>(i) * es, v.data(), es);
  std::vector<int64_t> out_st = strides_of(out.shape), st;
  int64_t base = 0;
  for (size_t d = 0; d < out_st.size(); ++d) {
    base += a.pad_lo[d] * out_st[d];
    st.push_back((a.interior.empty() ? 1 : a.interior[d] + 1) * out_st[d]);
  }
  auto* in = static_cast<const uint8_t*>(x.p);
  for_each_offset(x.shape, st, base, [&](int64_t i, int64_t off) {
    std::memcpy(o + static_cast<size_t>(off) * es, in + static_cast<size_t>(i) * es, es);
  });
}

}  // namespace mlperf::rt::ref
