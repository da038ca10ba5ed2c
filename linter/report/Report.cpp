#include "report/Report.h"

#include "report/HtmlFindings.h"
#include "MlperfCheck.h"
#include "validate/ResultStore.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <nlohmann/json.hpp>

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

std::pair<unsigned, unsigned> LineTable::lineColumn(const std::string &File, unsigned Offset) {
  auto It = LineStarts.find(File);
  if (It == LineStarts.end()) {
    std::vector<unsigned> Starts = {0};
    if (auto Buf = llvm::MemoryBuffer::getFile(File)) {
      llvm::StringRef Data = (*Buf)->getBuffer();
      for (size_t I = 0; I < Data.size(); ++I)
        if (Data[I] == '\n')
          Starts.push_back(I + 1);
    }
    It = LineStarts.emplace(File, std::move(Starts)).first;
  }
  const std::vector<unsigned> &S = It->second;
  auto Line = std::upper_bound(S.begin(), S.end(), Offset) - S.begin();
  return {static_cast<unsigned>(Line), Offset - S[Line - 1] + 1};
}

llvm::StringRef severityOf(const ClangTidyError &E) {
  if (E.DiagLevel == clang::tooling::Diagnostic::Error || E.IsWarningAsError)
    return "error";
  if (E.DiagLevel == clang::tooling::Diagnostic::Remark)
    return "remark";
  return "warning";
}

bool isLowConfidence(const ClangTidyError &E) {
  return llvm::any_of(E.Notes, [](const clang::tooling::DiagnosticMessage &N) {
    return llvm::StringRef(N.Message) == clang::tidy::mlperf::ByNameNote;
  });
}

namespace {
/// Reports findings through clang's text printer, as clang-tidy's
/// ErrorReporter does, but into any stream.
class TextReporter {
public:
  TextReporter(llvm::raw_ostream &OS, bool Color)
      : Files(clang::FileSystemOptions()), DiagOpts(new clang::DiagnosticOptions()),
        Printer(new clang::TextDiagnosticPrinter(OS, &*DiagOpts)),
        Diags(llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs>(new clang::DiagnosticIDs), &*DiagOpts, Printer),
        SM(Diags, Files) {
    DiagOpts->ShowColors = Color;
    Printer->BeginSourceFile(LangOpts, nullptr);
  }
  ~TextReporter() { Printer->EndSourceFile(); }

  void report(const ClangTidyError &E) {
    auto Level = static_cast<clang::DiagnosticsEngine::Level>(E.DiagLevel);
    std::string Name = E.DiagnosticName;
    if (E.IsWarningAsError) {
      Name += ",-warnings-as-errors";
      Level = clang::DiagnosticsEngine::Error;
    }
    {
      auto Diag = Diags.Report(location(E.Message.FilePath, E.Message.FileOffset),
                               Diags.getCustomDiagID(Level, "%0 [%1]"))
                  << E.Message.Message << Name;
      for (const auto &Range : E.Message.Ranges)
        Diag << range(Range.FilePath, Range.FileOffset, Range.Length);
      addFixes(Diag, E.Message.Fix);
    }
    for (const auto &Note : E.Notes) {
      auto Diag = Diags.Report(location(Note.FilePath, Note.FileOffset),
                               Diags.getCustomDiagID(clang::DiagnosticsEngine::Note, "%0"))
                  << Note.Message;
      for (const auto &Range : Note.Ranges)
        Diag << range(Range.FilePath, Range.FileOffset, Range.Length);
      addFixes(Diag, Note.Fix);
    }
  }

private:
  clang::FileID fileID(llvm::StringRef File) {
    if (File.empty())
      return {};
    auto Ref = Files.getOptionalFileRef(File);
    if (!Ref)
      return {};
    return SM.getOrCreateFileID(*Ref, clang::SrcMgr::C_User);
  }
  /// An offset past the end of the file is its end, not a place in the file
  /// loaded after it.
  clang::SourceLocation location(llvm::StringRef File, uint64_t Offset) {
    clang::FileID ID = fileID(File);
    if (ID.isInvalid())
      return {};
    return SM.getLocForStartOfFile(ID).getLocWithOffset(std::min<uint64_t>(Offset, SM.getFileIDSize(ID)));
  }
  clang::CharSourceRange range(llvm::StringRef File, unsigned Offset, unsigned Length) {
    return clang::CharSourceRange::getCharRange(location(File, Offset), location(File, uint64_t(Offset) + Length));
  }
  /// Whether clang's printer can show a fix-it there: inside the file, and not
  /// past its line's trailing NUL bytes, which the printer drops from a line
  /// before it maps the fix-it's column (clang 19 then reads past its column
  /// table and may fill a line with gigabytes of spaces).
  bool showable(llvm::StringRef File, unsigned Offset, unsigned Length) {
    clang::FileID ID = fileID(File);
    if (ID.isInvalid())
      return false;
    llvm::StringRef Text = SM.getBufferData(ID);
    if (Offset > Text.size() || Length > Text.size() - Offset)
      return false;
    unsigned Column = SM.getColumnNumber(ID, Offset);
    llvm::StringRef Line = Text.substr(Offset - (Column - 1));
    Line = Line.take_until([](char C) { return C == '\n' || C == '\r'; }).rtrim('\0');
    return Column - 1 <= Line.size();
  }
  void addFixes(const clang::DiagnosticBuilder &Diag, const llvm::StringMap<clang::tooling::Replacements> &Fix) {
    for (const auto &[File, Repls] : Fix)
      for (const clang::tooling::Replacement &R : Repls)
        if (R.isApplicable() && showable(R.getFilePath(), R.getOffset(), R.getLength()))
          Diag << clang::FixItHint::CreateReplacement(range(R.getFilePath(), R.getOffset(), R.getLength()),
                                                      R.getReplacementText());
  }

