// Declarations of the buffers of TensorRT's samples (samples/common/buffers.h,
// namespace samplesCommon), which TensorRT applications copy into their own
// trees and include as <buffers.h>: a host or device buffer with data() and
// nbBytes(), a host/device pair (ManagedBuffer) and the BufferManager of an
// engine's bindings. mlperf-lint uses it in place of a buffers.h that the
// project's include directories do not have, so a decoder's local
// ManagedBuffer is a valid object and its copies are analysed. Declarations
// only: the host buffers are malloc'ed, the device buffers cudaMalloc'ed.
#pragma once

#include "NvInfer.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace samplesCommon {

template <typename AllocFunc, typename FreeFunc>
class GenericBuffer {
 public:
  GenericBuffer(nvinfer1::DataType type = nvinfer1::DataType::kFLOAT);
  GenericBuffer(size_t size, nvinfer1::DataType type);
  GenericBuffer(GenericBuffer &&buf);
  GenericBuffer &operator=(GenericBuffer &&buf);
  void *data();
  const void *data() const;
  size_t size() const;
  size_t nbBytes() const;
  void resize(size_t newSize);
  void resize(const nvinfer1::Dims &dims);
  ~GenericBuffer();
};

class DeviceAllocator {
 public:
  bool operator()(void **ptr, size_t size) const;
};
class DeviceFree {
 public:
  void operator()(void *ptr) const;
};
class HostAllocator {
 public:
  bool operator()(void **ptr, size_t size) const;
};
class HostFree {
 public:
  void operator()(void *ptr) const;
};

using DeviceBuffer = GenericBuffer<DeviceAllocator, DeviceFree>;
using HostBuffer = GenericBuffer<HostAllocator, HostFree>;

class ManagedBuffer {
 public:
  DeviceBuffer deviceBuffer;
  HostBuffer hostBuffer;
};

class BufferManager {
 public:
  static const size_t kINVALID_SIZE_VALUE = ~size_t(0);
  BufferManager(std::shared_ptr<nvinfer1::ICudaEngine> engine, int32_t batchSize = 0,
                const nvinfer1::IExecutionContext *context = nullptr);
  std::vector<void *> &getDeviceBindings();
  const std::vector<void *> &getDeviceBindings() const;
  void *getDeviceBuffer(const std::string &tensorName) const;
  void *getHostBuffer(const std::string &tensorName) const;
  size_t size(const std::string &tensorName) const;
  void copyInputToDevice();
  void copyOutputToHost();
  void copyInputToDeviceAsync(const cudaStream_t &stream = 0);
  void copyOutputToHostAsync(const cudaStream_t &stream = 0);
  ~BufferManager() = default;
};

}  // namespace samplesCommon
