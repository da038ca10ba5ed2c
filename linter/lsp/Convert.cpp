#include "lsp/Convert.h"

#include "report/Diagnostics.h"
#include "report/Sarif.h"

#include "llvm/ADT/StringExtras.h"

namespace mlperf::lint::lsp {

using clang::tidy::ClangTidyError;
using nlohmann::json;

TextIndex::TextIndex(std::string T) : Text(std::move(T)), LineStarts{0} {
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
}

json TextIndex::position(unsigned Offset) const {
  Offset = std::min<unsigned>(Offset, Text.size());
  auto Line = std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset) - LineStarts.begin() - 1;
  llvm::StringRef Rest = llvm::StringRef(Text).substr(LineStarts[Line]);
  return {{"line", Line}, {"character", utf16Column(Rest, Offset - LineStarts[Line] + 1) - 1}};
}

std::string pathFromUri(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return "";
  std::string Out;
  for (size_t I = 0; I < Uri.size(); ++I) {
    unsigned Byte;
    if (Uri[I] == '%' && I + 2 < Uri.size() && !Uri.substr(I + 1, 2).getAsInteger(16, Byte)) {
      Out += static_cast<char>(Byte);
      I += 2;
    } else {
      Out += Uri[I];
    }
  }
  return Out;
}

std::string uriFromPath(llvm::StringRef Path) {
  std::string Out = "file://";
  for (unsigned char C : Path)
    Out += llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C)
               ? std::string(1, C)
               : "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  return Out;
}

namespace {
bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// The finding's range: its own source range at its location, else the
/// identifier (or one character) there.
json rangeOf(const clang::tooling::DiagnosticMessage &M, const TextIndex &Text) {
  unsigned End = M.FileOffset;
  for (const auto &R : M.Ranges)
    if (R.FilePath == M.FilePath && R.FileOffset == M.FileOffset && R.Length)
      End = M.FileOffset + R.Length;
  const std::string &T = Text.text();
  if (End == M.FileOffset)
    while (End < T.size() && isIdentifierChar(T[End]))
      ++End;
  if (End == M.FileOffset && End < T.size() && T[End] != '\n')
    ++End;
  return {{"start", Text.position(M.FileOffset)}, {"end", Text.position(End)}};
}

json changesOf(const llvm::StringMap<clang::tooling::Replacements> &Fix, const TextSource &Text) {
  json Changes = json::object();
  for (const auto &[File, Repls] : Fix)
    for (const clang::tooling::Replacement &R : Repls) {
      const TextIndex &T = Text(R.getFilePath().str());
      Changes[uriFromPath(R.getFilePath())].push_back(
          {{"range", {{"start", T.position(R.getOffset())}, {"end", T.position(R.getOffset() + R.getLength())}}},
           {"newText", R.getReplacementText().str()}});
    }
  return Changes;
}

int severity(const ClangTidyError &E) {
  llvm::StringRef S = severityOf(E);
  return S == "error" ? 1 : S == "warning" ? 2 : 3;
}
} // namespace

std::vector<Finding> findingsIn(const std::string &Path, llvm::ArrayRef<ClangTidyError> Errors,
                                const TextSource &Text) {
  std::vector<Finding> Out;
  for (const ClangTidyError &E : Errors) {
    if (E.Message.FilePath != Path || llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-"))
      continue;
    const TextIndex &T = Text(Path);
    std::string Message = E.Message.Message;
    json Related = json::array();
    for (const auto &N : E.Notes) {
      if (N.FilePath == E.Message.FilePath && N.FileOffset == E.Message.FileOffset) {
        Message += "\n" + N.Message;
        continue;
      }
      if (N.FilePath.empty())
        continue;
      Related.push_back({{"location", {{"uri", uriFromPath(N.FilePath)}, {"range", rangeOf(N, Text(N.FilePath))}}},
                         {"message", N.Message}});
    }
    Finding F;
    F.Diagnostic = {{"range", rangeOf(E.Message, T)},
                    {"severity", severity(E)},
                    {"code", E.DiagnosticName},
                    {"source", "mlperf-lint"},
                    {"message", Message}};
    if (!Related.empty())
      F.Diagnostic["relatedInformation"] = Related;
    if (!E.Message.Fix.empty()) {
      F.FixTitle = "Apply the fix of " + E.DiagnosticName;
      F.FixChanges = changesOf(E.Message.Fix, Text);
    } else {
      for (const auto &N : E.Notes)
        if (!N.Fix.empty()) {
          F.FixTitle = N.Message;
          F.FixChanges = changesOf(N.Fix, Text);
          break;
        }
    }
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace mlperf::lint::lsp
