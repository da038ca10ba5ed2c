// fusion::plan's stages one at a time, on small graphs.
#include "fusion/fusion.h"
#include "test_util.h"

using rt::Node;
using rt::Shape;
namespace fu = mlperf::rt::fusion;

namespace {

struct Planned {
  std::vector<int> outs;
  fu::Program P;
  fu::Liveness L;
  fu::Materialization M;
  fu::BufferAssignment A;
};

Planned stages(const rt::Graph& g) {
  Planned s;
  s.P.nodes = fu::lower(g, s.outs);
  s.L = fu::liveness(s.P.nodes, s.outs);
  s.M = fu::materialize(s.P.nodes, s.outs, s.L);
  s.A = fu::assign_buffers(s.P, s.outs, s.L, s.M);
  return s;
}

TEST(FusionLower, HalfMatmulBecomesAnF32MatmulBetweenCasts) {
  rt::Graph g;
  Node a = g.parameter(Shape{2, 3}, rt::DType::F16), b = g.parameter(Shape{3, 4}, rt::DType::F16);
  g.set_outputs({rt::matmul(a, b)});
  std::vector<int> outs;
  auto N = fu::lower(g, outs);
  ASSERT_EQ(N.size(), 6u);  // 2 parameters, 2 casts, the matmul, the cast back
  EXPECT_EQ(N[4].kind, rt::OpKind::MatMul);
  EXPECT_EQ(N[4].dtype, rt::DType::F32);
  EXPECT_EQ(N[5].kind, rt::OpKind::Cast);
  EXPECT_EQ(N[5].dtype, rt::DType::F16);
  EXPECT_EQ(outs, std::vector<int>{5});
}

TEST(FusionLiveness, DeadNodesAreNotLiveAndUsesAreCounted) {
  rt::Graph g;
  Node x = g.parameter(Shape{4}, rt::DType::F32);
  Node e = rt::exp(x);
  Node dead = rt::neg(x);
  g.set_outputs({e + e});
  std::vector<int> outs;
  auto N = fu::lower(g, outs);
  auto L = fu::liveness(N, outs);
  EXPECT_FALSE(L.live[static_cast<size_t>(dead.id())]);
  EXPECT_TRUE(L.live[static_cast<size_t>(e.id())]);
  EXPECT_EQ(L.uses[static_cast<size_t>(e.id())], 2);
  EXPECT_EQ(L.uses[static_cast<size_t>(dead.id())], 0);
}

TEST(FusionMaterialize, ChainsAreInlinedAndSharedValuesAndMatmulOperandsGetBuffers) {
  rt::Graph g;
  Node x = g.parameter(Shape{4, 8}, rt::DType::F32), w = g.parameter(Shape{16, 8}, rt::DType::F32);
  Node scaled = x * 2.0;                       // one use: inlined into relu's kernel
  Node act = rt::relu(scaled);                 // a matmul operand
  Node y = rt::matmul(act, rt::transpose(w));  // w read through the transpose flag
  Node e = rt::exp(y);                         // two uses: computed once
  g.set_outputs({e + rt::sum(e)});
  auto s = stages(g);
  auto mat = [&](Node n) { return static_cast<bool>(s.M.mat[static_cast<size_t>(n.id())]); };
  EXPECT_TRUE(mat(x));
  EXPECT_FALSE(mat(scaled));
  EXPECT_TRUE(mat(act));
  EXPECT_TRUE(mat(w));
  EXPECT_TRUE(mat(y));
  EXPECT_TRUE(mat(e));
  EXPECT_TRUE(s.M.flip_b[static_cast<size_t>(y.id())]);
}

TEST(FusionBuffers, OutputsReshapesAndParameterOutputs) {
  rt::Graph g;
  Node x = g.parameter(Shape{2, 3}, rt::DType::F32);
  Node r = rt::reshape(x, Shape{6});
  Node t = rt::tanh(r);
  g.set_outputs({t, x});
  auto s = stages(g);
  int bx = s.P.node_buffer[static_cast<size_t>(x.id())];
  EXPECT_EQ(s.P.buffers[static_cast<size_t>(bx)].kind, fu::Buffer::Kind::Input);
  int bt = s.P.node_buffer[static_cast<size_t>(t.id())];
  EXPECT_EQ(s.P.buffers[static_cast<size_t>(bt)].kind, fu::Buffer::Kind::Output);
  EXPECT_EQ(s.A.out_buf[0], bt);
  EXPECT_NE(s.A.out_buf[1], bx);  // a parameter output is copied into its own output buffer
  EXPECT_EQ(s.P.buffers[static_cast<size_t>(s.A.out_buf[1])].kind, fu::Buffer::Kind::Output);
  EXPECT_TRUE(s.A.computed[static_cast<size_t>(t.id())]);
  EXPECT_FALSE(s.A.computed[static_cast<size_t>(x.id())]);
}

TEST(FusionKernels, SameSpaceElementwiseRootsMergeAndReductionsAndMatmulsAreTheirOwnSteps) {
  rt::Graph g;
  Node x = g.parameter(Shape{4, 8}, rt::DType::F32), w = g.parameter(Shape{8, 2}, rt::DType::F32);
  Node a = rt::sigmoid(x), b = rt::exp(x) * 3.0;
  g.set_outputs({a, b, rt::reduce_sum(x, {1}), rt::matmul(x, w)});
  auto s = stages(g);
  fu::group_kernels(s.P, s.M, s.A);
  ASSERT_EQ(s.P.steps.size(), 3u);
  ASSERT_EQ(s.P.kernels.size(), 2u);
  EXPECT_EQ(s.P.kernels[0].roots.size(), 2u);  // a and b in one kernel
  EXPECT_EQ(s.P.kernels[1].kind, fu::KernelDesc::Kind::Reduce);
  EXPECT_EQ(s.P.kernels[1].reduce_count, 8);
  ASSERT_EQ(s.P.matmuls.size(), 1u);
  EXPECT_EQ(s.P.matmuls[0].m, 4);
  EXPECT_EQ(s.P.matmuls[0].n, 2);
  EXPECT_EQ(s.P.matmuls[0].k, 8);
  EXPECT_EQ(s.P.steps[2].kind, fu::Step::Kind::MatMul);
}

TEST(FusionCopies, AParameterOutputIsCopied) {
  rt::Graph g;
  Node x = g.parameter(Shape{5}, rt::DType::F32);
  g.set_outputs({x, x + 1.0});
  auto s = stages(g);
  fu::group_kernels(s.P, s.M, s.A);
  fu::add_output_copies(s.P, s.outs, s.A);
  ASSERT_EQ(s.P.copies.size(), 1u);
  EXPECT_EQ(s.P.copies[0].bytes, 20u);
  EXPECT_EQ(s.P.copies[0].src, s.P.node_buffer[static_cast<size_t>(x.id())]);
  EXPECT_EQ(s.P.steps.back().kind, fu::Step::Kind::Copy);
}

TEST(FusionLifetimes, AScratchBufferLivesFromItsWriterToItsLastReader) {
  rt::Graph g;
  Node x = g.parameter(Shape{4, 4}, rt::DType::F32);
  Node m = rt::matmul(x, x);         // step 0, scratch
  Node s1 = rt::reduce_sum(m, {0});  // step 1
  Node s2 = rt::reduce_max(m, {1});  // step 2: m's last reader
  g.set_outputs({s1 + s2});
  fu::Program P = fu::plan(g);
  const fu::Buffer& B = P.buffers[static_cast<size_t>(P.node_buffer[static_cast<size_t>(m.id())])];
  EXPECT_EQ(B.kind, fu::Buffer::Kind::Scratch);
  EXPECT_EQ(B.first_step, 0);
  EXPECT_EQ(B.last_step, 2);
  EXPECT_EQ(fu::peak_scratch_bytes(P, false), static_cast<int64_t>(B.bytes()) + 16 + 16);
}

TEST(FusionLifetimes, ScratchThatDoesNotOverlapIsNotCountedTwice) {
  rt::Graph g;
  Node x = g.parameter(Shape{64, 64}, rt::DType::F32);
  Node a = rt::matmul(x, x);  // 16 KiB scratch, last read by the second matmul
  Node b = rt::matmul(a, x);  // 16 KiB scratch, last read by the third
  g.set_outputs({rt::reduce_sum(rt::matmul(b, x))});
  fu::Program P = fu::plan(g);
  EXPECT_EQ(fu::peak_scratch_bytes(P, true), 3 * 16384);   // all at once (cuda)
  EXPECT_EQ(fu::peak_scratch_bytes(P, false), 2 * 16384);  // at most two alive (cpu)
}

}  // namespace
