#include "test_util.h"

using rt::Node;
using rt::Shape;

namespace {

// Builds a graph with the given parameters and returns the error message of `f`.
template <class E, class F>
std::string build_error(std::vector<Shape> shapes, F f) {
  rt::Graph g;
  std::vector<Node> in;
  for (auto& s : shapes) in.push_back(g.parameter(s, rt::DType::F32));
  try {
    f(g, in);
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception";
  return "";
}

void expect_contains(const std::string& msg, std::initializer_list<const char*> parts) {
  for (const char* p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
}

}  // namespace

TEST(GraphErrors, ShapeErrorsNameTheOpAndBothShapes) {
  expect_contains(build_error<rt::ShapeError>({{2, 3}, {4}}, [](rt::Graph&, auto& x) { rt::add(x[0], x[1]); }),
                  {"add", "[2,3]", "[4]"});
  expect_contains(build_error<rt::ShapeError>({{2, 3}, {4, 5}}, [](rt::Graph&, auto& x) { rt::matmul(x[0], x[1]); }),
                  {"matmul", "[2,3]", "[4,5]"});
  expect_contains(
      build_error<rt::ShapeError>({{2, 2, 3}, {3, 3, 4}}, [](rt::Graph&, auto& x) { rt::matmul(x[0], x[1]); }),
      {"matmul", "[2,2,3]", "[3,3,4]", "batch"});
  expect_contains(
      build_error<rt::ShapeError>({{2, 3}, {2, 4}}, [](rt::Graph&, auto& x) { rt::concat({x[0], x[1]}, 0); }),
      {"concat", "[2,3]", "[2,4]"});
  expect_contains(build_error<rt::ShapeError>({{2, 3}, {3}, {2}},
                                              [](rt::Graph&, auto& x) { rt::where(rt::gt(x[0], x[0]), x[1], x[2]); }),
                  {"where", "[3]", "[2]"});
  expect_contains(build_error<rt::ShapeError>({{2, 3}}, [](rt::Graph&, auto& x) { rt::reshape(x[0], Shape{4, 2}); }),
                  {"reshape", "[2,3]", "[4,2]"});
  expect_contains(
      build_error<rt::ShapeError>({{2, 3}}, [](rt::Graph&, auto& x) { rt::broadcast_to(x[0], Shape{3, 3}); }),
      {"broadcast_to", "[2,3]", "[3,3]"});
  expect_contains(build_error<rt::ShapeError>({{2, 3}}, [](rt::Graph&, auto& x) { rt::reduce_sum(x[0], {2}); }),
                  {"reduce_sum", "axis 2", "[2,3]"});
  expect_contains(build_error<rt::ShapeError>({{2, 3}}, [](rt::Graph&, auto& x) { rt::slice(x[0], {0, 1}, {2, 4}); }),
                  {"slice", "[2,3]"});
  expect_contains(build_error<rt::ShapeError>({{2, 3}}, [](rt::Graph&, auto& x) { rt::transpose(x[0], {0, 0}); }),
                  {"transpose", "[2,3]"});
  expect_contains(build_error<rt::ShapeError>({{2, 3}}, [](rt::Graph&, auto& x) { rt::gradients(x[0], {x[0]}); }),
                  {"gradients", "scalar", "[2,3]"});
}

TEST(GraphErrors, DTypeErrorsNameTheOpAndDTypes) {
  rt::Graph g;
  Node f = g.parameter(Shape{2}, rt::DType::F32);
  Node i = g.parameter(Shape{2}, rt::DType::I32);
  try {
    rt::add(f, i);
    FAIL();
  } catch (const rt::DTypeError& e) {
    expect_contains(e.what(), {"add", "f32", "i32"});
  }
  EXPECT_THROW(rt::exp(i), rt::DTypeError);
  EXPECT_THROW(rt::where(f, f, f), rt::DTypeError);
  EXPECT_THROW(rt::softmax_cross_entropy(f, f), rt::DTypeError);
  EXPECT_THROW(rt::dropout(f, 1.0, 1), rt::ArgumentError);
}

class RunErrors : public BackendTest {};

TEST_P(RunErrors, WrongArgumentCountIsAClearError) {
  rt::Exec e(backend, [](rt::Graph&, Node x, Node y) { return x + y; });
  auto t = upload(backend, {1, 2}, Shape{2});
  try {
    e.run(t);
    FAIL();
  } catch (const rt::ArgumentError& err) {
    expect_contains(err.what(), {"takes 2 tensor arguments", "got 1"});
  }
  EXPECT_THROW(e.run(t, t, t), rt::ArgumentError);
  EXPECT_EQ(e.run(t, t)[0].materialize<float>(), (std::vector<float>{2, 4}));
}

TEST_P(RunErrors, WrongDTypeIsAClearError) {
  rt::Exec e(backend, [](rt::Graph&, Node x, Node y) { return rt::matmul(x, y); });
  auto f = upload(backend, {1, 2, 3, 4}, Shape{2, 2});
  auto i = rt::Tensor::from_host(backend, std::vector<int32_t>{1, 2, 3, 4}, Shape{2, 2});
  try {
    e.run(f, i);
    FAIL();
  } catch (const rt::DTypeError& err) {
    expect_contains(err.what(), {"matmul", "f32", "i32", "(f32[2,2], i32[2,2])"});
  }
  e.set_input_dtypes({rt::DType::F32, rt::DType::F32});
  try {
    e.run(f, i);
    FAIL();
  } catch (const rt::DTypeError& err) {
    expect_contains(err.what(), {"argument 1", "i32", "expected f32"});
  }
  EXPECT_EQ(e.compilations(), 0);
}

TEST_P(RunErrors, MismatchedShapesAtRunAreBuildErrors) {
  rt::Exec e(backend, [](rt::Graph&, Node x, Node y) { return rt::matmul(x, y); });
  auto a = upload(backend, {1, 2, 3, 4, 5, 6}, Shape{2, 3});
  try {
    e.run(a, a);
    FAIL();
  } catch (const rt::ShapeError& err) {
    expect_contains(err.what(), {"matmul", "[2,3]"});
  }
  EXPECT_EQ(e.run(a, upload(backend, {1, 0, 0, 1, 1, 1}, Shape{3, 2}))[0].materialize<float>(),
            (std::vector<float>{4, 5, 10, 11}));
}

TEST_P(RunErrors, FinalizedTensorIsAClearError) {
  rt::Exec e(backend, [](rt::Graph&, Node x) { return x * 2.0; });
  auto t = upload(backend, {1, 2}, Shape{2});
  rt::Tensor copy = t;
  t.finalize();
  EXPECT_TRUE(copy.finalized());
  try {
    e.run(copy);
    FAIL();
  } catch (const rt::FinalizedTensorError& err) {
    expect_contains(err.what(), {"argument 0", "finalized"});
  }
  EXPECT_THROW(t.materialize<float>(), rt::FinalizedTensorError);
  EXPECT_THROW(rt::Tensor().shape(), rt::FinalizedTensorError);
  EXPECT_NO_THROW(t.finalize());
}

TEST_P(RunErrors, WrongMaterializeTypeAndHostSizeAreClearErrors) {
  auto t = upload(backend, {1, 2}, Shape{2});
  EXPECT_THROW(t.materialize<int64_t>(), rt::DTypeError);
  EXPECT_THROW(upload(backend, {1, 2, 3}, Shape{2}), rt::ShapeError);
}

TEST_P(RunErrors, StreamErrorsSurfaceAtTheNextWaitAndPoisonDependents) {
  auto t = upload(backend, {1, 2}, Shape{2});
  backend->enqueue_failure_for_testing("injected failure");
  rt::Exec e(backend, [](rt::Graph&, Node x) { return x + 1.0; });
  auto skipped = e.run(t)[0];
  try {
    backend->synchronize();
    FAIL();
  } catch (const rt::DeviceError& err) {
    expect_contains(err.what(), {"injected failure"});
  }
  EXPECT_THROW(skipped.materialize<float>(), rt::DeviceError);  // its producer never ran
  EXPECT_EQ(e.run(t)[0].materialize<float>(), (std::vector<float>{2, 3}));
  EXPECT_NO_THROW(backend->synchronize());
}

TEST(BackendErrors, UnknownBackendListsRegisteredOnes) {
  try {
    rt::Backend::create("tpu");
    FAIL();
  } catch (const rt::BackendError& e) {
    expect_contains(e.what(), {"tpu", "reference"});
  }
}

INSTANTIATE_FOR_ALL_BACKENDS(RunErrors);
