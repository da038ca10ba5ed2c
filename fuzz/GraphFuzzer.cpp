// The runtime's graph-building API on the reference backend: the input is a few
// parameter shapes and dtypes, then a sequence of ops whose operands are values
// built so far. Every rejected graph must be a typed mlperf::rt::Error; anything
// else escapes (libFuzzer reports it), and an untyped exception a kernel threw on
// the stream, or a result whose shape, dtype or element count differs from its
// node's, is a trap.
#include "mlperf/rt/runtime.h"

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace {
using namespace mlperf::rt;

constexpr int64_t kMaxElements = 4096;
constexpr size_t kMaxOps = 24;

class Bytes {
public:
  Bytes(const uint8_t *Data, size_t Size) : Data(Data), Size(Size) {}
  bool empty() const { return Pos >= Size; }
  uint8_t next() { return Pos < Size ? Data[Pos++] : 0; }
  int64_t dim() { return next() % 6; }                             // 0..5
  int64_t axis() { return static_cast<int64_t>(next() % 11) - 5; } // -5..5, some invalid
  Shape shape(int MaxRank = 3) {
    std::vector<int64_t> Dims(next() % (MaxRank + 1));
    for (int64_t &D : Dims)
      D = dim();
    return Shape(std::move(Dims));
  }
  std::vector<int64_t> axes() {
    std::vector<int64_t> A(next() % 3);
    for (int64_t &X : A)
      X = axis();
    return A;
  }

private:
  const uint8_t *Data;
  size_t Size;
  size_t Pos = 0;
};

DType pickDType(uint8_t B) {
  static constexpr DType Kinds[] = {DType::F32, DType::F32, DType::I32, DType::F16, DType::I64, DType::Bool};
  return Kinds[B % std::size(Kinds)];
}

Tensor inputTensor(const std::shared_ptr<Backend> &B, const Shape &S, DType T) {
  auto N = static_cast<size_t>(S.numel());
  switch (T) {
  case DType::I32: {
    std::vector<int32_t> V(N);
    for (size_t I = 0; I < N; ++I)
      V[I] = static_cast<int32_t>(I % 4);
    return Tensor::from_host(B, V, S);
  }
  case DType::I64: {
    std::vector<int64_t> V(N);
    for (size_t I = 0; I < N; ++I)
      V[I] = static_cast<int64_t>(I % 3) - 1;
    return Tensor::from_host(B, V, S);
  }
  case DType::Bool: {
    std::vector<bool> V(N);
    for (size_t I = 0; I < N; ++I)
      V[I] = I % 2 == 0;
    return Tensor::from_host(B, V, S);
  }
  default: {
    std::vector<float> V(N);
    for (size_t I = 0; I < N; ++I)
      V[I] = static_cast<float>(static_cast<int>(I * 7 % 11) - 5) / 4.0f;
    return Tensor::from_host(B, std::span<const float>(V), S, T);
  }
  }
}

Node applyOp(Bytes &In, const std::vector<Node> &Vals) {
  auto pick = [&] { return Vals[In.next() % Vals.size()]; };
  uint8_t Op = In.next() % 30;
  Node A = pick();
  switch (Op) {
  case 0:
    return add(A, pick());
  case 1:
    return sub(A, pick());
  case 2:
    return mul(A, pick());
  case 3:
    return div(A, pick());
  case 4:
    return max(A, pick());
  case 5:
    return matmul(A, pick());
  case 6: {
    Shape S = In.shape(4);
    if (S.rank() > 0 && In.next() % 3 == 0)
      S.dims[In.next() % S.rank()] = -1;
    return reshape(A, S);
  }
  case 7:
    return broadcast_to(A, In.shape(4));
  case 8:
    return sum(A, In.axes(), In.next() % 2);
  case 9:
    return softmax_cross_entropy(A, pick());
  case 10:
    return softmax(A, static_cast<int>(In.axis()));
  case 11: {
    std::vector<int64_t> Perm(In.next() % 4);
    for (int64_t &P : Perm)
      P = In.next() % 4;
    return transpose(A, Perm);
  }
  case 12:
    return concat({A, pick()}, static_cast<int>(In.axis()));
  case 13:
    return slice_axis(A, static_cast<int>(In.axis()), In.axis(), In.axis());
  case 14:
    return exp(A);
  case 15:
    return relu(A);
  case 16:
    return cast(A, pickDType(In.next()));
  case 17:
    return reduce_max(A, In.axes(), In.next() % 2);
  case 18:
    return argmax(A, static_cast<int>(In.axis()), In.next() % 2);
  case 19:
    return expand_dims(A, static_cast<int>(In.axis()));
  case 20:
    return squeeze(A, static_cast<int>(In.axis()));
  case 21:
    return where(pick(), A, pick());
  case 22: {
    int R = A.rank();
    std::vector<int64_t> Lo(R), Hi(R);
    for (int I = 0; I < R; ++I) {
      Lo[I] = static_cast<int64_t>(In.next() % 4) - 1;
      Hi[I] = static_cast<int64_t>(In.next() % 4) - 1;
    }
    return pad(A, Lo, Hi, 1.5);
  }
  case 23:
    return one_hot(A, In.next() % 6, pickDType(In.next()));
  case 24:
    return lt(A, pick());
  case 25:
    return log_softmax(A, static_cast<int>(In.axis()));
  case 26:
    return mean(A, In.axes(), In.next() % 2);
  case 27:
    return softmax_cross_entropy_with_probs(A, pick());
  case 28: {
    int R = A.rank();
    std::vector<int64_t> Starts(R), Limits(R), Strides(R);
    for (int I = 0; I < R; ++I) {
      Starts[I] = In.axis();
      Limits[I] = In.axis();
      Strides[I] = static_cast<int64_t>(In.next() % 4) - 1;
    }
    return slice(A, Starts, Limits, Strides);
  }
  default:
    return A + 2.0;
  }
}

// A failed execution's error is rethrown by the next wait; the next input starts clean.
void drain(Backend &B) {
  try {
    B.synchronize();
  } catch (const Error &) {
  }
}

void check(bool Ok) {
  if (!Ok)
    __builtin_trap();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static std::shared_ptr<Backend> B = [] {
    auto Ref = Backend::create("reference");
    Ref->set_memory_limit(256 << 20);
    return Ref;
  }();
  Bytes In(Data, Size);
  std::vector<Tensor> Args;
  for (int I = 0, N = 1 + In.next() % 3; I < N; ++I) {
    Shape S = In.shape();
    Args.push_back(inputTensor(B, S, pickDType(In.next())));
  }
  std::vector<Shape> Shapes;
  std::vector<DType> DTypes;
  Exec Step(
      B,
      [&](Graph &, const std::vector<Node> &Inputs) {
        std::vector<Node> Vals = Inputs;
        while (!In.empty() && Vals.size() < Inputs.size() + kMaxOps) {
          Node N = applyOp(In, Vals);
          if (N.shape().numel() > kMaxElements)
            break;
          Vals.push_back(N);
        }
        std::vector<Node> Out(Vals.end() - std::min<size_t>(Vals.size(), 2), Vals.end());
        for (const Node &N : Out) {
          Shapes.push_back(N.shape());
          DTypes.push_back(N.dtype());
        }
        return Out;
      },
      static_cast<int>(Args.size()));
  try {
    std::vector<Tensor> Results = Step.run(Args);
    check(Results.size() == Shapes.size());
    for (size_t I = 0; I < Results.size(); ++I) {
      check(Results[I].shape() == Shapes[I] && Results[I].dtype() == DTypes[I]);
      check(static_cast<int64_t>(Results[I].materialize<double>().size()) == Shapes[I].numel());
    }
    B->synchronize();
  } catch (const DeviceError &E) {
    // The stream wraps a kernel's untyped exception (std::out_of_range, ...) in a DeviceError;
    // the reference backend raises no other.
    check(std::string_view(E.what()).rfind("error on the device stream: ", 0) != 0);
    drain(*B);
  } catch (const Error &) {
    drain(*B);
  }
  return 0;
}
