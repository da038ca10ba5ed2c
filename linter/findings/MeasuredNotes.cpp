#include "findings/MeasuredNotes.h"

#include "validate/ResultStore.h"

#include <map>
#include <optional>

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

void addMeasuredNotes(std::vector<ClangTidyError> &Errors) {
  auto Results = ::mlperf::validate::storedResults(llvm::errs());
  std::map<std::string, std::string> Engines;
  std::map<std::pair<std::string, std::string>, std::optional<std::string>> Notes;
  for (ClangTidyError &E : Errors) {
    if (E.DiagLevel == ClangTidyError::Error)
      continue;
    auto [EngineIt, NewFile] = Engines.try_emplace(E.Message.FilePath);
    if (NewFile)
      EngineIt->second = ::mlperf::validate::engineOfSource(E.Message.FilePath);
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

} // namespace mlperf::lint
