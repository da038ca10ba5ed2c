#pragma once
#include "data.h"
#include "model.h"

/// The accuracy on held-out batches.
double evaluate(Classifier& net, const std::vector<Batch>& samples, int64_t batch_size, torch::Device device);
