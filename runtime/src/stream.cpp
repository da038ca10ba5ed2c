#include "device.h"

#include "mlperf/rt/error.h"

namespace mlperf::rt {

Stream::Stream(std::shared_ptr<Device> device)
    : device_(std::move(device)), max_inflight_(Backend::kDefaultMaxInflight), thread_([this] { loop(); }) {}

Stream::~Stream() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  cv_work_.notify_all();
  thread_.join();
}

uint64_t Stream::enqueue(StreamTask task) {
  uint64_t t;
  {
    std::lock_guard<std::mutex> lk(mu_);
    t = next_ticket_++;
    queue_.emplace_back(t, std::move(task));
  }
  cv_work_.notify_one();
  return t;
}

void Stream::wait(uint64_t ticket) {
  std::unique_lock<std::mutex> lk(mu_);
  cv_done_.wait(lk, [&] { return done_ >= ticket; });
  if (error_) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    lk.unlock();
    try {
      std::rethrow_exception(e);
    } catch (const Error&) {
      throw;
    } catch (const std::exception& ex) {
      throw DeviceError(std::string("error on the device stream: ") + ex.what());
    }
  }
}

void Stream::drain() {
  std::unique_lock<std::mutex> lk(mu_);
  uint64_t last = next_ticket_ - 1;
  cv_done_.wait(lk, [&] { return done_ >= last; });
}

void Stream::begin_execution() {
  std::unique_lock<std::mutex> lk(mu_);
  if (max_inflight_ > 0 && inflight_ >= max_inflight_) {
    device_->counters().host_stalls++;
    cv_done_.wait(lk, [&] { return max_inflight_ <= 0 || inflight_ < max_inflight_; });
  }
  ++inflight_;
}

void Stream::cancel_execution() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    --inflight_;
  }
  cv_done_.notify_all();
}

void Stream::set_max_inflight(int max) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    max_inflight_ = max;
  }
  cv_done_.notify_all();
}

int Stream::max_inflight() const {
  std::lock_guard<std::mutex> lk(mu_);
  return max_inflight_;
}

int Stream::inflight() const {
  std::lock_guard<std::mutex> lk(mu_);
  return inflight_;
}

size_t Stream::pending() const {
  std::lock_guard<std::mutex> lk(mu_);
  return static_cast<size_t>(next_ticket_ - 1 - done_);
}

void Stream::run_one(StreamTask& task) {
  bool skip;
  {
    std::lock_guard<std::mutex> lk(mu_);
    skip = error_ != nullptr;
  }
  if (!skip) {
    for (const auto& b : task.reads) {
      if (b && b->poisoned) {
        std::lock_guard<std::mutex> lk(mu_);
        error_ = std::make_exception_ptr(
            DeviceError(task.what + ": an input was produced by a stream operation that failed"));
        skip = true;
        break;
      }
    }
  }
  if (!skip) {
    try {
      task.fn();
      return;
    } catch (...) {
      std::lock_guard<std::mutex> lk(mu_);
      if (!error_) error_ = std::current_exception();
    }
  }
  for (const auto& b : task.writes)
    if (b) b->poisoned = true;
}

void Stream::loop() {
  for (;;) {
    std::pair<uint64_t, StreamTask> item;
    {
      std::unique_lock<std::mutex> lk(mu_);
      cv_work_.wait(lk, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;
      item = std::move(queue_.front());
      queue_.pop_front();
    }
    run_one(item.second);
    bool execution = item.second.execution;
    item.second = StreamTask{};  // drop buffer references before signalling completion
    {
      std::lock_guard<std::mutex> lk(mu_);
      done_ = item.first;
      if (execution) --inflight_;
    }
    cv_done_.notify_all();
  }
}

}  // namespace mlperf::rt
