#pragma once
#include <vector>

#include "mlperf/rt/graph.h"

namespace mlperf::rt {

// Reverse-mode gradients of a scalar float node with respect to each node of
// wrt (parameters, variables or any intermediate). A node the loss does not
// depend on gets zeros. Integer and Bool paths carry no gradient.
std::vector<Node> gradients(Node scalar_loss, const std::vector<Node>& wrt);

}  // namespace mlperf::rt
