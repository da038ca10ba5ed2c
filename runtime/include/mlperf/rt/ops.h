#pragma once
#include <cstdint>
#include <vector>

#include "mlperf/rt/graph.h"

// Graph-building ops. Shapes and dtypes are checked here, when the graph is
// built; errors name the op and the shapes involved. Binary ops broadcast with
// numpy rules and require equal dtypes (a C++ scalar takes the other side's dtype).
namespace mlperf::rt {

// Elementwise builders, one per row of ops.def: Node name(Node x) for the unary rows (neg abs exp
// log sqrt rsqrt tanh sigmoid relu gelu square sign logical_not stop_gradient; gelu is the tanh
// approximation) and Node name(Node a, Node b) for the binary ones (add sub mul div pow max min,
// comparisons eq ne lt le gt ge with a Bool result, logical_and logical_or).
#define MLPERF_UNARY(Kind, name, ...) Node name(Node x);
#define MLPERF_BINARY(Kind, name, ...) Node name(Node a, Node b);
#define MLPERF_CONVERT(...)
#define MLPERF_TERNARY(...)
#define MLPERF_OP(...)
#include "mlperf/rt/ops.def"
Node cast(Node x, DType to);
Node where(Node cond, Node a, Node b);

Node operator+(Node a, Node b);
Node operator-(Node a, Node b);
Node operator*(Node a, Node b);
Node operator/(Node a, Node b);
Node operator-(Node a);
Node operator+(Node a, double b);
Node operator-(Node a, double b);
Node operator*(Node a, double b);
Node operator/(Node a, double b);
Node operator+(double a, Node b);
Node operator-(double a, Node b);
Node operator*(double a, Node b);
Node operator/(double a, Node b);
// A scalar constant with x's dtype.
Node scalar_like(Node x, double value);

// layout
Node reshape(Node x, Shape shape);  // one dim may be -1
Node transpose(Node x, std::vector<int64_t> perm);
Node transpose(Node x);  // swaps the last two axes
Node broadcast_to(Node x, Shape shape);
Node slice(Node x, std::vector<int64_t> starts, std::vector<int64_t> limits, std::vector<int64_t> strides = {});
Node slice_axis(Node x, int axis, int64_t start, int64_t limit);
Node concat(const std::vector<Node>& xs, int axis);
Node pad(Node x, std::vector<int64_t> lo, std::vector<int64_t> hi, double value = 0.0);
Node expand_dims(Node x, int axis);
Node squeeze(Node x, int axis);

// reductions; empty axes = all axes
Node reduce_sum(Node x, std::vector<int64_t> axes = {}, bool keepdims = false);
Node reduce_mean(Node x, std::vector<int64_t> axes = {}, bool keepdims = false);
Node reduce_max(Node x, std::vector<int64_t> axes = {}, bool keepdims = false);
Node argmax(Node x, int axis = -1, bool keepdims = false);
// Short names for reduce_sum / reduce_mean.
Node sum(Node x, std::vector<int64_t> axes = {}, bool keepdims = false);
Node mean(Node x, std::vector<int64_t> axes = {}, bool keepdims = false);

// numpy matmul semantics: rank-1 operands are promoted, batch dims broadcast
Node matmul(Node a, Node b);

Node softmax(Node logits, int axis = -1);
Node log_softmax(Node logits, int axis = -1);
Node one_hot(Node labels, int64_t depth, DType dtype = DType::F32);
// Per-example loss over the last axis: labels are integer class ids (shape logits.shape[:-1]).
Node softmax_cross_entropy(Node logits, Node labels);
// Per-example loss over the last axis with one-hot (or soft) targets of the logits' shape.
Node softmax_cross_entropy_with_probs(Node logits, Node targets);

// Inverted dropout: keeps each element with probability 1-rate and scales it by 1/(1-rate).
Node dropout(Node x, double rate, uint64_t seed);
// The seed node (an I64 scalar) lets one compiled step vary the mask per call.
Node dropout(Node x, double rate, Node seed);
Node random_uniform(Graph& g, Shape shape, uint64_t seed, DType dtype = DType::F32);

// Shape helpers shared by the ops, autodiff and backends.
Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b);
int normalize_axis(const char* op, int axis, int rank, const Shape& shape);

}  // namespace mlperf::rt
