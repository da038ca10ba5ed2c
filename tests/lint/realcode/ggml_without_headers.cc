// A ggml application whose ggml checkout is not there (a submodule or a
// Makefile's ./ggml): the stand-in declarations of ggml's API that
// mlperf-lint ships replace ggml.h, ggml-alloc.h and ggml-backend.h, so the
// graph allocator made and freed for every decoder step is still seen, and
// the allocator made once in the other loop is not.
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml.h"

#include <vector>

void decode(ggml_backend_t backend, ggml_tensor *weight, std::vector<float> &state, int n_steps) {
  for (int step = 0; step < n_steps; step++) {
    std::vector<uint8_t> meta(ggml_tensor_overhead() * 8 + ggml_graph_overhead());
    ggml_init_params params = {meta.size(), meta.data(), true};
    ggml_context *ctx = ggml_init(params);
    ggml_tensor *in = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, (int64_t)state.size());
    ggml_set_input(in);
    ggml_tensor *out = ggml_tanh(ctx, ggml_mul_mat(ctx, weight, in));
    ggml_set_output(out);
    ggml_cgraph *gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, out);
    ggml_gallocr_t allocr = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_alloc_graph(allocr, gf);
    ggml_backend_tensor_set(in, state.data(), 0, ggml_nbytes(in));
    ggml_backend_graph_compute(backend, gf);
    ggml_backend_tensor_get(out, state.data(), 0, ggml_nbytes(out));
    ggml_gallocr_free(allocr);
    ggml_free(ctx);
  }
}

void decode_reusing(ggml_backend_t backend, ggml_tensor *weight, std::vector<float> &state, int n_steps) {
  ggml_gallocr_t allocr = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
  for (int step = 0; step < n_steps; step++) {
    std::vector<uint8_t> meta(ggml_tensor_overhead() * 8 + ggml_graph_overhead());
    ggml_init_params params = {meta.size(), meta.data(), true};
    ggml_context *ctx = ggml_init(params);
    ggml_tensor *in = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, (int64_t)state.size());
    ggml_set_input(in);
    ggml_tensor *out = ggml_tanh(ctx, ggml_mul_mat(ctx, weight, in));
    ggml_set_output(out);
    ggml_cgraph *gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, out);
    ggml_gallocr_alloc_graph(allocr, gf);
    ggml_backend_tensor_set(in, state.data(), 0, ggml_nbytes(in));
    ggml_backend_graph_compute(backend, gf);
    ggml_backend_tensor_get(out, state.data(), 0, ggml_nbytes(out));
    ggml_free(ctx);
  }
  ggml_gallocr_free(allocr);
}