  clang::FileManager Files;
  clang::LangOptions LangOpts;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts;
  clang::TextDiagnosticPrinter *Printer;  // owned by Diags
  clang::DiagnosticsEngine Diags;
  clang::SourceManager SM;
};
} // namespace

void writeText(llvm::ArrayRef<ClangTidyError> Errors, llvm::raw_ostream &OS, bool Color) {
  TextReporter Reporter(OS, Color);
  for (const ClangTidyError &E : Errors)
    Reporter.report(E);
  OS.flush();
}

void writeReport(Format F, llvm::ArrayRef<ClangTidyError> Errors, llvm::raw_ostream &OS,
                 const ReportOptions &Options) {
  switch (F) {
  case Format::Text:
    return writeText(Errors, OS, Options.Color);
  case Format::Json:
    return writeJson(Errors, OS, Options.RelativePaths);
  case Format::Html:
    return writeHtmlFindings(Errors, ::mlperf::validate::storedResults(llvm::nulls()), OS);
  case Format::Sarif:
    return writeSarif(Errors, OS, {Options.SarifRoot, Options.Problems});
  }
}

void writeJson(llvm::ArrayRef<ClangTidyError> Errors, llvm::raw_ostream &OS, bool RelativePaths) {
  LineTable Lines;
  nlohmann::json Diags = nlohmann::json::array();
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  auto Shown = [&](llvm::StringRef File) {
    llvm::StringRef Rel = File;
    if (RelativePaths && Rel.consume_front(Cwd) && Rel.consume_front("/"))
      return Rel.str();
    return File.str();
  };
  auto Place = [&](nlohmann::json &J, const std::string &File, unsigned Offset) {
    J["file"] = File.empty() ? File : Shown(File);
    if (File.empty())
      return;
    auto [Line, Col] = Lines.lineColumn(File, Offset);
    J["line"] = Line;
    J["column"] = Col;
  };
  for (const ClangTidyError &E : Errors) {
    nlohmann::json D;
    Place(D, E.Message.FilePath, E.Message.FileOffset);
    D["check"] = E.DiagnosticName;
    D["severity"] = severityOf(E).str();
    D["message"] = E.Message.Message;
    if (isLowConfidence(E))
      D["confidence"] = "low";
    D["notes"] = nlohmann::json::array();
    for (const auto &N : E.Notes) {
      nlohmann::json JN;
      Place(JN, N.FilePath, N.FileOffset);
      JN["message"] = N.Message;
      D["notes"].push_back(JN);
    }
    D["fixes"] = nlohmann::json::array();
    for (const auto &[File, Repls] : E.Message.Fix)
      for (const auto &R : Repls) {
        nlohmann::json F;
        Place(F, R.getFilePath().str(), R.getOffset());
        F["offset"] = R.getOffset();
        F["length"] = R.getLength();
        F["replacement"] = R.getReplacementText().str();
        D["fixes"].push_back(F);
      }
    Diags.push_back(std::move(D));
  }
  nlohmann::json Doc = {{"tool", "mlperf-lint"}, {"version", MLPERF_VERSION}, {"diagnostics", Diags}};
  // Messages may quote source bytes that are not UTF-8: replaced, not thrown.
  OS << Doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

} // namespace mlperf::lint
