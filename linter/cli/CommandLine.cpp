#include "cli/CommandLine.h"

#include "BuildInfo.h"
#include "engine/RecordingFileSystem.h"
#include "findings/CostNotes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace mlperf::lint {

namespace cl = llvm::cl;

namespace {
const char *UsageText = R"(
SUBCOMMANDS:
  mlperf-lint lsp [options] [-- <compiler arguments>]
      A language server on stdin/stdout for editors; it takes the options above.
  mlperf-lint validate [--help]
      Runs each check's fixture pair and measures what the fix changes.
  mlperf-lint merge-sarif a.sarif b.sarif ... [-o all.sarif]
      Merges the SARIF (or JSON) reports of --shard=K/N runs into one report.

COMPILER ARGUMENTS:
  Arguments after `--` are the compile flags of every file, instead of a
  compilation database (-p, or the nearest compile_commands.json).

CONFIGURATION:
  The nearest `.mlperf-lint` or `.clang-tidy` above each file (in one directory,
  `.mlperf-lint` wins; of a `.clang-tidy` only the mlperf-* settings count), or
  --config-file / --config instead of those files; the command line over both.

EXIT STATUS:
  0  no findings
  1  findings
  2  usage, configuration, input or compile errors
)";

struct Options {
  cl::OptionCategory Category{"mlperf-lint options"};
  cl::list<std::string> Paths{cl::Positional,
                              cl::desc("<file-or-directory>... (none with -p: every file of the compilation "
                                       "database) [-- <compiler arguments>]"),
                              cl::cat(Category)};
  cl::extrahelp Usage{UsageText};
  cl::opt<std::string> BuildPath{"p", cl::desc("Build directory with compile_commands.json"), cl::cat(Category)};
  cl::opt<std::string> Checks{"checks", cl::desc("Check globs, as clang-tidy's --checks"), cl::cat(Category)};
  cl::opt<std::string> ConfigFile{"config-file", cl::desc("Read the configuration from this YAML file"),
                                  cl::cat(Category)};
  cl::opt<std::string> Config{"config", cl::desc("Configuration as inline YAML"), cl::cat(Category)};
  cl::opt<bool> DumpConfig{"dump-config", cl::desc("Print the effective configuration and exit"), cl::cat(Category)};
  cl::opt<bool> ListChecks{"list-checks", cl::desc("List the checks and whether they are on by default"),
                           cl::cat(Category)};
  cl::opt<std::string> Explain{"explain", cl::desc("Print a check's documentation"), cl::value_desc("check"),
                               cl::cat(Category)};
  cl::opt<std::string> WarningsAsErrors{"warnings-as-errors", cl::ValueOptional,
                                        cl::desc("Treat findings of these checks as errors (default: all)"),
                                        cl::cat(Category)};
  cl::opt<std::string> HeaderFilter{"header-filter", cl::desc("Report findings in headers matching this regex"),
                                    cl::cat(Category)};
  cl::opt<std::string> ExcludeHeaderFilter{"exclude-header-filter",
                                           cl::desc("Do not report findings in headers matching this regex, "
                                                    "as clang-tidy's --exclude-header-filter"),
                                           cl::cat(Category)};
  cl::opt<bool> SystemHeaders{"system-headers", cl::desc("Report findings in system headers too"), cl::cat(Category)};
  cl::opt<bool> UseColor{"use-color",
                         cl::desc("Colors in the text report (default: when stdout is a terminal); "
                                  "--use-color=false turns them off"),
                         cl::cat(Category)};
  cl::opt<std::string> PathStyle{"path-style", cl::desc("JSON file paths: absolute (default) or relative"),
                                 cl::init("absolute"), cl::cat(Category)};
  cl::opt<bool> Headers{"headers", cl::desc("Also lint headers found in directories"), cl::cat(Category)};
  cl::opt<bool> Fix{"fix", cl::desc("Apply the suggested fixes in place"), cl::cat(Category)};
  cl::opt<bool> FixErrors{"fix-errors", cl::desc("Apply fixes even to files with compile errors (implies --fix)"),
                          cl::cat(Category)};
  cl::opt<bool> FixUnverified{"fix-unverified",
                              cl::desc("Apply fixes without first checking that the fixed code compiles and the "
                                       "fixed findings are gone (implies --fix)"),
                              cl::cat(Category)};
  cl::list<std::string> Excludes{"exclude", cl::desc("Skip files and directories matching this glob (repeatable)"),
                                 cl::value_desc("glob"), cl::cat(Category)};
  cl::opt<bool> Verbose{"verbose", cl::desc("Say which paths the directory walk skips"), cl::cat(Category)};
  cl::opt<bool> VerifyConfig{"verify-config", cl::desc("Check the configuration files and exit"), cl::cat(Category)};
  cl::opt<std::string> ExportFixes{"export-fixes", cl::desc("Write fixes as YAML for clang-apply-replacements"),
                                   cl::value_desc("file"), cl::cat(Category)};
  cl::opt<std::string> OutputFormat{"format", cl::desc("Output format: text, json, sarif or html"), cl::init("text"),
                                    cl::cat(Category)};
  cl::opt<std::string> SarifRoot{"sarif-root",
                                 cl::desc("SARIF: URIs relative to this directory (%SRCROOT%; default: git top-level)"),
                                 cl::value_desc("dir"), cl::cat(Category)};
  cl::opt<std::string> Output{"o", cl::desc("Write the report to this file instead of stdout"), cl::value_desc("file"),
                              cl::cat(Category)};
  cl::list<std::string> Profiles{"profile", cl::desc("Additional API profile (JSON)"), cl::value_desc("file"),
                                 cl::cat(Category)};
  cl::list<std::string> ExtraArgs{"extra-arg", cl::desc("Compiler argument to append"), cl::cat(Category)};
  cl::list<std::string> ExtraArgsBefore{"extra-arg-before", cl::desc("Compiler argument to prepend"),
                                        cl::cat(Category)};
  cl::opt<int> Jobs{"j",
                    cl::desc("Files linted in parallel (default: cores)"),
                    cl::value_desc("uint"),
                    cl::init(0),
                    cl::Prefix,
                    cl::cat(Category)};
  cl::opt<unsigned> FilesInMemory{"files-in-memory",
                                  cl::desc("Parsed files held at once while the whole-project facts settle "
                                           "(default: as half the available memory holds); a file that "
                                           "files parsed after it change is parsed again"),
                                  cl::value_desc("uint"), cl::init(0), cl::cat(Category)};
  cl::opt<std::string> LineFilter{"line-filter",
                                  cl::desc("Report only findings on these lines: clang-tidy's JSON, "
                                           "[{\"name\":\"file.cc\",\"lines\":[[1,3],[5,7]]},{\"name\":\"f.h\"}]"),
                                  cl::cat(Category)};
  cl::opt<std::string> Diff{"diff", cl::ValueOptional, cl::value_desc("git-ref"),
                            cl::desc("Lint the files changed since the ref (default HEAD) and report only findings "
                                     "on changed lines"),
                            cl::cat(Category)};
  cl::opt<std::string> Baseline{"baseline", cl::desc("Hide the findings recorded in this baseline"),
                                cl::value_desc("file"), cl::cat(Category)};
  cl::opt<std::string> ValidationResults{"validation-results",
                                         cl::desc("The `validate` results whose figures the findings quote "
                                                  "(default: the stored results)"),
                                         cl::value_desc("file"), cl::cat(Category)};
  cl::opt<std::string> Device{"device",
                              cl::desc("The device model the findings' estimated costs are priced on: a built-in "
                                       "name (h100-pcie, ...), a .json file, or 'none' (default: the measured local "
                                       "model, else generic-pcie4-gpu; docs/cost-model.md)"),
                              cl::value_desc("name"), cl::cat(Category)};
  cl::opt<std::string> MinCost{"min-cost",
                               cl::desc("Report only findings whose estimated cost (per run when the steps are "
                                        "known, else per step) is at least this, e.g. 1ms or 2s"),
                               cl::value_desc("duration"), cl::cat(Category)};
  cl::opt<std::string> Sort{"sort",
                            cl::desc("Order of the report: 'file' (the default) or 'cost', the costliest "
                                     "estimate first"),
                            cl::value_desc("order"), cl::init("file"), cl::cat(Category)};
  cl::opt<std::string> WriteBaseline{"write-baseline", cl::desc("Record this run's findings as a baseline"),
                                     cl::value_desc("file"), cl::cat(Category)};
  cl::opt<bool> Quiet{"quiet", cl::desc("No summary or announcements on stderr"), cl::cat(Category)};
  cl::opt<bool> StrictIncludes{"strict-includes",
                               cl::desc("A header that cannot be found is a fatal error (default: skipped as empty)"),
                               cl::cat(Category)};
  cl::opt<std::string> CudaPath{"cuda-path", cl::desc("CUDA toolkit for .cu files (default: clang's search)"),
                                cl::value_desc("dir"), cl::cat(Category)};
  cl::opt<std::string> CacheDir{"cache-dir",
                                cl::desc("Result cache directory (default: $XDG_CACHE_HOME/mlperf-lint "
                                         "or ~/.cache/mlperf-lint)"),
                                cl::value_desc("dir"), cl::cat(Category)};
  cl::opt<bool> NoCache{"no-cache", cl::desc("Neither read nor write the result cache"), cl::cat(Category)};
  cl::opt<std::string> CacheSize{"cache-size", cl::desc("Result cache size limit, e.g. 512M (the default) or 2G"),
                                 cl::value_desc("size"), cl::cat(Category)};
  cl::opt<bool> NoPreamble{"no-preamble",
                           cl::desc("Parse every file's includes itself, without a shared "
                                    "precompiled preamble"),
                           cl::cat(Category)};
  // clang-tidy's options, with its meaning.
  cl::opt<bool> ExplainConfig{"explain-config", cl::desc("For each enabled check, say which configuration enables it"),
                              cl::cat(Category)};
  cl::opt<bool> AllowNoChecks{"allow-no-checks", cl::desc("--checks that enable no check are not an error"),
                              cl::cat(Category)};
  cl::opt<bool> FixNotes{"fix-notes",
                         cl::desc("Accepted for clang-tidy's sake: mlperf-lint's fix-its are on its findings, "
                                  "never only on a note, so --fix applies them all"),
                         cl::cat(Category)};
  cl::opt<std::string> FormatStyle{"format-style",
                                   cl::desc("Format the code around applied fixes with this clang-format style "
                                            "(file, llvm, google, {key: value, ...}; default none)"),
                                   cl::cat(Category)};
  cl::opt<bool> CheckProfile{"enable-check-profile", cl::desc("Print each check's time per file, as clang-tidy does"),
                             cl::cat(Category)};
  cl::opt<std::string> StoreCheckProfile{"store-check-profile",
                                         cl::desc("With --enable-check-profile: write the profiles as JSON files "
                                                  "into this directory instead of printing them"),
                                         cl::value_desc("prefix"), cl::cat(Category)};
  cl::opt<std::string> VfsOverlay{"vfsoverlay",
                                  cl::desc("Overlay this clang VFS overlay file on the real file system (the "
                                           "result cache is not used)"),
                                  cl::value_desc("file"), cl::cat(Category)};
  cl::opt<std::string> ShardSpec{"shard",
                                 cl::desc("Lint only shard K of N (1 <= K <= N), split by a hash of each path"),
                                 cl::value_desc("K/N"), cl::cat(Category)};
};

