#include "test_util.h"

using rt::Node;
using rt::Shape;

class Cache : public BackendTest {
 protected:
  rt::Tensor batch(int64_t n) {
    return upload(backend, std::vector<float>(static_cast<size_t>(n * 3), 1.0f), Shape{n, 3});
  }
};

TEST_P(Cache, CompilesOncePerSignature) {
  rt::Exec e(backend, [](rt::Graph&, Node x) { return rt::reduce_sum(x * x); });
  EXPECT_EQ(e.max_cache(), 32);
  backend->reset_stats();
  auto a = batch(4), b = batch(4), c = batch(5);
  e.run(a);
  e.run(b);
  e.run(a);
  EXPECT_EQ(e.compilations(), 1);
  EXPECT_EQ(e.cache_hits(), 2);
  e.run(c);
  EXPECT_EQ(e.compilations(), 2);
  auto i = rt::Tensor::from_host(backend, std::vector<int32_t>(12, 1), Shape{4, 3});
  e.run(i);  // same shape, new dtype
  EXPECT_EQ(e.compilations(), 3);
  EXPECT_EQ(e.cache_size(), 3u);
  auto s = backend->stats();
  EXPECT_EQ(s.compilations, 3);
  EXPECT_EQ(s.cache_misses, 3);
  EXPECT_EQ(s.cache_hits, 2);
  EXPECT_EQ(s.executions, 5);
  EXPECT_GE(s.compile_seconds, 0.0);
}

TEST_P(Cache, EvictsLeastRecentlyUsedAndLogsThrashingOnce) {
  rt::Exec e(backend, [](rt::Graph&, Node x) { return x + 1.0; });
  e.set_max_cache(2);
  backend->reset_stats();
  testing::internal::CaptureStderr();
  e.run(batch(1));
  e.run(batch(2));
  e.run(batch(1));  // hit; 2 is now least recently used
  EXPECT_EQ(e.evictions(), 0);
  e.run(batch(3));  // evicts 2
  EXPECT_EQ(e.evictions(), 1);
  e.run(batch(1));  // still cached
  EXPECT_EQ(e.compilations(), 3);
  e.run(batch(2));  // recompiled, evicts 3
  e.run(batch(3));  // recompiled, evicts 1
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(e.compilations(), 5);
  EXPECT_EQ(e.evictions(), 3);
  EXPECT_EQ(e.cache_size(), 2u);
  EXPECT_EQ(backend->stats().cache_evictions, 3);
  EXPECT_TRUE(e.thrashing_reported());
  EXPECT_NE(err.find("thrashing"), std::string::npos) << err;
  EXPECT_NE(err.find("pad"), std::string::npos) << err;
  EXPECT_EQ(err.find("thrashing"), err.rfind("thrashing")) << "logged more than once: " << err;
}

TEST_P(Cache, SetMaxCacheShrinksAndUnbounded) {
  rt::Exec e(backend, [](rt::Graph&, Node x) { return x * 3.0; });
  for (int n = 1; n <= 5; ++n) e.run(batch(n));
  EXPECT_EQ(e.cache_size(), 5u);
  e.set_max_cache(3);
  EXPECT_FALSE(e.thrashing_reported());  // an explicit shrink is not thrashing
  EXPECT_EQ(e.cache_size(), 3u);
  EXPECT_EQ(e.evictions(), 2);
  e.run(batch(5));
  EXPECT_EQ(e.compilations(), 5);
  e.run(batch(1));  // was evicted by the shrink
  EXPECT_EQ(e.compilations(), 6);
  e.set_max_cache(0);
  for (int n = 6; n <= 40; ++n) e.run(batch(n));
  EXPECT_EQ(e.cache_size(), 38u);
  EXPECT_EQ(e.evictions(), 3);
  e.set_max_cache(-1);
  EXPECT_EQ(e.cache_size(), 38u);
}

TEST_P(Cache, DefaultCapacityIs32) {
  rt::Exec e(backend, [](rt::Graph&, Node x) { return -x; });
  testing::internal::CaptureStderr();
  for (int n = 1; n <= 33; ++n) e.run(batch(n));
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(e.cache_size(), 32u);
  EXPECT_EQ(e.evictions(), 1);
}

TEST_P(Cache, DumpEnvPrintsTheGraphAtCompileTime) {
  setenv("MLPERF_DUMP", "graph", 1);
  rt::Exec e(backend, [](rt::Graph&, Node x) { return rt::tanh(x); });
  testing::internal::CaptureStderr();
  e.run(batch(2));
  e.run(batch(2));
  std::string err = testing::internal::GetCapturedStderr();
  unsetenv("MLPERF_DUMP");
  EXPECT_NE(err.find("tanh"), std::string::npos) << err;
  EXPECT_NE(err.find("f32[2,3]"), std::string::npos) << err;
  EXPECT_EQ(err.find("compiling"), err.rfind("compiling"));
}

INSTANTIATE_FOR_ALL_BACKENDS(Cache);
