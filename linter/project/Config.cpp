#include "project/Config.h"

#include "findings/Findings.h"

#include "MlperfCheck.h"
#include "MlperfModule.h"
#include "project/ClangTidyConfig.h"
#include "project/ProjectScope.h"
#include "support/SafeIO.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/GlobList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>
#include <map>
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
    H.emplace_back(ClangTidyConfigFileName, parseMlperfPartOfClangTidy);
    return H;
  }
};

/// One line naming the source, even when the problem quotes text with line
/// breaks (a check name, a regex, a value from the file).
llvm::Error fail(const std::string &Source, std::string Problem) {
  std::replace_if(Problem.begin(), Problem.end(), [](char C) { return C == '\n' || C == '\r'; }, ' ');
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", Source.c_str(), Problem.c_str());
}

/// Every check option key the checks read, as `<check>.<option>`.
const std::set<std::string> &knownOptionKeys() {
  static const std::set<std::string> Keys = [] {
    ClangTidyOptions O = ClangTidyOptions::getDefaults();
    O.Checks = "-*,mlperf-*";
    ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(ClangTidyGlobalOptions(), O));
    Context.setCurrentFile("mlperf-lint-options.cc");
    ClangTidyASTConsumerFactory Factory(Context);
    std::set<std::string> S;
    for (const auto &[Key, Value] : Factory.getCheckOptions())
      S.insert(Key.str());
    return S;
  }();
  return Keys;
}

/// Empty when \p Key is a check option some check reads, else the warning.
std::string unknownKey(llvm::StringRef Key) {
  const std::set<std::string> &Known = knownOptionKeys();
  if (Known.count(Key.str()))
    return "";
  auto [Check, Option] = Key.rsplit('.');
  if (Option.empty()) { // a global option: some check must read it
    for (const std::string &K : Known)
      if (llvm::StringRef(K).ends_with(("." + Key).str()))
        return "";
  } else if (!Check.starts_with("mlperf-")) {
    return ""; // another tool's check
  }
  std::string Best;
  unsigned BestDistance = 4;
  for (const std::string &K : Known)
    if (unsigned D = Key.edit_distance(K, true, BestDistance); D < BestDistance) {
      BestDistance = D;
      Best = K;
    }
  return "unknown check option '" + Key.str() + "'" + (Best.empty() ? "" : "; did you mean '" + Best + "'?");
}

bool enablesSomeCheck(llvm::StringRef Globs) {
  GlobList G((clang::tidy::mlperf::defaultChecksGlob() + "," + Globs).str());
  for (const clang::tidy::mlperf::CheckInfo &C : clang::tidy::mlperf::allChecks())
    if (G.contains(C.Name))
      return true;
  return false;
}

llvm::Error verifyRegex(const std::string &Regex, const std::string &Source) {
  std::string Problem;
  if (!llvm::Regex(Regex).isValid(Problem))
    return fail(Source, "invalid regular expression '" + Regex + "': " + Problem);
  return llvm::Error::success();
}

llvm::Error verifyOptions(const ClangTidyOptions &O, const std::string &Source) {
  if (O.Checks) {
    if (llvm::Error E = verifyCheckGlobs(*O.Checks, Source))
      return E;
    if (!enablesSomeCheck(*O.Checks))
      return fail(Source, "checks '" + *O.Checks + "' enable no check (see --list-checks)");
  }
  if (O.WarningsAsErrors)
    if (llvm::Error E = verifyCheckGlobs(*O.WarningsAsErrors, Source))
      return E;
  if (O.HeaderFilterRegex)
    if (llvm::Error E = verifyRegex(*O.HeaderFilterRegex, Source))
      return E;
  if (O.ExcludeHeaderFilterRegex)
    if (llvm::Error E = verifyRegex(*O.ExcludeHeaderFilterRegex, Source))
      return E;
  for (const auto &[Key, Value] : O.CheckOptions)
    if (Key == "Profiles" || llvm::StringRef(Key).ends_with(".Profiles"))
      if (auto P = clang::tidy::mlperf::MlperfCheck::loadProfiles(Value.Value); !P)
        return fail(Source, llvm::toString(P.takeError()));
  return llvm::Error::success();
}

