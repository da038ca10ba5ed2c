// llama.cpp's C++ header (llama-cpp.h): std::unique_ptr aliases whose
// deleters call the C API's free functions (llama_model_ptr, llama_context_ptr,
// llama_sampler_ptr, llama_adapter_lora_ptr). Declarations as llama.cpp writes
// them, used in place of the header when the machine does not have it.
#pragma once

#include "llama.h"

#include <memory>

struct llama_model_deleter {
  void operator()(llama_model *model) { llama_model_free(model); }
};

struct llama_context_deleter {
  void operator()(llama_context *context) { llama_free(context); }
};

struct llama_sampler_deleter {
  void operator()(llama_sampler *sampler) { llama_sampler_free(sampler); }
};

struct llama_adapter_lora_deleter {
  void operator()(llama_adapter_lora *adapter) { llama_adapter_lora_free(adapter); }
};

typedef std::unique_ptr<llama_model, llama_model_deleter> llama_model_ptr;
typedef std::unique_ptr<llama_context, llama_context_deleter> llama_context_ptr;
typedef std::unique_ptr<llama_sampler, llama_sampler_deleter> llama_sampler_ptr;
typedef std::unique_ptr<llama_adapter_lora, llama_adapter_lora_deleter> llama_adapter_lora_ptr;
