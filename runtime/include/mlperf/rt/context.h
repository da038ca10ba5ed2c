#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mlperf/rt/graph.h"
#include "mlperf/rt/tensor.h"

namespace mlperf::rt {

class Initializer {
 public:
  enum class Kind { Zeros, Constant, Normal, Uniform, GlorotUniform };
  static Initializer zeros() { return {Kind::Zeros, 0, 0}; }
  static Initializer constant(double v) { return {Kind::Constant, v, 0}; }
  static Initializer normal(double mean = 0, double stddev = 1) { return {Kind::Normal, mean, stddev}; }
  static Initializer uniform(double lo = -0.05, double hi = 0.05) { return {Kind::Uniform, lo, hi}; }
  // U(-l, l) with l = sqrt(6 / (fan_in + fan_out)) from the last two dims.
  static Initializer glorot_uniform() { return {Kind::GlorotUniform, 0, 0}; }

  std::vector<double> generate(const Shape& shape, uint64_t seed) const;
  Kind kind() const { return kind_; }

 private:
  Initializer(Kind k, double a, double b) : kind_(k), a_(a), b_(b) {}
  Kind kind_;
  double a_, b_;
};

// Named variables living on the device, plus optimizer slot state.
class Context {
 public:
  explicit Context(std::shared_ptr<Backend> backend, uint64_t seed = 0);

  // Creates the variable if missing (initialized on the host from a seed derived from
  // the context seed and the name, then uploaded) and reads it as a node of g.
  Node variable(Graph& g, const std::string& name, Shape shape, Initializer init = Initializer::glorot_uniform(),
                DType dtype = DType::F32, bool trainable = true);
  Node variable(Graph& g, const std::string& name);  // must exist
  // Makes the executable return `value` as the variable's new buffer.
  void assign(Graph& g, const std::string& name, Node value);

  void create(const std::string& name, Shape shape, Initializer init, DType dtype = DType::F32, bool trainable = true);
  bool has(const std::string& name) const;
  Tensor get(const std::string& name) const;
  void set(const std::string& name, Tensor value);  // same shape and dtype
  bool trainable(const std::string& name) const;
  std::vector<std::string> names() const;
  size_t bytes() const;
  void finalize_all();

  const std::shared_ptr<Backend>& backend() const { return backend_; }
  uint64_t seed() const { return seed_; }
  // Expires when this Context is destroyed (an Exec checks it before using the Context).
  std::weak_ptr<const void> lifetime() const { return alive_.token; }

 private:
  struct Alive {  // a copy of a Context is a different Context: it gets its own token
    std::shared_ptr<const void> token = std::make_shared<int>(0);
    Alive() = default;
    Alive(const Alive&) {}
    Alive& operator=(const Alive&) { return *this; }
  };
  Alive alive_;
  struct Var {
    Tensor value;
    bool trainable;
  };
  const Var& find(const std::string& name) const;
  std::shared_ptr<Backend> backend_;
  uint64_t seed_;
  std::map<std::string, Var> vars_;
};

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  // Differentiates loss with respect to every trainable variable g reads and assigns
  // the updated values and slot state in g, so the step runs on the device.
  virtual void minimize(Context& ctx, Graph& g, Node loss) = 0;
};

class SGD : public Optimizer {
 public:
  explicit SGD(double lr, double momentum = 0.0) : lr_(lr), momentum_(momentum) {}
  void minimize(Context& ctx, Graph& g, Node loss) override;

 private:
  double lr_, momentum_;
};

class Adam : public Optimizer {
 public:
  explicit Adam(double lr = 1e-3, double b1 = 0.9, double b2 = 0.999, double eps = 1e-8)
      : lr_(lr), b1_(b1), b2_(b2), eps_(eps) {}
  void minimize(Context& ctx, Graph& g, Node loss) override;

 private:
  double lr_, b1_, b2_, eps_;
};

}  // namespace mlperf::rt
