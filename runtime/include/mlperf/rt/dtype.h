#pragma once
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace mlperf::rt {

// F16 and BF16 are stored in 16 bits and computed in f32.
enum class DType : uint8_t { F32, F16, BF16, I32, I64, Bool };

size_t dtype_size(DType d);
const char* dtype_name(DType d);
bool is_float(DType d);
bool is_integer(DType d);

struct Shape {
  std::vector<int64_t> dims;

  Shape() = default;
  Shape(std::initializer_list<int64_t> d) : dims(d) {}
  explicit Shape(std::vector<int64_t> d) : dims(std::move(d)) {}

  int rank() const { return static_cast<int>(dims.size()); }
  int64_t numel() const;
  int64_t operator[](int i) const { return dims[static_cast<size_t>(i)]; }
  int64_t dim(int axis) const;  // negative axes count from the end
  std::string to_string() const;
  bool operator==(const Shape& o) const { return dims == o.dims; }
  bool operator!=(const Shape& o) const { return dims != o.dims; }
};

std::vector<int64_t> strides_of(const Shape& s);

uint16_t float_to_f16(float f);
float f16_to_float(uint16_t h);
uint16_t float_to_bf16(float f);
float bf16_to_float(uint16_t h);
// Float to integer as XLA's convert does it on every backend: NaN is 0, values past the
// integer's range saturate to its limits, the rest truncate toward zero.
int32_t float_to_i32(double v);
int64_t float_to_i64(double v);

template <class T>
struct DTypeOf;
template <>
struct DTypeOf<float> {
  static constexpr DType kValue = DType::F32;
};
template <>
struct DTypeOf<int32_t> {
  static constexpr DType kValue = DType::I32;
};
template <>
struct DTypeOf<int64_t> {
  static constexpr DType kValue = DType::I64;
};
template <>
struct DTypeOf<bool> {
  static constexpr DType kValue = DType::Bool;
};
template <>
struct DTypeOf<uint8_t> {
  static constexpr DType kValue = DType::Bool;
};

// Host <-> storage conversion for one element; the storage type of Bool is one byte.
void convert_to_storage(DType dst, void* out, const double* in, size_t n);
void convert_from_storage(DType src, const void* in, double* out, size_t n);

}  // namespace mlperf::rt
