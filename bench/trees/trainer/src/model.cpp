#include "model.h"

ClassifierImpl::ClassifierImpl(int64_t in, int64_t hidden, int64_t classes)
    : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
      fc2(register_module("fc2", torch::nn::Linear(hidden, classes))) {}

torch::Tensor ClassifierImpl::forward(const torch::Tensor& x) { return fc2(torch::relu(fc1(x))); }
