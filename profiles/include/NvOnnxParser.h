// Declarations of TensorRT's ONNX parser (NvOnnxParser.h), for programs that
// build an engine from an ONNX file. Declarations only.
#pragma once

#include "NvInfer.h"

namespace nvonnxparser {
class IParser {
 public:
  virtual ~IParser() noexcept;
  bool parse(void const *serializedOnnxModel, std::size_t serializedOnnxModelSize,
             char const *modelPath = nullptr) noexcept;
  bool parseFromFile(char const *onnxModelFile, int verbosity) noexcept;
  int32_t getNbErrors() const noexcept;
  void destroy() noexcept;
};

// The real one is inline, in an unnamed namespace; the qualified name is the same.
IParser *createParser(nvinfer1::INetworkDefinition &network, nvinfer1::ILogger &logger) noexcept;
}  // namespace nvonnxparser
