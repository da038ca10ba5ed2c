#include "findings/MeasuredNotes.h"

#include "validate/ResultStore.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

MeasuredNotes MeasuredNotes::load(const std::string &Path, llvm::raw_ostream &Warnings) {
  return MeasuredNotes(::mlperf::validate::storedResults(Warnings, Path));
}

void MeasuredNotes::add(std::vector<ClangTidyError> &Errors) {
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
