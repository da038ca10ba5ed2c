#pragma once
// Row-major f32 matrix products for the cpu backend: a packed, register-tiled AVX-512 kernel
// beside OpenBLAS, and the per-shape choice between them.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace mlperf::rt::cpu {

// Whether this CPU runs the tiled kernel (AVX-512F).
bool tiled_sgemm_supported();

// C[m,n] = op(A)[m,k] op(B)[k,n], A and B row-major (transposed when ta / tb), C overwritten.
// Only where tiled_sgemm_supported().
void tiled_sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c);

// MLPERF_CPU_GEMM: "auto" (the default), "blas" or "tiled"; anything else, or "tiled" on a CPU
// without AVX-512F, is an ArgumentError naming the variable.
enum class GemmMode { Auto, Blas, Tiled };
GemmMode gemm_mode_from_env();

// Runs every f32 matmul of a backend. In Auto mode, the first product of each shape class (m, n
// and k each rounded up to a power of two, and the transposes) runs both implementations twice on
// its own operands, and the faster (the tiled kernel only when at least 10% faster, so that
// close calls stay with OpenBLAS) serves that class in the whole process from then on (as
// cuDNN's benchmark mode: one process computes consistently, two processes may differ in the
// last bits; MLPERF_CPU_GEMM=blas or tiled pins one). The result of that first product is the
// chosen one's. OpenBLAS picks its kernels by CPU model and may not know a new one (0.3.21 runs
// its AVX2 kernels on Zen 5), and neither side wins on every shape: the tiled kernel's 48-column
// tiles waste most of their work on 10 output columns.
class GemmDispatch {
 public:
  explicit GemmDispatch(GemmMode mode) : mode_(mode) {}
  void run(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c) const;
  // The process's choices, {"128x512x1024 nn": {"impl": "tiled", "tiled_ms": .., "blas_ms": ..}}.
  static nlohmann::json choices();
  std::string mode_name() const;

 private:
  const GemmMode mode_;
};

}  // namespace mlperf::rt::cpu
