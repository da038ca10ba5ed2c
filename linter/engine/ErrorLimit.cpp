#include "engine/ErrorLimit.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

namespace mlperf::lint {

static constexpr const char *SummaryPrefix = "too many errors emitted (";

std::optional<unsigned> errorLimitOf(const clang::tooling::CommandLineArguments &Args) {
  std::optional<unsigned> Limit;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    llvm::StringRef Value;
    if (A.consume_front("-ferror-limit="))
      Value = A;
    else if (A == "-ferror-limit" && I + 1 < Args.size())
      Value = Args[++I];
    else
      continue;
    unsigned N;
    if (!Value.getAsInteger(10, N))
      Limit = N;
  }
  return Limit;
}

void ErrorLimit::HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level == clang::DiagnosticsEngine::Note && DroppingNotes)
    return;
  DroppingNotes = false;
  if (Level >= clang::DiagnosticsEngine::Error && Limit && Kept >= Limit) {
    ++Dropped;
    DroppingNotes = true;
    if (!FirstDropped && Info.hasSourceManager() && Info.getLocation().isValid())
      FirstDropped.emplace("", Info.getSourceManager(), Info.getSourceManager().getFileLoc(Info.getLocation()));
    if (Past && Info.hasSourceManager() && Info.getLocation().isValid()) {
      llvm::SmallString<128> Text;
      Info.FormatDiagnostic(Text);
      Past->emplace_back(Text, Info.getSourceManager(), Info.getSourceManager().getFileLoc(Info.getLocation()));
    }
    return;
  }
  if (Level >= clang::DiagnosticsEngine::Error)
    ++Kept;
  Target.HandleDiagnostic(Level, Info);
}

std::optional<clang::tidy::ClangTidyError> ErrorLimit::summary(const std::string &BuildDirectory) const {
  if (!Dropped)
    return std::nullopt;
  clang::tidy::ClangTidyError E("clang-diagnostic-error", clang::tidy::ClangTidyError::Error, BuildDirectory, false);
  if (FirstDropped)
    E.Message = *FirstDropped;
  E.Message.Message = SummaryPrefix + std::to_string(Dropped) + " more not shown; -ferror-limit=0 shows them all)";
  return E;
}

unsigned errorsIn(const clang::tidy::ClangTidyError &E) {
  llvm::StringRef Rest = E.Message.Message;
  unsigned N = 0;
  if (Rest.consume_front(SummaryPrefix) && !Rest.consumeInteger(10, N))
    return N;
  return 1;
}

} // namespace mlperf::lint
