#pragma once
#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mlperf::rt::cpu {

// A fixed pool that splits [0, n) into contiguous chunks; the calling thread takes a
// chunk too. One parallel_for at a time (the backend calls it from its stream thread).
class ThreadPool {
 public:
  explicit ThreadPool(int threads) : threads_(std::max(1, threads)) {
    for (int t = 1; t < threads_; ++t) workers_.emplace_back([this, t] { loop(t); });
  }
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
  }
  int threads() const { return threads_; }

  // fn(begin, end) over chunks of at least `grain` iterations.
  void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
    if (n <= 0) return;
    int64_t chunks = std::min<int64_t>(threads_, (n + grain - 1) / std::max<int64_t>(grain, 1));
    if (chunks <= 1) {
      fn(0, n);
      return;
    }
    {
      std::lock_guard<std::mutex> lk(mu_);
      fn_ = &fn;
      n_ = n;
      chunks_ = chunks;
      pending_ = chunks - 1;
      ++generation_;
    }
    cv_.notify_all();
    fn(0, n / chunks);
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [&] { return pending_ == 0; });
    fn_ = nullptr;
  }

 private:
  void loop(int t) {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int64_t, int64_t)>* fn;
      int64_t n, chunks;
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        fn = fn_;
        n = n_;
        chunks = chunks_;
      }
      if (t < chunks) {
        (*fn)(n* t / chunks, n * (t + 1) / chunks);
        std::lock_guard<std::mutex> lk(mu_);
        if (--pending_ == 0) done_cv_.notify_one();
      }
    }
  }

  int threads_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int64_t, int64_t)>* fn_ = nullptr;
  int64_t n_ = 0, chunks_ = 0, pending_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
};

}  // namespace mlperf::rt::cpu
