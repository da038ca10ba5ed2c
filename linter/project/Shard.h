// --shard=K/N: the inputs split deterministically between N CI jobs. A file
// belongs to the shard its path's hash selects, so adding or removing a file
// never moves the others between shards.
#pragma once

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlperf::lint {

struct Shard {
  unsigned Index = 1, Count = 1; // 1 <= Index <= Count
};

llvm::Expected<Shard> parseShard(llvm::StringRef Spec);

/// The shard (1-based) \p File belongs to: a hash of its path relative to
/// \p Root when it is under it (so checkouts in different directories agree),
/// else of the path as given.
unsigned shardOf(llvm::StringRef File, llvm::StringRef Root, unsigned Count);

/// The files of \p Files in shard \p S, in their order, hashed relative to
/// the current directory (a CI job's checkout).
std::vector<std::string> selectShard(const std::vector<std::string> &Files, Shard S);

} // namespace mlperf::lint
