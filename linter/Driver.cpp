#include "Driver.h"

#include "CommandLine.h"
#include "Embedded.h"
#include "Lint.h"
#include "MergeReports.h"
#include "MlperfModule.h"
#include "validate/Validate.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

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

int dumpConfig(const LintRequest &R) {
  llvm::SmallString<256> File;
  if (R.Paths.empty()) {
    llvm::sys::fs::current_path(File);
    File += "/dummy.cc";
  } else {
    File = R.Paths.front();
    llvm::sys::fs::make_absolute(File);
  }
  auto Providers = makeOptionsProviders(R.Config, {std::string(File)});
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

/// Writes the report to stdout or to the request's output file; false, with
/// a problem recorded, when it cannot be written.
bool emit(const LintRequest &R, LintOutcome &Out) {
  if (R.OutputPath.empty()) {
    writeReport(R.OutputFormat, Out.Errors, llvm::outs());
    return true;
  }
  std::error_code EC;
  llvm::raw_fd_ostream File(R.OutputPath, EC, llvm::sys::fs::OF_Text);
  if (!EC) {
    writeReport(R.OutputFormat, Out.Errors, File);
    File.close();
    EC = File.error();
    File.clear_error();
  }
  if (EC)
    Out.Problems.push_back(R.OutputPath + ": cannot write report: " + EC.message());
  return !EC;
}
} // namespace

int runMain(int Argc, const char **Argv) {
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "merge-sarif")
    return runMergeReports(Argc - 2, Argv + 2);
  clang::tidy::mlperf::registerMlperfModule();
  auto Request = parseCommandLine(Argc, Argv);
  if (!Request)
    return error(llvm::toString(Request.takeError()));
  switch (Request->What) {
  case Action::Validate:
    return ::mlperf::validate::runValidate(Argc - 2, Argv + 2);
  case Action::ListChecks:
    return listChecks();
  case Action::Explain:
    return explain(Request->ExplainCheck);
  case Action::DumpConfig:
    return dumpConfig(*Request);
  case Action::Lint:
    break;
  }
  LintOutcome Out = runLint(*Request);
  if (!Out.Fatal)
    emit(*Request, Out);
  for (const std::string &P : Out.Problems)
    error(P);
  if (Out.Fatal)
    return ExitError;
  size_t Findings = countFindings(Out.Errors);
  if (!Request->Quiet) {
    for (const std::string &M : Out.Messages)
      llvm::errs() << "mlperf-lint: " << M << "\n";
    llvm::errs() << "mlperf-lint: " << Findings << " finding(s) in " << Out.Files.size() << " file(s)\n";
  }
  if (!Out.Problems.empty() || hasCompilerErrors(Out.Errors))
    return ExitError;
  return Findings ? ExitFindings : ExitClean;
}

} // namespace mlperf::lint
