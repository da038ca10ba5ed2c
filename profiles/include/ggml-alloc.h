// ggml's graph allocator (ggml-alloc.h): places a graph's intermediate tensors
// in backend buffers it owns and reuses. Declarations only: the fixtures parse
// against them, and mlperf-lint uses them in place of a header the machine
// does not have.
#pragma once

#include "ggml.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ggml_backend_buffer_type *ggml_backend_buffer_type_t;
typedef struct ggml_backend_buffer *ggml_backend_buffer_t;
typedef struct ggml_backend *ggml_backend_t;

// Tensor allocator: places tensors one by one in a buffer.
struct ggml_tallocr {
  ggml_backend_buffer_t buffer;
  void *base;
  size_t alignment;
  size_t offset;
};

struct ggml_tallocr ggml_tallocr_new(ggml_backend_buffer_t buffer);
enum ggml_status ggml_tallocr_alloc(struct ggml_tallocr *talloc, struct ggml_tensor *tensor);

// Graph allocator.
typedef struct ggml_gallocr *ggml_gallocr_t;

ggml_gallocr_t ggml_gallocr_new(ggml_backend_buffer_type_t buft);
ggml_gallocr_t ggml_gallocr_new_n(ggml_backend_buffer_type_t *bufts, int n_bufs);
void ggml_gallocr_free(ggml_gallocr_t galloc);
// Pre-allocates buffers for the largest graph; optional, alloc_graph grows them.
bool ggml_gallocr_reserve(ggml_gallocr_t galloc, struct ggml_cgraph *graph);
bool ggml_gallocr_reserve_n(ggml_gallocr_t galloc, struct ggml_cgraph *graph, const int *node_buffer_ids,
                            const int *leaf_buffer_ids);
bool ggml_gallocr_alloc_graph(ggml_gallocr_t galloc, struct ggml_cgraph *graph);
size_t ggml_gallocr_get_buffer_size(ggml_gallocr_t galloc, int buffer_id);

// Allocates every tensor of a context in one backend buffer.
struct ggml_backend_buffer *ggml_backend_alloc_ctx_tensors_from_buft(struct ggml_context *ctx,
                                                                     ggml_backend_buffer_type_t buft);
struct ggml_backend_buffer *ggml_backend_alloc_ctx_tensors(struct ggml_context *ctx, ggml_backend_t backend);

#ifdef __cplusplus
}
#endif
