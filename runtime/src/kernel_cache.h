#pragma once
// The persistent kernel cache's files (MLPERF_KERNEL_CACHE_DIR), shared by the cpu JIT (object
// code) and the cuda backend (PTX): one file per compiled translation unit, named by a SHA-256 of
// everything that decides the compiler's output, holding a header line
// "mlperf-kernel-cache 2 <compile seconds> <bytes> <SHA-256 of the bytes>" and the output.
// Reads are bounded (kMaxEntryBytes) and verified: a file that is too large, truncated, has
// another header or whose bytes do not match their hash (a torn write, a flipped bit, another
// version's format) is a miss and is removed, so the next compile stores a good entry. Writes go
// to a temporary name renamed into place, and a directory that cannot be written is not an
// error (the next process compiles again).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlperf::rt::kernel_cache {

// Lower-case hex SHA-256 of the parts, each followed by a NUL byte.
std::string key(const std::vector<std::string_view>& parts);
std::string sha256_hex(std::string_view data);

struct Entry {
  std::string data;
  double seconds = 0;  // what compiling it took when it was stored
};

std::string path(const std::string& dir, const std::string& key, const std::string& ext);
// Larger entries are damaged by definition (an executable's object code is tens of KB).
constexpr size_t kMaxEntryBytes = size_t{64} << 20;

std::optional<Entry> read(const std::string& path);
// Removes an entry its user found unusable (e.g. not an object file); errors are ignored.
void drop(const std::string& path);
void write(const std::string& dir, const std::string& path, const std::string& data, double seconds);

}  // namespace mlperf::rt::kernel_cache
