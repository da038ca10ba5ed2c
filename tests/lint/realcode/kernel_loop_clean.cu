// The batch is copied once and the host waits once, after the loop.
#include <cuda_runtime.h>

__global__ void update(float *w, const float *batch, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    w[i] -= 0.01f * batch[i];
}

int main() {
  const int n = 1 << 20;
  float *batch = new float[n](), *w, *dbatch;
  cudaMalloc(&w, n * sizeof(float));
  cudaMalloc(&dbatch, n * sizeof(float));
  cudaMemcpy(dbatch, batch, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int step = 0; step < 100; ++step)
    update<<<(n + 255) / 256, 256>>>(w, dbatch, n);
  cudaDeviceSynchronize();
  cudaFree(dbatch);
  cudaFree(w);
  delete[] batch;
}
