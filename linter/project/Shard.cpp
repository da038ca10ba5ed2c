#include "project/Shard.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

namespace mlperf::lint {

llvm::Expected<Shard> parseShard(llvm::StringRef Spec) {
  auto [K, N] = Spec.split('/');
  Shard S;
  if (K.getAsInteger(10, S.Index) || N.getAsInteger(10, S.Count) || S.Count == 0 || S.Index == 0 || S.Index > S.Count)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'%s' is not K/N with 1 <= K <= N (e.g. --shard=2/4)", Spec.str().c_str());
  return S;
}

unsigned shardOf(llvm::StringRef File, llvm::StringRef Root, unsigned Count) {
  llvm::StringRef Rel = File;
  if (Root.empty() || !Rel.consume_front(Root) || !(Root.ends_with("/") || Rel.consume_front("/")))
    Rel = File;
  return static_cast<unsigned>(llvm::xxh3_64bits(Rel) % Count) + 1;
}

std::vector<std::string> selectShard(const std::vector<std::string> &Files, Shard S) {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    Cwd.clear();
  std::vector<std::string> Out;
  for (const std::string &F : Files)
    if (shardOf(F, Cwd, S.Count) == S.Index)
      Out.push_back(F);
  return Out;
}

} // namespace mlperf::lint
