#include "backends/cpu/sgemm.h"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "mlperf/rt/error.h"
#include "options.h"
#include "reference/kernels.h"

namespace mlperf::rt::cpu {

namespace {

// An 8 x 48 tile of C lives in 24 of the 32 vector registers; 8 x 48 measured fastest of
// 14x32, 12x32, 8x48, 6x64 and 16x16 on the MLP's shapes (runtime/BENCHMARKS.md section 2d).
constexpr int kMR = 8, kVecs = 3, kNR = 16 * kVecs;
// Blocking: a kKC x kNR panel of B (36 KiB) stays in L1 while the rows of A stream past it.
constexpr int64_t kKC = 192, kMC = 128, kNC = 4096;

__attribute__((target("avx512f"))) void micro_kernel(int64_t kc, const float* ap, const float* bp, float* c,
                                                     int64_t ldc, bool accumulate, int mr, int nr) {
  __m512 acc[kMR][kVecs];
#pragma clang loop unroll(full)
  for (int i = 0; i < kMR; ++i)
#pragma clang loop unroll(full)
    for (int v = 0; v < kVecs; ++v) acc[i][v] = _mm512_setzero_ps();
  for (int64_t p = 0; p < kc; ++p, ap += kMR, bp += kNR) {
    __m512 bv[kVecs];
#pragma clang loop unroll(full)
    for (int v = 0; v < kVecs; ++v) bv[v] = _mm512_loadu_ps(bp + 16 * v);
#pragma clang loop unroll(full)
    for (int i = 0; i < kMR; ++i) {
      __m512 av = _mm512_set1_ps(ap[i]);
#pragma clang loop unroll(full)
      for (int v = 0; v < kVecs; ++v) acc[i][v] = _mm512_fmadd_ps(av, bv[v], acc[i][v]);
    }
  }
  __mmask16 mask[kVecs];
  for (int v = 0; v < kVecs; ++v) {
    int w = nr - 16 * v;
    mask[v] = w >= 16 ? __mmask16{0xFFFF} : w <= 0 ? __mmask16{0} : static_cast<__mmask16>((1u << w) - 1);
  }
#pragma clang loop unroll(full)
  for (int i = 0; i < kMR; ++i) {
    if (i >= mr) continue;
    float* row = c + i * ldc;
#pragma clang loop unroll(full)
    for (int v = 0; v < kVecs; ++v) {
      if (accumulate) acc[i][v] = _mm512_add_ps(acc[i][v], _mm512_maskz_loadu_ps(mask[v], row + 16 * v));
      _mm512_mask_storeu_ps(row + 16 * v, mask[v], acc[i][v]);
    }
  }
}

// Rows [i0, i0 + mc) x columns [p0, p0 + kc) of op(A) as kMR-row slivers, column by column,
// zero-padded to whole slivers.
void pack_a(bool ta, const float* a, int64_t m, int64_t k, int64_t i0, int64_t mc, int64_t p0, int64_t kc, float* out) {
  for (int64_t s = 0; s < mc; s += kMR)
    for (int64_t p = 0; p < kc; ++p)
      for (int i = 0; i < kMR; ++i) {
        int64_t r = i0 + s + i;
        *out++ = s + i < mc ? (ta ? a[(p0 + p) * m + r] : a[r * k + p0 + p]) : 0.0f;
      }
}

// Rows [p0, p0 + kc) x columns [j0, j0 + nc) of op(B) as kNR-column panels, row by row,
// zero-padded to whole panels. A transposed B is read eight of its rows at a time.
void pack_b(bool tb, const float* b, int64_t n, int64_t k, int64_t j0, int64_t nc, int64_t p0, int64_t kc, float* out) {
  for (int64_t t = 0; t < nc; t += kNR, out += kc * kNR) {
    int64_t w = std::min<int64_t>(kNR, nc - t);
    if (!tb) {
      for (int64_t p = 0; p < kc; ++p) {
        float* dst = out + p * kNR;
        std::memcpy(dst, b + (p0 + p) * n + j0 + t, static_cast<size_t>(w) * sizeof(float));
        std::fill(dst + w, dst + kNR, 0.0f);
      }
      continue;
    }
    for (int64_t j = 0; j < kNR; j += 8) {
      const float* src[8];
      for (int jj = 0; jj < 8; ++jj) src[jj] = j + jj < w ? b + (j0 + t + j + jj) * k + p0 : nullptr;
      for (int64_t p = 0; p < kc; ++p)
        for (int jj = 0; jj < 8; ++jj) out[p * kNR + j + jj] = src[jj] ? src[jj][p] : 0.0f;
    }
  }
}

using ShapeClass = std::tuple<int64_t, int64_t, int64_t, bool, bool>;
struct Choice {
  bool tiled = false;
  double tiled_ms = 0, blas_ms = 0;
};
struct ChoiceTable {
  std::mutex mu;
  std::map<ShapeClass, Choice> chosen;
};
ChoiceTable& choice_table() {
  static ChoiceTable t;
  return t;
}

double time_ms(const auto& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The tiled kernel must be clearly faster to be chosen: where the two are close (OpenBLAS on
// its own AVX-512 kernels: within 2-8%), timing noise would pick either, and two processes
// (validate's anti-pattern and fix) would then round differently.
constexpr double kTiledMargin = 0.9;

// Both implementations twice on the product's own operands (the first run of each also warms the
// caches); c ends with the tiled result.
Choice measure(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c) {
  Choice ch;
  ch.tiled_ms = ch.blas_ms = 1e300;
  for (int rep = 0; rep < 2; ++rep) {
    ch.blas_ms = std::min(ch.blas_ms, time_ms([&] { ref::gemm(ta, tb, m, n, k, a, b, c); }));
    ch.tiled_ms = std::min(ch.tiled_ms, time_ms([&] { tiled_sgemm(ta, tb, m, n, k, a, b, c); }));
  }
  ch.tiled = ch.tiled_ms < kTiledMargin * ch.blas_ms;
  return ch;
}

}  // namespace

bool tiled_sgemm_supported() {
  static const bool kSupported = __builtin_cpu_supports("avx512f");
  return kSupported;
}

void tiled_sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    std::fill(c, c + m * n, 0.0f);
    return;
  }
  thread_local std::vector<float> a_pack, b_pack;
  for (int64_t j0 = 0; j0 < n; j0 += kNC) {
    int64_t nc = std::min(kNC, n - j0);
    for (int64_t p0 = 0; p0 < k; p0 += kKC) {
      int64_t kc = std::min(kKC, k - p0);
      b_pack.resize(static_cast<size_t>((nc + kNR - 1) / kNR * kNR * kc));
      pack_b(tb, b, n, k, j0, nc, p0, kc, b_pack.data());
      for (int64_t i0 = 0; i0 < m; i0 += kMC) {
        int64_t mc = std::min(kMC, m - i0);
        a_pack.resize(static_cast<size_t>((mc + kMR - 1) / kMR * kMR * kc));
        pack_a(ta, a, m, k, i0, mc, p0, kc, a_pack.data());
        for (int64_t jr = 0; jr < nc; jr += kNR)
          for (int64_t ir = 0; ir < mc; ir += kMR)
            micro_kernel(kc, a_pack.data() + ir * kc, b_pack.data() + jr * kc, c + (i0 + ir) * n + j0 + jr, n, p0 > 0,
                         static_cast<int>(std::min<int64_t>(kMR, mc - ir)),
                         static_cast<int>(std::min<int64_t>(kNR, nc - jr)));
      }
    }
  }
}

GemmMode gemm_mode_from_env() {
  const char* e = std::getenv("MLPERF_CPU_GEMM");
  std::string v = e ? e : "";
  if (v.empty() || v == "auto") return tiled_sgemm_supported() ? GemmMode::Auto : GemmMode::Blas;
  if (v == "blas") return GemmMode::Blas;
  if (v == "tiled") {
    if (!tiled_sgemm_supported())
      throw ArgumentError("MLPERF_CPU_GEMM: 'tiled' needs AVX-512F, which this CPU does not have");
    return GemmMode::Tiled;
  }
  throw ArgumentError("MLPERF_CPU_GEMM: '" + v + "' is not 'auto' (the default), 'blas' or 'tiled'");
}

void GemmDispatch::run(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b,
                       float* c) const {
  bool tiled = mode_ == GemmMode::Tiled;
  if (mode_ == GemmMode::Auto) {
    auto cls = [](int64_t v) { return static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(v))); };
    ShapeClass key{cls(m), cls(n), cls(k), ta, tb};
    ChoiceTable& table = choice_table();
    std::unique_lock<std::mutex> lk(table.mu);
    auto it = table.chosen.find(key);
    if (it == table.chosen.end()) {
      lk.unlock();
      Choice ch = measure(ta, tb, m, n, k, a, b, c);
      if (options::dump_enabled("compile"))
        std::cerr << "[mlperf cpu] matmul " << m << "x" << n << "x" << k << (ta ? " ta" : "") << (tb ? " tb" : "")
                  << ": tiled " << ch.tiled_ms << " ms, blas " << ch.blas_ms << " ms -> "
                  << (ch.tiled ? "tiled" : "blas") << "\n";
      lk.lock();
      it = table.chosen.emplace(key, ch).first;  // another thread's earlier choice stands
      if (it->second.tiled) return;              // c holds the tiled result
    }
    tiled = it->second.tiled;
  }
  if (tiled)
    tiled_sgemm(ta, tb, m, n, k, a, b, c);
  else
    ref::gemm(ta, tb, m, n, k, a, b, c);
}

nlohmann::json GemmDispatch::choices() {
  ChoiceTable& table = choice_table();
  std::lock_guard<std::mutex> lk(table.mu);
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, ch] : table.chosen) {
    auto [m, n, k, ta, tb] = key;
    std::string name = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " " + (ta ? "t" : "n") +
                       (tb ? "t" : "n");
    out[name] = {{"impl", ch.tiled ? "tiled" : "blas"}, {"tiled_ms", ch.tiled_ms}, {"blas_ms", ch.blas_ms}};
  }
  return out;
}

std::string GemmDispatch::mode_name() const {
  switch (mode_) {
    case GemmMode::Auto:
      return "auto: tiled avx512 or cblas_sgemm, the faster per shape";
    case GemmMode::Tiled:
      return "tiled avx512";
    case GemmMode::Blas:
      break;
  }
#ifdef MLPERF_RT_HAVE_BLAS
  return "cblas_sgemm";
#else
  return "loop";
#endif
}

}  // namespace mlperf::rt::cpu
