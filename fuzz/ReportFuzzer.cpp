// The text, JSON and SARIF writers fed random diagnostics: any check name,
// message, level, offset (also past the end of the file), notes, fixes and
// highlighted ranges. The JSON and SARIF documents must parse back as JSON;
// the text report must stay within a bound of what it shows (a few lines of
// the 2,000-byte source per message), so a runaway line is a crash, not a
// memory spike.
#include "JsonCheck.h"
#include "TempFile.h"
#include "report/Report.h"

#include <fuzzer/FuzzedDataProvider.h>

using clang::tidy::ClangTidyError;

namespace {
clang::tooling::DiagnosticMessage message(FuzzedDataProvider &P, const std::string &File, size_t FileSize) {
  clang::tooling::DiagnosticMessage M;
  M.Message = P.ConsumeRandomLengthString(200);
  M.FilePath = P.ConsumeBool() ? File : P.ConsumeRandomLengthString(40);
  M.FileOffset = P.ConsumeIntegralInRange<unsigned>(0, FileSize + 16);
  return M;
}

// Read after every diagnostic is built, so a corpus input made before ranges
// were fuzzed still builds the same diagnostics.
void addRange(FuzzedDataProvider &P, clang::tooling::DiagnosticMessage &M, const std::string &File, size_t FileSize) {
  clang::tooling::FileByteRange R;
  R.FilePath = P.ConsumeBool() ? M.FilePath : File;
  R.FileOffset = P.ConsumeBool() ? M.FileOffset : P.ConsumeIntegralInRange<unsigned>(0, FileSize + 16);
  R.Length = P.ConsumeIntegralInRange<unsigned>(0, 16);
  M.Ranges.push_back(R);
}

constexpr size_t MaxTextPerMessage = 1 << 20;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider P(Data, Size);
  std::string Source = P.ConsumeRandomLengthString(2000);
  std::string File =
      mlperf::fuzz::writeInput(reinterpret_cast<const uint8_t *>(Source.data()), Source.size(), "-source.cc");
  std::vector<ClangTidyError> Errors;
  unsigned N = P.ConsumeIntegralInRange<unsigned>(0, 6);
  for (unsigned I = 0; I < N && P.remaining_bytes(); ++I) {
    auto Level = static_cast<ClangTidyError::Level>(P.ConsumeIntegralInRange<int>(0, 3));
    ClangTidyError E(P.ConsumeBool() ? "mlperf-sync-in-loop" : P.ConsumeRandomLengthString(30), Level, "/",
                     P.ConsumeBool());
    E.Message = message(P, File, Source.size());
    for (unsigned K = P.ConsumeIntegralInRange<unsigned>(0, 2); K; --K)
      E.Notes.push_back(message(P, File, Source.size()));
    for (unsigned K = P.ConsumeIntegralInRange<unsigned>(0, 2); K; --K) {
      unsigned Offset = P.ConsumeIntegralInRange<unsigned>(0, Source.size() + 4);
      unsigned Length = P.ConsumeIntegralInRange<unsigned>(0, 8);
      llvm::consumeError(
          E.Message.Fix[File].add(clang::tooling::Replacement(File, Offset, Length, P.ConsumeRandomLengthString(20))));
    }
    Errors.push_back(std::move(E));
  }
  size_t Messages = 0;
  for (ClangTidyError &E : Errors) {
    Messages += 1 + E.Notes.size();
    if (P.remaining_bytes())
      addRange(P, E.Message, File, Source.size());
    for (auto &N : E.Notes)
      if (P.remaining_bytes())
        addRange(P, N, File, Source.size());
  }
  std::string Text;
  llvm::raw_string_ostream TextOS(Text);
  mlperf::lint::writeReport(mlperf::lint::Format::Text, Errors, TextOS);
  if (Text.size() > Messages * MaxTextPerMessage)
    __builtin_trap();
  for (mlperf::lint::Format F : {mlperf::lint::Format::Json, mlperf::lint::Format::Sarif}) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    mlperf::lint::writeReport(F, Errors, OS);
    if (!mlperf::fuzz::isJson(Out))
      __builtin_trap();
  }
  return 0;
}
