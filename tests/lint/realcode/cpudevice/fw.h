// A tiny framework with devices, described by profile.json: a program that
// probes for an accelerator and then overrides the choice with the CPU.
#pragma once
namespace fw {
enum DeviceType { kCPU, kCUDA };
bool cuda_available();
struct Tensor {
  Tensor to(DeviceType) const;
  float item() const;
  void backward() const;
};
struct Module {
  void to(DeviceType);
};
} // namespace fw

struct Net : fw::Module {
  fw::Tensor forward(int batch) const;
};
float train(Net &model, int steps, fw::DeviceType device);
