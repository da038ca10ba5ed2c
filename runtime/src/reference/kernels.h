#pragma once
#include <cstdint>
#include <vector>

#include "mlperf/rt/graph.h"

// Op-by-op kernels of the reference backend. Compute kernels see F32 for F16/BF16
// (the executor widens and narrows around them); layout kernels move raw elements.
namespace mlperf::rt::ref {

struct Arr {
  void* p;
  Shape shape;
  DType dtype;
  int64_t n() const { return shape.numel(); }
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

void unary(OpKind k, const Arr& x, const Arr& out);
void binary(OpKind k, const Arr& a, const Arr& b, const Arr& out);
void where(const Arr& c, const Arr& a, const Arr& b, const Arr& out);
void cast(const Arr& x, const Arr& out);  // any storage dtype to any storage dtype
void iota(int axis, const Arr& out);
void rng_uniform(uint64_t seed, const Arr& out);

// out[idx] = in[base + sum(idx[d] * strides[d])]
void gather(const Arr& in, int64_t base, const std::vector<int64_t>& strides, const Arr& out);
void transpose(const Arr& x, const std::vector<int64_t>& perm, const Arr& out);
void broadcast(const Arr& x, const Arr& out);
void slice(const Arr& x, const Attrs& a, const Arr& out);
void concat(const std::vector<Arr>& xs, int axis, const Arr& out);
void pad(const Arr& x, const Attrs& a, const Arr& out);

void reduce(OpKind k, const Arr& x, const std::vector<int64_t>& axes, const Arr& out);
void argmax(const Arr& x, int axis, const Arr& out);
void matmul(const Arr& a, const Arr& b, bool ta, bool tb, const Arr& out);
// Row-major f32 C[m,n] = op(A) op(B): cblas_sgemm when built with BLAS, a plain loop otherwise.
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c);

}  // namespace mlperf::rt::ref
