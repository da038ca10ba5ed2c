// Declarations of TensorRT's builder API (NvInfer.h), TensorRT 7 to 10, with
// the real namespaces and signatures: building an engine from a network
// definition or an ONNX parser. The layer-by-layer network API is not
// declared; calls of it stay unresolved. Declarations only.
#pragma once

#include "NvInferRuntime.h"

namespace nvinfer1 {
using NetworkDefinitionCreationFlags = uint32_t;
enum class NetworkDefinitionCreationFlag : int32_t { kEXPLICIT_BATCH = 0, kSTRONGLY_TYPED = 1 };
enum class BuilderFlag : int32_t { kFP16 = 0, kINT8 = 1, kDEBUG = 2, kGPU_FALLBACK = 3, kREFIT = 5, kTF32 = 7 };
enum class MemoryPoolType : int32_t { kWORKSPACE = 0 };

class ITensor {
 public:
  void setName(char const *name) noexcept;
  char const *getName() const noexcept;
  Dims getDimensions() const noexcept;
  void setDimensions(Dims dimensions) noexcept;
  DataType getType() const noexcept;
};

class ILayer : public INoCopy {
 public:
  void setName(char const *name) noexcept;
  ITensor *getOutput(int32_t index) const noexcept;
  int32_t getNbOutputs() const noexcept;
};

class IOptimizationProfile {
 public:
  bool setDimensions(char const *inputName, OptProfileSelector select, Dims const &dims) noexcept;
};

class INetworkDefinition : public INoCopy {
 public:
  virtual ~INetworkDefinition() noexcept;
  ITensor *addInput(char const *name, DataType type, Dims const &dimensions) noexcept;
  void markOutput(ITensor &tensor) noexcept;
  int32_t getNbInputs() const noexcept;
  int32_t getNbOutputs() const noexcept;
  ITensor *getInput(int32_t index) const noexcept;
  ITensor *getOutput(int32_t index) const noexcept;
  int32_t getNbLayers() const noexcept;
  ILayer *getLayer(int32_t index) const noexcept;
  void destroy() noexcept;
};

class IBuilderConfig : public INoCopy {
 public:
  virtual ~IBuilderConfig() noexcept;
  void setMaxWorkspaceSize(std::size_t workspaceSize) noexcept;
  void setMemoryPoolLimit(MemoryPoolType pool, std::size_t poolSize) noexcept;
  void setFlag(BuilderFlag builderFlag) noexcept;
  int32_t addOptimizationProfile(IOptimizationProfile const *profile) noexcept;
  void destroy() noexcept;
};

class IBuilder : public INoCopy {
 public:
  virtual ~IBuilder() noexcept;
  IBuilderConfig *createBuilderConfig() noexcept;
  INetworkDefinition *createNetworkV2(NetworkDefinitionCreationFlags flags) noexcept;
  IOptimizationProfile *createOptimizationProfile() noexcept;
  IHostMemory *buildSerializedNetwork(INetworkDefinition &network, IBuilderConfig &config) noexcept;
  // TensorRT 7 and 8.
  INetworkDefinition *createNetwork() noexcept;
  void setMaxBatchSize(int32_t batchSize) noexcept;
  ICudaEngine *buildCudaEngine(INetworkDefinition &network) noexcept;
  ICudaEngine *buildEngineWithConfig(INetworkDefinition &network, IBuilderConfig &config) noexcept;
  bool platformHasFastFp16() const noexcept;
  bool platformHasFastInt8() const noexcept;
  void destroy() noexcept;
};

// The real one is inline, in an unnamed namespace; the qualified name is the same.
IBuilder *createInferBuilder(ILogger &logger) noexcept;
}  // namespace nvinfer1
