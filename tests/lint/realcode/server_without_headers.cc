// A llama.cpp server whose HTTP library and llama.cpp's common.h are not on
// the machine: the names they declare are made up (the route object's type,
// common.h's helper that configures the context), so handing the handler to
// the route is a call of code outside the project, which calls it back once
// per request; the context built in the handler is built for every request,
// and the batch an error return skips freeing leaks on every failing request.
#include "http_server.hpp"
#include "common.h"
#include "llama-cpp.h"
#include "llama.h"

#include <functional>
#include <memory>

int main() {
  llama_model_ptr model;
  common_params params;
  auto embed = [&](std::shared_ptr<http::response> res) {
    llama_context_ptr ctx(llama_init_from_model(model.get(), common_context_params_to_llama(params)));
    llama_batch batch = llama_batch_init(512, 0, 1);
    if (llama_decode(ctx.get(), batch) < 0) {
      res->send(http::status::internal_error);
      return;
    }
    res->send(http::status::ok);
    llama_batch_free(batch);
  };
  http::router router;
  router.post("/v1/embeddings", std::ref(embed));
  return 0;
}
