// A stand-in for the part of libtorch's API that the unit tests of
// checks/analysis use: the real qualified names (so the built-in libtorch
// profile matches them) and no bodies. Included as a system header, as the
// real one is; parses in milliseconds, where <torch/torch.h> takes seconds.
// The two inline functions at the end are library code with a body.
#pragma once

namespace c10 {
enum class DeviceType { CPU, CUDA };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
enum class ScalarType { Float, Half, Long };
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kLong = ScalarType::Long;
struct Device {
  Device(DeviceType type, int index = -1);
};
struct TensorOptions {
  TensorOptions();
  TensorOptions(DeviceType d);
  TensorOptions(Device d);
  TensorOptions(ScalarType s);
  TensorOptions device(Device d) const;
  TensorOptions dtype(ScalarType s) const;
  TensorOptions pinned_memory(bool pinned = true) const;
};
struct NoGradGuard {
  NoGradGuard();
  ~NoGradGuard();
};
struct AutoGradMode {
  explicit AutoGradMode(bool enabled);
  ~AutoGradMode();
};
} // namespace c10

namespace at {
class Tensor {
public:
  Tensor();
  Tensor(const Tensor &);
  Tensor &operator=(const Tensor &);
  ~Tensor();
  float item() const;
  Tensor cpu() const;
  Tensor cuda() const;
  Tensor to(c10::Device device, bool non_blocking = false) const;
  Tensor to(c10::DeviceType device, bool non_blocking = false) const;
  Tensor to(c10::TensorOptions options, bool non_blocking = false) const;
  Tensor to(const Tensor &other, bool non_blocking = false) const;
  c10::TensorOptions options() const;
  c10::Device device() const;
  void backward() const;
  Tensor detach() const;
  Tensor select(long dim, long index) const;
  Tensor operator[](long index) const;
  Tensor narrow(long dim, long start, long length) const;
  Tensor pin_memory() const;
  Tensor unsqueeze(long dim) const;
  Tensor sum() const;
  Tensor argmax() const;
  Tensor &add_(const Tensor &other);
  template <class T> T *data_ptr() const;
  long size(long dim) const;
};
Tensor operator+(const Tensor &a, const Tensor &b);
Tensor operator*(const Tensor &a, const Tensor &b);
Tensor mse_loss_backward(const Tensor &grad_output, const Tensor &self, const Tensor &target);
} // namespace at

namespace torch {
using at::Tensor;
using c10::Device;
using c10::DeviceType;
using c10::kCPU;
using c10::kCUDA;
using c10::kFloat;
using c10::kHalf;
using c10::kLong;
using c10::NoGradGuard;
using c10::TensorOptions;

Tensor zeros(long n, TensorOptions options = {});
Tensor ones(long n, TensorOptions options = {});
Tensor arange(long n, TensorOptions options = {});
Tensor zeros_like(const Tensor &other);
Tensor tensor(float value, TensorOptions options = {});
Tensor from_blob(void *data, long n);

namespace cuda {
bool is_available();
void synchronize();
} // namespace cuda

namespace nn {
class Module {
public:
  virtual ~Module();
  void eval();
  void train(bool on = true);
  void to(c10::Device device, bool non_blocking = false);
};
template <class Impl> class ModuleHolder {
public:
  Impl *operator->();
  template <class... Args> Tensor operator()(Args &&...args);
};
class LinearImpl : public Module {
public:
  LinearImpl(long in, long out);
  Tensor forward(const Tensor &x);
};
class Linear : public ModuleHolder<LinearImpl> {
public:
  Linear(long in, long out);
};
} // namespace nn

namespace optim {
class Optimizer {
public:
  virtual ~Optimizer();
  void zero_grad();
  virtual Tensor step();
};
struct SGDOptions {
  explicit SGDOptions(double lr);
  SGDOptions &momentum(double m);
};
class SGD : public Optimizer {
public:
  SGD(nn::Module &module, SGDOptions options);
};
struct AdamOptions {
  explicit AdamOptions(double lr);
};
class Adam : public Optimizer {
public:
  Adam(nn::Module &module, AdamOptions options);
};
} // namespace optim

namespace data {
template <class Data = Tensor, class Target = Tensor> struct Example {
  Data data;
  Target target;
};
template <class Batch> class Iterator {
public:
  Batch &operator*();
  Iterator &operator++();
  bool operator!=(const Iterator &other) const;
};
class Loader {
public:
  Iterator<Example<>> begin();
  Iterator<Example<>> end();
};
} // namespace data

inline float to_float(const Tensor &t) { return t.item(); }
inline float mean_of(const Tensor &t) { return to_float(t.sum()); }
} // namespace torch
