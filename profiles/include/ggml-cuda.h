// ggml's CUDA backend (ggml-cuda.h). Declarations only: the fixtures parse
// against them, and mlperf-lint uses them in place of a header the machine
// does not have.
#pragma once

#include "ggml-backend.h"
#include "ggml.h"

#define GGML_CUDA_NAME "CUDA"
#define GGML_CUBLAS_NAME "cuBLAS"
#define GGML_CUDA_MAX_DEVICES 16

#ifdef __cplusplus
extern "C" {
#endif

ggml_backend_t ggml_backend_cuda_init(int device);
bool ggml_backend_is_cuda(ggml_backend_t backend);
ggml_backend_buffer_type_t ggml_backend_cuda_buffer_type(int device);
ggml_backend_buffer_type_t ggml_backend_cuda_split_buffer_type(int main_device, const float *tensor_split);
ggml_backend_buffer_type_t ggml_backend_cuda_host_buffer_type(void);
int ggml_backend_cuda_get_device_count(void);
void ggml_backend_cuda_get_device_description(int device, char *description, size_t description_size);
void ggml_backend_cuda_get_device_memory(int device, size_t *free, size_t *total);
bool ggml_backend_cuda_register_host_buffer(void *buffer, size_t size);
void ggml_backend_cuda_unregister_host_buffer(void *buffer);
ggml_backend_reg_t ggml_backend_cuda_reg(void);

#ifdef __cplusplus
}
#endif
