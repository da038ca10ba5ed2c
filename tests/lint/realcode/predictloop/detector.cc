#include "detector.h"

torch::Tensor Detector::prediction(const torch::Tensor &batch) { return net_->forward(batch); }

torch::Tensor Detector::predictImage(const torch::Tensor &image) { return prediction(image.unsqueeze(0)); }
