#include "fusion/fusion.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "mlperf/rt/error.h"
#include "mlperf/rt/op_table.h"

namespace mlperf::rt::fusion {

namespace {

bool is_half(DType d) { return d == DType::F16 || d == DType::BF16; }

bool is_layout_remap(OpKind k) { return op_info(k).fusion == FusionClass::Remap; }

// Swaps only the last two axes.
bool is_last_two_swap(const NodeData& n) {
  if (n.kind != OpKind::Transpose) return false;
  const auto& p = n.attrs.perm;
  size_t r = p.size();
  if (r < 2) return false;
  for (size_t i = 0; i + 2 < r; ++i)
    if (p[i] != static_cast<int64_t>(i)) return false;
  return p[r - 2] == static_cast<int64_t>(r - 1) && p[r - 1] == static_cast<int64_t>(r - 2);
}

}  // namespace

// 16-bit matmuls become f32 matmuls between casts, so libraries only see f32.
std::vector<NodeData> lower(const Graph& g, std::vector<int>& outputs, bool half_matmuls) {
  std::vector<NodeData> out;
  std::vector<int> map(g.size(), -1);
  for (size_t i = 0; i < g.size(); ++i) {
    NodeData n = g.node(static_cast<int>(i));
    for (int& in : n.inputs) in = map[static_cast<size_t>(in)];
    if (n.kind == OpKind::MatMul && is_half(n.dtype) && !half_matmuls) {
      DType h = n.dtype;
      std::vector<int> ins;
      for (int in : n.inputs) {
        NodeData c{OpKind::Cast, {in}, out[static_cast<size_t>(in)].shape, DType::F32, {}};
        out.push_back(std::move(c));
        ins.push_back(static_cast<int>(out.size()) - 1);
      }
      NodeData mm = n;
      mm.inputs = ins;
      mm.dtype = DType::F32;
      out.push_back(std::move(mm));
      NodeData back{OpKind::Cast, {static_cast<int>(out.size()) - 1}, n.shape, h, {}};
      out.push_back(std::move(back));
    } else {
      out.push_back(std::move(n));
    }
    map[i] = static_cast<int>(out.size()) - 1;
  }
  for (int o : g.outputs()) outputs.push_back(map[static_cast<size_t>(o)]);
  for (const auto& a : g.assignments()) outputs.push_back(map[static_cast<size_t>(a.node)]);
  return out;
}

Liveness liveness(const std::vector<NodeData>& nodes, const std::vector<int>& outs) {
  const size_t n = nodes.size();
  Liveness result;
  result.live.assign(n, false);
  result.uses.assign(n, 0);
  for (int o : outs) result.live[static_cast<size_t>(o)] = true;
  for (size_t i = n; i-- > 0;)
    if (result.live[i])
      for (int in : nodes[i].inputs) result.live[static_cast<size_t>(in)] = true;
  for (size_t i = 0; i < n; ++i)
    if (result.live[i])
      for (int in : nodes[i].inputs) ++result.uses[static_cast<size_t>(in)];
  return result;
}

Materialization materialize(const std::vector<NodeData>& nodes, const std::vector<int>& outs, const Liveness& live) {
  const size_t n = nodes.size();
  Materialization result;
  result.mat.assign(n, false);
  result.flip_a.assign(n, false);
  result.flip_b.assign(n, false);
  std::vector<bool> cheap(n, false);
  auto& mat = result.mat;
  for (int o : outs) mat[static_cast<size_t>(o)] = true;
  for (size_t i = 0; i < n; ++i) {
    if (!live.live[i]) continue;
    const NodeData& d = nodes[i];
    const FusionClass fc = op_info(d.kind).fusion;
    if (d.kind == OpKind::Parameter || fc == FusionClass::Reduce || fc == FusionClass::ArgMax ||
        fc == FusionClass::Library)
      mat[i] = true;  // a buffer of its own: inputs, and the results of loops or calls that are not inlined
    if (d.kind == OpKind::Constant && d.shape.numel() != 1) mat[i] = true;
    if (d.kind == OpKind::MatMul) {
      for (int j = 0; j < 2; ++j) {
        int in = d.inputs[static_cast<size_t>(j)];
        const NodeData& x = nodes[static_cast<size_t>(in)];
        if (is_last_two_swap(x) && nodes[static_cast<size_t>(x.inputs[0])].dtype == DType::F32) {
          (j == 0 ? result.flip_a : result.flip_b)[i] = true;
          mat[static_cast<size_t>(x.inputs[0])] = true;
        } else {
          mat[static_cast<size_t>(in)] = true;
        }
      }
    }
    if (d.kind == OpKind::Concat)
      for (int in : d.inputs) {
        const NodeData& x = nodes[static_cast<size_t>(in)];
        if (x.kind != OpKind::Parameter && x.kind != OpKind::Constant && !is_layout_remap(x.kind))
          mat[static_cast<size_t>(in)] = true;
      }
  }
  for (size_t i = 0; i < n; ++i) {
    if (!live.live[i]) continue;
    const NodeData& d = nodes[i];
    bool leafish = d.kind == OpKind::Iota || (d.kind == OpKind::Constant && d.shape.numel() == 1);
    bool remap_of_cheap =
        is_layout_remap(d.kind) && (mat[static_cast<size_t>(d.inputs[0])] || cheap[static_cast<size_t>(d.inputs[0])]);
    cheap[i] = !mat[i] && (leafish || remap_of_cheap);
    if (!mat[i] && !cheap[i] && live.uses[i] > 1) mat[i] = true;
    // A broadcast that expands a computed value: compute it once.
    if (d.kind == OpKind::BroadcastTo) {
      auto in = static_cast<size_t>(d.inputs[0]);
      if (!mat[in] && !cheap[in] && nodes[in].shape.numel() < d.shape.numel()) mat[in] = true;
    }
  }
  return result;
}

BufferAssignment assign_buffers(Program& program, const std::vector<int>& outs, const Liveness& live,
                                const Materialization& mat) {
  const auto& nodes = program.nodes;
  const size_t n = nodes.size();
  BufferAssignment result;
  program.node_buffer.assign(n, -1);
  auto new_buffer = [&](Buffer::Kind k, int node, int index) {
    Buffer b;
    b.kind = k;
    b.node = node;
    b.index = index;
    b.dtype = nodes[static_cast<size_t>(node)].dtype;
    b.numel = nodes[static_cast<size_t>(node)].shape.numel();
    program.buffers.push_back(b);
    return static_cast<int>(program.buffers.size()) - 1;
  };
  result.computed.assign(n, false);
  for (size_t i = 0; i < n; ++i) {
    if (!live.live[i] || !mat.mat[i]) continue;
    const NodeData& d = nodes[i];
    int id = static_cast<int>(i);
    if (d.kind == OpKind::Parameter) {
      program.node_buffer[i] = new_buffer(Buffer::Kind::Input, id, static_cast<int>(d.attrs.index));
    } else if (d.kind == OpKind::Constant) {
      program.node_buffer[i] = new_buffer(Buffer::Kind::Constant, id, -1);
    } else if (d.kind == OpKind::Reshape && mat.mat[static_cast<size_t>(d.inputs[0])]) {
      program.node_buffer[i] = program.node_buffer[static_cast<size_t>(d.inputs[0])];  // same bytes
    } else {
      program.node_buffer[i] = new_buffer(Buffer::Kind::Scratch, id, -1);
      result.computed[i] = true;
    }
  }
  result.out_buf.assign(outs.size(), -1);
  for (size_t j = 0; j < outs.size(); ++j) {
    auto o = static_cast<size_t>(outs[j]);
    int b = program.node_buffer[o];
    if (result.computed[o] && program.buffers[static_cast<size_t>(b)].kind == Buffer::Kind::Scratch) {
      program.buffers[static_cast<size_t>(b)].kind = Buffer::Kind::Output;
      program.buffers[static_cast<size_t>(b)].index = static_cast<int>(j);
      result.out_buf[j] = b;
    } else {
      result.out_buf[j] = new_buffer(Buffer::Kind::Output, outs[j], static_cast<int>(j));
    }
  }
  return result;
}

namespace {

// The materialized nodes the expression computing `root` reads, each with whether every path to
// it keeps the flat element index (a kernel may then read a value its own earlier root stored).
std::vector<std::pair<int, bool>> reached(const std::vector<NodeData>& nodes, const std::vector<bool>& mat, int root) {
  std::vector<std::pair<int, bool>> found, stack;
  std::set<std::pair<int, bool>> seen;
  const NodeData& r = nodes[static_cast<size_t>(root)];
  bool root_keeps = is_elementwise(r.kind) || r.kind == OpKind::Reshape || r.kind == OpKind::StopGradient;
  for (int in : r.inputs) stack.push_back({in, root_keeps});
  while (!stack.empty()) {
    auto [x, ident] = stack.back();
    stack.pop_back();
    if (!seen.insert({x, ident}).second) continue;
    auto u = static_cast<size_t>(x);
    if (mat[u]) {
      found.push_back({x, ident});
      continue;
    }
    const NodeData& d = nodes[u];
    bool keeps = ident && (is_elementwise(d.kind) || d.kind == OpKind::Reshape);
    for (int in : d.inputs) stack.push_back({in, keeps});
  }
  return found;
}

MatMulDesc matmul_desc(const Program& program, const Materialization& mat, size_t i) {
  const auto& nodes = program.nodes;
  const NodeData& d = nodes[i];
  MatMulDesc m;
  m.node = static_cast<int>(i);
  m.dtype = d.dtype;
  int r = d.shape.rank();
  m.m = d.shape[r - 2];
  m.n = d.shape[r - 1];
  m.batch = 1;
  for (int a = 0; a < r - 2; ++a) m.batch *= d.shape[a];
  m.ta = d.attrs.transpose_a;
  m.tb = d.attrs.transpose_b;
  int ia = d.inputs[0], ib = d.inputs[1];
  const Shape& sa = nodes[static_cast<size_t>(ia)].shape;
  m.k = m.ta ? sa[r - 2] : sa[r - 1];
  if (mat.flip_a[i]) {
    m.ta = !m.ta;
    ia = nodes[static_cast<size_t>(ia)].inputs[0];
  }
  if (mat.flip_b[i]) {
    m.tb = !m.tb;
    ib = nodes[static_cast<size_t>(ib)].inputs[0];
  }
  m.a = program.node_buffer[static_cast<size_t>(ia)];
  m.b = program.node_buffer[static_cast<size_t>(ib)];
  m.out = program.node_buffer[i];
  return m;
}

// Adds root `id` to the last kernel when it is elementwise over the same space and reads none of
// that kernel's roots through an index remap; returns whether it did.
bool merge_into_last_kernel(Program& program, int id, const std::vector<std::pair<int, bool>>& found) {
  if (program.steps.empty() || program.steps.back().kind != Step::Kind::Kernel) return false;
  const NodeData& d = program.nodes[static_cast<size_t>(id)];
  KernelDesc& k = program.kernels[static_cast<size_t>(program.steps.back().index)];
  if (k.kind != KernelDesc::Kind::Elementwise || k.space != d.shape || d.shape.numel() <= 0) return false;
  for (auto& [x, ident] : found)
    if (!ident && std::find(k.roots.begin(), k.roots.end(), x) != k.roots.end()) return false;
  k.roots.push_back(id);
  k.stores.push_back(program.node_buffer[static_cast<size_t>(id)]);
  for (auto& [x, ident] : found) {
    bool in_kernel = std::find(k.roots.begin(), k.roots.end(), x) != k.roots.end();
    int b = program.node_buffer[static_cast<size_t>(x)];
    if (!in_kernel && std::find(k.loads.begin(), k.loads.end(), b) == k.loads.end()) k.loads.push_back(b);
  }
  return true;
}

}  // namespace

void group_kernels(Program& program, const Materialization& mat, const BufferAssignment& buffers) {
  const auto& nodes = program.nodes;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!buffers.computed[i]) continue;
    const NodeData& d = nodes[i];
    int id = static_cast<int>(i);
    const FusionClass fc = op_info(d.kind).fusion;
    if (fc == FusionClass::Library) {
      program.matmuls.push_back(matmul_desc(program, mat, i));
      program.steps.push_back({Step::Kind::MatMul, static_cast<int>(program.matmuls.size()) - 1});
      continue;
    }
    std::vector<std::pair<int, bool>> found = reached(nodes, mat.mat, id);
    KernelDesc::Kind kind = fc == FusionClass::ArgMax   ? KernelDesc::Kind::ArgMax
                            : fc == FusionClass::Reduce ? KernelDesc::Kind::Reduce
                                                        : KernelDesc::Kind::Elementwise;
    if (kind == KernelDesc::Kind::Elementwise && merge_into_last_kernel(program, id, found)) continue;
    KernelDesc k;
    k.kind = kind;
    k.roots = {id};
    k.stores = {program.node_buffer[i]};
    k.space = d.shape;
    if (kind != KernelDesc::Kind::Elementwise) {
      const Shape& in = nodes[static_cast<size_t>(d.inputs[0])].shape;
      k.reduce_count = d.shape.numel() ? in.numel() / d.shape.numel() : 0;
      if (kind == KernelDesc::Kind::ArgMax) k.reduce_count = in[d.attrs.axis];
    }
    for (auto& [x, ident] : found) {
      int b = program.node_buffer[static_cast<size_t>(x)];
      if (std::find(k.loads.begin(), k.loads.end(), b) == k.loads.end()) k.loads.push_back(b);
    }
    program.kernels.push_back(std::move(k));
    program.steps.push_back({Step::Kind::Kernel, static_cast<int>(program.kernels.size()) - 1});
  }
}

