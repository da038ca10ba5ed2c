// A completion library's C API: a request parser that fills the caller's
// parameter struct (the prompt a malloc'd copy the caller frees), and a
// generation step that keeps a copy of the logits in the caller's state.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

struct request_params {
  char *prompt;
  int max_tokens;
  float temperature;
};

struct llama_context;
struct generation_state {
  struct llama_context *ctx;
  float *logits_copy;
  int n_vocab;
};

int parse_request(const char *line, struct request_params *out);
int generate(struct generation_state *state, const struct request_params *params);

#ifdef __cplusplus
}
#endif
