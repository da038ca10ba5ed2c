#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "mlperf/rt/backend.h"

namespace mlperf::rt {

struct Counters {
  std::atomic<int64_t> compilations{0}, compile_ns{0};
  std::atomic<int64_t> cache_hits{0}, cache_misses{0}, cache_evictions{0};
  std::atomic<int64_t> executions{0}, kernel_launches{0};
  std::atomic<int64_t> h2d_copies{0}, h2d_bytes{0}, d2h_copies{0}, d2h_bytes{0};
  std::atomic<int64_t> waits{0}, allocations{0}, frees{0};
};

// Memory accounting and counters shared by a Backend and every buffer it allocated.
class Device : public DeviceAllocator {
 public:
  Device(std::string name, std::unique_ptr<BackendImpl> impl) : name_(std::move(name)), impl_(std::move(impl)) {}
  void* allocate(size_t bytes) override;
  void free(void* ptr, size_t bytes) override;
  BackendImpl& impl() { return *impl_; }
  Counters& counters() { return counters_; }
  const Counters& counters() const { return counters_; }

  void set_limit(size_t bytes);
  size_t limit() const;
  size_t in_use() const;
  size_t peak() const;
  void reset_peak();

 private:
  std::string name_;
  std::unique_ptr<BackendImpl> impl_;
  Counters counters_;
  mutable std::mutex mu_;
  size_t in_use_ = 0, peak_ = 0, limit_ = 0;
};

// An in-order queue of work run by one worker thread.
class Stream {
 public:
  explicit Stream(std::shared_ptr<Device> device);
  ~Stream();
  uint64_t enqueue(StreamTask task);
  // Waits until the task with this ticket has run; rethrows a pending stream error.
  void wait(uint64_t ticket);
  size_t pending() const;

 private:
  void loop();
  void run_one(StreamTask& task);
  std::shared_ptr<Device> device_;
  mutable std::mutex mu_;
  std::condition_variable cv_work_, cv_done_;
  std::deque<std::pair<uint64_t, StreamTask>> queue_;
  uint64_t next_ticket_ = 1, done_ = 0;
  std::exception_ptr error_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace mlperf::rt
