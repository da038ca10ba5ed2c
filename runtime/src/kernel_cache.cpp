#include "kernel_cache.h"

#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace mlperf::rt::kernel_cache {

namespace {

constexpr const char* kMagic = "mlperf-kernel-cache 2 ";

// SHA-256 (FIPS 180-4).
class Sha256 {
 public:
  void update(std::string_view d) {
    for (unsigned char c : d) {
      block_[fill_++] = c;
      if (fill_ == 64) {
        compress();
        fill_ = 0;
      }
    }
    bits_ += static_cast<uint64_t>(d.size()) * 8;
  }
  std::array<uint8_t, 32> final() {
    uint64_t bits = bits_;
    block_[fill_++] = 0x80;
    if (fill_ > 56) {
      while (fill_ < 64) block_[fill_++] = 0;
      compress();
      fill_ = 0;
    }
    while (fill_ < 56) block_[fill_++] = 0;
    for (int i = 7; i >= 0; --i) block_[fill_++] = static_cast<uint8_t>(bits >> (8 * i));
    compress();
    std::array<uint8_t, 32> out{};
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 4; ++j) out[static_cast<size_t>(4 * i + j)] = static_cast<uint8_t>(h_[i] >> (24 - 8 * j));
    return out;
  }

 private:
  static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
  void compress() {
    static constexpr uint32_t kRoundConstants[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = static_cast<uint32_t>(block_[4 * i]) << 24 | static_cast<uint32_t>(block_[4 * i + 1]) << 16 |
             static_cast<uint32_t>(block_[4 * i + 2]) << 8 | block_[4 * i + 3];
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6], h = h_[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRoundConstants[i] + w[i];
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h_[0] += a, h_[1] += b, h_[2] += c, h_[3] += d, h_[4] += e, h_[5] += f, h_[6] += g, h_[7] += h;
  }

  uint32_t h_[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  uint8_t block_[64] = {};
  size_t fill_ = 0;
  uint64_t bits_ = 0;
};

std::string hex(const std::array<uint8_t, 32>& d) {
  std::string s;
  char b[3];
  for (uint8_t x : d) {
    std::snprintf(b, sizeof b, "%02x", x);
    s += b;
  }
  return s;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data);
  return hex(h.final());
}

std::string key(const std::vector<std::string_view>& parts) {
  Sha256 h;
  for (std::string_view p : parts) {
    h.update(p);
    h.update(std::string_view("\0", 1));
  }
  return hex(h.final());
}

std::string path(const std::string& dir, const std::string& key, const std::string& ext) {
  return (std::filesystem::path(dir) / (key + ext)).string();
}

std::optional<Entry> read(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return std::nullopt;  // no entry (or none we can see): a plain miss
  auto damaged = [&path]() -> std::optional<Entry> {
    drop(path);
    return std::nullopt;
  };
  if (size > kMaxEntryBytes) return damaged();
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (static_cast<size_t>(in.gcount()) != text.size()) return damaged();
  const size_t eol = text.find('\n');
  if (eol == std::string::npos || text.rfind(kMagic, 0) != 0) return damaged();
  // "<seconds> <bytes> <sha256>" after the magic.
  const std::string header = text.substr(std::strlen(kMagic), eol - std::strlen(kMagic));
  const char* p = header.c_str();
  char* end = nullptr;
  Entry e;
  e.seconds = std::strtod(p, &end);
  if (end == p || *end != ' ') return damaged();
  p = end + 1;
  errno = 0;
  const unsigned long long bytes = std::strtoull(p, &end, 10);
  if (end == p || *end != ' ' || errno == ERANGE) return damaged();
  const std::string hash = end + 1;
  if (bytes == 0 || bytes != text.size() - eol - 1 || hash.size() != 64) return damaged();
  e.data = text.substr(eol + 1);
  if (sha256_hex(e.data) != hash) return damaged();
  return e;
}

void drop(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
}

void write(const std::string& dir, const std::string& path, const std::string& data, double seconds) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return;
  // Unique per process and thread: the modules of one executable are stored from pool threads.
  static std::atomic<uint64_t> serial{0};
  std::string tmp = path + ".tmp" + std::to_string(::getpid()) + "." + std::to_string(serial++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out << kMagic << seconds << " " << data.size() << " " << sha256_hex(data) << "\n";
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

}  // namespace mlperf::rt::kernel_cache
