#pragma once
#include <memory>
#include <span>
#include <vector>

#include "mlperf/rt/backend.h"
#include "mlperf/rt/dtype.h"

namespace mlperf::rt {

// A handle to a device buffer with a shape and dtype. Copies share the buffer
// and its state: finalize() on any copy releases the buffer for all of them,
// after which every use throws FinalizedTensorError.
class Tensor {
 public:
  Tensor() = default;
  Tensor(std::shared_ptr<Backend> backend, std::shared_ptr<Buffer> buffer, Shape shape, DType dtype);

  // Enqueues a host -> device copy; the host data is staged, so it may change at once.
  template <class T>
  static Tensor from_host(const std::shared_ptr<Backend>& backend, std::span<const T> data, Shape shape);
  template <class T>
  static Tensor from_host(const std::shared_ptr<Backend>& backend, const std::vector<T>& data, Shape shape) {
    return from_host<T>(backend, std::span<const T>(data.data(), data.size()), std::move(shape));
  }
  static Tensor from_host(const std::shared_ptr<Backend>& backend, const std::vector<bool>& data, Shape shape);
  // Float data stored as F32, F16 or BF16.
  static Tensor from_host(const std::shared_ptr<Backend>& backend, std::span<const float> data, Shape shape,
                          DType dtype);
  static Tensor from_host_bytes(const std::shared_ptr<Backend>& backend, const void* data, size_t bytes, Shape shape,
                                DType dtype);
  template <class T>
  static Tensor scalar(const std::shared_ptr<Backend>& backend, T value) {
    return from_host<T>(backend, std::span<const T>(&value, 1), Shape{});
  }

  // Waits for the device and copies device -> host. T: float (F32/F16/BF16),
  // double (any dtype), int32_t (I32), int64_t (I64), uint8_t or bool (Bool).
  template <class T>
  std::vector<T> materialize() const;
  std::vector<uint8_t> materialize_bytes() const;

  // Releases the device buffer now (for every copy of this handle).
  void finalize();
  bool finalized() const;
  bool valid() const { return state_ != nullptr; }

  const Shape& shape() const;
  DType dtype() const;
  size_t bytes() const;
  const std::shared_ptr<Backend>& backend() const;
  std::shared_ptr<Buffer> buffer() const;  // throws FinalizedTensorError
  std::string to_string() const;

 private:
  struct State {
    std::shared_ptr<Backend> backend;
    std::shared_ptr<Buffer> buffer;
    Shape shape;
    DType dtype = DType::F32;
    ~State();  // releases the buffer in stream order (see Backend::allocate)
  };
  const State& state() const;
  std::shared_ptr<State> state_;
};

template <>
Tensor Tensor::from_host<bool>(const std::shared_ptr<Backend>&, std::span<const bool>, Shape);
extern template Tensor Tensor::from_host<float>(const std::shared_ptr<Backend>&, std::span<const float>, Shape);
extern template Tensor Tensor::from_host<int32_t>(const std::shared_ptr<Backend>&, std::span<const int32_t>, Shape);
extern template Tensor Tensor::from_host<int64_t>(const std::shared_ptr<Backend>&, std::span<const int64_t>, Shape);
extern template Tensor Tensor::from_host<uint8_t>(const std::shared_ptr<Backend>&, std::span<const uint8_t>, Shape);
template <>
std::vector<float> Tensor::materialize<float>() const;
template <>
std::vector<double> Tensor::materialize<double>() const;
template <>
std::vector<int32_t> Tensor::materialize<int32_t>() const;
template <>
std::vector<int64_t> Tensor::materialize<int64_t>() const;
template <>
std::vector<uint8_t> Tensor::materialize<uint8_t>() const;
template <>
std::vector<bool> Tensor::materialize<bool>() const;

}  // namespace mlperf::rt
