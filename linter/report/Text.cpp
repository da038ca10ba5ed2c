#include "report/Report.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

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
      clang::SourceLocation At = location(E.Message.FilePath, E.Message.FileOffset);
      auto Diag = Diags.Report(At, Diags.getCustomDiagID(Level, "%0 [%1]")) << E.Message.Message << Name;
      addRangesAndFixes(Diag, At, E.Message);
    }
    for (const auto &Note : E.Notes) {
      clang::SourceLocation At = location(Note.FilePath, Note.FileOffset);
      auto Diag = Diags.Report(At, Diags.getCustomDiagID(clang::DiagnosticsEngine::Note, "%0")) << Note.Message;
      addRangesAndFixes(Diag, At, Note);
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
  /// Whether clang's printer shows \p File's \p Offset in the snippet of a
  /// diagnostic at \p At: in its file, within its snippet's line limit.
  /// clang 19 numbers the snippet from the first line of every range and
  /// fix-it, one too far away to be shown included: a NoGradGuard inserted
  /// 34 lines above the caret numbered the caret's line 76 instead of 110.
  bool nearby(clang::SourceLocation At, llvm::StringRef File, uint64_t Offset) {
    clang::SourceLocation L = location(File, Offset);
    if (At.isInvalid() || L.isInvalid() || SM.getFileID(At) != SM.getFileID(L))
      return false;
    unsigned A = SM.getSpellingLineNumber(At), B = SM.getSpellingLineNumber(L);
    return (A > B ? A - B : B - A) < DiagOpts->SnippetLineLimit;
  }
  /// The message's ranges and fix-its that its snippet shows (the others
  /// stay in the finding, for --fix and the other formats).
  void addRangesAndFixes(const clang::DiagnosticBuilder &Diag, clang::SourceLocation At,
                         const clang::tooling::DiagnosticMessage &M) {
    for (const auto &Range : M.Ranges)
      if (nearby(At, Range.FilePath, Range.FileOffset))
        Diag << range(Range.FilePath, Range.FileOffset, Range.Length);
    for (const auto &[File, Repls] : M.Fix)
      for (const clang::tooling::Replacement &R : Repls)
        if (R.isApplicable() && showable(R.getFilePath(), R.getOffset(), R.getLength()) &&
            nearby(At, R.getFilePath(), R.getOffset()))
          Diag << clang::FixItHint::CreateReplacement(range(R.getFilePath(), R.getOffset(), R.getLength()),
                                                      R.getReplacementText());
  }

  clang::FileManager Files;
  clang::LangOptions LangOpts;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts;
  clang::TextDiagnosticPrinter *Printer; // owned by Diags
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

} // namespace mlperf::lint
