/* The request loop, in C: a fresh parameter struct per line, its prompt
   freed after the request; one generation state for all of them. */
#include "parser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char line[4096];
  struct generation_state state;
  memset(&state, 0, sizeof(state));
  state.n_vocab = 32000;
  while (fgets(line, sizeof(line), stdin)) {
    struct request_params params;
    memset(&params, 0, sizeof(params));
    if (parse_request(line, &params) != 0)
      continue;
    generate(&state, &params);
    free(params.prompt);
  }
  return 0;
}
