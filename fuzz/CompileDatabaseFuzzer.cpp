// compile_commands.json: checked whole, then read by clang's JSON database;
// every accepted database yields commands without crashing.
#include "project/CompileFlags.h"

#include "clang/Tooling/JSONCompilationDatabase.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Json(reinterpret_cast<const char *>(Data), Size);
  if (llvm::Error E = mlperf::lint::checkCompileDatabaseText(Json, "compile_commands.json")) {
    llvm::consumeError(std::move(E));
    return 0;
  }
  std::string Error;
  auto DB = clang::tooling::JSONCompilationDatabase::loadFromBuffer(Json, Error,
                                                                    clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!DB)
    return 0;
  for (const std::string &File : DB->getAllFiles())
    (void)DB->getCompileCommands(File);
  return 0;
}
