// ggml's CPU backend (ggml-cpu.h): its initializer, thread settings and the
// graph plan/compute functions that compute on the CPU without a backend.
// Declarations only: the fixtures parse against them, and mlperf-lint uses
// them in place of a header the machine does not have.
#pragma once

#include "ggml-backend.h"
#include "ggml.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ggml_threadpool_params {
  bool cpumask[512];
  int n_threads;
  int prio;
  uint32_t poll;
  bool strict_cpu;
  bool paused;
};

struct ggml_threadpool_params ggml_threadpool_params_default(int n_threads);
struct ggml_threadpool *ggml_threadpool_new(struct ggml_threadpool_params *params);
void ggml_threadpool_free(struct ggml_threadpool *threadpool);

void ggml_numa_init(enum ggml_numa_strategy numa);
bool ggml_is_numa(void);
void ggml_cpu_init(void);

int ggml_cpu_has_avx(void);
int ggml_cpu_has_avx2(void);
int ggml_cpu_has_f16c(void);
int ggml_cpu_has_fma(void);
int ggml_cpu_has_neon(void);
int ggml_cpu_has_arm_fma(void);

ggml_backend_t ggml_backend_cpu_init(void);
bool ggml_backend_is_cpu(ggml_backend_t backend);
void ggml_backend_cpu_set_n_threads(ggml_backend_t backend_cpu, int n_threads);
void ggml_backend_cpu_set_threadpool(ggml_backend_t backend_cpu, struct ggml_threadpool *threadpool);
void ggml_backend_cpu_set_abort_callback(ggml_backend_t backend_cpu, ggml_abort_callback abort_callback,
                                         void *abort_callback_data);
ggml_backend_reg_t ggml_backend_cpu_reg(void);

#ifdef __cplusplus
}
#endif
