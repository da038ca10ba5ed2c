#include "project/FixCheck.h"

#include "support/FileGuard.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

namespace {
/// The fixes being applied, counted per (file, check): the findings of
/// \p Before whose every replacement is in a fixed file.
std::map<std::pair<std::string, std::string>, unsigned> fixedCounts(const LintOutcome &Before,
                                                                    const std::map<std::string, std::string> &Fixed) {
  std::map<std::pair<std::string, std::string>, unsigned> Out;
  for (const ClangTidyError &E : Before.Errors) {
    if (E.Message.Fix.empty())
      continue;
    bool All = llvm::all_of(E.Message.Fix, [&](const auto &Entry) {
      return Entry.getValue().empty() || Fixed.count(normalizedPath(Entry.getKey()));
    });
    if (All)
      ++Out[{normalizedPath(E.Message.FilePath), E.DiagnosticName}];
  }
  return Out;
}
} // namespace

std::string refutation(const LintOutcome &Before, const LintOutcome &After,
                       const std::map<std::string, std::string> &Fixed) {
  for (const ClangTidyError &E : After.Errors)
    if (isCompilerError(E) && !Before.Uncompilable.count(normalizedPath(E.Message.FilePath)))
      return "the fixed code does not compile (" + E.Message.FilePath + ": " + E.Message.Message + ")";
  if (!After.Problems.empty())
    return "the fixed code could not be linted (" + After.Problems.front() + ")";
  for (const auto &[Key, N] : fixedCounts(Before, Fixed)) {
    auto B = Before.Counts.find(Key), A = After.Counts.find(Key);
    unsigned BeforeN = B == Before.Counts.end() ? 0 : B->second, AfterN = A == After.Counts.end() ? 0 : A->second;
    if (AfterN + N > BeforeN)
      return Key.second + " is still reported in " + Key.first + " after its fix";
  }
  for (const auto &[Key, AfterN] : After.Counts) {
    auto B = Before.Counts.find(Key);
    if (AfterN > (B == Before.Counts.end() ? 0 : B->second))
      return "the fixed code has a new " + Key.second + " finding in " + Key.first;
  }
  return "";
}

FixVerifier fixVerifier(const LintRequest &R, const LintOutcome &Before) {
  return [&R, &Before](const std::map<std::string, std::string> &Fixed) {
    LintRequest V = R;
    V.Fix = false;
    V.OutputPath.clear();
    V.ExportFixes.clear();
    V.WriteBaseline.clear();
    V.Filters = FilterRequest();
    V.CompilerStats = false;
    V.Verbose = false;
    if (V.Paths.empty()) // --diff chose the inputs
      V.Paths = Before.Files;
    V.Overlays.insert(Fixed.begin(), Fixed.end());
    LintOutcome After = runLint(V);
    return refutation(Before, After, Fixed);
  };
}

void applyRequestedFixes(const LintRequest &R, LintOutcome &Out) {
  if (R.Fix && !Out.Fatal) {
    FixVerifier Verify = R.FixUnverified ? FixVerifier() : fixVerifier(R, Out);
    FixResult Fixed = applyFixes(Out.Errors, {Out.Hashes.get(), R.FixErrors, Out.Uncompilable, Verify, R.FormatStyle});
    Out.Problems.insert(Out.Problems.end(), Fixed.Errors.begin(), Fixed.Errors.end());
    Out.Messages.insert(Out.Messages.end(), Fixed.Notes.begin(), Fixed.Notes.end());
    Out.Messages.push_back("applied " + std::to_string(Fixed.Applied) + " fix(es) to " +
                           std::to_string(Fixed.Files.size()) + " file(s)" +
                           (Fixed.Skipped ? ", skipped " + std::to_string(Fixed.Skipped) + " conflicting" : ""));
  }
}

} // namespace mlperf::lint
