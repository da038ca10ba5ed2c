// Device memory: accounting against the limit, reservations for executions, and the reuse of
// buffers released in stream order.
#include "device.h"

namespace mlperf::rt {

OutOfDeviceMemory Device::oom_error(size_t bytes) const {
  std::string reserved = reserved_ ? " (" + format_bytes(reserved_) + " of it reserved for queued executions)" : "";
  return OutOfDeviceMemory("out of device memory on backend '" + name_ + "': requested " + format_bytes(bytes) +
                               " with " + format_bytes(in_use_ + reserved_) + " in use" + reserved +
                               " and a limit of " + format_bytes(limit_),
                           bytes, in_use_ + reserved_, limit_);
}

// Called with mu_ held, inside a catch: a backend's std::bad_alloc is the typed error.
void Device::rethrow_as_oom(size_t bytes) const {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    throw oom_error(bytes);
  }
}

void Device::throw_oom(size_t bytes) const {
  std::lock_guard<std::mutex> lk(mu_);
  throw oom_error(bytes);
}

// Whether `bytes` more fit the limit, without the sum wrapping around for a huge request.
bool Device::fits(size_t bytes) const {
  return limit_ == 0 || (bytes <= limit_ && in_use_ + reserved_ <= limit_ - bytes);
}

void* Device::allocate(size_t bytes) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (!fits(bytes)) throw oom_error(bytes);
    in_use_ += bytes;
    if (in_use_ > peak_) peak_ = in_use_;
  }
  void* p = nullptr;
  try {
    p = impl_->allocate(bytes);
  } catch (...) {
    std::lock_guard<std::mutex> lk(mu_);
    in_use_ -= bytes;
    rethrow_as_oom(bytes);
  }
  counters_.allocations++;
  return p;
}

void Device::free(void* ptr, size_t bytes) {
  impl_->free(ptr, bytes);
  counters_.frees++;
  std::lock_guard<std::mutex> lk(mu_);
  in_use_ -= bytes;
}

bool Device::try_reserve(size_t bytes) {
  std::lock_guard<std::mutex> lk(mu_);
  if (!fits(bytes)) return false;
  reserved_ += bytes;
  return true;
}

void* Device::allocate_reserved(size_t bytes) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    reserved_ -= bytes;
    in_use_ += bytes;
    if (in_use_ > peak_) peak_ = in_use_;
  }
  void* p = nullptr;
  try {
    p = impl_->allocate(bytes);
  } catch (...) {
    std::lock_guard<std::mutex> lk(mu_);
    in_use_ -= bytes;
    reserved_ += bytes;
    rethrow_as_oom(bytes);
  }
  counters_.allocations++;
  return p;
}

void Device::free_to_reservation(void* ptr, size_t bytes) {
  impl_->free(ptr, bytes);
  counters_.frees++;
  std::lock_guard<std::mutex> lk(mu_);
  in_use_ -= bytes;
  reserved_ += bytes;
}

void Device::unreserve(size_t bytes) {
  std::lock_guard<std::mutex> lk(mu_);
  reserved_ -= bytes;
}

size_t Device::reserved() const {
  std::lock_guard<std::mutex> lk(mu_);
  return reserved_;
}

void Device::release_in_stream_order(std::shared_ptr<Buffer> buffer) {
  std::lock_guard<std::mutex> lk(mu_);
  // Other references are queued stream tasks (or other host holders, which only delay the reuse).
  if (buffer.use_count() > 1 && !buffer->released) {
    buffer->released = true;
    released_.emplace(buffer->bytes, buffer.get());
  }
}

std::shared_ptr<Buffer> Device::take_released(const std::shared_ptr<Device>& self, size_t bytes) {
  std::shared_ptr<Buffer> donor, result;
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto [lo, hi] = released_.equal_range(bytes);
    for (auto it = lo; it != hi; ++it) {
      donor = it->second->weak_from_this().lock();
      if (!donor) continue;  // being destroyed; its destructor removes the entry
      released_.erase(it);
      donor->released = false;
      std::shared_ptr<Buffer> root = donor->owner ? donor->owner : donor;
      result = std::make_shared<Buffer>(self, donor->ptr, bytes, std::move(root));
      counters_.stream_ordered_reuses++;
      break;
    }
  }
  return result;  // donor is dropped here, outside the lock
}

void Device::forget_released(Buffer* buffer) {
  std::lock_guard<std::mutex> lk(mu_);
  if (!buffer->released) return;
  auto [lo, hi] = released_.equal_range(buffer->bytes);
  for (auto it = lo; it != hi; ++it)
    if (it->second == buffer) {
      released_.erase(it);
      return;
    }
}

ScratchReservation::~ScratchReservation() { device_->unreserve(total_ - used_); }

void* ScratchReservation::allocate(size_t bytes) {
  std::lock_guard<std::mutex> lk(mu_);
  bool reserved = used_ + bytes <= total_;
  void* p = reserved ? device_->allocate_reserved(bytes) : device_->allocate(bytes);
  if (reserved) used_ += bytes;
  from_reservation_[p] = reserved;
  return p;
}

void ScratchReservation::free(void* ptr, size_t bytes) {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = from_reservation_.find(ptr);
  bool reserved = it != from_reservation_.end() && it->second;
  if (it != from_reservation_.end()) from_reservation_.erase(it);
  if (reserved) {
    device_->free_to_reservation(ptr, bytes);
    used_ -= bytes;
  } else {
    device_->free(ptr, bytes);
  }
}

std::shared_ptr<ScratchReservation> reserve_execution(Backend& backend, const std::vector<size_t>& output_bytes,
                                                      int64_t scratch_bytes,
                                                      std::vector<std::shared_ptr<Buffer>>& outputs) {
  Device& dev = backend.device();
  const std::shared_ptr<Device>& self = backend.device_ptr();
  size_t scratch = scratch_bytes > 0 ? static_cast<size_t>(scratch_bytes) : 0;
  for (int attempt = 0;; ++attempt) {
    outputs.assign(output_bytes.size(), nullptr);
    size_t fresh = scratch;
    for (size_t i = 0; i < output_bytes.size(); ++i) {
      outputs[i] = dev.take_released(self, output_bytes[i]);
      if (!outputs[i]) fresh += output_bytes[i];
    }
    if (dev.try_reserve(fresh)) {
      for (size_t i = 0; i < output_bytes.size(); ++i)
        if (!outputs[i])
          outputs[i] = std::make_shared<Buffer>(self, dev.allocate_reserved(output_bytes[i]), output_bytes[i]);
      return std::make_shared<ScratchReservation>(self, scratch);
    }
    outputs.clear();
    if (attempt > 0 || backend.pending_tasks() == 0) dev.throw_oom(fresh);
    dev.counters().memory_stalls++;
    backend.drain();
  }
}

void Device::set_limit(size_t bytes) {
  std::lock_guard<std::mutex> lk(mu_);
  limit_ = bytes;
}
size_t Device::limit() const {
  std::lock_guard<std::mutex> lk(mu_);
  return limit_;
}
size_t Device::in_use() const {
  std::lock_guard<std::mutex> lk(mu_);
  return in_use_;
}
size_t Device::peak() const {
  std::lock_guard<std::mutex> lk(mu_);
  return peak_;
}
void Device::reset_peak() {
  std::lock_guard<std::mutex> lk(mu_);
  peak_ = in_use_;
}

}  // namespace mlperf::rt
