#include "options.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#include "mlperf/rt/error.h"

namespace mlperf::rt::options {

bool dump_enabled(const char* stage) {
  const char* d = std::getenv("MLPERF_DUMP");
  if (!d || !*d) return false;
  std::string s = std::string(",") + d + ",";
  return s.find(",all,") != std::string::npos || s.find(std::string(",") + stage + ",") != std::string::npos;
}

namespace {
std::atomic<int> g_kernel_cache{-1};  // -1: from the environment
}

KernelCache kernel_cache() {
  if (int v = g_kernel_cache.load(); v >= 0) return static_cast<KernelCache>(v);
  const char* e = std::getenv("MLPERF_KERNEL_CACHE");
  std::string v = e ? e : "";
  if (v.empty() || v == "exec") return KernelCache::Executable;
  if (v == "process") return KernelCache::Process;
  throw ArgumentError("MLPERF_KERNEL_CACHE: '" + v + "' is not 'exec' (the default) or 'process'");
}

void set_kernel_cache(std::optional<KernelCache> mode) { g_kernel_cache = mode ? static_cast<int>(*mode) : -1; }

namespace {
std::mutex g_dir_mu;
std::optional<std::string> g_dir;  // nullopt: from the environment
}  // namespace

std::string kernel_cache_dir() {
  std::lock_guard<std::mutex> lk(g_dir_mu);
  if (g_dir) return *g_dir;
  const char* e = std::getenv("MLPERF_KERNEL_CACHE_DIR");
  return e ? e : "";
}

void set_kernel_cache_dir(std::optional<std::string> dir) {
  std::lock_guard<std::mutex> lk(g_dir_mu);
  g_dir = std::move(dir);
}

namespace {
std::atomic<int> g_jit_threads{0}, g_jit_modules{0};  // 0: from the environment

// A whole number from 1 to max in the environment variable, or `fallback` when it is unset.
int count_from_env(const char* var, int max, int fallback) {
  const char* e = std::getenv(var);
  if (!e || !*e) return fallback;
  char* end = nullptr;
  errno = 0;
  long n = std::strtol(e, &end, 10);
  if (end == e || *end != '\0' || errno == ERANGE || n < 1 || n > max)
    throw ArgumentError(std::string(var) + ": '" + e + "' is not a whole number from 1 to " + std::to_string(max));
  return static_cast<int>(n);
}
}  // namespace

int jit_threads() {
  if (int v = g_jit_threads.load(); v > 0) return v;
  int cores = std::min(8, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  // Like make -l: compiling modules at once only pays on idle cores; on a saturated machine two
  // threads finished later than one (runtime/BENCHMARKS.md 2b). The load counts the calling
  // thread itself, hence the 1.
  double load = 0;
  if (getloadavg(&load, 1) == 1) cores = std::clamp(cores - static_cast<int>(std::max(0.0, load - 1.0)), 1, cores);
  return count_from_env("MLPERF_JIT_THREADS", 256, cores);
}

int jit_modules() {
  if (int v = g_jit_modules.load(); v > 0) return v;
  // As many as the threads: a module has a fixed cost (~8 ms of CPU here), so on a busy machine
  // one module on one thread is fastest. The split is part of the persistent cache's keys: a
  // split that changed with the load compiles (and stores) the other variant once.
  return count_from_env("MLPERF_JIT_MODULES", 100000, jit_threads());
}

void set_jit_threads(std::optional<int> n) { g_jit_threads = n ? std::max(1, *n) : 0; }
void set_jit_modules(std::optional<int> n) { g_jit_modules = n ? std::max(1, *n) : 0; }

}  // namespace mlperf::rt::options
