// A tiny framework described by profile.json: a model whose forward is a
// model step and a data loader that reads its files when it is made.
#pragma once
namespace fw {
struct Module {};
struct Loader {
  explicit Loader(int batches);
  int size() const;
};
} // namespace fw

struct Model : fw::Module {
  float forward(int batch) const;
};
float train_epoch(const Model &model, int batches);
void warm_up(const Model &model);
