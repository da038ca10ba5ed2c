#include "mlperf/rt/context.h"

#include <cmath>
#include <random>

#include "mlperf/rt/error.h"
#include "mlperf/rt/rng.h"

namespace mlperf::rt {

std::vector<double> Initializer::generate(const Shape& shape, uint64_t seed) const {
  std::vector<double> v(static_cast<size_t>(shape.numel()), 0.0);
  std::mt19937_64 rng(seed);
  switch (kind_) {
    case Kind::Zeros:
      break;
    case Kind::Constant:
      std::fill(v.begin(), v.end(), a_);
      break;
    case Kind::Normal: {
      std::normal_distribution<double> d(a_, b_);
      for (auto& x : v) x = d(rng);
      break;
    }
    case Kind::Uniform: {
      std::uniform_real_distribution<double> d(a_, b_);
      for (auto& x : v) x = d(rng);
      break;
    }
    case Kind::GlorotUniform: {
      double fan_in = 1, fan_out = 1;
      int r = shape.rank();
      if (r >= 2) {
        double receptive = 1;
        for (int i = 0; i < r - 2; ++i) receptive *= static_cast<double>(shape[i]);
        fan_in = static_cast<double>(shape[r - 2]) * receptive;
        fan_out = static_cast<double>(shape[r - 1]) * receptive;
      } else if (r == 1) {
        fan_in = fan_out = static_cast<double>(shape[0]);
      }
      double lim = std::sqrt(6.0 / std::max(1.0, fan_in + fan_out));
      std::uniform_real_distribution<double> d(-lim, lim);
      for (auto& x : v) x = d(rng);
      break;
    }
  }
  return v;
}

Context::Context(std::shared_ptr<Backend> backend, uint64_t seed) : backend_(std::move(backend)), seed_(seed) {
  if (!backend_) throw ArgumentError("Context: null backend");
}

const Context::Var& Context::find(const std::string& name) const {
  auto it = vars_.find(name);
  if (it == vars_.end()) throw ArgumentError("Context: no variable named '" + name + "'");
  return it->second;
}

void Context::create(const std::string& name, Shape shape, Initializer init, DType dtype, bool trainable) {
  if (vars_.count(name)) throw ArgumentError("Context: variable '" + name + "' already exists");
  uint64_t h = seed_;
  for (char c : name) h = splitmix64(h ^ static_cast<uint8_t>(c));
  std::vector<double> v = init.generate(shape, h);
  std::vector<uint8_t> bytes(v.size() * dtype_size(dtype));
  convert_to_storage(dtype, bytes.data(), v.data(), v.size());
  Tensor t = Tensor::from_host_bytes(backend_, bytes.data(), bytes.size(), std::move(shape), dtype);
  vars_.emplace(name, Var{std::move(t), trainable});
}

Node Context::variable(Graph& g, const std::string& name, Shape shape, Initializer init, DType dtype, bool trainable) {
  auto it = vars_.find(name);
  if (it == vars_.end()) {
    create(name, shape, init, dtype, trainable);
  } else if (it->second.value.shape() != shape || it->second.value.dtype() != dtype) {
    throw ShapeError("Context: variable '" + name + "' exists as " + dtype_name(it->second.value.dtype()) +
                     it->second.value.shape().to_string() + ", requested as " + dtype_name(dtype) + shape.to_string());
  }
  return variable(g, name);
}

Node Context::variable(Graph& g, const std::string& name) {
  const Var& v = find(name);
  return g.variable_parameter(this, name, v.value.shape(), v.value.dtype());
}

void Context::assign(Graph& g, const std::string& name, Node value) {
  const Var& v = find(name);
  if (value.shape() != v.value.shape() || value.dtype() != v.value.dtype())
    throw ShapeError("Context::assign: variable '" + name + "' is " + dtype_name(v.value.dtype()) +
                     v.value.shape().to_string() + ", the new value is " + dtype_name(value.dtype()) +
                     value.shape().to_string());
  g.assign(name, value);
}

bool Context::has(const std::string& name) const { return vars_.count(name) != 0; }
Tensor Context::get(const std::string& name) const { return find(name).value; }
bool Context::trainable(const std::string& name) const { return find(name).trainable; }

void Context::set(const std::string& name, Tensor value) {
  auto it = vars_.find(name);
  if (it == vars_.end()) throw ArgumentError("Context: no variable named '" + name + "'");
  if (value.shape() != it->second.value.shape() || value.dtype() != it->second.value.dtype())
    throw ShapeError("Context::set: variable '" + name + "' is " + dtype_name(it->second.value.dtype()) +
                     it->second.value.shape().to_string() + ", the new value is " + dtype_name(value.dtype()) +
                     value.shape().to_string());
  it->second.value = std::move(value);
}

std::vector<std::string> Context::names() const {
  std::vector<std::string> out;
  for (const auto& kv : vars_) out.push_back(kv.first);
  return out;
}

size_t Context::bytes() const {
  size_t b = 0;
  for (const auto& kv : vars_) b += kv.second.value.bytes();
  return b;
}

void Context::finalize_all() {
  for (auto& kv : vars_) kv.second.value.finalize();
}

}  // namespace mlperf::rt
