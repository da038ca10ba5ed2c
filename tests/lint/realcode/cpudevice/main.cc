#include "fw.h"

int main() {
  fw::DeviceType device = fw::kCPU;
  if (fw::cuda_available())
    device = fw::kCUDA;
  device = fw::kCPU;
  Net model;
  return train(model, 100, device) > 0;
}
