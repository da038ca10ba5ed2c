#pragma once
#include <torch/torch.h>
#include <vector>

struct Batch {
  torch::Tensor x, y;
};

/// The samples of one batch, as the loader hands them out (host memory).
std::vector<Batch> load_samples(int64_t count, int64_t features, int64_t classes);
/// One batch from `count` samples starting at `first`.
Batch make_batch(const std::vector<Batch>& samples, size_t first, size_t count, torch::Device device);
