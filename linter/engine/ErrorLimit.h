// clang's error limit without its stop: compiler errors past the limit are
// counted but not recorded, so the parse (and the checks after it) go on past
// the errors that follow a header that was not found, while a file with tens
// of thousands of errors costs what clang-tidy's default limit costs.
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Tooling/ArgumentsAdjusters.h"

#include <optional>
#include <string>
#include <vector>

namespace mlperf::lint {

/// clang's default -ferror-limit.
inline constexpr unsigned DefaultErrorLimit = 20;

/// The limit a compile command asks for: its last -ferror-limit (0: none),
/// else nullopt.
std::optional<unsigned> errorLimitOf(const clang::tooling::CommandLineArguments &Args);

/// Passes diagnostics on to \p Target, except the compiler errors after the
/// first \p Limit (0: no limit) and their notes. Counts every diagnostic it
/// sees, as clang's consumer would have.
class ErrorLimit : public clang::DiagnosticConsumer {
public:
  ErrorLimit(clang::DiagnosticConsumer &Target, unsigned Limit) : Target(Target), Limit(Limit) {}
  void setLimit(unsigned L) { Limit = L; }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override;
  void BeginSourceFile(const clang::LangOptions &LO, const clang::Preprocessor *PP) override {
    Target.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Target.EndSourceFile(); }
  void finish() override { Target.finish(); }

  unsigned dropped() const { return Dropped; }
  /// Records the errors past the limit in \p Into as well (a recovery reads them).
  void keepPast(std::vector<clang::tooling::DiagnosticMessage> *Into) { Past = Into; }
  /// `error: too many errors emitted (N more not shown) [clang-diagnostic-error]`
  /// at the first error left out; nullopt when none was.
  std::optional<clang::tidy::ClangTidyError> summary(const std::string &BuildDirectory) const;

private:
  clang::DiagnosticConsumer &Target;
  unsigned Limit;
  unsigned Kept = 0, Dropped = 0;
  bool DroppingNotes = false;
  std::optional<clang::tooling::DiagnosticMessage> FirstDropped;
  std::vector<clang::tooling::DiagnosticMessage> *Past = nullptr;
};

/// How many compiler errors \p E stands for: those that summary() counts,
/// else 1.
unsigned errorsIn(const clang::tidy::ClangTidyError &E);

} // namespace mlperf::lint
