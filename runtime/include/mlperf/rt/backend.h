#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mlperf/rt/backend_interface.h"

namespace mlperf::rt {

class Device;
class Stream;

// A device buffer; released (and un-counted) when the last reference goes.
struct Buffer : std::enable_shared_from_this<Buffer> {
  Buffer(std::shared_ptr<Device> device, void* ptr, size_t bytes, std::shared_ptr<Buffer> owner = nullptr);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  std::shared_ptr<Device> device;
  void* ptr;
  size_t bytes;
  // Set when the stream op that should have written it failed or was skipped.
  std::atomic<bool> poisoned{false};
  // Tensors holding it; when the last one lets go, the buffer is released in stream order.
  std::atomic<int> host_handles{0};
  // Set (under the device's lock) when the host released it while queued work still used it.
  bool released = false;
  // Non-null when the memory was taken over from a buffer released in stream order: the owner
  // frees it once neither it nor any buffer reusing its memory is referenced.
  std::shared_ptr<Buffer> owner;
};

struct Stats {
  int64_t compilations = 0;
  double compile_seconds = 0;
  int64_t cache_hits = 0, cache_misses = 0, cache_evictions = 0;
  int64_t executions = 0, kernel_launches = 0;
  int64_t h2d_copies = 0, h2d_bytes = 0;
  int64_t d2h_copies = 0, d2h_bytes = 0;
  int64_t waits = 0;
  int64_t allocations = 0, frees = 0;
  int64_t bytes_in_use = 0, peak_bytes = 0;
  int64_t host_stalls = 0, memory_stalls = 0, stream_ordered_reuses = 0;
};

// A unit of stream work; reads/writes keep buffers alive until it has run.
struct StreamTask {
  std::function<void()> fn;
  std::vector<std::shared_ptr<Buffer>> reads, writes;
  std::string what;
  bool execution = false;  // holds a slot of the in-flight bound (see Backend::set_max_inflight)
};

class Backend {
 public:
  // name: "reference", "cpu", "cuda"; empty: $MLPERF_BACKEND, else the highest-priority
  // registered backend. Reads $MLPERF_DEVICE_MEMORY_LIMIT (bytes, or with K/M/G/T suffix).
  static std::shared_ptr<Backend> create(std::string name = "");

  explicit Backend(std::unique_ptr<BackendImpl> impl);
  ~Backend();
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  const std::string& name() const { return name_; }
  BackendImpl& impl();

  // Waits until all queued work is done; rethrows an error raised on the stream.
  void synchronize();

  Stats stats() const;
  void reset_stats();  // counters to zero; peak to the bytes in use now
  nlohmann::json stats_json() const;
  std::string stats_string() const;  // one-line JSON

  // Executions queued or running at once; run() blocks (counted as host_stalls) while the bound
  // is reached. n <= 0: unbounded. Default kDefaultMaxInflight, or $MLPERF_MAX_INFLIGHT.
  static constexpr int kDefaultMaxInflight = 32;
  void set_max_inflight(int n);
  int max_inflight() const;

  void set_memory_limit(size_t bytes);  // 0: unlimited
  size_t memory_limit() const;
  size_t bytes_in_use() const;
  size_t peak_bytes() const;

  // --- used by Tensor, Exec and backends ---
  // A buffer for work enqueued after this call: reuses one released in stream order when one of
  // this size exists; when the limit is reached, waits for queued work to free memory before
  // throwing OutOfDeviceMemory.
  std::shared_ptr<Buffer> allocate(size_t bytes);
  uint64_t enqueue(StreamTask task);  // returns a ticket
  void wait(uint64_t ticket);         // counts one wait
  void drain();                       // waits for queued work; counts no wait, throws nothing
  Stream& stream() { return *stream_; }
  Device& device() { return *device_; }
  const std::shared_ptr<Device>& device_ptr() const { return device_; }
  size_t pending_tasks() const;

  // --- test hooks ---
  void enqueue_delay_for_testing(std::chrono::milliseconds d);
  void enqueue_failure_for_testing(std::string message);

 private:
  std::string name_;
  std::shared_ptr<Device> device_;
  std::unique_ptr<Stream> stream_;
};

// Parses "1048576", "64M", "1.5G", "512KiB"; throws ArgumentError.
size_t parse_byte_size(const std::string& text);
std::string format_bytes(size_t bytes);

}  // namespace mlperf::rt
