#include "mlperf/rt/backend.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "device.h"
#include "mlperf/rt/error.h"

namespace mlperf::rt {

std::string format_bytes(size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  if (u == 0) {
    std::snprintf(buf, sizeof buf, "%zu B", bytes);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f %s (%zu bytes)", v, units[u], bytes);
  }
  return buf;
}

size_t parse_byte_size(const std::string& text) {
  const std::string bad = "invalid byte size '" + text + "' (expected e.g. 1048576, 64M, 1.5G, 512KiB)";
  size_t pos = 0;
  double v;
  try {
    v = std::stod(text, &pos);
  } catch (const std::exception&) {
    throw ArgumentError(bad);
  }
  std::string suffix = text.substr(pos);
  while (!suffix.empty() && suffix.front() == ' ') suffix.erase(suffix.begin());
  for (auto& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double mult = 1;
  if (!suffix.empty()) {
    const std::string units = "KMGT";
    size_t u = units.find(suffix[0]);
    if (suffix == "B") {
      mult = 1;
    } else if (u != std::string::npos && (suffix.size() == 1 || suffix.substr(1) == "B" || suffix.substr(1) == "IB")) {
      mult = std::pow(1024.0, static_cast<double>(u + 1));
    } else {
      throw ArgumentError(bad);
    }
  }
  if (!(v >= 0) || !std::isfinite(v)) throw ArgumentError(bad);
  // 2^63 bytes and more do not fit llround's result (which would wrap to a negative limit).
  if (v * mult >= 9223372036854775808.0)
    throw ArgumentError("byte size '" + text + "' is too large (at most 8 EiB, 2^63 - 1 bytes)");
  return static_cast<size_t>(std::llround(v * mult));
}

Buffer::Buffer(std::shared_ptr<Device> d, void* p, size_t b, std::shared_ptr<Buffer> o)
    : device(std::move(d)), ptr(p), bytes(b), owner(std::move(o)) {}
Buffer::~Buffer() {
  if (released) device->forget_released(this);
  if (!owner) device->free(ptr, bytes);
}

Backend::Backend(std::unique_ptr<BackendImpl> impl) {
  if (!impl) throw BackendError("backend factory returned no implementation");
  name_ = impl->name();
  device_ = std::make_shared<Device>(name_, std::move(impl));
  stream_ = std::make_unique<Stream>(device_);
  if (const char* n = std::getenv("MLPERF_MAX_INFLIGHT"); n && *n) {
    char* end = nullptr;
    long v = std::strtol(n, &end, 10);
    if (end == n || *end != '\0')
      throw ArgumentError(std::string("MLPERF_MAX_INFLIGHT: '") + n + "' is not an integer (0 or less: unbounded)");
    stream_->set_max_inflight(static_cast<int>(v));
  }
  if (const char* lim = std::getenv("MLPERF_DEVICE_MEMORY_LIMIT"); lim && *lim) {
    try {
      device_->set_limit(parse_byte_size(lim));
    } catch (const ArgumentError& e) {
      throw ArgumentError(std::string("MLPERF_DEVICE_MEMORY_LIMIT: ") + e.what());
    }
  }
}

Backend::~Backend() = default;

BackendImpl& Backend::impl() { return device_->impl(); }

std::shared_ptr<Buffer> Backend::allocate(size_t bytes) {
  for (int attempt = 0;; ++attempt) {
    if (auto reused = device_->take_released(device_, bytes)) return reused;
    try {
      return std::make_shared<Buffer>(device_, device_->allocate(bytes), bytes);
    } catch (const OutOfDeviceMemory&) {
      if (attempt > 0 || stream_->pending() == 0) throw;
    }
    device_->counters().memory_stalls++;
    stream_->drain();
  }
}

void Backend::drain() { stream_->drain(); }

void Backend::set_max_inflight(int n) { stream_->set_max_inflight(n); }
int Backend::max_inflight() const { return stream_->max_inflight(); }

uint64_t Backend::enqueue(StreamTask task) { return stream_->enqueue(std::move(task)); }

void Backend::wait(uint64_t ticket) {
  device_->counters().waits++;
  stream_->wait(ticket);
}

void Backend::synchronize() {
  std::shared_ptr<Device> dev = device_;
  StreamTask t;
  t.fn = [dev] { dev->impl().synchronize(); };
  t.what = "synchronize";
  wait(enqueue(std::move(t)));
}

size_t Backend::pending_tasks() const { return stream_->pending(); }

void Backend::enqueue_delay_for_testing(std::chrono::milliseconds d) {
  StreamTask t;
  t.fn = [d] { std::this_thread::sleep_for(d); };
  t.what = "test delay";
  enqueue(std::move(t));
}

void Backend::enqueue_failure_for_testing(std::string message) {
  StreamTask t;
  t.fn = [message] { throw DeviceError(message); };
  t.what = "test failure";
  enqueue(std::move(t));
}

Stats Backend::stats() const {
  const Counters& c = device_->counters();
  Stats s;
  s.compilations = c.compilations;
  s.compile_seconds = static_cast<double>(c.compile_ns.load()) * 1e-9;
  s.cache_hits = c.cache_hits;
  s.cache_misses = c.cache_misses;
  s.cache_evictions = c.cache_evictions;
  s.executions = c.executions;
  s.kernel_launches = c.kernel_launches;
  s.h2d_copies = c.h2d_copies;
  s.h2d_bytes = c.h2d_bytes;
  s.d2h_copies = c.d2h_copies;
  s.d2h_bytes = c.d2h_bytes;
  s.waits = c.waits;
  s.allocations = c.allocations;
  s.frees = c.frees;
  s.host_stalls = c.host_stalls;
  s.memory_stalls = c.memory_stalls;
  s.stream_ordered_reuses = c.stream_ordered_reuses;
  s.bytes_in_use = static_cast<int64_t>(device_->in_use());
  s.peak_bytes = static_cast<int64_t>(device_->peak());
  return s;
}

void Backend::reset_stats() {
  Counters& c = device_->counters();
  for (auto* a : {&c.compilations, &c.compile_ns, &c.cache_hits, &c.cache_misses, &c.cache_evictions, &c.executions,
                  &c.kernel_launches, &c.h2d_copies, &c.h2d_bytes, &c.d2h_copies, &c.d2h_bytes, &c.waits,
                  &c.allocations, &c.frees, &c.host_stalls, &c.memory_stalls, &c.stream_ordered_reuses})
    a->store(0);
  device_->reset_peak();
}

nlohmann::json Backend::stats_json() const {
  Stats s = stats();
  nlohmann::json j;
  j["backend"] = name_;
  j["compilations"] = s.compilations;
  j["compile_seconds"] = s.compile_seconds;
  j["cache_hits"] = s.cache_hits;
  j["cache_misses"] = s.cache_misses;
  j["cache_evictions"] = s.cache_evictions;
  j["executions"] = s.executions;
  j["kernel_launches"] = s.kernel_launches;
  j["h2d_copies"] = s.h2d_copies;
  j["h2d_bytes"] = s.h2d_bytes;
  j["d2h_copies"] = s.d2h_copies;
  j["d2h_bytes"] = s.d2h_bytes;
  j["waits"] = s.waits;
  j["allocations"] = s.allocations;
  j["frees"] = s.frees;
  j["host_stalls"] = s.host_stalls;
  j["memory_stalls"] = s.memory_stalls;
  j["stream_ordered_reuses"] = s.stream_ordered_reuses;
  j["max_inflight"] = stream_->max_inflight();
  j["bytes_in_use"] = s.bytes_in_use;
  j["peak_bytes"] = s.peak_bytes;
  j["memory_limit"] = device_->limit();
  nlohmann::json extra = device_->impl().extra_stats();
  if (!extra.empty()) j["backend_stats"] = std::move(extra);
  return j;
}

std::string Backend::stats_string() const { return stats_json().dump(); }

void Backend::set_memory_limit(size_t bytes) { device_->set_limit(bytes); }
size_t Backend::memory_limit() const { return device_->limit(); }
size_t Backend::bytes_in_use() const { return device_->in_use(); }
size_t Backend::peak_bytes() const { return device_->peak(); }

}  // namespace mlperf::rt
