#pragma once
// Fusion: turns a Graph into a Program of fused kernels, library matmuls and copies.
//
// Every node whose value must live in memory ("materialized": parameters, non-scalar
// constants, outputs, matmul operands and results, reductions, nodes with several
// consumers that are not cheap index remappings, inputs that a broadcast expands)
// gets a buffer. Everything else is inlined, element by element, into the kernel
// that computes the next materialized node, so chains of elementwise, broadcast,
// layout and reduction ops become one loop and intermediates never touch memory.
// Elementwise kernels with the same iteration space are merged (multi-output), so
// e.g. the Adam update of one variable (m, v and the weight) is one kernel.
#include <cstdint>
#include <string>
#include <vector>

#include "mlperf/rt/graph.h"

namespace mlperf::rt::fusion {

struct Buffer {
  enum class Kind { Input, Output, Scratch, Constant };
  Kind kind = Kind::Scratch;
  int node = -1;   // the node whose value it holds
  int index = -1;  // Input: parameter position; Output: output position
  DType dtype = DType::F32;
  int64_t numel = 0;
  size_t bytes() const { return static_cast<size_t>(numel) * dtype_size(dtype); }
  int first_step = -1, last_step = -1;  // lifetime in steps (scratch)
};

struct KernelDesc {
  enum class Kind { Elementwise, Reduce, ArgMax };
  Kind kind = Kind::Elementwise;
  std::vector<int> roots;    // nodes computed and stored, in topological order
  Shape space;               // iteration space: the roots' shape (elementwise) or the output shape
  int64_t reduce_count = 1;  // elements reduced per output element (Reduce, ArgMax)
  std::vector<int> loads;    // buffer ids read (kernel parameters, in order)
  std::vector<int> stores;   // buffer ids written, one per root
  int64_t iterations() const { return space.numel(); }
};

struct MatMulDesc {
  int node = -1;
  DType dtype = DType::F32;      // of both operands and the result (16-bit only with half_matmuls)
  int a = -1, b = -1, out = -1;  // buffer ids
  bool ta = false, tb = false;
  int64_t batch = 1, m = 0, n = 0, k = 0;
};

struct CopyDesc {
  int src = -1, dst = -1;  // buffer ids
  size_t bytes = 0;
};

struct Step {
  enum class Kind { Kernel, MatMul, Copy };
  Kind kind;
  int index;
};

struct Program {
  std::vector<NodeData> nodes;   // the lowered graph (16-bit matmuls rewritten to f32)
  std::vector<int> node_buffer;  // buffer holding each node's value, or -1 (inlined)
  std::vector<Buffer> buffers;
  std::vector<KernelDesc> kernels;
  std::vector<MatMulDesc> matmuls;
  std::vector<CopyDesc> copies;
  std::vector<Step> steps;
  size_t num_inputs = 0, num_outputs = 0;
  std::string to_string() const;
};

// half_matmuls: the backend multiplies 16-bit operands itself (cpu: converting small tiles);
// otherwise 16-bit matmuls are lowered to f32 matmuls between casts (cuda: cuBLAS Sgemm).
Program plan(const Graph& graph, bool half_matmuls = false);

// plan()'s stages, in order (each unit-tested in tests/runtime/fusion_plan_test.cpp).
// 1. Unless half_matmuls, 16-bit matmuls rewritten to f32 matmuls between casts; `outputs` gets
//    the user outputs, then the assignments, as node ids of the lowered graph.
std::vector<NodeData> lower(const Graph& graph, std::vector<int>& outputs, bool half_matmuls = false);
// 2. Nodes the outputs depend on, and how many live nodes read each.
struct Liveness {
  std::vector<bool> live;
  std::vector<int> uses;
};
Liveness liveness(const std::vector<NodeData>& nodes, const std::vector<int>& outputs);
// 3. Which nodes get a buffer (see the top of this file); flip_a/flip_b: a matmul reads that
//    operand through a last-two-axes transpose, by the BLAS transpose flag.
struct Materialization {
  std::vector<bool> mat, flip_a, flip_b;
};
Materialization materialize(const std::vector<NodeData>& nodes, const std::vector<int>& outputs, const Liveness& live);
// 4. Program::buffers and node_buffer: inputs, constants, scratch (computed), outputs; a reshape
//    of a materialized node shares its buffer; out_buf: the buffer of each output position.
struct BufferAssignment {
  std::vector<bool> computed;  // nodes a step computes into their own buffer
  std::vector<int> out_buf;
};
BufferAssignment assign_buffers(Program& program, const std::vector<int>& outputs, const Liveness& live,
                                const Materialization& mat);
// 5. Steps: a library matmul per matmul node, a kernel per other computed node, consecutive
//    elementwise kernels over one iteration space merged into one multi-output kernel.
void group_kernels(Program& program, const Materialization& mat, const BufferAssignment& buffers);
// 6. A copy step for each output whose value lives in another buffer (a parameter, a constant,
//    a node computed for an earlier output).
void add_output_copies(Program& program, const std::vector<int>& outputs, const BufferAssignment& buffers);
// 7. Each buffer's first (written) and last step.
void assign_lifetimes(Program& program);

// Scratch bytes held at once when each scratch buffer lives from its first to its last step
// (the cpu backend), or when all are allocated for the whole run (all_at_once: the cuda backend).
int64_t peak_scratch_bytes(const Program& program, bool all_at_once);

}  // namespace mlperf::rt::fusion
