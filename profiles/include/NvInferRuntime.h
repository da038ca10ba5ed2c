// Declarations of TensorRT's runtime API (NvInferRuntime.h and
// NvInferRuntimeBase.h) with the real namespaces and signatures, TensorRT 7
// to 10: what programs that load an engine and run it call. The fixtures
// parse against it, and mlperf-lint uses it in place of a NvInferRuntime.h
// that the machine does not have (searched after every include directory).
// Declarations only: the real classes forward to an implementation object.
#pragma once

#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#else
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
#endif

#include <cstddef>
#include <cstdint>

#define NV_TENSORRT_MAJOR 10
#define NV_TENSORRT_MINOR 0
#define TRT_NOEXCEPT noexcept

namespace nvinfer1 {
using AsciiChar = char;

class Dims64 {
 public:
  static constexpr int32_t MAX_DIMS{8};
  int32_t nbDims;
  int64_t d[MAX_DIMS];
};
using Dims = Dims64;
using Dims32 = Dims64;

class Dims2 : public Dims {
 public:
  Dims2();
  Dims2(int64_t d0, int64_t d1);
};
class DimsHW : public Dims2 {
 public:
  DimsHW();
  DimsHW(int64_t height, int64_t width);
};
class Dims3 : public Dims {
 public:
  Dims3();
  Dims3(int64_t d0, int64_t d1, int64_t d2);
};
class Dims4 : public Dims {
 public:
  Dims4();
  Dims4(int64_t d0, int64_t d1, int64_t d2, int64_t d3);
};

enum class DataType : int32_t { kFLOAT = 0, kHALF = 1, kINT8 = 2, kINT32 = 3, kBOOL = 4, kUINT8 = 5, kFP8 = 6,
                                kBF16 = 7, kINT64 = 8 };
enum class TensorIOMode : int32_t { kNONE = 0, kINPUT = 1, kOUTPUT = 2 };
enum class ExecutionContextAllocationStrategy : int32_t { kSTATIC = 0, kON_PROFILE_CHANGE = 1, kUSER_MANAGED = 2 };
enum class OptProfileSelector : int32_t { kMIN = 0, kOPT = 1, kMAX = 2 };

class Weights {
 public:
  DataType type;
  void const *values;
  int64_t count;
};

class INoCopy {
 protected:
  INoCopy() = default;
  virtual ~INoCopy() = default;
  INoCopy(INoCopy const &other) = delete;
  INoCopy &operator=(INoCopy const &other) = delete;
};

namespace v_1_0 {
class ILogger {
 public:
  enum class Severity : int32_t { kINTERNAL_ERROR = 0, kERROR = 1, kWARNING = 2, kINFO = 3, kVERBOSE = 4 };
  virtual void log(Severity severity, AsciiChar const *msg) noexcept = 0;
  ILogger() = default;
  virtual ~ILogger() = default;
};
}  // namespace v_1_0
using ILogger = v_1_0::ILogger;

class IHostMemory : public INoCopy {
 public:
  virtual ~IHostMemory() noexcept;
  void *data() const noexcept;
  std::size_t size() const noexcept;
  DataType type() const noexcept;
  void destroy() noexcept;
};

class IPluginFactory;
class ICudaEngine;

class IExecutionContext : public INoCopy {
 public:
  virtual ~IExecutionContext() noexcept;
  // TensorRT 7 and 8 (bindings by index; the implicit-batch forms are TensorRT 7's).
  bool execute(int32_t batchSize, void *const *bindings) noexcept;
  bool enqueue(int32_t batchSize, void *const *bindings, cudaStream_t stream, cudaEvent_t *inputConsumed) noexcept;
  bool executeV2(void *const *bindings) noexcept;
  bool enqueueV2(void *const *bindings, cudaStream_t stream, cudaEvent_t *inputConsumed) noexcept;
  bool setBindingDimensions(int32_t bindingIndex, Dims dimensions) noexcept;
  Dims getBindingDimensions(int32_t bindingIndex) const noexcept;
  bool setOptimizationProfile(int32_t profileIndex) noexcept;
  bool allInputDimensionsSpecified() const noexcept;
  void destroy() noexcept;
  // TensorRT 8.5 and later (tensors by name).
  bool setInputShape(char const *tensorName, Dims const &dims) noexcept;
  Dims getTensorShape(char const *tensorName) const noexcept;
  bool setTensorAddress(char const *tensorName, void *data) noexcept;
  bool setInputTensorAddress(char const *tensorName, void const *data) noexcept;
  bool enqueueV3(cudaStream_t stream) noexcept;
  bool setOptimizationProfileAsync(int32_t profileIndex, cudaStream_t stream) noexcept;
  void setDeviceMemory(void *memory) noexcept;
  ICudaEngine const &getEngine() const noexcept;
};

class ICudaEngine : public INoCopy {
 public:
  virtual ~ICudaEngine() noexcept;
  IExecutionContext *createExecutionContext(
      ExecutionContextAllocationStrategy strategy = ExecutionContextAllocationStrategy::kSTATIC) noexcept;
  IExecutionContext *createExecutionContextWithoutDeviceMemory() noexcept;
  IHostMemory *serialize() const noexcept;
  void destroy() noexcept;
  // TensorRT 7 and 8.
  int32_t getNbBindings() const noexcept;
  int32_t getBindingIndex(char const *name) const noexcept;
  char const *getBindingName(int32_t bindingIndex) const noexcept;
  bool bindingIsInput(int32_t bindingIndex) const noexcept;
  Dims getBindingDimensions(int32_t bindingIndex) const noexcept;
  DataType getBindingDataType(int32_t bindingIndex) const noexcept;
  int32_t getMaxBatchSize() const noexcept;
  int32_t getNbOptimizationProfiles() const noexcept;
  Dims getProfileDimensions(int32_t bindingIndex, int32_t profileIndex, OptProfileSelector select) const noexcept;
  // TensorRT 8.5 and later.
  int32_t getNbIOTensors() const noexcept;
  char const *getIOTensorName(int32_t index) const noexcept;
  Dims getTensorShape(char const *tensorName) const noexcept;
  DataType getTensorDataType(char const *tensorName) const noexcept;
  TensorIOMode getTensorIOMode(char const *tensorName) const noexcept;
  Dims getProfileShape(char const *tensorName, int32_t profileIndex, OptProfileSelector select) const noexcept;
  std::size_t getDeviceMemorySize() const noexcept;
};

class IRuntime : public INoCopy {
 public:
  virtual ~IRuntime() noexcept;
  // TensorRT 7 also took a plugin factory.
  ICudaEngine *deserializeCudaEngine(void const *blob, std::size_t size,
                                     IPluginFactory *pluginFactory = nullptr) noexcept;
  void setDLACore(int32_t dlaCore) noexcept;
  void destroy() noexcept;
};

// The real one is inline, in an unnamed namespace; the qualified name is the same.
IRuntime *createInferRuntime(ILogger &logger) noexcept;
}  // namespace nvinfer1
