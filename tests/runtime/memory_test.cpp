#include "test_util.h"

#include <cstdlib>

using rt::Node;
using rt::Shape;

class Memory : public BackendTest {};

TEST_P(Memory, InUseAndPeakFollowAllocationAndFinalize) {
  backend->synchronize();
  size_t base = backend->bytes_in_use();
  backend->reset_stats();
  auto a = upload(backend, std::vector<float>(1000, 1.0f), Shape{1000});
  EXPECT_EQ(backend->bytes_in_use(), base + 4000);
  {
    auto b = upload(backend, std::vector<float>(500, 1.0f), Shape{500});
    EXPECT_EQ(backend->bytes_in_use(), base + 6000);
    b.finalize();
    backend->synchronize();
    EXPECT_EQ(backend->bytes_in_use(), base + 4000);
  }
  EXPECT_EQ(backend->peak_bytes(), base + 6000);
  a.finalize();
  backend->synchronize();
  EXPECT_EQ(backend->bytes_in_use(), base);
  EXPECT_EQ(backend->peak_bytes(), base + 6000);
  auto s = backend->stats();
  EXPECT_EQ(s.allocations, 2);
  EXPECT_EQ(s.frees, 2);
  backend->reset_stats();
  EXPECT_EQ(backend->peak_bytes(), base);
}

TEST_P(Memory, HandleCopiesShareTheBufferUntilTheLastGoes) {
  backend->synchronize();
  size_t base = backend->bytes_in_use();
  {
    auto a = upload(backend, std::vector<float>(256, 2.0f), Shape{256});
    rt::Tensor b = a;
    rt::Tensor c;
    c = b;
    EXPECT_EQ(backend->bytes_in_use(), base + 1024);
    EXPECT_EQ(c.materialize<float>()[255], 2.0f);
  }
  backend->synchronize();
  EXPECT_EQ(backend->bytes_in_use(), base);
}

TEST_P(Memory, OutputsHeldByTheUserStayAllocatedAndIntermediatesAreFreed) {
  auto x = upload(backend, std::vector<float>(1024, 0.5f), Shape{32, 32});
  rt::Exec e(backend, [](rt::Graph&, Node v) { return rt::reduce_sum(rt::exp(rt::matmul(v, v)) * 2.0); });
  backend->synchronize();
  size_t base = backend->bytes_in_use();
  backend->reset_stats();
  auto out = e.run(x)[0];
  backend->synchronize();
  EXPECT_EQ(backend->bytes_in_use(), base + 4);  // only the scalar output remains
  // reference: matmul and exp were alive together; fused backends never materialize exp
  EXPECT_GE(backend->peak_bytes(), base + 4 + (backend->name() == "reference" ? 2 : 1) * 4096);
  out.finalize();
  EXPECT_EQ(backend->bytes_in_use(), base);
}

TEST_P(Memory, OutOfMemoryStatesRequestInUseAndLimitAndRuntimeStaysUsable) {
  backend->synchronize();
  size_t base = backend->bytes_in_use();
  backend->set_memory_limit(base + 10000);
  EXPECT_EQ(backend->memory_limit(), base + 10000);
  auto a = upload(backend, std::vector<float>(2000, 1.0f), Shape{2000});
  try {
    upload(backend, std::vector<float>(1000, 1.0f), Shape{1000});
    FAIL() << "expected OutOfDeviceMemory";
  } catch (const rt::OutOfDeviceMemory& e) {
    std::string msg = e.what();
    EXPECT_EQ(e.requested(), 4000u);
    EXPECT_EQ(e.in_use(), base + 8000);
    EXPECT_EQ(e.limit(), base + 10000);
    EXPECT_NE(msg.find("requested"), std::string::npos) << msg;
    EXPECT_NE(msg.find("4000 bytes"), std::string::npos) << msg;
    EXPECT_NE(msg.find("in use"), std::string::npos) << msg;
    EXPECT_NE(msg.find("limit"), std::string::npos) << msg;
  }
  EXPECT_EQ(backend->bytes_in_use(), base + 8000);

  rt::Exec e(backend, [](rt::Graph&, Node v) { return v * 2.0; });
  EXPECT_THROW(e.run(a), rt::OutOfDeviceMemory);  // the output does not fit
  a.finalize();
  auto small = upload(backend, {1, 2, 3}, Shape{3});
  EXPECT_EQ(e.run(small)[0].materialize<float>(), (std::vector<float>{2, 4, 6}));
  backend->set_memory_limit(0);
}

TEST_P(Memory, AnExecutionWhoseTemporariesDoNotFitThrowsFromRun) {
  auto x = upload(backend, std::vector<float>(4096, 0.1f), Shape{64, 64});
  rt::Exec e(backend, [](rt::Graph&, Node v) { return rt::reduce_sum(rt::matmul(v, v) + rt::matmul(v, v)); });
  backend->synchronize();
  backend->set_memory_limit(backend->bytes_in_use() + 4096 + 64);
  EXPECT_THROW(e.run(x), rt::OutOfDeviceMemory);  // reserved up front: nothing is queued
  EXPECT_EQ(backend->pending_tasks(), 0u);
  backend->set_memory_limit(0);
  EXPECT_NEAR(e.run(x)[0].materialize<float>()[0], 2 * 64 * 64 * 64 * 0.01, 1e-1);
}

TEST(MemoryLimit, ParsesByteSizes) {
  EXPECT_EQ(rt::parse_byte_size("1048576"), 1048576u);
  EXPECT_EQ(rt::parse_byte_size("64M"), 64u << 20);
  EXPECT_EQ(rt::parse_byte_size("1G"), 1u << 30);
  EXPECT_EQ(rt::parse_byte_size("1.5k"), 1536u);
  EXPECT_EQ(rt::parse_byte_size("512KiB"), 512u << 10);
  EXPECT_EQ(rt::parse_byte_size("2 GB"), 2ull << 30);
  EXPECT_THROW(rt::parse_byte_size("lots"), rt::ArgumentError);
  EXPECT_THROW(rt::parse_byte_size("12X"), rt::ArgumentError);
}

TEST(MemoryLimit, ComesFromTheEnvironment) {
  setenv("MLPERF_DEVICE_MEMORY_LIMIT", "1K", 1);
  auto b = rt::Backend::create("reference");
  unsetenv("MLPERF_DEVICE_MEMORY_LIMIT");
  EXPECT_EQ(b->memory_limit(), 1024u);
  EXPECT_THROW(upload(b, std::vector<float>(300, 0.0f), Shape{300}), rt::OutOfDeviceMemory);
  setenv("MLPERF_DEVICE_MEMORY_LIMIT", "bogus", 1);
  EXPECT_THROW(rt::Backend::create("reference"), rt::ArgumentError);
  unsetenv("MLPERF_DEVICE_MEMORY_LIMIT");
}

INSTANTIATE_FOR_ALL_BACKENDS(Memory);
