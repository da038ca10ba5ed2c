// The cpu backend's tiled AVX-512 matrix product and its per-shape choice against OpenBLAS.
#ifdef MLPERF_RT_HAVE_CPU
#include "backends/cpu/sgemm.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "mlperf/rt/error.h"
#include "reference/kernels.h"
#include "test_util.h"

namespace {

namespace cpu = mlperf::rt::cpu;

// op(A) op(B) in double, the transposes read as the runtime stores them.
std::vector<float> naive(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const std::vector<float>& a,
                         const std::vector<float>& b) {
  std::vector<float> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p)
        s += double(ta ? a[p * m + i] : a[i * k + p]) * (tb ? b[j * k + p] : b[p * n + j]);
      c[static_cast<size_t>(i * n + j)] = static_cast<float>(s);
    }
  return c;
}

// Largest |x - y| relative to sqrt(k), the growth of a sum of k products of values in [-1, 1].
double max_error(const std::vector<float>& x, const std::vector<float>& y, int64_t k) {
  double e = 0;
  for (size_t i = 0; i < x.size(); ++i) e = std::max(e, std::fabs(double(x[i]) - y[i]));
  return e / std::sqrt(double(std::max<int64_t>(k, 1)));
}

struct EnvVar {
  explicit EnvVar(const char* v) { setenv("MLPERF_CPU_GEMM", v, 1); }
  ~EnvVar() { unsetenv("MLPERF_CPU_GEMM"); }
};

// Every edge of the tiling: one row, column or step; a partial 8-row sliver and 48-column panel;
// more than one 192-deep block of k; more than one 128-row block of m; both transposes.
TEST(TiledSgemm, MatchesADoubleProductOnEveryEdgeAndTranspose) {
  if (!cpu::tiled_sgemm_supported()) GTEST_SKIP() << "this CPU has no AVX-512F: the tiled kernel is not used here";
  const int64_t dims[][3] = {{1, 1, 1},      {1, 48, 5},  {8, 48, 192},  {9, 49, 193}, {7, 47, 191},
                             {130, 97, 385}, {3, 200, 2}, {257, 10, 64}, {16, 4100, 3}};
  uint64_t seed = 1;
  for (const auto& d : dims)
    for (int t = 0; t < 4; ++t) {
      bool ta = t & 1, tb = t & 2;
      int64_t m = d[0], n = d[1], k = d[2];
      auto a = random_floats(static_cast<size_t>(m * k), seed++);
      auto b = random_floats(static_cast<size_t>(k * n), seed++);
      std::vector<float> c(static_cast<size_t>(m * n), 123.0f);  // overwritten, never accumulated into
      cpu::tiled_sgemm(ta, tb, m, n, k, a.data(), b.data(), c.data());
      EXPECT_LT(max_error(c, naive(ta, tb, m, n, k, a, b), k), 1e-5)
          << m << "x" << n << "x" << k << " ta=" << ta << " tb=" << tb;
    }
}

TEST(TiledSgemm, AnEmptySumIsZero) {
  if (!cpu::tiled_sgemm_supported()) GTEST_SKIP() << "this CPU has no AVX-512F: the tiled kernel is not used here";
  std::vector<float> c(6, 5.0f);
  cpu::tiled_sgemm(false, false, 2, 3, 0, nullptr, nullptr, c.data());
  EXPECT_EQ(c, std::vector<float>(6, 0.0f));
}

// The first product of a shape class measures both and records the choice; later products of the
// class (another m in the same power of two) reuse it; every result is right.
TEST(GemmDispatch, TheFirstProductOfAShapeClassChoosesAndLaterOnesReuseIt) {
  if (!cpu::tiled_sgemm_supported()) GTEST_SKIP() << "this CPU has no AVX-512F: only OpenBLAS runs here";
  cpu::GemmDispatch auto_mode(cpu::GemmMode::Auto);
  const std::string cls = "128x1024x512 nt";  // 1000 columns from 301 rows, transposed B
  nlohmann::json first;
  for (int64_t m : {100, 128, 65}) {
    auto a = random_floats(static_cast<size_t>(m * 301), 7), b = random_floats(301 * 1000, 8);
    std::vector<float> c(static_cast<size_t>(m * 1000));
    auto_mode.run(false, true, m, 1000, 301, a.data(), b.data(), c.data());
    EXPECT_LT(max_error(c, naive(false, true, m, 1000, 301, a, b), 301), 1e-5) << "m=" << m;
    nlohmann::json ch = cpu::GemmDispatch::choices();
    ASSERT_TRUE(ch.contains(cls)) << ch.dump();
    if (first.is_null()) first = ch[cls];
    EXPECT_EQ(ch[cls], first) << "measured again for m=" << m;
  }
  EXPECT_GT(first["tiled_ms"].get<double>(), 0.0);
  EXPECT_GT(first["blas_ms"].get<double>(), 0.0);
  EXPECT_EQ(first["impl"], first["tiled_ms"].get<double>() < 0.9 * first["blas_ms"].get<double>() ? "tiled" : "blas");
}

TEST(GemmDispatch, TheModeComesFromMLPERF_CPU_GEMM) {
  {
    EnvVar v("blas");
    EXPECT_EQ(cpu::gemm_mode_from_env(), cpu::GemmMode::Blas);
  }
  {
    EnvVar v("fastest");
    try {
      cpu::gemm_mode_from_env();
      ADD_FAILURE() << "no error";
    } catch (const mlperf::rt::ArgumentError& e) {
      EXPECT_NE(std::string(e.what()).find("MLPERF_CPU_GEMM: 'fastest'"), std::string::npos) << e.what();
    }
  }
  EnvVar v("tiled");
  if (cpu::tiled_sgemm_supported())
    EXPECT_EQ(cpu::gemm_mode_from_env(), cpu::GemmMode::Tiled);
  else
    EXPECT_THROW(cpu::gemm_mode_from_env(), mlperf::rt::ArgumentError);
}

// A training step computes the same loss curve with either implementation pinned, close to the
// reference backend's, and the backend reports which ran.
TEST(GemmDispatch, ATrainingStepMatchesWithEitherImplementation) {
  if (!cpu::tiled_sgemm_supported()) GTEST_SKIP() << "this CPU has no AVX-512F: only OpenBLAS runs here";
  auto losses = [](const char* mode, std::string* name) {
    EnvVar v(mode);
    auto b = rt::Backend::create(mode[0] ? "cpu" : "reference");
    MlpAdamStep step(b, /*batch=*/96, /*hidden=*/80, /*init_seed=*/3, /*data_seed=*/4);
    std::vector<float> out;
    for (int i = 0; i < 4; ++i) out.push_back(step.run());
    if (name && mode[0]) *name = b->stats_json()["backend_stats"]["matmul"];
    return out;
  };
  std::string blas_name, tiled_name;
  std::vector<float> ref = losses("", nullptr), blas = losses("blas", &blas_name), tiled = losses("tiled", &tiled_name);
  EXPECT_EQ(tiled_name, "tiled avx512");
  EXPECT_NE(blas_name, tiled_name);
  for (size_t i = 0; i < ref.size(); ++i) {
    EXPECT_NEAR(blas[i], ref[i], 1e-4 * std::fabs(ref[i]) + 1e-5) << i;
    EXPECT_NEAR(tiled[i], ref[i], 1e-4 * std::fabs(ref[i]) + 1e-5) << i;
  }
  EXPECT_LT(tiled.back(), tiled.front());
}

}  // namespace
#endif
