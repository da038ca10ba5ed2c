// A detector in one file returns its boxes copied to the host; a drawing
// helper in another reads them one box at a time; main.cc passes one to the
// other on every frame.
#pragma once
#include <mini_torch.h>

#include <vector>

std::vector<torch::Tensor> detect(torch::nn::Linear &net, const torch::Tensor &frame);
float draw(const torch::Tensor &boxes);
