#pragma once
#include <stdexcept>
#include <string>

namespace mlperf::rt {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Raised while a graph is built: incompatible shapes, bad axes.
class ShapeError : public Error {
 public:
  using Error::Error;
};

class DTypeError : public Error {
 public:
  using Error::Error;
};

// Wrong number of arguments, bad attribute values, misuse of the API.
class ArgumentError : public Error {
 public:
  using Error::Error;
};

// A tensor used after finalize() or a default-constructed (empty) tensor.
class FinalizedTensorError : public Error {
 public:
  using Error::Error;
};

class OutOfDeviceMemory : public Error {
 public:
  OutOfDeviceMemory(const std::string& msg, size_t requested, size_t in_use, size_t limit)
      : Error(msg), requested_(requested), in_use_(in_use), limit_(limit) {}
  size_t requested() const { return requested_; }
  size_t in_use() const { return in_use_; }
  size_t limit() const { return limit_; }

 private:
  size_t requested_, in_use_, limit_;
};

// Unknown backend name or a backend that cannot be created.
class BackendError : public Error {
 public:
  using Error::Error;
};

// An error raised on a backend's stream, re-raised on the host at the next wait.
class DeviceError : public Error {
 public:
  using Error::Error;
};

}  // namespace mlperf::rt
