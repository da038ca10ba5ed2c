// Measures the device model of the cost estimates (docs/cost-model.md) for one
// of the runtime's backends on this machine, and writes it as JSON:
//   build/bench/device_model [backend] [name] [output.json | -]
// The output defaults to the file the linter reads when no --device is given
// ($MLPERF_LINT_DEVICE, else $XDG_CACHE_HOME/mlperf-lint/device.json, else
// ~/.cache/mlperf-lint/device.json: linter/findings/CostNotes.cpp); "-" prints it.
// Each figure is the median of repeated measurements; the JSON says how.
//
// On a machine without a GPU the "device" is the backend itself: the cpu
// backend's copies are host memcpys into its buffers, a sync waits for its
// stream's worker thread, a compile is its clang+ORC JIT of one fused kernel;
// the reference backend compiles nothing. Such a model prices findings for
// code run on that backend; GPU figures stay the published ones
// (profiles/devices/*.json).
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mlperf/rt/runtime.h"

namespace rt = mlperf::rt;

namespace {

double seconds(const std::function<void()>& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(int reps, const std::function<double()>& sample) {
  std::vector<double> v;
  for (int i = 0; i < reps; ++i) v.push_back(sample());
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

/// Where the linter looks for the measured local model (as localDevicePath()).
std::string default_output() {
  if (const char* env = std::getenv("MLPERF_LINT_DEVICE"); env && *env) return env;
  std::string dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    dir = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    dir = std::string(home) + "/.cache";
  else
    dir = "/tmp";
  dir += "/mlperf-lint";
  mkdir(dir.c_str(), 0755);
  return dir + "/device.json";
}

}  // namespace

int main(int argc, char** argv) {
  std::string backend = argc > 1 ? argv[1] : "cpu";
  std::string name = argc > 2 ? argv[2] : "local-" + backend + "-runtime";
  std::string output = argc > 3 ? argv[3] : default_output();
  auto b = rt::Backend::create(backend);
  constexpr int64_t kBig = 16 << 20;  // 64 MB of floats
  std::vector<float> host(kBig, 1.0f), one(1, 1.0f);

  // A copy of one element: the latency before bytes move.
  double copy = median(201, [&] {
    return seconds([&] {
      auto t = rt::Tensor::from_host(b, one, rt::Shape{1});
      b->synchronize();
    });
  });
  double h2d = median(7, [&] {
    return seconds([&] {
      auto t = rt::Tensor::from_host(b, host, rt::Shape{kBig});
      b->synchronize();
    });
  });
  auto big = rt::Tensor::from_host(b, host, rt::Shape{kBig});
  double d2h = median(7, [&] { return seconds([&] { big.materialize<float>(); }); });
  big.finalize();

  // Launch: enqueueing a compiled one-element kernel; sync: the wait for it.
  auto x = rt::Tensor::from_host(b, one, rt::Shape{1});
  rt::Exec e(b, [](rt::Graph&, rt::Node v) { return v * 2.0 + 1.0; });
  e.run(x)[0].materialize<float>();
  std::vector<rt::Tensor> keep;
  double launch = median(201, [&] { return seconds([&] { keep.push_back(e.run(x)[0]); }); });
  b->synchronize();
  keep.clear();
  double sync = median(201, [&] {
    auto y = e.run(x)[0];
    return seconds([&] { b->synchronize(); });
  });

  // Allocation: a size never allocated before, so the stream-ordered reuse cannot serve it.
  size_t size = 1 << 20;
  double alloc = median(101, [&] {
    size += 4096;
    return seconds([&] { b->allocate(size); });
  });

  // Compile: a new constant is a new source (as runtime_bench's BM_JitOneKernel).
  int salt = 0;
  double compile = median(5, [&] {
    double c = 1.0 + (++salt) * 1e-6;
    rt::Exec fresh(b, [c](rt::Graph&, rt::Node v) { return rt::tanh(v * c + 0.5) * rt::sigmoid(v); });
    double before = b->stats().compile_seconds;
    fresh.run(x)[0].materialize<float>();
    return b->stats().compile_seconds - before;
  });

  double bytes = 4.0 * kBig;
  double memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
  bool gpu = backend == "cuda";
  char date[32];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  nlohmann::json j = {
      {"name", name},
      {"description", "the runtime's " + backend + " backend on " + cpu_model() + ", measured " + date +
                          (gpu ? "" : " (no GPU: host figures; GPUs use the published models)")},
      {"source", "measured"},
      {"basis", "bench/device_model " + backend +
                    ": medians; copies of 1 element (latency) and 64 MB (bandwidth) through "
                    "Tensor::from_host and materialize; launch: enqueueing a compiled 1-element kernel; sync: "
                    "Backend::synchronize after one; allocation: Backend::allocate of a new 1 MiB size; compile: a "
                    "fresh one-kernel Exec; memory: the host's RAM" +
                    (gpu ? std::string()
                         : std::string("; on this backend a copy is a host memcpy into its buffers, a sync the wait "
                                       "for its stream's worker, a compile its JIT (none on the reference backend)"))},
      {"host_to_device_gb_per_s", bytes / std::max(h2d - copy, 1e-9) / 1e9},
      {"device_to_host_gb_per_s", bytes / std::max(d2h - copy, 1e-9) / 1e9},
      {"copy_latency_us", copy * 1e6},
      {"sync_latency_us", sync * 1e6},
      {"launch_latency_us", launch * 1e6},
      {"allocation_us", alloc * 1e6},
      {"compile_ms", compile * 1e3},
      {"memory_gib", memory / 1073741824.0},
  };
  std::string text = j.dump(2) + "\n";
  if (output == "-") {
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  // Written beside and renamed over, so the linter never reads half a file.
  std::string tmp = output + ".tmp";
  {
    std::ofstream out(tmp);
    out << text;
    if (!out.flush()) {
      std::fprintf(stderr, "device_model: cannot write %s\n", tmp.c_str());
      return 1;
    }
  }
  if (std::rename(tmp.c_str(), output.c_str()) != 0) {
    std::fprintf(stderr, "device_model: cannot write %s\n", output.c_str());
    std::remove(tmp.c_str());
    return 1;
  }
  std::fprintf(stderr, "device_model: wrote %s\n", output.c_str());
  return 0;
}
