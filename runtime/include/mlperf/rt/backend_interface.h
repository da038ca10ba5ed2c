#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mlperf/rt/graph.h"

// The interface a device backend implements. The runtime core owns the
// stream thread, memory accounting, statistics and executable cache; an
// implementation only moves bytes, compiles graphs and runs them.
namespace mlperf::rt {

// Tracked device memory for temporaries (counted against the memory limit).
class DeviceAllocator {
 public:
  virtual ~DeviceAllocator() = default;
  virtual void* allocate(size_t bytes) = 0;  // throws OutOfDeviceMemory
  virtual void free(void* ptr, size_t bytes) = 0;
};

struct LaunchArgs {
  // One per Graph::parameters() entry, in order (inputs, then variables).
  std::vector<const void*> inputs;
  // One per Graph::outputs() entry followed by one per Graph::assignments() entry,
  // preallocated with the node's shape and dtype.
  std::vector<void*> outputs;
  DeviceAllocator* scratch = nullptr;
};

class Executable {
 public:
  virtual ~Executable() = default;
  // Kernels launched by one run; added to the backend's kernel_launches counter.
  virtual int64_t kernel_count() const = 0;
  // The most temporary memory one run holds at once (LaunchArgs::scratch), reserved before the
  // run is queued so it cannot run out of memory half-way; -1: unknown, nothing is reserved.
  virtual int64_t scratch_bytes() const { return -1; }
};

class BackendImpl {
 public:
  virtual ~BackendImpl() = default;
  virtual std::string name() const = 0;

  virtual void* allocate(size_t bytes) = 0;  // raw; the core adds accounting and limits
  virtual void free(void* ptr, size_t bytes) = 0;

  // Called on the stream thread, in stream order.
  virtual void copy_host_to_device(void* dst, const void* src, size_t bytes) = 0;
  virtual void copy_device_to_host(void* dst, const void* src, size_t bytes) = 0;

  // Called on the caller's thread; the graph is only valid during the call.
  virtual std::unique_ptr<Executable> compile(const Graph& graph) = 0;

  // Called on the stream thread, in stream order.
  virtual void launch(Executable& exe, const LaunchArgs& args) = 0;

  // Called on the stream thread before a wait completes: finish asynchronous device work.
  virtual void synchronize() {}

  // Backend-specific counters merged into stats_json() under "backend".
  virtual nlohmann::json extra_stats() const { return nlohmann::json::object(); }
};

using BackendFactory = std::function<std::unique_ptr<BackendImpl>()>;

// Explicit registry: no static initializers. A higher priority wins as the default.
void register_backend(std::string name, int priority, BackendFactory factory);
// A backend that is built but cannot run here (e.g. cuda without a driver): not registered, but
// Backend::create(name) throws BackendError with `reason` instead of "unknown backend".
void register_unavailable_backend(std::string name, std::string reason);
// Idempotent; called by Backend::create and registered_backends().
void register_builtin_backends();
// Registered names, highest priority first.
std::vector<std::string> registered_backends();

// Builtin registration functions, called from register_builtin_backends().
void register_reference_backend();
void register_cpu_backend();   // when built with MLPERF_RT_HAVE_CPU
void register_cuda_backend();  // when built with MLPERF_RT_HAVE_CUDA

}  // namespace mlperf::rt
