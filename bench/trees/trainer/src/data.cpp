#include "data.h"

std::vector<Batch> load_samples(int64_t count, int64_t features, int64_t classes) {
  std::vector<Batch> out;
  for (int64_t i = 0; i < count; ++i)
    out.push_back({torch::randn({features}), torch::randint(classes, {}, torch::kLong)});
  return out;
}

Batch make_batch(const std::vector<Batch>& samples, size_t first, size_t count, torch::Device device) {
  std::vector<torch::Tensor> xs, ys;
  for (size_t i = first; i < first + count && i < samples.size(); ++i) {
    xs.push_back(samples[i].x.to(device));
    ys.push_back(samples[i].y.to(device));
  }
  return {torch::stack(xs), torch::stack(ys)};
}
