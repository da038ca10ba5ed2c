#include "mlperf/rt/tensor.h"

#include <sstream>

#include "device.h"
#include "mlperf/rt/error.h"

namespace mlperf::rt {

Tensor::Tensor(std::shared_ptr<Backend> backend, std::shared_ptr<Buffer> buffer, Shape shape, DType dtype)
    : state_(std::make_shared<State>()) {
  if (buffer) buffer->host_handles++;
  state_->backend = std::move(backend);
  state_->buffer = std::move(buffer);
  state_->shape = std::move(shape);
  state_->dtype = dtype;
}

namespace {
void release_handle(std::shared_ptr<Buffer> b) {
  if (b && --b->host_handles == 0) b->device->release_in_stream_order(std::move(b));
}
}  // namespace

const Tensor::State& Tensor::state() const {
  if (!state_) throw FinalizedTensorError("use of an empty Tensor (default-constructed or moved from)");
  return *state_;
}

const Shape& Tensor::shape() const { return state().shape; }
DType Tensor::dtype() const { return state().dtype; }
size_t Tensor::bytes() const { return static_cast<size_t>(shape().numel()) * dtype_size(dtype()); }
const std::shared_ptr<Backend>& Tensor::backend() const { return state().backend; }
bool Tensor::finalized() const { return !state_ || !state_->buffer; }

std::shared_ptr<Buffer> Tensor::buffer() const {
  const State& s = state();
  if (!s.buffer)
    throw FinalizedTensorError("use of a finalized tensor (" + std::string(dtype_name(s.dtype)) + s.shape.to_string() +
                               "): its device buffer was released by finalize()");
  return s.buffer;
}

Tensor::State::~State() { release_handle(std::move(buffer)); }

void Tensor::finalize() {
  if (state_) release_handle(std::move(state_->buffer));
}

std::string Tensor::to_string() const {
  if (!state_) return "Tensor(empty)";
  std::ostringstream os;
  os << "Tensor(" << dtype_name(state_->dtype) << state_->shape.to_string() << (state_->buffer ? "" : ", finalized")
     << ")";
  return os.str();
}

Tensor Tensor::from_host_bytes(const std::shared_ptr<Backend>& backend, const void* data, size_t bytes, Shape shape,
                               DType dtype) {
  if (!backend) throw ArgumentError("from_host: null backend");
  size_t expect = static_cast<size_t>(shape.numel()) * dtype_size(dtype);
  if (bytes != expect)
    throw ShapeError("from_host: " + std::to_string(bytes) + " bytes of data for " + dtype_name(dtype) +
                     shape.to_string() + " which needs " + std::to_string(expect));
  std::shared_ptr<Buffer> buf = backend->allocate(bytes);
  auto staging = std::make_shared<std::vector<uint8_t>>(static_cast<const uint8_t*>(data),
                                                        static_cast<const uint8_t*>(data) + bytes);
  Counters& c = backend->device().counters();
  c.h2d_copies++;
  c.h2d_bytes += static_cast<int64_t>(bytes);
  StreamTask t;
  Buffer* dst = buf.get();
  t.fn = [dst, staging] {
    if (!staging->empty()) dst->device->impl().copy_host_to_device(dst->ptr, staging->data(), staging->size());
  };
  t.writes = {buf};
  t.what = "host-to-device copy";
  backend->enqueue(std::move(t));
  return Tensor(backend, std::move(buf), std::move(shape), dtype);
}

template <class T>
Tensor Tensor::from_host(const std::shared_ptr<Backend>& backend, std::span<const T> data, Shape shape) {
  if (static_cast<int64_t>(data.size()) != shape.numel())
    throw ShapeError("from_host: " + std::to_string(data.size()) + " values for shape " + shape.to_string());
  return from_host_bytes(backend, data.data(), data.size_bytes(), std::move(shape), DTypeOf<T>::kValue);
}

template Tensor Tensor::from_host<float>(const std::shared_ptr<Backend>&, std::span<const float>, Shape);
template Tensor Tensor::from_host<int32_t>(const std::shared_ptr<Backend>&, std::span<const int32_t>, Shape);
template Tensor Tensor::from_host<int64_t>(const std::shared_ptr<Backend>&, std::span<const int64_t>, Shape);
template Tensor Tensor::from_host<uint8_t>(const std::shared_ptr<Backend>&, std::span<const uint8_t>, Shape);

template <>
Tensor Tensor::from_host<bool>(const std::shared_ptr<Backend>& backend, std::span<const bool> data, Shape shape) {
  std::vector<uint8_t> v(data.begin(), data.end());
  return from_host<uint8_t>(backend, std::span<const uint8_t>(v), std::move(shape));
}

Tensor Tensor::from_host(const std::shared_ptr<Backend>& backend, const std::vector<bool>& data, Shape shape) {
  std::vector<uint8_t> v(data.begin(), data.end());
  return from_host<uint8_t>(backend, std::span<const uint8_t>(v), std::move(shape));
}

Tensor Tensor::from_host(const std::shared_ptr<Backend>& backend, std::span<const float> data, Shape shape,
                         DType dtype) {
  if (!is_float(dtype)) throw DTypeError(std::string("from_host: float data cannot be stored as ") + dtype_name(dtype));
  if (dtype == DType::F32) return from_host<float>(backend, data, std::move(shape));
  if (static_cast<int64_t>(data.size()) != shape.numel())
    throw ShapeError("from_host: " + std::to_string(data.size()) + " values for shape " + shape.to_string());
  std::vector<uint16_t> h(data.size());
  for (size_t i = 0; i < data.size(); ++i) h[i] = dtype == DType::F16 ? float_to_f16(data[i]) : float_to_bf16(data[i]);
  return from_host_bytes(backend, h.data(), h.size() * 2, std::move(shape), dtype);
}

std::vector<uint8_t> Tensor::materialize_bytes() const {
  std::shared_ptr<Buffer> buf = buffer();
  const auto& backend = state().backend;
  auto out = std::make_shared<std::vector<uint8_t>>(buf->bytes);
  Counters& c = backend->device().counters();
  c.d2h_copies++;
  c.d2h_bytes += static_cast<int64_t>(buf->bytes);
  StreamTask t;
  Buffer* src = buf.get();
  t.fn = [src, out] {
    if (!out->empty()) src->device->impl().copy_device_to_host(out->data(), src->ptr, out->size());
  };
  t.reads = {buf};
  t.what = "device-to-host copy";
  backend->wait(backend->enqueue(std::move(t)));
  return std::move(*out);
}

namespace {
std::string mismatch(const char* want, DType have) {
  return std::string("materialize<") + want + ">: tensor has dtype " + dtype_name(have);
}
template <class T>
std::vector<T> copy_as(const std::vector<uint8_t>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}
}  // namespace

template <>
std::vector<float> Tensor::materialize<float>() const {
  DType d = dtype();
  if (!is_float(d)) throw DTypeError(mismatch("float", d));
  std::vector<uint8_t> b = materialize_bytes();
  if (d == DType::F32) return copy_as<float>(b);
  std::vector<uint16_t> h = copy_as<uint16_t>(b);
  std::vector<float> v(h.size());
  for (size_t i = 0; i < h.size(); ++i) v[i] = d == DType::F16 ? f16_to_float(h[i]) : bf16_to_float(h[i]);
  return v;
}

template <>
std::vector<double> Tensor::materialize<double>() const {
  DType d = dtype();
  std::vector<uint8_t> b = materialize_bytes();
  std::vector<double> v(b.size() / dtype_size(d));
  convert_from_storage(d, b.data(), v.data(), v.size());
  return v;
}

template <>
std::vector<int32_t> Tensor::materialize<int32_t>() const {
  if (dtype() != DType::I32) throw DTypeError(mismatch("int32_t", dtype()));
  return copy_as<int32_t>(materialize_bytes());
}

template <>
std::vector<int64_t> Tensor::materialize<int64_t>() const {
  if (dtype() != DType::I64) throw DTypeError(mismatch("int64_t", dtype()));
  return copy_as<int64_t>(materialize_bytes());
}

template <>
std::vector<uint8_t> Tensor::materialize<uint8_t>() const {
  if (dtype() != DType::Bool) throw DTypeError(mismatch("uint8_t", dtype()));
  return materialize_bytes();
}

template <>
std::vector<bool> Tensor::materialize<bool>() const {
  if (dtype() != DType::Bool) throw DTypeError(mismatch("bool", dtype()));
  std::vector<uint8_t> b = materialize_bytes();
  return std::vector<bool>(b.begin(), b.end());
}

}  // namespace mlperf::rt
