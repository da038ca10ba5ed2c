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

bool showsCarets(const std::vector<std::string> &CommandLine) {
  for (auto It = CommandLine.rbegin(); It != CommandLine.rend(); ++It)
    if (*It == "-fcaret-diagnostics" || *It == "-fno-caret-diagnostics")
      return *It == "-fcaret-diagnostics";
  return true;
}

} // namespace mlperf::lint