void add_output_copies(Program& program, const std::vector<int>& outs, const BufferAssignment& buffers) {
  for (size_t j = 0; j < outs.size(); ++j) {
    auto o = static_cast<size_t>(outs[j]);
    if (program.node_buffer[o] == buffers.out_buf[j]) continue;
    CopyDesc c;
    c.src = program.node_buffer[o];
    c.dst = buffers.out_buf[j];
    c.bytes = program.buffers[static_cast<size_t>(c.dst)].bytes();
    if (c.src < 0) throw Error("fusion: output node " + std::to_string(o) + " has no buffer");
    program.copies.push_back(c);
    program.steps.push_back({Step::Kind::Copy, static_cast<int>(program.copies.size()) - 1});
  }
}

void assign_lifetimes(Program& program) {
  for (size_t s = 0; s < program.steps.size(); ++s) {
    auto touch = [&](int b, bool write) {
      Buffer& buf = program.buffers[static_cast<size_t>(b)];
      if (write && buf.first_step < 0) buf.first_step = static_cast<int>(s);
      buf.last_step = std::max(buf.last_step, static_cast<int>(s));
    };
    const Step& st = program.steps[s];
    if (st.kind == Step::Kind::Kernel) {
      const KernelDesc& k = program.kernels[static_cast<size_t>(st.index)];
      for (int b : k.loads) touch(b, false);
      for (int b : k.stores) touch(b, true);
    } else if (st.kind == Step::Kind::MatMul) {
      const MatMulDesc& m = program.matmuls[static_cast<size_t>(st.index)];
      touch(m.a, false);
      touch(m.b, false);
      touch(m.out, true);
    } else {
      const CopyDesc& c = program.copies[static_cast<size_t>(st.index)];
      touch(c.src, false);
      touch(c.dst, true);
    }
  }
}

