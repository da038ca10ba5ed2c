#include "Driver.h"

#include "CompileFlags.h"
#include "Config.h"
#include "Embedded.h"
#include "Fixes.h"
#include "HtmlFindings.h"
#include "Inputs.h"
#include "MlperfModule.h"
#include "Report.h"
#include "Runner.h"
#include "validate/ResultStore.h"
#include "validate/Validate.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>

namespace mlperf::lint {

namespace cl = llvm::cl;
using namespace clang::tidy;

namespace {
struct CommandLine {
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
  cl::opt<std::string> Format{"format", cl::desc("Output format: text, json, sarif or html"), cl::init("text"),
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
};

int error(const std::string &Message) {
  llvm::errs() << "mlperf-lint: error: " << Message << "\n";
  return ExitError;
}

int listChecks() {
  llvm::outs() << "Checks (default state):\n";
  for (const clang::tidy::mlperf::CheckInfo &C : clang::tidy::mlperf::allChecks())
    llvm::outs() << "    " << C.Name << (C.EnabledByDefault ? "  [on]  " : "  [off] ") << C.Summary << "\n";
  return ExitClean;
}

int explain(llvm::StringRef Check) {
  llvm::StringRef Short = Check;
  Short.consume_front("mlperf-");
  for (const clang::tidy::mlperf::EmbeddedFile &Doc : clang::tidy::mlperf::embeddedDocs())
    if (llvm::StringRef(Doc.Name) == (Short + ".md").str()) {
      llvm::outs() << Doc.Text;
      return ExitClean;
    }
  return error("unknown check '" + Check.str() + "' (see --list-checks)");
}

bool hasErrors(llvm::ArrayRef<ClangTidyError> Errors) {
  for (const ClangTidyError &E : Errors)
    if (E.DiagLevel == ClangTidyError::Error && !E.IsWarningAsError)
      return true;
  return false;
}

/// The engine whose fixtures measure code like this file's: what it includes.
std::string engineOf(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return "";
  llvm::StringRef Rest = (*Buf)->getBuffer();
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    Line = Line.trim();
    if (!Line.consume_front("#") || !Line.ltrim().starts_with("include"))
      continue;
    if (Line.contains("torch/"))
      return "libtorch";
    if (Line.contains("mlperf/rt/"))
      return "runtime";
  }
  return "";
}

/// Adds what validation measured for a check as a note to each of its
/// findings, preferring the measurement on the engine the file uses.
void addMeasuredNotes(std::vector<ClangTidyError> &Errors) {
  auto Results = ::mlperf::validate::storedResults(llvm::errs());
  std::map<std::string, std::string> Engines;
  std::map<std::pair<std::string, std::string>, std::optional<std::string>> Notes;
  for (ClangTidyError &E : Errors) {
    if (E.DiagLevel == ClangTidyError::Error)
      continue;
    auto [EngineIt, NewFile] = Engines.try_emplace(E.Message.FilePath);
    if (NewFile)
      EngineIt->second = engineOf(E.Message.FilePath);
    auto [It, New] = Notes.try_emplace({E.DiagnosticName, EngineIt->second});
    if (New)
      It->second = ::mlperf::validate::measuredNote(Results, E.DiagnosticName, EngineIt->second);
    if (It->second) {
      clang::tooling::DiagnosticMessage Note;
      Note.Message = *It->second;
      Note.FilePath = E.Message.FilePath;
      Note.FileOffset = E.Message.FileOffset;
      E.Notes.push_back(Note);
    }
  }
}
} // namespace

int runMain(int Argc, const char **Argv) {
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "validate")
    return ::mlperf::validate::runValidate(Argc - 2, Argv + 2);
  clang::tidy::mlperf::registerMlperfModule();
  // Compiler arguments follow `--`, as for clang-tidy.
  std::vector<const char *> Own;
  std::vector<std::string> FixedArgs;
  bool HaveFixed = false;
  for (int I = 0; I < Argc; ++I) {
    if (!HaveFixed && llvm::StringRef(Argv[I]) == "--") {
      HaveFixed = true;
      continue;
    }
    if (HaveFixed)
      FixedArgs.push_back(Argv[I]);
    else
      Own.push_back(Argv[I]);
  }
  CommandLine CL;
  cl::HideUnrelatedOptions(CL.Category);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) { OS << "mlperf-lint " MLPERF_VERSION " (LLVM 19)\n"; });
  std::string ParseErrors;
  llvm::raw_string_ostream ParseOS(ParseErrors);
  if (!cl::ParseCommandLineOptions(Own.size(), Own.data(), "mlperf-lint: performance linter for ML model code\n",
                                   &ParseOS)) {
    ParseOS.flush();
    llvm::StringRef First = llvm::StringRef(ParseErrors).split('\n').first;
    First.consume_front("mlperf-lint: ");
    return error(First.str());
  }
  if (CL.ListChecks)
    return listChecks();
  if (!CL.Explain.empty())
    return explain(CL.Explain);
  std::optional<Format> Fmt = CL.Format == "text"    ? std::optional<Format>(Format::Text)
                              : CL.Format == "json"  ? std::optional<Format>(Format::Json)
                              : CL.Format == "sarif" ? std::optional<Format>(Format::Sarif)
                              : CL.Format == "html"  ? std::optional<Format>(Format::Html)
                                                     : std::nullopt;
  if (!Fmt)
    return error("--format: unknown format '" + CL.Format + "' (text, json, sarif or html)");
  if (CL.Paths.empty() && !CL.DumpConfig)
    return error("no input files or directories (see --help)");

  InputSet Inputs = collectInputs(std::vector<std::string>(CL.Paths.begin(), CL.Paths.end()), CL.Headers);
  for (const std::string &E : Inputs.Errors)
    error(E);

  ConfigRequest CR;
  if (CL.Checks.getNumOccurrences())
    CR.Checks = CL.Checks;
  if (CL.WarningsAsErrors.getNumOccurrences())
    CR.WarningsAsErrors = CL.WarningsAsErrors.empty() ? std::string("*") : std::string(CL.WarningsAsErrors);
  if (CL.HeaderFilter.getNumOccurrences())
    CR.HeaderFilter = CL.HeaderFilter;
  if (!CL.ConfigFile.empty())
    CR.ConfigFile = CL.ConfigFile;
  if (!CL.Config.empty())
    CR.ConfigText = CL.Config;
  CR.Profiles.assign(CL.Profiles.begin(), CL.Profiles.end());
  auto Providers = makeOptionsProviders(CR, Inputs.Files);
  if (!Providers)
    return error(llvm::toString(Providers.takeError()));

  if (CL.DumpConfig) {
    llvm::SmallString<256> Where;
    llvm::sys::fs::current_path(Where);
    std::string File = Inputs.Files.empty() ? std::string(Where) + "/dummy.cc" : Inputs.Files.front();
    ClangTidyContext Context((*Providers)());
    Context.setCurrentFile(File);
    ClangTidyOptions Effective = Context.getOptions();
    ClangTidyASTConsumerFactory Factory(Context);
    for (const auto &[Key, Value] : Factory.getCheckOptions())
      Effective.CheckOptions.try_emplace(Key, Value);
    llvm::outs() << configurationAsText(Effective);
    return ExitClean;
  }

  FlagsRequest FR{CL.BuildPath, HaveFixed, FixedArgs,
                  std::vector<std::string>(CL.ExtraArgs.begin(), CL.ExtraArgs.end()),
                  std::vector<std::string>(CL.ExtraArgsBefore.begin(), CL.ExtraArgsBefore.end()), Inputs.Files};
  auto Flags = makeCompilationDatabase(FR);
  if (!Flags)
    return error(llvm::toString(Flags.takeError()));
  if (!Flags->Announcement.empty() && !CL.Quiet)
    llvm::errs() << "mlperf-lint: " << Flags->Announcement << "\n";

  unsigned Jobs = CL.Jobs ? CL.Jobs : llvm::hardware_concurrency().compute_thread_count();
  RunResult Result = runChecks(Inputs.Files, *Flags->Database, *Providers, Jobs);
  addMeasuredNotes(Result.Errors);

  std::error_code EC;
  std::optional<llvm::raw_fd_ostream> File;
  if (!CL.Output.empty()) {
    File.emplace(CL.Output, EC, llvm::sys::fs::OF_Text);
    if (EC)
      return error(CL.Output + ": cannot write report: " + EC.message());
  }
  llvm::raw_ostream &OS = File ? *File : llvm::outs();
  if (*Fmt == Format::Json)
    writeJson(Result.Errors, OS);
  else if (*Fmt == Format::Sarif)
    writeSarif(Result.Errors, OS);
  else if (*Fmt == Format::Html)
    writeHtmlFindings(Result.Errors, ::mlperf::validate::storedResults(llvm::nulls()), OS);
  else {
    ClangTidyContext Context((*Providers)());
    unsigned WarningsAsErrors = 0;
    handleErrors(Result.Errors, Context, FB_NoFix, WarningsAsErrors, llvm::vfs::getRealFileSystem());
  }

  bool Failed = !Inputs.Errors.empty() || hasErrors(Result.Errors);
  if (!CL.ExportFixes.empty()) {
    std::error_code FixEC;
    llvm::raw_fd_ostream FixOS(CL.ExportFixes, FixEC, llvm::sys::fs::OF_Text);
    if (FixEC)
      Failed = error(CL.ExportFixes + ": cannot write fixes: " + FixEC.message());
    else
      exportReplacements(Inputs.Files.empty() ? "" : Inputs.Files.front(), Result.Errors, FixOS);
  }
  if (CL.Fix) {
    FixResult Fixed = applyFixes(Result.Errors);
    for (const std::string &E : Fixed.Errors)
      Failed = error(E);
    if (!CL.Quiet)
      llvm::errs() << "mlperf-lint: applied " << Fixed.Applied << " fix(es) to " << Fixed.Files.size()
                   << " file(s)" << (Fixed.Skipped ? ", skipped " + std::to_string(Fixed.Skipped) + " conflicting" : "")
                   << "\n";
  }
  size_t Findings = 0;
  for (const ClangTidyError &E : Result.Errors)
    Findings += E.DiagLevel != ClangTidyError::Error || E.IsWarningAsError;
  if (!CL.Quiet)
    llvm::errs() << "mlperf-lint: " << Findings << " finding(s) in " << Inputs.Files.size() << " file(s)\n";
  if (Failed)
    return ExitError;
  return Findings ? ExitFindings : ExitClean;
}

} // namespace mlperf::lint
