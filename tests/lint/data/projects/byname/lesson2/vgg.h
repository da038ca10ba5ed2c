#pragma once
extern "C" int cuLaunchKernel(void *f);

struct Vgg {
  void forward() { cuLaunchKernel(nullptr); }
};