Program plan(const Graph& graph, bool half_matmuls) {
  Program program;
  std::vector<int> outs;
  program.nodes = lower(graph, outs, half_matmuls);
  program.num_inputs = graph.parameters().size();
  program.num_outputs = outs.size();
  Liveness live = liveness(program.nodes, outs);
  Materialization mat = materialize(program.nodes, outs, live);
  BufferAssignment buffers = assign_buffers(program, outs, live, mat);
  group_kernels(program, mat, buffers);
  add_output_copies(program, outs, buffers);
  assign_lifetimes(program);
  return program;
}

int64_t peak_scratch_bytes(const Program& program, bool all_at_once) {
  std::vector<int64_t> delta(program.steps.size() + 1, 0);
  int64_t total = 0;
  for (const Buffer& buf : program.buffers) {
    if (buf.kind != Buffer::Kind::Scratch || buf.first_step < 0 || buf.bytes() == 0) continue;
    auto bytes = static_cast<int64_t>(buf.bytes());
    total += bytes;
    delta[static_cast<size_t>(buf.first_step)] += bytes;
    delta[static_cast<size_t>(std::max(buf.first_step, buf.last_step)) + 1] -= bytes;
  }
  if (all_at_once) return total;
  int64_t now = 0, peak = 0;
  for (int64_t d : delta) peak = std::max(peak, now += d);
  return peak;
}

