// MLPERF_DUMP: comma-separated stage names or "all", parsed once (runtime/src/options.cpp).
#include <cstdlib>

#include "test_util.h"

namespace {

// What running one new graph on the reference backend prints under MLPERF_DUMP=value.
std::string stderr_under(const char* value) {
  auto backend = rt::Backend::create("reference");
  setenv("MLPERF_DUMP", value, 1);
  rt::Exec e(backend, [](rt::Graph&, rt::Node x) { return rt::tanh(x); });
  testing::internal::CaptureStderr();
  e.run(upload(backend, {1.0f, 2.0f}, rt::Shape{2}));
  std::string err = testing::internal::GetCapturedStderr();
  unsetenv("MLPERF_DUMP");
  return err;
}

bool dumps_graph(const char* value) { return stderr_under(value).find("compiling for arguments") != std::string::npos; }

}  // namespace

TEST(DumpEnv, AllDumpsTheGraph) { EXPECT_TRUE(dumps_graph("all")); }

TEST(DumpEnv, GraphAmongOtherStages) {
  EXPECT_TRUE(dumps_graph("graph"));
  EXPECT_TRUE(dumps_graph("fusion,graph,source"));
  EXPECT_TRUE(dumps_graph("source,all"));
}

TEST(DumpEnv, OnlyWholeStageNamesCount) {
  EXPECT_FALSE(dumps_graph(""));
  EXPECT_FALSE(dumps_graph("fusion,source"));
  EXPECT_FALSE(dumps_graph("graphs"));
  EXPECT_FALSE(dumps_graph("callgraph,allocations"));
}