llvm::Expected<ClangTidyOptions> parseConfig(llvm::MemoryBufferRef Buf, const std::string &Source,
                                             std::vector<std::string> *Warnings) {
  if (llvm::Error E = checkNesting(Buf.getBuffer(), Source)) // the YAML parser recurses once per level
    return std::move(E);
  std::string Message;
  auto Parsed = parseConfigurationWithDiags(Buf, [&](const llvm::SMDiagnostic &D) {
    if (Message.empty() && D.getKind() == llvm::SourceMgr::DK_Error) {
      Message = "line " + std::to_string(D.getLineNo()) + ": " + D.getMessage().str(); // fail() makes it one line
    }
  });
  if (!Parsed)
    return fail(Source, "invalid configuration: " + (Message.empty() ? Parsed.getError().message() : Message));
  if (llvm::Error E = verifyOptions(*Parsed, Source))
    return std::move(E);
  if (Warnings)
    for (const auto &[Key, Value] : Parsed->CheckOptions)
      if (std::string W = unknownKey(Key); !W.empty())
        Warnings->push_back(Source + ": " + W);
  return *Parsed;
}

llvm::Error validateFile(const std::string &Path, std::vector<std::string> *Warnings) {
  auto Buf = readStructuredFile(Path, "configuration");
  if (!Buf)
    return Buf.takeError();
  return parseConfig((*Buf)->getMemBufferRef(), Path, Warnings).takeError();
}

/// The `.mlperf-lint` files from \p File's directory upward, nearest first.
std::vector<std::string> configsAbove(llvm::StringRef File) {
  std::vector<std::string> Out;
  for (llvm::StringRef Dir = llvm::sys::path::parent_path(File); !Dir.empty();
       Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, ConfigFileName);
    if (llvm::sys::fs::exists(Candidate))
      Out.push_back(std::string(Candidate));
  }
  return Out;
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

std::vector<std::string> directoryConfigs(const std::vector<std::string> &Files) {
  std::vector<std::string> Out;
  std::set<std::string> Seen;
  for (const std::string &F : Files)
    for (std::string &C : configsAbove(F))
      if (Seen.insert(C).second)
        Out.push_back(std::move(C));
  return Out;
}

std::vector<std::string> dropFilesWithBadConfig(std::vector<std::string> &Files) {
  std::vector<std::string> Problems;
  std::map<std::string, bool> Good;
  llvm::erase_if(Files, [&](const std::string &F) {
    for (const std::string &C : configsAbove(F)) {
      auto [It, New] = Good.try_emplace(C, true);
      if (New)
        if (llvm::Error E = validateFile(C, nullptr)) {
          It->second = false;
          Problems.push_back(llvm::toString(std::move(E)));
        }
      if (!It->second)
        return true;
    }
    return false;
  });
  return Problems;
}

