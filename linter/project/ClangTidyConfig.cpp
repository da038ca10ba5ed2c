#include "project/ClangTidyConfig.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyOptions;

namespace {
/// The globs of \p Globs that concern mlperf checks, or nullopt when none do.
std::optional<std::string> mlperfGlobs(const std::optional<std::string> &Globs) {
  if (!Globs)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  llvm::StringRef(*Globs).split(Parts, ',', -1, /*KeepEmpty=*/false);
  std::string Out;
  bool ClearsAll = false;
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim();
    if (Out.empty() && (Part == "-*" || Part == "-mlperf-*"))
      ClearsAll = true;
    else if (Part.contains("mlperf"))
      Out += (Out.empty() ? "" : ",") + Part.str();
  }
  if (Out.empty())
    return std::nullopt;
  return ClearsAll ? "-mlperf-*," + Out : Out;
}
} // namespace

llvm::ErrorOr<ClangTidyOptions> parseMlperfPartOfClangTidy(llvm::MemoryBufferRef Config) {
  auto Parsed = clang::tidy::parseConfiguration(Config);
  if (!Parsed)
    return Parsed.getError();
  ClangTidyOptions Out;
  Out.Checks = mlperfGlobs(Parsed->Checks);
  Out.WarningsAsErrors = mlperfGlobs(Parsed->WarningsAsErrors);
  for (const auto &[Key, Value] : Parsed->CheckOptions)
    if (llvm::StringRef(Key).starts_with("mlperf-"))
      Out.CheckOptions.insert({Key, Value});
  Out.HeaderFilterRegex = Parsed->HeaderFilterRegex;
  Out.ExcludeHeaderFilterRegex = Parsed->ExcludeHeaderFilterRegex;
  Out.SystemHeaders = Parsed->SystemHeaders;
  Out.InheritParentConfig = Parsed->InheritParentConfig;
  return Out;
}

} // namespace mlperf::lint
