#include "engine/CommandKey.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlperf::lint {

std::vector<std::string> withoutPresentationFlags(std::vector<std::string> CommandLine) {
  llvm::erase_if(CommandLine, [](const std::string &Arg) {
    llvm::StringRef A(Arg);
    return A == "-fcaret-diagnostics" || A == "-fno-caret-diagnostics" || A == "-fcolor-diagnostics" ||
           A == "-fno-color-diagnostics" || A == "-fdiagnostics-color" || A.starts_with("-fdiagnostics-color=");
  });
  return CommandLine;
}

} // namespace mlperf::lint
