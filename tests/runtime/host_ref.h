#pragma once
// Float64 host reference implementations of the runtime's ops, for tests.
#include <cstdint>
#include <functional>
#include <vector>

namespace href {

struct Arr {
  std::vector<int64_t> shape;
  std::vector<double> v;
  int64_t numel() const;
};

Arr make(std::vector<int64_t> shape, std::vector<double> v);
std::vector<int64_t> strides(const std::vector<int64_t>& shape);
std::vector<int64_t> broadcast_shape(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
Arr broadcast_to(const Arr& a, const std::vector<int64_t>& shape);
Arr unary(const Arr& a, const std::function<double(double)>& f);
Arr binary(const Arr& a, const Arr& b, const std::function<double(double, double)>& f);
Arr where(const Arr& c, const Arr& a, const Arr& b);
Arr transpose(const Arr& a, const std::vector<int64_t>& perm);
Arr slice(const Arr& a, const std::vector<int64_t>& starts, const std::vector<int64_t>& limits,
          const std::vector<int64_t>& steps);
Arr concat(const std::vector<Arr>& xs, int axis);
Arr pad(const Arr& a, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi, double value);
enum class Red { Sum, Mean, Max };
Arr reduce(const Arr& a, std::vector<int64_t> axes, bool keepdims, Red kind);
Arr argmax(const Arr& a, int axis);
Arr matmul(const Arr& a, const Arr& b);  // ranks >= 2, batch dims broadcast
Arr softmax(const Arr& a, int axis, bool log);
// Per-example cross-entropy over the last axis with targets of the logits' shape.
Arr cross_entropy(const Arr& logits, const Arr& targets);

}  // namespace href
