// TensorRT code on a machine without the TensorRT SDK: the stand-in
// declarations of its API that mlperf-lint ships replace NvInfer.h, so the
// engine deserialized for every request is still seen. A call the stand-ins
// do not declare stays unresolved and has no role.
#include "NvInfer.h"

#include <vector>

class Logger : public nvinfer1::ILogger {
  void log(Severity severity, const char *msg) noexcept override {}
};

void serve(const std::vector<char> &plan, const std::vector<void **> &requests, cudaStream_t stream) {
  Logger logger;
  nvinfer1::IRuntime *runtime = nvinfer1::createInferRuntime(logger);
  for (void **bindings : requests) {
    nvinfer1::ICudaEngine *engine = runtime->deserializeCudaEngine(plan.data(), plan.size());
    nvinfer1::IExecutionContext *context = engine->createExecutionContext();
    context->enqueueV2(bindings, stream, nullptr);
    context->reportToProfiler();
    delete context;
    delete engine;
  }
  delete runtime;
}
