#include "parser.h"

#include "llama.h"

#include <cstdlib>
#include <cstring>

int parse_request(const char *line, request_params *out) {
  size_t n = strlen(line);
  char *prompt = (char *)malloc(n + 1);
  if (!prompt)
    return 1;
  memcpy(prompt, line, n + 1);
  out->prompt = prompt;
  out->max_tokens = 128;
  out->temperature = 0.8f;
  return 0;
}

int generate(generation_state *state, const request_params *params) {
  state->logits_copy = (float *)malloc(sizeof(float) * state->n_vocab);
  llama_token token = (llama_token)params->max_tokens;
  if (llama_decode(state->ctx, llama_batch_get_one(&token, 1)) != 0)
    return 1;
  memcpy(state->logits_copy, llama_get_logits_ith(state->ctx, -1), sizeof(float) * state->n_vocab);
  return 0;
}
