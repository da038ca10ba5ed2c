// The text, JSON and SARIF writers fed random diagnostics: any check name,
// message, level, offset (also past the end of the file), notes and fixes.
// The JSON and SARIF documents must parse back as JSON.
#include "Report.h"
#include "TempFile.h"

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

using clang::tidy::ClangTidyError;

namespace {
clang::tooling::DiagnosticMessage message(FuzzedDataProvider &P, const std::string &File, size_t FileSize) {
  clang::tooling::DiagnosticMessage M;
  M.Message = P.ConsumeRandomLengthString(200);
  M.FilePath = P.ConsumeBool() ? File : P.ConsumeRandomLengthString(40);
  M.FileOffset = P.ConsumeIntegralInRange<unsigned>(0, FileSize + 16);
  return M;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider P(Data, Size);
  std::string Source = P.ConsumeRandomLengthString(2000);
  std::string File = mlperf::fuzz::writeInput(reinterpret_cast<const uint8_t *>(Source.data()), Source.size(),
                                              "-source.cc");
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
      llvm::consumeError(E.Message.Fix[File].add(
          clang::tooling::Replacement(File, Offset, Length, P.ConsumeRandomLengthString(20))));
    }
    Errors.push_back(std::move(E));
  }
  std::string Text;
  llvm::raw_string_ostream TextOS(Text);
  mlperf::lint::writeReport(mlperf::lint::Format::Text, Errors, TextOS);
  for (mlperf::lint::Format F : {mlperf::lint::Format::Json, mlperf::lint::Format::Sarif}) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    mlperf::lint::writeReport(F, Errors, OS);
    if (nlohmann::json::parse(Out, nullptr, /*allow_exceptions=*/false).is_discarded())
      __builtin_trap();
  }
  return 0;
}
