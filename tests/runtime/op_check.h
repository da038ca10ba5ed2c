#pragma once
#include <functional>
#include <string>
#include <vector>

#include "host_ref.h"
#include "test_util.h"

// One op under test: the runtime graph and its float64 host reference.
struct OpCase {
  std::vector<std::vector<int64_t>> shapes;
  std::function<rt::Node(rt::Graph&, const std::vector<rt::Node>&)> build;
  std::function<href::Arr(const std::vector<href::Arr>&)> ref;
  std::vector<std::pair<double, double>> ranges;  // per input; default [-1, 1]
  bool grad = true;
  bool integer_inputs = false;  // inputs drawn from {-2..2} (for comparisons)
  double fwd_tol = 2e-5;
  double grad_tol = 2e-3;
};

// Runs the op forward and checks it against the reference; then checks the
// gradient of sum(op(x) * w), w random, against central finite differences
// of the reference in float64.
void check_op(const std::shared_ptr<rt::Backend>& backend, const OpCase& c, uint64_t seed = 1);

using Shapes = std::vector<std::vector<int64_t>>;
std::string shape_str(const std::vector<int64_t>& s);
