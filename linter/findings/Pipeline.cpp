#include "findings/Pipeline.h"

#include "support/FileGuard.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

namespace {
void addStats(clang::tidy::ClangTidyStats &To, const clang::tidy::ClangTidyStats &S) {
  To.ErrorsDisplayed += S.ErrorsDisplayed;
  To.ErrorsIgnoredCheckFilter += S.ErrorsIgnoredCheckFilter;
  To.ErrorsIgnoredNOLINT += S.ErrorsIgnoredNOLINT;
  To.ErrorsIgnoredNonUserCode += S.ErrorsIgnoredNonUserCode;
  To.ErrorsIgnoredLineFilter += S.ErrorsIgnoredLineFilter;
}
} // namespace

void FindingsPipeline::recordStatus(const FileFindings &F) {
  addStats(Run.Stats, F.Stats);
  if (F.Crash) {
    Run.Crashes.push_back(F.File + ": clang crashed while parsing (" + *F.Crash + ")");
    Run.Uncompilable.insert(normalizedPath(F.File));
  }
  if (F.FollowingErrors) // headers not found: it did not compile, whatever was reported
    Run.Uncompilable.insert(normalizedPath(F.File));
  if (!F.Incomplete.empty())
    Run.Incomplete.push_back(F.Incomplete);
  for (const ClangTidyError &E : F.Errors)
    if (isCompilerError(E)) {
      Run.Uncompilable.insert(normalizedPath(F.File));
      Run.Uncompilable.insert(normalizedPath(E.Message.FilePath));
    }
}

std::vector<ClangTidyError> FindingsPipeline::dropRepeated(std::vector<ClangTidyError> Errors) {
  std::vector<ClangTidyError> Out;
  for (ClangTidyError &E : Errors)
    if (Seen.emplace(E.Message.FilePath, E.Message.FileOffset, E.DiagnosticName, E.Message.Message).second)
      Out.push_back(std::move(E));
  return Out;
}

std::vector<ClangTidyError> FindingsPipeline::add(FileFindings F) {
  recordStatus(F);
  // Before dropRepeated: the including file's copy must not hide the file's own.
  llvm::erase_if(F.Errors, [&](const ClangTidyError &E) {
    const std::string &File = E.Message.FilePath;
    return !isCompilerError(E) && File != F.File && Units.count(File);
  });
  std::vector<ClangTidyError> Errors = dropRepeated(std::move(F.Errors));
  if (O.DropVendored)
    dropLibraryFindings(Errors, O.Inputs, O.Roots);
  for (const ClangTidyError &E : Errors)
    if (!isCompilerError(E))
      ++Run.Counts[{normalizedPath(E.Message.FilePath), E.DiagnosticName}];
  // The baseline records and accepts every finding of the files linted, also
  // those outside --line-filter and --diff: a baseline written with --diff
  // keeps the rest of the file's findings, and an entry outside the diff is
  // still matched, not reported as stale.
  if (!O.WriteBaseline.empty())
    ForBaseline.insert(ForBaseline.end(), Errors.begin(), Errors.end());
  if (O.Filter) {
    std::vector<ClangTidyError> Accepted;
    Errors = O.Filter->applyBaseline(std::move(Errors), Accepted);
    clang::tidy::ClangTidyStats Outside;
    Hidden += O.Filter->applyLines(std::move(Accepted), Outside).size();
    Errors = O.Filter->applyLines(std::move(Errors), Run.Stats);
  }
  O.Costs.add(Errors);
  O.Notes.add(Errors);
  Run.Errors.insert(Run.Errors.end(), Errors.begin(), Errors.end());
  return Errors;
}

void FindingsPipeline::finish(std::vector<std::string> &Messages, std::vector<std::string> &Problems) {
  if (!O.WriteBaseline.empty()) {
    size_t N = llvm::count_if(ForBaseline, [](const ClangTidyError &E) { return !isCompilerError(E); });
    if (llvm::Error E = writeBaseline(O.WriteBaseline, ForBaseline, O.Inputs))
      Problems.push_back(llvm::toString(std::move(E)));
    else
      Messages.push_back("wrote " + std::to_string(N) + " finding(s) to the baseline " + O.WriteBaseline);
  }
  if (!O.Filter || O.Filter->baselinePath().empty())
    return;
  const std::string &Name = O.Filter->baselinePath();
  Messages.push_back(std::to_string(Hidden) + " finding(s) hidden by the baseline " + Name);
  std::vector<std::string> Stale = O.Filter->staleEntries(O.Inputs);
  if (!Stale.empty())
    Messages.push_back(Name + ": " + std::to_string(Stale.size()) + " stale entr" + (Stale.size() == 1 ? "y" : "ies") +
                       " no longer found (rewrite it with --write-baseline to drop them)");
  for (const std::string &S : Stale)
    Messages.push_back("  stale: " + S);
}

} // namespace mlperf::lint
