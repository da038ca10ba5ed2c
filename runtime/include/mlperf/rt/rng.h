#pragma once
#include <cstdint>

namespace mlperf::rt {

// The counter-based generator behind OpKind::RngUniform, shared by every backend:
// element i of a tensor drawn with `seed` is rng_uniform_value(seed, i).
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline float rng_uniform_value(uint64_t seed, uint64_t index) {
  uint64_t r = splitmix64(splitmix64(seed) ^ index);
  return static_cast<float>(r >> 40) * (1.0f / 16777216.0f);
}

}  // namespace mlperf::rt
