#include "report/Report.h"

#include "report/HtmlFindings.h"
#include "report/Sarif.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

namespace {
void text(llvm::ArrayRef<ClangTidyError> Errors, llvm::raw_ostream &OS, const ReportOptions &O) {
  writeText(Errors, OS, O.Color);
}
void json(llvm::ArrayRef<ClangTidyError> Errors, llvm::raw_ostream &OS, const ReportOptions &O) {
  writeJson(Errors, OS, O.RelativePaths, O.Costs);
}
void sarif(llvm::ArrayRef<ClangTidyError> Errors, llvm::raw_ostream &OS, const ReportOptions &O) {
  writeSarif(Errors, OS, {O.SarifRoot, O.Problems, O.Costs});
}
void html(llvm::ArrayRef<ClangTidyError> Errors, llvm::raw_ostream &OS, const ReportOptions &O) {
  static const ::mlperf::validate::ValidationRun None;
  writeHtmlFindings(Errors, O.Measured ? *O.Measured : None, OS, O.Costs);
}

/// Every format: its name on the command line and its writer. A new format
/// is a writer in report/ and a row here.
struct FormatInfo {
  Format F;
  const char *Name;
  void (*Write)(llvm::ArrayRef<ClangTidyError>, llvm::raw_ostream &, const ReportOptions &);
};
constexpr FormatInfo Formats[] = {
    {Format::Text, "text", text},
    {Format::Json, "json", json},
    {Format::Sarif, "sarif", sarif},
    {Format::Html, "html", html},
};
} // namespace

std::optional<Format> formatByName(llvm::StringRef Name) {
  for (const FormatInfo &I : Formats)
    if (Name == I.Name)
      return I.F;
  return std::nullopt;
}

std::string formatNames() {
  std::string Out;
  for (size_t I = 0; I < std::size(Formats); ++I)
    Out += std::string(I == 0 ? "" : I + 1 == std::size(Formats) ? " or " : ", ") + Formats[I].Name;
  return Out;
}

void writeReport(Format F, llvm::ArrayRef<ClangTidyError> Errors, llvm::raw_ostream &OS, const ReportOptions &Options) {
  for (const FormatInfo &I : Formats)
    if (I.F == F)
      return I.Write(Errors, OS, Options);
}

} // namespace mlperf::lint
