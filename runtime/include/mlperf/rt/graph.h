#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mlperf/rt/dtype.h"

namespace mlperf::rt {

class Context;

// The IR is a flat list of nodes in topological order (a node only refers to
// earlier ids). Binary and ternary elementwise ops always have operands of the
// same shape: the builder inserts explicit BroadcastTo nodes, so a fusion pass
// sees broadcasting as an index mapping and kernels never broadcast implicitly.
// The ops, their attributes and their rules are listed once, in ops.def (see op_table.h):
//   leaves: Parameter (attrs.index), Constant (attrs.literal, f64), Iota (attrs.axis),
//     RngUniform ([0,1) from attrs.seed and an optional I64 scalar seed input, counter-based);
//   unary, binary (same shapes, same dtypes; comparisons give Bool) and ternary (Where) elementwise;
//   layout: Reshape, Transpose (attrs.perm), BroadcastTo (numpy rules), Slice (attrs.starts/limits/
//     strides), Concat (attrs.axis), Pad (attrs.pad_lo/pad_hi/interior (may be empty), attrs.value);
//   reductions (the output drops the reduced axes; keepdims is a Reshape after it): ReduceSum and
//     ReduceMax (attrs.axes), ArgMax (attrs.axis, I64);
//   MatMul: [..., m, k] x [..., k, n] with equal batch dims; attrs.transpose_a/b swap the last two dims.
enum class OpKind : uint8_t {
#define MLPERF_OP(Kind, ...) Kind,
#include "mlperf/rt/ops.def"
};

const char* op_name(OpKind k);
bool is_unary_elementwise(OpKind k);
bool is_binary_elementwise(OpKind k);
bool is_comparison(OpKind k);
bool is_elementwise(OpKind k);  // unary, binary, Where
bool is_reduction(OpKind k);

struct Attrs {
  int64_t index = 0;
  int axis = 0;
  std::vector<int64_t> axes;
  std::vector<int64_t> perm;
  std::vector<int64_t> starts, limits, strides;
  std::vector<int64_t> pad_lo, pad_hi, interior;
  double value = 0.0;
  uint64_t seed = 0;
  bool transpose_a = false, transpose_b = false;
  std::shared_ptr<const std::vector<double>> literal;
  std::string name;
};

// Attrs::name of the Eq node by which softmax_cross_entropy compares its labels with the class ids
// 0..classes-1: the reference backend checks that every label is one of them.
inline constexpr const char* kClassIdsAttr = "softmax_cross_entropy.class_ids";

struct NodeData {
  OpKind kind;
  std::vector<int> inputs;
  Shape shape;
  DType dtype;
  Attrs attrs;
};

class Graph;

// Lightweight handle to a node of a Graph.
class Node {
 public:
  Node() = default;
  Node(Graph* g, int id);
  bool valid() const { return g_ != nullptr && id_ >= 0; }
  // Throws ArgumentError for a Node whose graph no longer exists (kept from an earlier build),
  // even when a newer graph lives at the same address.
  Graph& graph() const;
  int id() const { return id_; }
  const NodeData& data() const;
  Shape shape() const { return data().shape; }  // a copy: building nodes may move the node list
  DType dtype() const { return data().dtype; }
  int rank() const { return shape().rank(); }
  bool operator==(const Node& o) const { return g_ == o.g_ && serial_ == o.serial_ && id_ == o.id_; }

 private:
  Graph* g_ = nullptr;
  uint64_t serial_ = 0;  // the graph's, unique in the process
  int id_ = -1;
};

struct VariableRef {
  std::string name;
  int node;
};

class Graph {
 public:
  Graph();
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  Node parameter(Shape shape, DType dtype, std::string name = "");
  Node constant(std::vector<double> values, Shape shape, DType dtype = DType::F32);
  Node scalar(double value, DType dtype = DType::F32);
  Node iota(Shape shape, int axis, DType dtype = DType::I64);
  Node zeros(Shape shape, DType dtype = DType::F32);
  Node ones(Shape shape, DType dtype = DType::F32);

  // Low-level: appends a node after validating input ids. Ops in ops.h check shapes.
  Node add_node(OpKind kind, std::vector<int> inputs, Shape shape, DType dtype, Attrs attrs = {});

  const std::vector<NodeData>& nodes() const { return nodes_; }
  const NodeData& node(int id) const { return nodes_.at(static_cast<size_t>(id)); }
  Node handle(int id) { return Node(this, id); }
  size_t size() const { return nodes_.size(); }

  // Parameter node ids in argument order: the model's inputs, then variables.
  const std::vector<int>& parameters() const { return parameters_; }
  size_t num_inputs() const { return parameters_.size() - variables_.size(); }

  void set_outputs(std::vector<Node> outputs);
  const std::vector<int>& outputs() const { return outputs_; }

  // Variables of a Context read by this graph; their parameters follow the inputs.
  Node variable_parameter(Context* ctx, const std::string& name, Shape shape, DType dtype);
  const std::vector<VariableRef>& variables() const { return variables_; }
  // New values for variables, returned by the executable after the user outputs.
  void assign(const std::string& name, Node value);
  const std::vector<VariableRef>& assignments() const { return assignments_; }
  Context* context() const { return context_; }

  std::string to_string() const;
  uint64_t serial() const { return serial_; }

 private:
  uint64_t serial_;
  std::vector<NodeData> nodes_;
  std::vector<int> parameters_;
  std::vector<int> outputs_;
  std::vector<VariableRef> variables_;
  std::vector<VariableRef> assignments_;
  Context* context_ = nullptr;
  bool inputs_closed_ = false;
};

// While a BuildScope is alive on a thread (Exec builds a model function's graph in one), nodes
// can only be added to its graph: using a Node of another graph is an ArgumentError on every
// backend, at build time.
class BuildScope {
 public:
  explicit BuildScope(Graph& g);
  ~BuildScope();
  BuildScope(const BuildScope&) = delete;
  BuildScope& operator=(const BuildScope&) = delete;

 private:
  Graph* previous_;
};
Graph* building_graph();  // the innermost BuildScope's graph on this thread, or nullptr

}  // namespace mlperf::rt
