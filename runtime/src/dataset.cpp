#include "mlperf/rt/dataset.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "mlperf/rt/error.h"

namespace mlperf::rt {

InMemoryDataset::InMemoryDataset(int64_t batch_size, BatchMode mode) : batch_size_(batch_size), mode_(mode) {
  if (batch_size <= 0)
    throw ArgumentError("InMemoryDataset: batch size must be positive, got " + std::to_string(batch_size));
}

InMemoryDataset& InMemoryDataset::add_column_bytes(std::vector<uint8_t> bytes, Shape example_shape, DType dtype) {
  size_t ex = static_cast<size_t>(example_shape.numel()) * dtype_size(dtype);
  if (ex == 0 || bytes.size() % ex != 0)
    throw ShapeError("InMemoryDataset: " + std::to_string(bytes.size()) + " bytes is not a whole number of " +
                     dtype_name(dtype) + example_shape.to_string() + " examples");
  auto n = static_cast<int64_t>(bytes.size() / ex);
  if (num_examples_ >= 0 && n != num_examples_)
    throw ShapeError("InMemoryDataset: column has " + std::to_string(n) + " examples, earlier columns have " +
                     std::to_string(num_examples_));
  num_examples_ = n;
  columns_.push_back(Column{std::move(bytes), std::move(example_shape), dtype, ex});
  reset();
  return *this;
}

InMemoryDataset& InMemoryDataset::shuffle(uint64_t seed) {
  shuffle_ = true;
  seed_ = seed;
  epoch_ = 0;
  reset();
  return *this;
}

int64_t InMemoryDataset::batches_per_epoch() const {
  if (num_examples_ <= 0) return 0;
  return mode_ == BatchMode::DropLast ? num_examples_ / batch_size_ : (num_examples_ + batch_size_ - 1) / batch_size_;
}

void InMemoryDataset::reset() {
  order_.resize(static_cast<size_t>(std::max<int64_t>(num_examples_, 0)));
  std::iota(order_.begin(), order_.end(), 0);
  if (shuffle_) {
    std::mt19937_64 rng(seed_ + 0x9E3779B97F4A7C15ull * epoch_);
    std::shuffle(order_.begin(), order_.end(), rng);
    ++epoch_;
  }
  pos_ = 0;
}

std::optional<HostBatch> InMemoryDataset::next() {
  if (columns_.empty()) throw ArgumentError("InMemoryDataset: no columns were added");
  int64_t left = num_examples_ - pos_;
  if (left <= 0 || (left < batch_size_ && mode_ == BatchMode::DropLast)) return std::nullopt;
  int64_t take = std::min(left, batch_size_);
  HostBatch b;
  b.valid = take;
  b.mask.assign(static_cast<size_t>(batch_size_), 0.0f);
  std::fill(b.mask.begin(), b.mask.begin() + take, 1.0f);
  for (const Column& c : columns_) {
    HostArray a;
    a.dtype = c.dtype;
    a.shape.dims.push_back(batch_size_);
    for (int64_t d : c.example_shape.dims) a.shape.dims.push_back(d);
    a.bytes.assign(static_cast<size_t>(batch_size_) * c.example_bytes, 0);
    for (int64_t i = 0; i < take; ++i) {
      auto src = static_cast<size_t>(order_[static_cast<size_t>(pos_ + i)]) * c.example_bytes;
      std::memcpy(a.bytes.data() + static_cast<size_t>(i) * c.example_bytes, c.bytes.data() + src, c.example_bytes);
    }
    b.columns.push_back(std::move(a));
  }
  pos_ += take;
  return b;
}

DeviceBatch InMemoryDataset::upload(const std::shared_ptr<Backend>& backend, const HostBatch& batch) {
  DeviceBatch d;
  d.valid = batch.valid;
  for (const HostArray& a : batch.columns)
    d.columns.push_back(Tensor::from_host_bytes(backend, a.bytes.data(), a.bytes.size(), a.shape, a.dtype));
  d.mask = Tensor::from_host<float>(backend, batch.mask, Shape{static_cast<int64_t>(batch.mask.size())});
  return d;
}

Prefetcher::Prefetcher(std::shared_ptr<Backend> backend, InMemoryDataset& dataset, int depth)
    : backend_(std::move(backend)), dataset_(dataset), depth_(static_cast<size_t>(std::max(1, depth))) {
  thread_ = std::thread([this] { loop(); });
}

Prefetcher::~Prefetcher() { stop_thread(); }

void Prefetcher::stop_thread() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Prefetcher::restart() {
  stop_thread();
  {
    std::lock_guard<std::mutex> lk(mu_);
    ready_.clear();
    error_ = nullptr;
    done_ = stop_ = false;
  }
  dataset_.reset();
  thread_ = std::thread([this] { loop(); });
}

void Prefetcher::loop() {
  try {
    for (;;) {
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [&] { return stop_ || ready_.size() < depth_; });
        if (stop_) break;
      }
      std::optional<HostBatch> hb = dataset_.next();
      if (!hb) break;
      DeviceBatch db = InMemoryDataset::upload(backend_, *hb);
      std::lock_guard<std::mutex> lk(mu_);
      ready_.push_back(std::move(db));
      ++uploaded_;
      cv_.notify_all();
    }
  } catch (...) {
    std::lock_guard<std::mutex> lk(mu_);
    error_ = std::current_exception();
  }
  std::lock_guard<std::mutex> lk(mu_);
  done_ = true;
  cv_.notify_all();
}

std::optional<DeviceBatch> Prefetcher::next() {
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [&] { return !ready_.empty() || done_; });
  if (!ready_.empty()) {
    DeviceBatch b = std::move(ready_.front());
    ready_.pop_front();
    cv_.notify_all();
    return b;
  }
  if (error_) std::rethrow_exception(error_);
  return std::nullopt;
}

int64_t Prefetcher::uploaded() const {
  std::lock_guard<std::mutex> lk(mu_);
  return uploaded_;
}

}  // namespace mlperf::rt
