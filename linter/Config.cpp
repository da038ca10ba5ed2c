#include "Config.h"

#include "MlperfCheck.h"
#include "MlperfModule.h"
#include "ProjectScope.h"

#include "clang-tidy/GlobList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <set>

namespace mlperf::lint {

using namespace clang::tidy;

namespace {
/// Looks for `.mlperf-lint` files. (clang-tidy's constructor taking custom
/// handlers leaves the file system unset.)
class MlperfFileOptionsProvider : public FileOptionsProvider {
public:
  MlperfFileOptionsProvider(ClangTidyGlobalOptions Global, ClangTidyOptions Defaults, ClangTidyOptions Overrides)
      : FileOptionsProvider(std::move(Global), std::move(Defaults), std::move(Overrides), handlers()) {
    FS = llvm::vfs::getRealFileSystem();
  }

private:
  static ConfigFileHandlers handlers() {
    ConfigFileHandlers H;
    H.emplace_back(ConfigFileName, parseConfiguration);
    return H;
  }
};

llvm::Error fail(const std::string &Source, const std::string &Problem) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", Source.c_str(), Problem.c_str());
}

llvm::Expected<ClangTidyOptions> parseConfig(llvm::MemoryBufferRef Buf, const std::string &Source) {
  std::string Message;
  auto Parsed = parseConfigurationWithDiags(Buf, [&](const llvm::SMDiagnostic &D) {
    if (Message.empty())
      Message = "line " + std::to_string(D.getLineNo()) + ": " + D.getMessage().str();
  });
  if (!Parsed)
    return fail(Source, "invalid configuration: " +
                            (Message.empty() ? Parsed.getError().message() : Message));
  if (Parsed->Checks)
    if (llvm::Error E = verifyCheckGlobs(*Parsed->Checks, Source))
      return std::move(E);
  if (auto It = Parsed->CheckOptions.find("Profiles"); It != Parsed->CheckOptions.end())
    if (auto P = clang::tidy::mlperf::MlperfCheck::loadProfiles(It->second.Value); !P)
      return P.takeError();
  return *Parsed;
}

llvm::Error validateFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return fail(Path, "cannot read configuration: " + Buf.getError().message());
  return parseConfig((*Buf)->getMemBufferRef(), Path).takeError();
}
} // namespace

llvm::Error verifyCheckGlobs(llvm::StringRef Globs, llvm::StringRef Source) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Globs.split(Parts, ',', -1, false);
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim();
    if (Part.empty() || Part.starts_with("-") || Part.starts_with("clang-diagnostic-"))
      continue;
    GlobList G(Part);
    bool Known = false;
    for (const clang::tidy::mlperf::CheckInfo &C : clang::tidy::mlperf::allChecks())
      Known |= G.contains(C.Name);
    // Globs that could only match other modules' checks (`*`, `readability-*`)
    // are accepted as clang-tidy accepts them; an exact unknown name is not.
    if (!Known && Part.find('*') == llvm::StringRef::npos)
      return fail(Source.str(), "unknown check '" + Part.str() + "' (see --list-checks)");
  }
  return llvm::Error::success();
}

llvm::Expected<ProviderFactory> makeOptionsProviders(const ConfigRequest &R, const std::vector<std::string> &Files) {
  ClangTidyGlobalOptions Global;
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = clang::tidy::mlperf::defaultChecksGlob().str();
  Defaults.HeaderFilterRegex = R.DefaultHeaderFilter;
  if (!R.DefaultHeaderFilter.empty())
    Defaults.ExcludeHeaderFilterRegex = thirdPartyHeaderFilter();
  Defaults.SystemHeaders = false;
  ClangTidyOptions Overrides;
  if (R.Checks) {
    if (llvm::Error E = verifyCheckGlobs(*R.Checks, "--checks"))
      return std::move(E);
    Overrides.Checks = *R.Checks;
  }
  if (R.WarningsAsErrors)
    Overrides.WarningsAsErrors = *R.WarningsAsErrors;
  if (R.HeaderFilter) {
    Overrides.HeaderFilterRegex = *R.HeaderFilter;
    Overrides.ExcludeHeaderFilterRegex = "";
  }
  if (!R.Profiles.empty()) {
    std::string Joined;
    for (const std::string &P : R.Profiles)
      Joined += (Joined.empty() ? "" : ",") + P;
    if (auto P = clang::tidy::mlperf::MlperfCheck::loadProfiles(Joined); !P)
      return P.takeError();
    Overrides.CheckOptions["Profiles"] = ClangTidyOptions::ClangTidyValue(Joined);
  }

  std::optional<ClangTidyOptions> Fixed;
  if (R.ConfigFile || R.ConfigText) {
    std::unique_ptr<llvm::MemoryBuffer> Buf;
    std::string Source = R.ConfigFile ? *R.ConfigFile : "--config";
    if (R.ConfigFile) {
      auto B = llvm::MemoryBuffer::getFile(*R.ConfigFile, /*IsText=*/true);
      if (!B)
        return fail(*R.ConfigFile, "cannot read configuration: " + B.getError().message());
      Buf = std::move(*B);
    } else {
      Buf = llvm::MemoryBuffer::getMemBufferCopy(*R.ConfigText, "--config");
    }
    auto Parsed = parseConfig(Buf->getMemBufferRef(), Source);
    if (!Parsed)
      return Parsed.takeError();
    Fixed = *Parsed;
    return ProviderFactory([=] {
      return std::make_unique<ConfigOptionsProvider>(Global, Defaults, *Fixed, Overrides);
    });
  }

  std::set<std::string> Checked;
  for (const std::string &F : Files)
    for (llvm::StringRef Dir = llvm::sys::path::parent_path(F); !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir)) {
      llvm::SmallString<256> Candidate(Dir);
      llvm::sys::path::append(Candidate, ConfigFileName);
      if (!Checked.insert(std::string(Candidate)).second)
        break;
      if (llvm::sys::fs::exists(Candidate))
        if (llvm::Error E = validateFile(std::string(Candidate)))
          return std::move(E);
    }
  return ProviderFactory([=] {
    return std::make_unique<MlperfFileOptionsProvider>(Global, Defaults, Overrides);
  });
}

} // namespace mlperf::lint
