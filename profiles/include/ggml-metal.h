// ggml's Metal backend (ggml-metal.h). Declarations only: the fixtures parse
// against them, and mlperf-lint uses them in place of a header the machine
// does not have.
#pragma once

#include "ggml-backend.h"
#include "ggml.h"

#ifdef __cplusplus
extern "C" {
#endif

ggml_backend_t ggml_backend_metal_init(void);
bool ggml_backend_is_metal(ggml_backend_t backend);
void ggml_backend_metal_set_abort_callback(ggml_backend_t backend, ggml_abort_callback abort_callback, void *user_data);
bool ggml_backend_metal_supports_family(ggml_backend_t backend, int family);
void ggml_backend_metal_capture_next_compute(ggml_backend_t backend);
ggml_backend_reg_t ggml_backend_metal_reg(void);

#ifdef __cplusplus
}
#endif
