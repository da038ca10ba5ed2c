#pragma once
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "mlperf/rt/tensor.h"

namespace mlperf::rt {

enum class BatchMode {
  DropLast,  // a last partial batch is skipped
  Pad,       // a last partial batch is zero-padded to the full size; mask marks real rows
};

struct HostArray {
  std::vector<uint8_t> bytes;
  Shape shape;
  DType dtype;
};

struct HostBatch {
  std::vector<HostArray> columns;  // each [batch_size, example_shape...]
  std::vector<float> mask;         // batch_size entries, 1 for real rows, 0 for padding
  int64_t valid = 0;               // number of real rows
};

struct DeviceBatch {
  std::vector<Tensor> columns;
  Tensor mask;  // F32 [batch_size]
  int64_t valid = 0;
};

// Columns of equally many examples kept in host memory, served as fixed-size batches.
class InMemoryDataset {
 public:
  explicit InMemoryDataset(int64_t batch_size, BatchMode mode = BatchMode::DropLast);

  template <class T>
  InMemoryDataset& add_column(const std::vector<T>& data, Shape example_shape) {
    std::vector<uint8_t> bytes(data.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), data.data(), bytes.size());
    return add_column_bytes(std::move(bytes), std::move(example_shape), DTypeOf<T>::kValue);
  }
  InMemoryDataset& add_column_bytes(std::vector<uint8_t> bytes, Shape example_shape, DType dtype);
  // Shuffles the example order at every reset() from this seed.
  InMemoryDataset& shuffle(uint64_t seed);

  int64_t num_examples() const { return num_examples_; }
  int64_t batch_size() const { return batch_size_; }
  int64_t batches_per_epoch() const;
  std::optional<HostBatch> next();  // nullopt at the end of the epoch
  void reset();                     // starts a new epoch

  static DeviceBatch upload(const std::shared_ptr<Backend>& backend, const HostBatch& batch);

 private:
  struct Column {
    std::vector<uint8_t> bytes;
    Shape example_shape;
    DType dtype;
    size_t example_bytes;
  };
  int64_t batch_size_;
  BatchMode mode_;
  int64_t num_examples_ = -1;
  std::vector<Column> columns_;
  std::vector<int64_t> order_;
  int64_t pos_ = 0;
  bool shuffle_ = false;
  uint64_t seed_ = 0, epoch_ = 0;
};

// Uploads the next `depth` batches of one epoch on a background thread, so the
// host -> device copies are queued ahead of the steps that use them. For several epochs call
// restart() after next() returned nullopt, or build a new Prefetcher per epoch after
// dataset.reset() (both are correct; mlperf-lint does not flag a per-epoch Prefetcher).
class Prefetcher {
 public:
  Prefetcher(std::shared_ptr<Backend> backend, InMemoryDataset& dataset, int depth = 2);
  ~Prefetcher();
  Prefetcher(const Prefetcher&) = delete;
  Prefetcher& operator=(const Prefetcher&) = delete;

  std::optional<DeviceBatch> next();  // nullopt at the end of the epoch
  int64_t uploaded() const;
  // Starts the next epoch: drops the batches not taken yet, calls dataset.reset() (a new order
  // when the dataset shuffles) and prefetches again.
  void restart();

 private:
  void loop();
  void stop_thread();
  std::shared_ptr<Backend> backend_;
  InMemoryDataset& dataset_;
  size_t depth_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<DeviceBatch> ready_;
  std::exception_ptr error_;
  bool done_ = false, stop_ = false;
  int64_t uploaded_ = 0;
  std::thread thread_;
};

}  // namespace mlperf::rt
