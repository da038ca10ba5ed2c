// The C types of ONNX Runtime's API (onnxruntime_c_api.h) that the C++ API
// declarations in onnxruntime_cxx_api.h need: opaque handles and enums.
// Declarations only: the fixtures parse against them, and mlperf-lint uses
// them in place of a header the machine does not have.
#pragma once

#include <cstddef>
#include <cstdint>

#define ORTCHAR_T char

extern "C" {
struct OrtEnv;
struct OrtSession;
struct OrtSessionOptions;
struct OrtRunOptions;
struct OrtValue;
struct OrtMemoryInfo;
struct OrtIoBinding;
struct OrtAllocator;
struct OrtTypeInfo;
struct OrtTensorTypeAndShapeInfo;
struct OrtStatus;

#define ORT_API_VERSION 16

typedef enum ONNXTensorElementDataType {
  ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16,
  ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE,
} ONNXTensorElementDataType;

typedef enum ONNXType { ONNX_TYPE_UNKNOWN, ONNX_TYPE_TENSOR, ONNX_TYPE_SEQUENCE, ONNX_TYPE_MAP } ONNXType;
typedef enum ExecutionMode { ORT_SEQUENTIAL = 0, ORT_PARALLEL = 1 } ExecutionMode;

typedef struct OrtCUDAProviderOptions {
  int device_id;
  int cudnn_conv_algo_search;
  size_t gpu_mem_limit;
  int arena_extend_strategy;
  int do_copy_in_default_stream;
  int has_user_compute_stream;
  void *user_compute_stream;
} OrtCUDAProviderOptions;

typedef enum OrtLoggingLevel {
  ORT_LOGGING_LEVEL_VERBOSE,
  ORT_LOGGING_LEVEL_INFO,
  ORT_LOGGING_LEVEL_WARNING,
  ORT_LOGGING_LEVEL_ERROR,
  ORT_LOGGING_LEVEL_FATAL,
} OrtLoggingLevel;

typedef enum OrtAllocatorType { OrtInvalidAllocator = -1, OrtDeviceAllocator = 0, OrtArenaAllocator = 1 } OrtAllocatorType;

typedef enum OrtMemType {
  OrtMemTypeCPUInput = -2,
  OrtMemTypeCPUOutput = -1,
  OrtMemTypeCPU = OrtMemTypeCPUOutput,
  OrtMemTypeDefault = 0,
} OrtMemType;

typedef enum GraphOptimizationLevel {
  ORT_DISABLE_ALL = 0,
  ORT_ENABLE_BASIC = 1,
  ORT_ENABLE_EXTENDED = 2,
  ORT_ENABLE_ALL = 99
} GraphOptimizationLevel;
}
