#include "support/Installation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace mlperf::lint {

const std::string &installPrefix() {
  static const std::string Prefix = [] {
    std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
    return Exe.empty() ? std::string() : llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)).str();
  }();
  return Prefix;
}

} // namespace mlperf::lint
