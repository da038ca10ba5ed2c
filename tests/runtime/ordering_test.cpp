#include <chrono>

#include "test_util.h"

using rt::Node;
using rt::Shape;
using Clock = std::chrono::steady_clock;

class Ordering : public BackendTest {};

TEST_P(Ordering, RunReturnsBeforeTheWorkIsDone) {
  rt::Exec e(backend, [](rt::Graph&, Node x) { return x * 2.0 + 1.0; });
  auto x = upload(backend, {1, 2, 3}, Shape{3});
  e.run(x)[0].materialize<float>();  // compile outside the timed part
  backend->enqueue_delay_for_testing(std::chrono::milliseconds(300));
  auto t0 = Clock::now();
  auto y = e.run(x)[0];
  auto enqueue_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  EXPECT_LT(enqueue_ms, 150.0);
  EXPECT_GE(backend->pending_tasks(), 1u);
  EXPECT_EQ(y.materialize<float>(), (std::vector<float>{3, 5, 7}));
  auto total_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  EXPECT_GE(total_ms, 250.0);
  EXPECT_EQ(backend->pending_tasks(), 0u);
}

TEST_P(Ordering, HeavyWorkIsQueuedAndMaterializeSeesTheFinishedResult) {
  const int64_t n = 256;
  rt::Exec e(backend, [](rt::Graph&, Node a) {
    Node x = a;
    for (int i = 0; i < 8; ++i) x = rt::tanh(rt::matmul(x, a));
    return rt::reduce_sum(x);
  });
  std::vector<float> v = random_floats(static_cast<size_t>(n * n), 5, -0.05f, 0.05f);
  auto a = upload(backend, v, Shape{n, n});
  float first = e.run(a)[0].materialize<float>()[0];
  backend->enqueue_delay_for_testing(std::chrono::milliseconds(100));
  std::vector<rt::Tensor> outs;
  for (int i = 0; i < 4; ++i) outs.push_back(e.run(a)[0]);
  EXPECT_GE(backend->pending_tasks(), 1u);
  for (auto& o : outs) EXPECT_EQ(o.materialize<float>()[0], first);
}

TEST_P(Ordering, TransfersInterleavedWithWorkStayOrdered) {
  rt::Exec e(backend, [](rt::Graph&, Node x, Node y) { return x * y; });
  backend->enqueue_delay_for_testing(std::chrono::milliseconds(50));
  std::vector<float> host = {1, 2, 3};
  auto a = upload(backend, host, Shape{3});
  host = {10, 20, 30};  // staged: changing host memory after from_host is safe
  auto b = upload(backend, host, Shape{3});
  auto ab = e.run(a, b)[0];
  auto c = upload(backend, {2, 2, 2}, Shape{3});
  auto abc = e.run(ab, c)[0];
  auto abcc = e.run(abc, c)[0];
  EXPECT_EQ(abcc.materialize<float>(), (std::vector<float>{40, 160, 360}));
  EXPECT_EQ(ab.materialize<float>(), (std::vector<float>{10, 40, 90}));
  EXPECT_EQ(a.materialize<float>(), (std::vector<float>{1, 2, 3}));
}

TEST_P(Ordering, DroppingHandlesOfQueuedWorkIsSafe) {
  rt::Exec e(backend, [](rt::Graph&, Node x) { return rt::exp(x); });
  backend->enqueue_delay_for_testing(std::chrono::milliseconds(50));
  {
    auto x = upload(backend, std::vector<float>(10000, 0.0f), Shape{10000});
    auto y = e.run(x)[0];
    x.finalize();
    y.finalize();
  }
  backend->synchronize();
  EXPECT_EQ(backend->pending_tasks(), 0u);
}

TEST_P(Ordering, CountersMatchTheProgram) {
  rt::Exec e(backend, [](rt::Graph&, Node x, Node y) { return std::vector<Node>{rt::matmul(x, y), x + 1.0}; });
  backend->synchronize();
  backend->reset_stats();
  auto x = upload(backend, std::vector<float>(6, 1.0f), Shape{2, 3});
  auto y = upload(backend, std::vector<float>(12, 1.0f), Shape{3, 4});
  std::vector<rt::Tensor> r1 = e.run(x, y);
  std::vector<rt::Tensor> r2 = e.run(x, y);
  auto v = r2[0].materialize<float>();
  EXPECT_EQ(v[0], 3.0f);
  backend->synchronize();
  rt::Stats s = backend->stats();
  EXPECT_EQ(s.h2d_copies, 2);
  EXPECT_EQ(s.h2d_bytes, 24 + 48);
  EXPECT_EQ(s.d2h_copies, 1);
  EXPECT_EQ(s.d2h_bytes, 32);
  EXPECT_EQ(s.waits, 2);
  EXPECT_EQ(s.compilations, 1);
  EXPECT_EQ(s.cache_misses, 1);
  EXPECT_EQ(s.cache_hits, 1);
  EXPECT_EQ(s.executions, 2);
  EXPECT_GT(s.kernel_launches, 0);
  EXPECT_EQ(s.kernel_launches % 2, 0);
  EXPECT_EQ(s.bytes_in_use, 24 + 48 + 2 * (32 + 24));
  EXPECT_EQ(s.peak_bytes >= s.bytes_in_use, true);
  if (backend->name() == "reference") EXPECT_EQ(s.kernel_launches, 2 * 3);  // matmul, broadcast, add

  nlohmann::json j = backend->stats_json();
  EXPECT_EQ(j["backend"], backend->name());
  EXPECT_EQ(j["h2d_copies"], 2);
  EXPECT_EQ(j["kernel_launches"], s.kernel_launches);
  std::string line = backend->stats_string();
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(line)["executions"], 2);
}

INSTANTIATE_FOR_ALL_BACKENDS(Ordering);
