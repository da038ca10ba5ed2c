#include "mlperf/rt/graph.h"

#include <atomic>
#include <iterator>
#include <limits>
#include <mutex>
#include <sstream>
#include <string_view>
#include <unordered_set>

#include "mlperf/rt/error.h"
#include "mlperf/rt/op_table.h"

namespace mlperf::rt {

namespace {

#define MLPERF_STR(...) #__VA_ARGS__
constexpr bool differentiable(const char* grad) {
  return std::string_view(grad) != "NOT_DIFFERENTIABLE" && std::string_view(grad) != "(NOT_DIFFERENTIABLE)";
}

constexpr OpInfo kOps[] = {
#define MLPERF_OP(Kind, name, arity, cls, dtype_rule, shape_rule, fusion, kernel, grad) \
  {OpKind::Kind,                                                                        \
   #name,                                                                               \
   arity,                                                                               \
   OpClass::cls,                                                                        \
   DTypeRule::dtype_rule,                                                               \
   ShapeRule::shape_rule,                                                               \
   FusionClass::fusion,                                                                 \
   MLPERF_STR(kernel),                                                                  \
   #grad,                                                                               \
   differentiable(#grad),                                                               \
   nullptr,                                                                             \
   nullptr},
#define MLPERF_ELEMENTWISE(Kind, name, arity, cls, dtype_rule, ref, code_float, code_int, grad) \
  {OpKind::Kind,                                                                                \
   #name,                                                                                       \
   arity,                                                                                       \
   OpClass::cls,                                                                                \
   DTypeRule::dtype_rule,                                                                       \
   ShapeRule::Broadcast,                                                                        \
   FusionClass::Inline,                                                                         \
   MLPERF_STR(ref),                                                                             \
   #grad,                                                                                       \
   differentiable(#grad),                                                                       \
   code_float,                                                                                  \
   code_int},
#define MLPERF_UNARY(Kind, name, dtype_rule, ref, code_float, code_int, grad) \
  MLPERF_ELEMENTWISE(Kind, name, 1, Unary, dtype_rule, ref, code_float, code_int, grad)
#define MLPERF_BINARY(Kind, name, dtype_rule, ref, code_float, code_int, grad) \
  MLPERF_ELEMENTWISE(Kind, name, 2, Binary, dtype_rule, ref, code_float, code_int, grad)
#define MLPERF_TERNARY(Kind, name, dtype_rule, ref, code_float, code_int, grad) \
  MLPERF_ELEMENTWISE(Kind, name, 3, Ternary, dtype_rule, ref, code_float, code_int, grad)
#include "mlperf/rt/ops.def"
#undef MLPERF_ELEMENTWISE
};

constexpr bool in_enum_order() {
  for (size_t i = 0; i < std::size(kOps); ++i)
    if (static_cast<size_t>(kOps[i].kind) != i) return false;
  return true;
}
static_assert(in_enum_order(), "ops.def rows must be in OpKind order");

}  // namespace

std::span<const OpInfo> op_table() { return kOps; }

const OpInfo& op_info(OpKind k) {
  auto i = static_cast<size_t>(k);
  if (i >= std::size(kOps)) throw Error("op_info: no op with kind " + std::to_string(i));
  return kOps[i];
}

const char* op_name(OpKind k) {
  auto i = static_cast<size_t>(k);
  return i < std::size(kOps) ? kOps[i].name : "?";
}

bool is_unary_elementwise(OpKind k) { return op_info(k).cls == OpClass::Unary; }
bool is_binary_elementwise(OpKind k) { return op_info(k).cls == OpClass::Binary; }
bool is_comparison(OpKind k) { return op_info(k).dtype_rule == DTypeRule::Compare; }
bool is_elementwise(OpKind k) { return op_info(k).fusion == FusionClass::Inline; }
bool is_reduction(OpKind k) { return op_info(k).cls == OpClass::Reduction; }

namespace {
thread_local Graph* g_building = nullptr;
}

Graph* building_graph() { return g_building; }

BuildScope::BuildScope(Graph& g) : previous_(g_building) { g_building = &g; }
BuildScope::~BuildScope() { g_building = previous_; }

namespace {
// The serials of the graphs alive now: a Node of a destroyed graph is recognised without reading
// that graph, whose memory may hold another graph by now.
std::mutex g_live_mu;
std::unordered_set<uint64_t>& live_graphs() {
  static auto* live = new std::unordered_set<uint64_t>();
  return *live;
}
std::atomic<uint64_t> g_next_serial{1};
}  // namespace

Graph::Graph() : serial_(g_next_serial++) {
  std::lock_guard<std::mutex> lk(g_live_mu);
  live_graphs().insert(serial_);
}

Graph::~Graph() {
  std::lock_guard<std::mutex> lk(g_live_mu);
  live_graphs().erase(serial_);
}

Node::Node(Graph* g, int id) : g_(g), serial_(g ? g->serial() : 0), id_(id) {}

Graph& Node::graph() const {
  if (!g_) throw ArgumentError("use of an empty Node");
  bool alive;
  {
    std::lock_guard<std::mutex> lk(g_live_mu);
    alive = live_graphs().count(serial_) > 0;
  }
  if (!alive)
    throw ArgumentError(
        "a Node of a graph that no longer exists: a model function builds on the Graph it is given, "
        "and Nodes cannot be kept from another graph or an earlier build");
  return *g_;
}

const NodeData& Node::data() const { return graph().node(id_); }

Node Graph::add_node(OpKind kind, std::vector<int> inputs, Shape shape, DType dtype, Attrs attrs) {
  for (int in : inputs) {
    if (in < 0 || static_cast<size_t>(in) >= nodes_.size())
      throw ArgumentError(std::string(op_name(kind)) + ": input node id " + std::to_string(in) +
                          " does not belong to this graph");
  }
  if (Graph* b = building_graph(); b && b != this)
    throw ArgumentError(std::string(op_name(kind)) +
                        ": a node of another graph: a model function builds on the Graph it is given, and Nodes "
                        "cannot be kept from another graph or an earlier build");
  for (int64_t d : shape.dims)
    if (d < 0) throw ShapeError(std::string(op_name(kind)) + ": negative dimension in " + shape.to_string());
  int64_t numel = 0;
  try {
    numel = shape.numel();
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(op_name(kind)) + ": " + e.what());
  }
  if (numel > std::numeric_limits<int64_t>::max() / 8)
    throw ShapeError(std::string(op_name(kind)) + ": shape " + shape.to_string() + " has " + std::to_string(numel) +
                     " elements, more than a 64-bit byte count can hold");
  nodes_.push_back(NodeData{kind, std::move(inputs), std::move(shape), dtype, std::move(attrs)});
  return Node(this, static_cast<int>(nodes_.size() - 1));
}

Node Graph::parameter(Shape shape, DType dtype, std::string name) {
  if (inputs_closed_) throw ArgumentError("parameter: model inputs must be declared before any variable is read");
  Attrs a;
  a.index = static_cast<int64_t>(parameters_.size());
  a.name = std::move(name);
  Node n = add_node(OpKind::Parameter, {}, std::move(shape), dtype, std::move(a));
  parameters_.push_back(n.id());
  return n;
}

Node Graph::variable_parameter(Context* ctx, const std::string& name, Shape shape, DType dtype) {
  if (context_ && ctx != context_) throw ArgumentError("variable '" + name + "': a graph can read one Context only");
  context_ = ctx;
  for (const auto& v : variables_)
    if (v.name == name) return Node(this, v.node);
  inputs_closed_ = true;
  Attrs a;
  a.index = static_cast<int64_t>(parameters_.size());
  a.name = name;
  Node n = add_node(OpKind::Parameter, {}, std::move(shape), dtype, std::move(a));
  parameters_.push_back(n.id());
  variables_.push_back({name, n.id()});
  return n;
}

void Graph::assign(const std::string& name, Node value) {
  if (&value.graph() != this) throw ArgumentError("assign '" + name + "': node from another graph");
  for (auto& a : assignments_) {
    if (a.name == name) {
      a.node = value.id();
      return;
    }
  }
  assignments_.push_back({name, value.id()});
}

void Graph::set_outputs(std::vector<Node> outputs) {
  outputs_.clear();
  for (const Node& n : outputs) {
    if (!n.valid() || &n.graph() != this) throw ArgumentError("graph output is not a node of this graph");
    outputs_.push_back(n.id());
  }
}

Node Graph::constant(std::vector<double> values, Shape shape, DType dtype) {
  if (static_cast<int64_t>(values.size()) != shape.numel())
    throw ShapeError("constant: " + std::to_string(values.size()) + " values for shape " + shape.to_string());
  Attrs a;
  a.literal = std::make_shared<const std::vector<double>>(std::move(values));
  return add_node(OpKind::Constant, {}, std::move(shape), dtype, std::move(a));
}

Node Graph::scalar(double value, DType dtype) { return constant({value}, Shape{}, dtype); }

Node Graph::iota(Shape shape, int axis, DType dtype) {
  int r = shape.rank();
  int a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= r)
    throw ShapeError("iota: axis " + std::to_string(axis) + " out of range for shape " + shape.to_string());
  Attrs at;
  at.axis = a;
  return add_node(OpKind::Iota, {}, std::move(shape), dtype, std::move(at));
}

Node Graph::zeros(Shape shape, DType dtype) {
  Node s = scalar(0.0, dtype);
  if (shape.rank() == 0) return s;
  Attrs a;
  return add_node(OpKind::BroadcastTo, {s.id()}, std::move(shape), dtype, std::move(a));
}

Node Graph::ones(Shape shape, DType dtype) {
  Node s = scalar(1.0, dtype);
  if (shape.rank() == 0) return s;
  return add_node(OpKind::BroadcastTo, {s.id()}, std::move(shape), dtype, {});
}

namespace {
void print_ints(std::ostream& os, const char* name, const std::vector<int64_t>& v) {
  if (v.empty()) return;
  os << ' ' << name << "=[";
  for (size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << v[i];
  os << ']';
}
}  // namespace

std::string Graph::to_string() const {
  std::ostringstream os;
  os << "graph: " << nodes_.size() << " nodes, " << num_inputs() << " inputs, " << variables_.size() << " variables, "
     << outputs_.size() << " outputs, " << assignments_.size() << " assignments\n";
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const NodeData& n = nodes_[i];
    os << "  %" << i << " = " << op_name(n.kind) << '(';
    for (size_t j = 0; j < n.inputs.size(); ++j) os << (j ? ", %" : "%") << n.inputs[j];
    os << ") : " << dtype_name(n.dtype) << n.shape.to_string();
    const Attrs& a = n.attrs;
    if (n.kind == OpKind::Parameter) os << " index=" << a.index;
    if (!a.name.empty()) os << " name=" << a.name;
    if (n.kind == OpKind::Constant && a.literal && a.literal->size() == 1) os << " value=" << (*a.literal)[0];
    if (n.kind == OpKind::Iota || n.kind == OpKind::Concat || n.kind == OpKind::ArgMax) os << " axis=" << a.axis;
    if (n.kind == OpKind::RngUniform) os << " seed=" << a.seed;
    if (n.kind == OpKind::Pad) os << " value=" << a.value;
    if (n.kind == OpKind::MatMul) os << " ta=" << a.transpose_a << " tb=" << a.transpose_b;
    print_ints(os, "axes", a.axes);
    print_ints(os, "perm", a.perm);
    print_ints(os, "starts", a.starts);
    print_ints(os, "limits", a.limits);
    print_ints(os, "strides", a.strides);
    print_ints(os, "lo", a.pad_lo);
    print_ints(os, "hi", a.pad_hi);
    print_ints(os, "interior", a.interior);
    os << '\n';
  }
  for (size_t i = 0; i < outputs_.size(); ++i) os << "  output " << i << " = %" << outputs_[i] << '\n';
  for (const auto& a : assignments_) os << "  assign " << a.name << " = %" << a.node << '\n';
  return os.str();
}

}  // namespace mlperf::rt
