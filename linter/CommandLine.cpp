#include "CommandLine.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace mlperf::lint {

namespace cl = llvm::cl;

namespace {
struct Options {
  cl::OptionCategory Category{"mlperf-lint options"};
  cl::list<std::string> Paths{cl::Positional, cl::desc("<file-or-directory>..."), cl::cat(Category)};
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
  cl::opt<bool> Headers{"headers", cl::desc("Also lint headers found in directories"), cl::cat(Category)};
  cl::opt<bool> Fix{"fix", cl::desc("Apply the suggested fixes in place"), cl::cat(Category)};
  cl::opt<std::string> ExportFixes{"export-fixes", cl::desc("Write fixes as YAML for clang-apply-replacements"),
                                   cl::value_desc("file"), cl::cat(Category)};
  cl::opt<std::string> OutputFormat{"format", cl::desc("Output format: text, json or sarif"), cl::init("text"),
                                    cl::cat(Category)};
  cl::opt<std::string> Output{"o", cl::desc("Write the report to this file instead of stdout"),
                              cl::value_desc("file"), cl::cat(Category)};
  cl::list<std::string> Profiles{"profile", cl::desc("Additional API profile (JSON)"), cl::value_desc("file"),
                                 cl::cat(Category)};
  cl::list<std::string> ExtraArgs{"extra-arg", cl::desc("Compiler argument to append"), cl::cat(Category)};
  cl::list<std::string> ExtraArgsBefore{"extra-arg-before", cl::desc("Compiler argument to prepend"),
                                        cl::cat(Category)};
  cl::opt<unsigned> Jobs{"j", cl::desc("Files linted in parallel (default: cores)"), cl::init(0), cl::Prefix,
                         cl::cat(Category)};
  cl::opt<bool> Quiet{"quiet", cl::desc("No summary or announcements on stderr"), cl::cat(Category)};
  cl::opt<bool> StrictIncludes{"strict-includes",
                               cl::desc("A header that cannot be found is a fatal error (default: skipped as empty)"),
                               cl::cat(Category)};
  cl::opt<std::string> CudaPath{"cuda-path", cl::desc("CUDA toolkit for .cu files (default: clang's search)"),
                                cl::value_desc("dir"), cl::cat(Category)};
};

llvm::Error usage(const std::string &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Message.c_str());
}

std::optional<Format> parseFormat(llvm::StringRef Name) {
  if (Name == "text")
    return Format::Text;
  if (Name == "json")
    return Format::Json;
  if (Name == "sarif")
    return Format::Sarif;
  return std::nullopt;
}
} // namespace

llvm::Expected<LintRequest> parseCommandLine(int Argc, const char **Argv) {
  LintRequest R;
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "validate") {
    R.What = Action::Validate;
    return R;
  }
  std::vector<const char *> Own;
  for (int I = 0; I < Argc; ++I) {
    if (!R.Flags.HaveFixedArgs && llvm::StringRef(Argv[I]) == "--") {
      R.Flags.HaveFixedArgs = true;
      continue;
    }
    if (R.Flags.HaveFixedArgs)
      R.Flags.FixedArgs.push_back(Argv[I]);
    else
      Own.push_back(Argv[I]);
  }
  // Registered once per process (LLVM's parser keeps pointers to them); a
  // second parse starts from their defaults.
  static Options &O = *new Options;
  cl::ResetAllOptionOccurrences();
  cl::HideUnrelatedOptions(O.Category);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) { OS << "mlperf-lint " MLPERF_VERSION " (LLVM " MLPERF_LLVM_VERSION ")\n"; });
  std::string ParseErrors;
  llvm::raw_string_ostream ParseOS(ParseErrors);
  bool Parsed = cl::ParseCommandLineOptions(Own.size(), Own.data(),
                                            "mlperf-lint: performance linter for ML model code\n", &ParseOS);
  ParseOS.flush();
  if (!Parsed) {
    llvm::StringRef First = llvm::StringRef(ParseErrors).split('\n').first;
    First.consume_front("mlperf-lint: ");
    return usage(First.str());
  }
  if (O.ListChecks)
    R.What = Action::ListChecks;
  else if (O.Explain.getNumOccurrences()) {
    R.What = Action::Explain;
    R.ExplainCheck = O.Explain;
  } else if (O.DumpConfig)
    R.What = Action::DumpConfig;

  std::optional<Format> Fmt = parseFormat(O.OutputFormat);
  if (!Fmt)
    return usage("--format: unknown format '" + O.OutputFormat + "' (text, json or sarif)");
  R.OutputFormat = *Fmt;
  R.Paths.assign(O.Paths.begin(), O.Paths.end());
  if (R.What == Action::Lint && R.Paths.empty())
    return usage("no input files or directories (see --help)");
  R.Headers = O.Headers;
  if (O.Checks.getNumOccurrences())
    R.Config.Checks = O.Checks;
  if (O.WarningsAsErrors.getNumOccurrences())
    R.Config.WarningsAsErrors = O.WarningsAsErrors.empty() ? std::string("*") : std::string(O.WarningsAsErrors);
  if (O.HeaderFilter.getNumOccurrences())
    R.Config.HeaderFilter = O.HeaderFilter;
  if (!O.ConfigFile.empty())
    R.Config.ConfigFile = O.ConfigFile;
  if (!O.Config.empty())
    R.Config.ConfigText = O.Config;
  R.Config.Profiles.assign(O.Profiles.begin(), O.Profiles.end());
  R.Flags.BuildPath = O.BuildPath;
  R.Flags.ExtraArgs.assign(O.ExtraArgs.begin(), O.ExtraArgs.end());
  R.Flags.ExtraArgsBefore.assign(O.ExtraArgsBefore.begin(), O.ExtraArgsBefore.end());
  R.OutputPath = O.Output;
  R.ExportFixes = O.ExportFixes;
  R.Fix = O.Fix;
  R.Jobs = O.Jobs;
  R.Quiet = O.Quiet;
  R.Parse.RecoverIncludes = !O.StrictIncludes;
  R.Parse.CudaPath = O.CudaPath;
  if (!R.Parse.CudaPath.empty() && !llvm::sys::fs::exists(R.Parse.CudaPath + "/include/cuda_runtime.h"))
    return usage("--cuda-path: '" + R.Parse.CudaPath + "' is not a CUDA toolkit (no include/cuda_runtime.h)");
  return R;
}

} // namespace mlperf::lint
