#include "options.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

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

}  // namespace mlperf::rt::options
