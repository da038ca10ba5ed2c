// The persistent kernel cache's entries (kernel_cache.h): written atomically, read back only when
// intact; a damaged entry is a miss and is removed.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "kernel_cache.h"
#include "test_util.h"

namespace {

namespace kc = mlperf::rt::kernel_cache;

struct TempDir {
  std::string dir;
  TempDir() {
    char tmpl[] = "/tmp/mlperf_kc_test_XXXXXX";
    dir = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(dir); }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void spit(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
}

const std::string kPayload = std::string(
    "\x7f"
    "ELF object bytes\n\0with a NUL and newlines\n",
    43);

TEST(KernelCache, AnEntryIsReadBackWithItsCompileTime) {
  TempDir t;
  std::string path = kc::path(t.dir, kc::key({"source"}), ".o");
  EXPECT_FALSE(kc::read(path));  // a plain miss
  kc::write(t.dir, path, kPayload, 0.125);
  auto e = kc::read(path);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->data, kPayload);
  EXPECT_DOUBLE_EQ(e->seconds, 0.125);
  size_t files = 0;
  for (const auto& f : std::filesystem::directory_iterator(t.dir)) files += f.is_regular_file();
  EXPECT_EQ(files, 1u);  // no temporary left behind
}

TEST(KernelCache, DamagedEntriesAreMissesAndAreRemoved) {
  TempDir t;
  std::string path = kc::path(t.dir, kc::key({"damaged"}), ".o");
  kc::write(t.dir, path, kPayload, 0.5);
  const std::string good = slurp(path);
  const size_t body = good.find('\n') + 1;
  std::string flipped = good;
  flipped[body + 5] ^= 0x10;
  std::string wrong_size = good;
  wrong_size.insert(body, "x");
  std::string v1 = "mlperf-kernel-cache 1 0.5\n" + kPayload;  // the previous format
  std::string no_hash = good.substr(0, good.rfind(' ', body)) + "\n" + kPayload;
  const std::vector<std::pair<const char*, std::string>> cases = {{"a flipped bit", flipped},
                                                                  {"truncated", good.substr(0, good.size() - 3)},
                                                                  {"a byte too many", wrong_size},
                                                                  {"only a header", good.substr(0, body)},
                                                                  {"the old format", v1},
                                                                  {"no hash", no_hash},
                                                                  {"empty", ""}};
  for (const auto& [what, bytes] : cases) {
    spit(path, bytes);
    EXPECT_FALSE(kc::read(path)) << what;
    EXPECT_FALSE(std::filesystem::exists(path)) << what << ": a damaged entry stays";
  }
  spit(path, good);
  EXPECT_TRUE(kc::read(path));
}

TEST(KernelCache, AnEntryLargerThanTheBoundIsNotReadAndIsRemoved) {
  TempDir t;
  std::string path = kc::path(t.dir, kc::key({"huge"}), ".o");
  kc::write(t.dir, path, kPayload, 0.5);
  std::filesystem::resize_file(path, kc::kMaxEntryBytes + 1);  // sparse: nothing is written
  EXPECT_FALSE(kc::read(path));
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(KernelCache, Sha256MatchesTheStandardTestVectors) {
  EXPECT_EQ(kc::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(kc::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(kc::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(kc::sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  EXPECT_NE(kc::key({"ab", "c"}), kc::key({"a", "bc"}));  // parts are delimited
}

}  // namespace
