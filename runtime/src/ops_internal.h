#pragma once
#include <string>

#include "mlperf/rt/error.h"
#include "mlperf/rt/ops.h"

namespace mlperf::rt::detail {

Graph& same_graph(const char* op, Node a, Node b);
Node unary(OpKind k, Node x, DType out);
// Inserts a BroadcastTo when x's shape differs from `shape` (assumed compatible).
Node bcast(Node x, const Shape& shape);
std::string shapes_msg(const char* op, const Shape& a, const Shape& b);
std::vector<int64_t> normalize_axes(const char* op, std::vector<int64_t> axes, const Shape& s);

}  // namespace mlperf::rt::detail

namespace mlperf::rt::detail {
// MatMul node on operands with equal batch dims; ta/tb swap the last two axes of a/b.
Node matmul_raw(Node a, Node b, bool ta, bool tb);
// Pad with `interior` elements inserted between neighbours (used by the slice gradient).
Node pad_interior(Node x, std::vector<int64_t> lo, std::vector<int64_t> hi, std::vector<int64_t> interior);
}  // namespace mlperf::rt::detail