llvm::Error usage(const std::string &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Message.c_str());
}

} // namespace

namespace {
/// Splits the arguments: the subcommand, the driver's own options, and the
/// compiler arguments after `--`.
std::vector<const char *> splitArguments(int Argc, const char **Argv, LintRequest &R) {
  std::vector<const char *> Own;
  for (int I = 0; I < Argc; ++I) {
    if (I == 1 && llvm::StringRef(Argv[I]) == "lsp") {
      R.What = Action::Lsp; // the server takes the lint options, for every file it lints
      continue;
    }
    if (!R.Flags.HaveFixedArgs && llvm::StringRef(Argv[I]) == "--") {
      R.Flags.HaveFixedArgs = true;
      continue;
    }
    if (R.Flags.HaveFixedArgs)
      R.Flags.FixedArgs.push_back(Argv[I]);
    else
      Own.push_back(Argv[I]);
  }
  return Own;
}

/// LLVM's parse of \p Own into the options, registered once per process
/// (LLVM's parser keeps pointers to them); a second parse starts from their
/// defaults.
llvm::Expected<const Options *> parseOptions(std::vector<const char *> &Own) {
  static Options &O = *new Options;
  cl::ResetAllOptionOccurrences();
  cl::HideUnrelatedOptions(O.Category);
  cl::SetVersionPrinter(
      [](llvm::raw_ostream &OS) { OS << "mlperf-lint " MLPERF_VERSION " (LLVM " MLPERF_LLVM_VERSION ")\n"; });
  std::string ParseErrors;
  llvm::raw_string_ostream ParseOS(ParseErrors);
  bool Parsed = cl::ParseCommandLineOptions(Own.size(), Own.data(),
                                            "mlperf-lint: performance linter for ML model code\n", &ParseOS);
  ParseOS.flush();
  if (!Parsed) {
    // Errors in an option's value are printed by LLVM directly; the empty
    // message tells the driver there is nothing more to say.
    llvm::StringRef First = llvm::StringRef(ParseErrors).split('\n').first;
    First.consume_front("mlperf-lint: ");
    return usage(First.str());
  }
  return &O;
}

/// What to do, what to lint and how to report it.
llvm::Error readAction(const Options &O, LintRequest &R) {
  if (O.ListChecks)
    R.What = Action::ListChecks;
  else if (O.Explain.getNumOccurrences()) {
    R.What = Action::Explain;
    R.ExplainCheck = O.Explain;
  } else if (O.DumpConfig)
    R.What = Action::DumpConfig;
  else if (O.VerifyConfig)
    R.What = Action::VerifyConfig;
  else if (O.ExplainConfig)
    R.What = Action::ExplainConfig;
  if (O.Jobs < 0)
    return usage("-j: the number of jobs must be 0 (one per core) or more, not " + std::to_string(O.Jobs));
  std::optional<Format> Fmt = formatByName(O.OutputFormat);
  if (!Fmt)
    return usage("--format: unknown format '" + O.OutputFormat + "' (" + formatNames() + ")");
  R.OutputFormat = *Fmt;
  R.Paths.assign(O.Paths.begin(), O.Paths.end());
  if (O.Diff.getNumOccurrences())
    R.Filters.Diff = O.Diff;
  if (O.StoreCheckProfile.getNumOccurrences() && !O.CheckProfile)
    return usage("--store-check-profile needs --enable-check-profile");
  if (R.What == Action::Lint && R.Paths.empty() && !R.Filters.Diff && O.BuildPath.empty())
    return usage("no input files or directories (see --help)");
  if (O.PathStyle != "absolute" && O.PathStyle != "relative")
    return usage("--path-style: unknown style '" + O.PathStyle + "' (absolute or relative)");
  R.RelativePaths = O.PathStyle == "relative";
  R.OutputPath = O.Output;
  R.SarifRoot = O.SarifRoot;
  if (O.UseColor.getNumOccurrences())
    R.UseColor = O.UseColor;
  R.Verbose = O.Verbose;
  R.Quiet = O.Quiet;
  R.CompilerStats = !O.Quiet;
  return llvm::Error::success();
}

/// The configuration, the compile flags and the inputs' walk.
void readConfiguration(const Options &O, LintRequest &R) {
  R.Headers = O.Headers;
  if (O.Checks.getNumOccurrences())
    R.Config.Checks = O.Checks;
  if (O.WarningsAsErrors.getNumOccurrences())
    R.Config.WarningsAsErrors = O.WarningsAsErrors.empty() ? std::string("*") : std::string(O.WarningsAsErrors);
  if (O.HeaderFilter.getNumOccurrences())
    R.Config.HeaderFilter = O.HeaderFilter;
  if (O.ExcludeHeaderFilter.getNumOccurrences())
    R.Config.ExcludeHeaderFilter = O.ExcludeHeaderFilter;
  if (O.SystemHeaders.getNumOccurrences())
    R.Config.SystemHeaders = O.SystemHeaders;
  if (!O.ConfigFile.empty())
    R.Config.ConfigFile = O.ConfigFile;
  if (!O.Config.empty())
    R.Config.ConfigText = O.Config;
  R.Config.Profiles.assign(O.Profiles.begin(), O.Profiles.end());
  R.Config.AllowNoChecks = O.AllowNoChecks;
  R.Flags.BuildPath = O.BuildPath;
  R.Flags.ExtraArgs.assign(O.ExtraArgs.begin(), O.ExtraArgs.end());
  R.Flags.ExtraArgsBefore.assign(O.ExtraArgsBefore.begin(), O.ExtraArgsBefore.end());
  R.Excludes.assign(O.Excludes.begin(), O.Excludes.end());
  R.Jobs = O.Jobs;
  R.FilesInMemory = O.FilesInMemory;
}

/// --device, --min-cost and --sort. The device model is read only for a
/// run that prices findings: a damaged local model does not stop --list-checks.
llvm::Error readCost(const Options &O, LintRequest &R) {
  if (O.Sort != "file" && O.Sort != "cost")
    return usage("--sort: unknown order '" + O.Sort + "' (file or cost)");
  R.SortByCost = O.Sort == "cost";
  if (O.MinCost.getNumOccurrences()) {
    R.MinCost = parseDuration(O.MinCost);
    if (!R.MinCost)
      return usage("--min-cost: '" + O.MinCost + "' is not a duration (e.g. 500us, 2ms, 1.5s, 3min, 1h)");
  }
  if (R.What != Action::Lint && R.What != Action::Lsp && !O.Device.getNumOccurrences())
    return llvm::Error::success();
  auto D = selectDevice(O.Device);
  if (!D)
    return D.takeError();
  R.Device = std::move(*D);
  return llvm::Error::success();
}

/// Fixes, filters, baselines, parsing, the cache and shards.
llvm::Error readRun(const Options &O, LintRequest &R) {
  R.ExportFixes = O.ExportFixes;
  R.Fix = O.Fix || O.FixErrors || O.FixUnverified;
  R.FixUnverified = O.FixUnverified;
  R.FixErrors = O.FixErrors;
  R.FormatStyle = O.FormatStyle == "none" ? "" : std::string(O.FormatStyle);
  R.Filters.LineFilter = O.LineFilter;
  R.Filters.Baseline = O.Baseline;
  R.WriteBaseline = O.WriteBaseline;
  R.MeasuredResults = O.ValidationResults;
  if (llvm::Error E = readCost(O, R))
    return E;
  R.Parse.RecoverIncludes = !O.StrictIncludes;
  R.Parse.CudaPath = O.CudaPath;
  R.Parse.CheckProfile = O.CheckProfile;
  R.Parse.ProfilePrefix = O.StoreCheckProfile;
  R.Parse.VfsOverlay = O.VfsOverlay;
  if (!R.Parse.VfsOverlay.empty())
    if (auto Overlay = loadVfsOverlay(R.Parse.VfsOverlay, llvm::vfs::getRealFileSystem()); !Overlay)
      return usage(llvm::toString(Overlay.takeError()));
  if (!R.Parse.CudaPath.empty() && !llvm::sys::fs::exists(R.Parse.CudaPath + "/include/cuda_runtime.h"))
    return usage("--cuda-path: '" + R.Parse.CudaPath + "' is not a CUDA toolkit (no include/cuda_runtime.h)");
  R.Cache.Enabled = !O.NoCache;
  R.Cache.Dir = O.CacheDir;
  R.SharedPreamble = !O.NoPreamble;
  if (O.CacheSize.getNumOccurrences()) {
    std::optional<uint64_t> Size = parseByteSize(O.CacheSize);
    if (!Size)
      return usage("--cache-size: '" + O.CacheSize + "' is not a size (a number of bytes, or with K, M or G)");
    R.Cache.MaxBytes = *Size;
  }
  if (O.ShardSpec.getNumOccurrences()) {
    auto S = parseShard(O.ShardSpec);
    if (!S)
      return usage("--shard: " + llvm::toString(S.takeError()));
    R.OnlyShard = *S;
  }
  return llvm::Error::success();
}
} // namespace

llvm::Expected<LintRequest> parseCommandLine(int Argc, const char **Argv) {
  LintRequest R;
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "validate") {
    R.What = Action::Validate;
    return R;
  }
  std::vector<const char *> Own = splitArguments(Argc, Argv, R);
  auto O = parseOptions(Own);
  if (!O)
    return O.takeError();
  if (llvm::Error E = readAction(**O, R))
    return std::move(E);
  readConfiguration(**O, R);
  if (llvm::Error E = readRun(**O, R))
    return std::move(E);
  return R;
}

} // namespace mlperf::lint
