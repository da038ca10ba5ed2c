// A tiny framework described by profile.json, and a batch loop of the project
// that hands each loss to a callback: what runs per step is up to its callers.
#pragma once
#include <functional>
namespace fw {
struct Tensor {
  float item() const;
};
struct Module {};
void backward(const Tensor &loss);
void use_gpu();
struct NoGradGuard {
  NoGradGuard();
  ~NoGradGuard();
};
} // namespace fw

struct Model : fw::Module {
  fw::Tensor forward(int batch) const;
};
void each_batch(const Model &model, int batches, const std::function<void(const fw::Tensor &)> &on_loss);