namespace {
/// The command line's settings, validated, over every configuration.
llvm::Expected<ClangTidyOptions> commandLineOverrides(const ConfigRequest &R) {
  ClangTidyOptions Overrides;
  if (R.Checks) {
    if (llvm::Error E = verifyCheckGlobs(*R.Checks, "--checks"))
      return std::move(E);
    if (!enablesSomeCheck(*R.Checks) && !R.AllowNoChecks)
      return fail("--checks", "'" + *R.Checks + "' enables no check (see --list-checks)");
    Overrides.Checks = *R.Checks;
  }
  if (R.WarningsAsErrors) {
    if (llvm::Error E = verifyCheckGlobs(*R.WarningsAsErrors, "--warnings-as-errors"))
      return std::move(E);
    Overrides.WarningsAsErrors = *R.WarningsAsErrors;
  }
  if (R.HeaderFilter) {
    if (llvm::Error E = verifyRegex(*R.HeaderFilter, "--header-filter"))
      return std::move(E);
    Overrides.HeaderFilterRegex = *R.HeaderFilter;
    Overrides.ExcludeHeaderFilterRegex = ""; // it replaces the default, third-party exclusion included
  }
  if (R.ExcludeHeaderFilter) {
    if (llvm::Error E = verifyRegex(*R.ExcludeHeaderFilter, "--exclude-header-filter"))
      return std::move(E);
    Overrides.ExcludeHeaderFilterRegex = *R.ExcludeHeaderFilter;
  }
  if (R.SystemHeaders)
    Overrides.SystemHeaders = *R.SystemHeaders;
  if (!R.Profiles.empty()) {
    std::string Joined;
    for (const std::string &P : R.Profiles)
      Joined += (Joined.empty() ? "" : ",") + P;
    if (auto P = clang::tidy::mlperf::MlperfCheck::loadProfiles(Joined); !P)
      return P.takeError();
    Overrides.CheckOptions["Profiles"] = ClangTidyOptions::ClangTidyValue(Joined);
  }
  return Overrides;
}

/// The --config-file or --config configuration (none without them, after
/// every `.mlperf-lint` above \p Files was validated); the unknown keys found
/// go to \p Found.
llvm::Expected<std::optional<ClangTidyOptions>>
fixedConfiguration(const ConfigRequest &R, const std::vector<std::string> &Files, std::vector<std::string> &Found) {
  if (!R.ConfigFile && !R.ConfigText) {
    for (const std::string &C : directoryConfigs(Files))
      if (llvm::Error E = validateFile(C, &Found))
        return std::move(E);
    return std::nullopt;
  }
  std::unique_ptr<llvm::MemoryBuffer> Buf;
  std::string Source = R.ConfigFile ? *R.ConfigFile : "--config";
  if (R.ConfigFile) {
    auto B = readStructuredFile(*R.ConfigFile, "configuration");
    if (!B)
      return B.takeError();
    Buf = std::move(*B);
  } else {
    Buf = llvm::MemoryBuffer::getMemBufferCopy(*R.ConfigText, "--config");
  }
  auto Parsed = parseConfig(Buf->getMemBufferRef(), Source, &Found);
  if (!Parsed)
    return Parsed.takeError();
  return std::optional<ClangTidyOptions>(*Parsed);
}
} // namespace

llvm::Expected<ProviderFactory> makeOptionsProviders(const ConfigRequest &R, const std::vector<std::string> &Files,
                                                     std::vector<std::string> *Warnings) {
  ClangTidyGlobalOptions Global;
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = clang::tidy::mlperf::defaultChecksGlob().str();
  Defaults.HeaderFilterRegex = R.DefaultHeaderFilter;
  if (!R.DefaultHeaderFilter.empty())
    Defaults.ExcludeHeaderFilterRegex = thirdPartyHeaderFilter();
  Defaults.SystemHeaders = false;
  auto Overrides = commandLineOverrides(R);
  if (!Overrides)
    return Overrides.takeError();
  std::vector<std::string> Found;
  auto Fixed = fixedConfiguration(R, Files, Found);
  if (!Fixed)
    return Fixed.takeError();
  if (Warnings) {
    std::set<std::string> Seen;
    for (std::string &W : Found)
      if (Seen.insert(W).second)
        Warnings->push_back(std::move(W));
  }
  if (*Fixed)
    return ProviderFactory(
        [=, O = *Overrides, F = **Fixed] { return std::make_unique<ConfigOptionsProvider>(Global, Defaults, F, O); });
  return ProviderFactory(
      [=, O = *Overrides] { return std::make_unique<MlperfFileOptionsProvider>(Global, Defaults, O); });
}

} // namespace mlperf::lint
