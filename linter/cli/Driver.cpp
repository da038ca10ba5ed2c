#include "cli/Driver.h"

#include "Embedded.h"
#include "MlperfModule.h"
#include "cli/CommandLine.h"
#include "cli/Progress.h"
#include "lsp/Server.h"
#include "project/FixCheck.h"
#include "project/Lint.h"
#include "report/MergeReports.h"
#include "support/SafeIO.h"
#include "validate/Validate.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/GlobList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <iostream>
#include <optional>

namespace mlperf::lint {

using namespace clang::tidy;

namespace {
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

/// The file whose configuration --dump-config and --explain-config show: the
/// first input, or a file in the working directory.
std::string configuredFile(const LintRequest &R) {
  llvm::SmallString<256> File;
  if (R.Paths.empty()) {
    llvm::sys::fs::current_path(File);
    File += "/dummy.cc";
  } else {
    File = R.Paths.front();
    llvm::sys::fs::make_absolute(File);
  }
  return std::string(File);
}

/// clang-tidy's --explain-config: for each enabled check, the last
/// configuration source whose Checks enable it.
int explainConfig(const LintRequest &R) {
  std::string File = configuredFile(R);
  auto Providers = makeOptionsProviders(R.Config, {File});
  if (!Providers)
    return error(llvm::toString(Providers.takeError()));
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Provider = (*Providers)();
  ClangTidyContext Context((*Providers)());
  Context.setCurrentFile(File);
  auto Sources = Provider->getRawOptions(File);
  for (const clang::tidy::mlperf::CheckInfo &C : clang::tidy::mlperf::allChecks()) {
    if (!Context.isCheckEnabled(C.Name))
      continue;
    for (const auto &[Options, Source] : llvm::reverse(Sources))
      if (Options.Checks && clang::tidy::GlobList(*Options.Checks).contains(C.Name)) {
        llvm::outs() << "'" << C.Name << "' is enabled in the " << Source << ".\n";
        break;
      }
  }
  return ExitClean;
}

int dumpConfig(const LintRequest &R) {
  std::string File = configuredFile(R);
  auto Providers = makeOptionsProviders(R.Config, {File});
  if (!Providers)
    return error(llvm::toString(Providers.takeError()));
  ClangTidyContext Context((*Providers)());
  Context.setCurrentFile(File);
  ClangTidyOptions Effective = Context.getOptions();
  ClangTidyASTConsumerFactory Factory(Context);
  for (const auto &[Key, Value] : Factory.getCheckOptions())
    Effective.CheckOptions.try_emplace(Key, Value);
  llvm::outs() << configurationAsText(Effective);
  return ExitClean;
}

/// Flushes stdout; false, with a problem recorded, when it cannot be written
/// (a full disk), instead of LLVM's fatal error at exit.
bool flushStdout(std::vector<std::string> &Problems) {
  llvm::outs().flush();
  if (!llvm::outs().has_error())
    return true;
  Problems.push_back("<stdout>: cannot write report: " + llvm::outs().error().message());
  llvm::outs().clear_error();
  return false;
}

int verifyConfig(const LintRequest &R) {
  std::vector<std::string> Files;
  for (const std::string &P : R.Paths.empty() ? std::vector<std::string>{"."} : R.Paths) {
    llvm::SmallString<256> Abs(P);
    llvm::sys::fs::make_absolute(Abs);
    if (llvm::sys::fs::is_directory(Abs))
      llvm::sys::path::append(Abs, "dummy.cc");
    Files.push_back(std::string(Abs));
  }
  std::vector<std::string> Problems;
  if (!R.Config.ConfigFile && !R.Config.ConfigText)
    Problems = dropFilesWithBadConfig(Files);
  std::vector<std::string> Warnings;
  if (auto P = makeOptionsProviders(R.Config, Files, &Warnings); !P)
    Problems.push_back(llvm::toString(P.takeError()));
  for (const std::string &W : Warnings)
    llvm::errs() << "mlperf-lint: warning: " << W << "\n";
  for (const std::string &P : Problems)
    error(P);
  if (!Problems.empty())
    return ExitError;
  llvm::outs() << (Warnings.empty() ? "No config errors detected.\n" : "No config errors; see the warnings.\n");
  return ExitClean;
}

/// Writes the report to stdout or to the request's output file; false, with
/// a problem recorded, when it cannot be written.
bool emit(const LintRequest &R, LintOutcome &Out) {
  ReportOptions Options{R.SarifRoot,
                        Out.Problems,
                        R.UseColor.value_or(R.OutputPath.empty() && llvm::sys::Process::StandardOutHasColors()),
                        R.RelativePaths,
                        Out.Measured.get(),
                        Out.Costs.get()};
  if (R.OutputPath.empty()) {
    writeReport(R.OutputFormat, Out.Errors, llvm::outs(), Options);
    return flushStdout(Out.Problems);
  }
  if (llvm::Error E = writeOutputFile(R.OutputPath, "-o", "report", [&](llvm::raw_ostream &OS) {
        writeReport(R.OutputFormat, Out.Errors, OS, Options);
      })) {
    Out.Problems.push_back(llvm::toString(std::move(E)));
    return false;
  }
  return true;
}
} // namespace

int runMain(int Argc, const char **Argv) {
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "merge-sarif")
    return runMergeReports(Argc - 2, Argv + 2);
  clang::tidy::mlperf::registerMlperfModule();
  auto Request = parseCommandLine(Argc, Argv);
  if (!Request) {
    std::string Message = llvm::toString(Request.takeError());
    return Message.empty() ? ExitError : error(Message);
  }
  switch (Request->What) {
  case Action::Validate:
    return ::mlperf::validate::runValidate(Argc - 2, Argv + 2);
  case Action::ListChecks:
    return listChecks();
  case Action::Explain:
    return explain(Request->ExplainCheck);
  case Action::DumpConfig:
    return dumpConfig(*Request);
  case Action::ExplainConfig:
    return explainConfig(*Request);
  case Action::Lsp:
    return lsp::runServer(*Request, std::cin, std::cout, llvm::errs());
  case Action::VerifyConfig:
    return verifyConfig(*Request);
  case Action::Lint:
    break;
  }
  LiveReport Live(*Request, llvm::outs(), llvm::errs(), llvm::sys::Process::StandardOutIsDisplayed(),
                  llvm::sys::Process::StandardErrIsDisplayed());
  LintOutcome Out = runLint(*Request, Live.callback());
  Live.finish();
  if (Live.streams())
    flushStdout(Out.Problems);
  else if (!Out.Fatal)
    emit(*Request, Out);
  applyRequestedFixes(*Request, Out);
  for (const std::string &W : Out.Warnings)
    llvm::errs() << "mlperf-lint: warning: " << W << "\n";
  for (const std::string &P : Out.Problems)
    error(P);
  if (Out.Fatal)
    return ExitError;
  size_t Findings = countFindings(Out.Errors);
  for (const std::string &N : Out.Notices)
    llvm::errs() << "mlperf-lint: " << N << "\n";
  if (!Request->Quiet) {
    for (const std::string &M : Out.Messages)
      llvm::errs() << "mlperf-lint: " << M << "\n";
    printSuppressed(Out.Stats, llvm::errs());
    llvm::errs() << "mlperf-lint: " << Findings << " finding(s) in " << Out.Files.size() << " file(s)\n";
  }
  if (!Out.Problems.empty() || hasCompilerErrors(Out.Errors))
    return ExitError;
  return Findings ? ExitFindings : ExitClean;
}

} // namespace mlperf::lint
