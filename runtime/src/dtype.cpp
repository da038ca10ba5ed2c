#include "mlperf/rt/dtype.h"

#include <cmath>
#include <sstream>

#include "mlperf/rt/error.h"

namespace mlperf::rt {

size_t dtype_size(DType d) {
  switch (d) {
    case DType::F32:
      return 4;
    case DType::F16:
      return 2;
    case DType::BF16:
      return 2;
    case DType::I32:
      return 4;
    case DType::I64:
      return 8;
    case DType::Bool:
      return 1;
  }
  return 0;
}

const char* dtype_name(DType d) {
  switch (d) {
    case DType::F32:
      return "f32";
    case DType::F16:
      return "f16";
    case DType::BF16:
      return "bf16";
    case DType::I32:
      return "i32";
    case DType::I64:
      return "i64";
    case DType::Bool:
      return "bool";
  }
  return "?";
}

bool is_float(DType d) { return d == DType::F32 || d == DType::F16 || d == DType::BF16; }
bool is_integer(DType d) { return d == DType::I32 || d == DType::I64; }

int64_t Shape::numel() const {
  int64_t n = 1;
  for (int64_t d : dims)
    if (d < 0) throw ShapeError("shape " + to_string() + " has a negative dimension");
  for (int64_t d : dims)
    if (__builtin_mul_overflow(n, d, &n))
      throw ShapeError("shape " + to_string() + " has more elements than a 64-bit count can hold");
  return n;
}

int64_t Shape::dim(int axis) const {
  int r = rank();
  int a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= r) throw ShapeError("axis " + std::to_string(axis) + " out of range for shape " + to_string());
  return dims[static_cast<size_t>(a)];
}

std::string Shape::to_string() const {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < dims.size(); ++i) os << (i ? "," : "") << dims[i];
  os << ']';
  return os.str();
}

std::vector<int64_t> strides_of(const Shape& s) {
  std::vector<int64_t> st(s.dims.size());
  int64_t acc = 1;
  for (size_t i = s.dims.size(); i-- > 0;) {
    st[i] = acc;
    acc *= s.dims[i];
  }
  return st;
}

uint16_t float_to_f16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t exp = (x >> 23) & 0xffu;
  uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u));
  int32_t e = static_cast<int32_t>(exp) - 127 + 15;
  if (e >= 0x1f) return static_cast<uint16_t>(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1u);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(half);
}

float f16_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {
      float v = std::ldexp(static_cast<float>(mant), -24);
      return sign ? -v : v;
    }
  } else if (exp == 0x1f) {
    x = sign | 0x7f800000u | (mant << 13);
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t float_to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu)) return static_cast<uint16_t>((x >> 16) | 0x40u);
  uint32_t lsb = (x >> 16) & 1u;
  x += 0x7fffu + lsb;
  return static_cast<uint16_t>(x >> 16);
}

float bf16_to_float(uint16_t h) {
  uint32_t x = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

int32_t float_to_i32(double v) {
  if (v != v) return 0;
  if (v >= 2147483647.0) return INT32_MAX;
  if (v <= -2147483648.0) return INT32_MIN;
  return static_cast<int32_t>(v);
}

int64_t float_to_i64(double v) {
  if (v != v) return 0;
  if (v >= 9223372036854775808.0) return INT64_MAX;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  return static_cast<int64_t>(v);
}

void convert_to_storage(DType dst, void* out, const double* in, size_t n) {
  switch (dst) {
    case DType::F32: {
      auto* o = static_cast<float*>(out);
      for (size_t i = 0; i < n; ++i) o[i] = static_cast<float>(in[i]);
      break;
    }
    case DType::F16: {
      auto* o = static_cast<uint16_t*>(out);
      for (size_t i = 0; i < n; ++i) o[i] = float_to_f16(static_cast<float>(in[i]));
      break;
    }
    case DType::BF16: {
      auto* o = static_cast<uint16_t*>(out);
      for (size_t i = 0; i < n; ++i) o[i] = float_to_bf16(static_cast<float>(in[i]));
      break;
    }
    case DType::I32: {
      auto* o = static_cast<int32_t*>(out);
      for (size_t i = 0; i < n; ++i) o[i] = float_to_i32(in[i]);
      break;
    }
    case DType::I64: {
      auto* o = static_cast<int64_t*>(out);
      for (size_t i = 0; i < n; ++i) o[i] = float_to_i64(in[i]);
      break;
    }
    case DType::Bool: {
      auto* o = static_cast<uint8_t*>(out);
      for (size_t i = 0; i < n; ++i) o[i] = in[i] != 0.0 ? 1 : 0;
      break;
    }
  }
}

void convert_from_storage(DType src, const void* in, double* out, size_t n) {
  switch (src) {
    case DType::F32: {
      auto* p = static_cast<const float*>(in);
      for (size_t i = 0; i < n; ++i) out[i] = p[i];
      break;
    }
    case DType::F16: {
      auto* p = static_cast<const uint16_t*>(in);
      for (size_t i = 0; i < n; ++i) out[i] = f16_to_float(p[i]);
      break;
    }
    case DType::BF16: {
      auto* p = static_cast<const uint16_t*>(in);
      for (size_t i = 0; i < n; ++i) out[i] = bf16_to_float(p[i]);
      break;
    }
    case DType::I32: {
      auto* p = static_cast<const int32_t*>(in);
      for (size_t i = 0; i < n; ++i) out[i] = p[i];
      break;
    }
    case DType::I64: {
      auto* p = static_cast<const int64_t*>(in);
      for (size_t i = 0; i < n; ++i) out[i] = static_cast<double>(p[i]);
      break;
    }
    case DType::Bool: {
      auto* p = static_cast<const uint8_t*>(in);
      for (size_t i = 0; i < n; ++i) out[i] = p[i] ? 1.0 : 0.0;
      break;
    }
  }
}

}  // namespace mlperf::rt
