#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "mlperf/rt/backend.h"
#include "mlperf/rt/error.h"

namespace mlperf::rt {

struct Counters {
  std::atomic<int64_t> compilations{0}, compile_ns{0};
  std::atomic<int64_t> cache_hits{0}, cache_misses{0}, cache_evictions{0};
  std::atomic<int64_t> executions{0}, kernel_launches{0};
  std::atomic<int64_t> h2d_copies{0}, h2d_bytes{0}, d2h_copies{0}, d2h_bytes{0};
  std::atomic<int64_t> waits{0}, allocations{0}, frees{0};
  // run() blocked by the in-flight bound; allocations that waited for the stream to free memory;
  // allocations served by a buffer released in stream order.
  std::atomic<int64_t> host_stalls{0}, memory_stalls{0}, stream_ordered_reuses{0};
};

// Memory accounting and counters shared by a Backend and every buffer it allocated.
class Device : public DeviceAllocator {
 public:
  Device(std::string name, std::unique_ptr<BackendImpl> impl) : name_(std::move(name)), impl_(std::move(impl)) {}
  // Checked against the limit together with the reserved bytes.
  void* allocate(size_t bytes) override;
  void free(void* ptr, size_t bytes) override;

  // Reservations: bytes counted against the limit (not as in use) until drawn or returned.
  bool try_reserve(size_t bytes);
  void* allocate_reserved(size_t bytes);  // turns reserved bytes into bytes in use
  void free_to_reservation(void* ptr, size_t bytes);
  void unreserve(size_t bytes);
  size_t reserved() const;
  [[noreturn]] void throw_oom(size_t bytes) const;  // the limit's OutOfDeviceMemory for `bytes`

  // Stream-ordered release (the asynchronous allocation model of CUDA's stream-ordered allocator
  // and PJRT on GPU): a buffer whose host handles are gone while queued work still uses it can be
  // handed to a new host-side allocation, whose first use is necessarily later on the same stream.
  void release_in_stream_order(std::shared_ptr<Buffer> buffer);
  std::shared_ptr<Buffer> take_released(const std::shared_ptr<Device>& self, size_t bytes);
  void forget_released(Buffer* buffer);  // from ~Buffer
  BackendImpl& impl() { return *impl_; }
  Counters& counters() { return counters_; }
  const Counters& counters() const { return counters_; }

  void set_limit(size_t bytes);
  size_t limit() const;
  size_t in_use() const;
  size_t peak() const;
  void reset_peak();

 private:
  OutOfDeviceMemory oom_error(size_t bytes) const;  // caller holds mu_
  bool fits(size_t bytes) const;                    // caller holds mu_
  [[noreturn]] void rethrow_as_oom(size_t bytes) const;
  std::string name_;
  std::unique_ptr<BackendImpl> impl_;
  Counters counters_;
  mutable std::mutex mu_;
  size_t in_use_ = 0, peak_ = 0, limit_ = 0, reserved_ = 0;
  std::multimap<size_t, Buffer*> released_;  // by size; entries erased by ~Buffer or a hand-over
};

// Scratch memory reserved for one execution before it is enqueued, so an execution never runs
// out of memory half-way (its outputs and variables stay as they were); the launch draws its
// temporaries from it. Allocations beyond the reservation are checked against the limit.
class ScratchReservation : public DeviceAllocator {
 public:
  ScratchReservation(std::shared_ptr<Device> device, size_t bytes) : device_(std::move(device)), total_(bytes) {}
  ~ScratchReservation() override;
  void* allocate(size_t bytes) override;
  void free(void* ptr, size_t bytes) override;

 private:
  std::shared_ptr<Device> device_;
  std::mutex mu_;
  size_t total_, used_ = 0;
  std::map<void*, bool> from_reservation_;
};

// Allocates an execution's outputs and reserves its scratch (scratch_bytes < 0: unknown, nothing
// reserved) as one request: when it does not fit, waits for queued work to free memory, then
// throws OutOfDeviceMemory before anything is enqueued.
std::shared_ptr<ScratchReservation> reserve_execution(Backend& backend, const std::vector<size_t>& output_bytes,
                                                      int64_t scratch_bytes,
                                                      std::vector<std::shared_ptr<Buffer>>& outputs);

// An in-order queue of work run by one worker thread.
class Stream {
 public:
  explicit Stream(std::shared_ptr<Device> device);
  ~Stream();
  uint64_t enqueue(StreamTask task);
  // Waits until the task with this ticket has run; rethrows a pending stream error.
  void wait(uint64_t ticket);
  // Waits until everything queued so far has run; leaves a stream error for the next wait.
  void drain();
  size_t pending() const;

  // The in-flight bound on executions: begin_execution() blocks while `max` executions are
  // queued or running (counted as one host stall); an enqueued task with
  // `execution = true` ends its slot when it has run; cancel_execution() ends an unused one.
  void begin_execution();
  void cancel_execution();
  void set_max_inflight(int max);
  int max_inflight() const;
  int inflight() const;

 private:
  void loop();
  void run_one(StreamTask& task);
  std::shared_ptr<Device> device_;
  mutable std::mutex mu_;
  std::condition_variable cv_work_, cv_done_;
  std::deque<std::pair<uint64_t, StreamTask>> queue_;
  uint64_t next_ticket_ = 1, done_ = 0;
  int max_inflight_, inflight_ = 0;
  std::exception_ptr error_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace mlperf::rt