std::string Program::to_string() const {
  std::ostringstream os;
  auto bufname = [&](int b) {
    const Buffer& buf = buffers[static_cast<size_t>(b)];
    const char* k = buf.kind == Buffer::Kind::Input      ? "in"
                    : buf.kind == Buffer::Kind::Output   ? "out"
                    : buf.kind == Buffer::Kind::Constant ? "const"
                                                         : "tmp";
    return std::string(k) + std::to_string(b) + "(%" + std::to_string(buf.node) + ":" + dtype_name(buf.dtype) + ")";
  };
  os << "fused program: " << steps.size() << " steps, " << kernels.size() << " kernels, " << matmuls.size()
     << " matmuls, " << copies.size() << " copies, " << buffers.size() << " buffers\n";
  for (size_t s = 0; s < steps.size(); ++s) {
    const Step& st = steps[s];
    os << "  [" << s << "] ";
    if (st.kind == Step::Kind::Kernel) {
      const KernelDesc& k = kernels[static_cast<size_t>(st.index)];
      os << (k.kind == KernelDesc::Kind::Elementwise ? "kernel"
             : k.kind == KernelDesc::Kind::Reduce    ? "reduce"
                                                     : "argmax")
         << " over " << k.space.to_string();
      if (k.kind != KernelDesc::Kind::Elementwise) os << " x" << k.reduce_count;
      os << " roots {";
      for (size_t i = 0; i < k.roots.size(); ++i)
        os << (i ? ", " : "") << "%" << k.roots[i] << " " << op_name(nodes[static_cast<size_t>(k.roots[i])].kind);
      os << "} loads {";
      for (size_t i = 0; i < k.loads.size(); ++i) os << (i ? ", " : "") << bufname(k.loads[i]);
      os << "} stores {";
      for (size_t i = 0; i < k.stores.size(); ++i) os << (i ? ", " : "") << bufname(k.stores[i]);
      os << "}\n";
    } else if (st.kind == Step::Kind::MatMul) {
      const MatMulDesc& m = matmuls[static_cast<size_t>(st.index)];
      os << "matmul %" << m.node << " " << dtype_name(m.dtype) << " " << m.batch << "x[" << m.m << "x" << m.k << "]x["
         << m.k << "x" << m.n << "]" << (m.ta ? " ta" : "") << (m.tb ? " tb" : "") << " " << bufname(m.a) << " "
         << bufname(m.b) << " -> " << bufname(m.out) << "\n";
    } else {
      const CopyDesc& c = copies[static_cast<size_t>(st.index)];
      os << "copy " << bufname(c.src) << " -> " << bufname(c.dst) << " " << c.bytes << " bytes\n";
    }
  }
  return os.str();
}

}  // namespace mlperf::rt::fusion
