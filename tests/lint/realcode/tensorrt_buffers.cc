// A TensorRT decoder written against the samples' buffers.h on a machine
// with neither the SDK nor the samples: the stand-ins make its ManagedBuffers
// valid objects, so the encoder's ids, filled once before the decoding loop
// and copied to the device on every step, are seen; the decoder's ids,
// refilled every step, are not reported.
#include "../../../fixtures/common/cuda_runtime_api.h"

#include <NvInfer.h>
#include <buffers.h>

#include <vector>

int decode(nvinfer1::IExecutionContext *context, const std::vector<int> &prompt, int max_len, cudaStream_t stream) {
  samplesCommon::ManagedBuffer enc, dec, out;
  enc.hostBuffer.resize(nvinfer1::Dims2(1, max_len));
  auto *enc_ids = static_cast<int *>(enc.hostBuffer.data());
  for (int i = 0; i < max_len; ++i)
    enc_ids[i] = i < static_cast<int>(prompt.size()) ? prompt[i] : 0;
  int next = 0;
  for (int step = 0; step < max_len - 1; ++step) {
    auto *dec_ids = static_cast<int *>(dec.hostBuffer.data());
    dec_ids[step] = next;
    cudaMemcpyAsync(enc.deviceBuffer.data(), enc.hostBuffer.data(), enc.hostBuffer.nbBytes(), cudaMemcpyHostToDevice,
                    stream);
    cudaMemcpyAsync(dec.deviceBuffer.data(), dec.hostBuffer.data(), dec.hostBuffer.nbBytes(), cudaMemcpyHostToDevice,
                    stream);
    std::vector<void *> bindings = {enc.deviceBuffer.data(), dec.deviceBuffer.data(), out.deviceBuffer.data()};
    context->enqueueV2(bindings.data(), stream, nullptr);
    cudaMemcpyAsync(out.hostBuffer.data(), out.deviceBuffer.data(), out.hostBuffer.nbBytes(), cudaMemcpyDeviceToHost,
                    stream);
    cudaStreamSynchronize(stream);
    next = static_cast<const int *>(out.hostBuffer.data())[step];
  }
  return next;
}
