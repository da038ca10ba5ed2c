#include "lsp/Convert.h"

#include "report/Diagnostics.h"
#include "report/Sarif.h"

#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

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

json TextIndex::range(unsigned Begin, unsigned End) const {
  return {{"start", position(Begin)}, {"end", position(End)}};
}

std::pair<unsigned, unsigned> TextIndex::callAt(unsigned Offset) const {
  if (!Calls)
    Calls = std::make_unique<CallRanges>(Text);
  return Calls->at(Offset);
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

namespace {
bool isKeyword(llvm::StringRef Word) {
  static const llvm::StringSet<> Keywords = {"for",  "while",  "if",      "switch",   "return",   "sizeof",
                                             "do",   "else",   "catch",   "new",      "delete",   "throw",
                                             "case", "typeid", "alignof", "decltype", "noexcept", "static_assert"};
  return Keywords.contains(Word);
}

/// The finding's range: its own source range at its location, else the call
/// whose name is there, else the identifier (or one character) there.
json rangeOf(const clang::tooling::DiagnosticMessage &M, const TextIndex &Text) {
  const std::string &T = Text.text();
  unsigned Begin = std::min<size_t>(M.FileOffset, T.size()), End = Begin;
  for (const auto &R : M.Ranges)
    if (R.FilePath == M.FilePath && R.FileOffset == M.FileOffset && R.Length)
      End = Begin + R.Length;
  if (End == Begin) {
    while (End < T.size() && clang::isAsciiIdentifierContinue(T[End]))
      ++End;
    if (End > Begin && !isKeyword(llvm::StringRef(T).slice(Begin, End)))
      if (auto [CallBegin, CallEnd] = Text.callAt(Begin); CallEnd > CallBegin)
        std::tie(Begin, End) = std::tie(CallBegin, CallEnd);
  }
  if (End == Begin && End < T.size() && T[End] != '\n')
    ++End;
  return Text.range(Begin, End);
}

std::map<std::string, json> editsOf(const llvm::StringMap<clang::tooling::Replacements> &Fix, const TextSource &Text) {
  std::map<std::string, json> Edits;
  for (const auto &[File, Repls] : Fix)
    for (const clang::tooling::Replacement &R : Repls) {
      const TextIndex &T = Text(R.getFilePath().str());
      Edits[R.getFilePath().str()].push_back({{"range", T.range(R.getOffset(), R.getOffset() + R.getLength())},
                                              {"newText", R.getReplacementText().str()}});
    }
  return Edits;
}

int severity(const ClangTidyError &E) {
  llvm::StringRef S = severityOf(E);
  return S == "error" ? 1 : S == "warning" ? 2 : 3;
}
} // namespace

namespace {
/// \p Code on one line, shortened, in backquotes.
std::string codeSpan(llvm::StringRef Code) {
  std::string Out;
  for (char C : Code.trim()) {
    bool Space = llvm::isSpace(C);
    if (!Space || (!Out.empty() && Out.back() != ' '))
      Out += Space ? ' ' : C;
  }
  if (Out.size() > 48)
    Out = Out.substr(0, 47) + "…";
  return "`" + Out + "`";
}

struct Edit {
  std::string Old, New;
};

/// The statement an insertion adds: its text without the braces that
/// enclose it and the loop (analysis/Hoist.h).
llvm::StringRef insertedStatement(llvm::StringRef New) {
  New = New.trim();
  New.consume_front("{");
  New.consume_back("}");
  return New.trim();
}

std::string describe(const Edit &E) {
  if (E.Old.empty())
    return "Insert " + codeSpan(E.New);
  if (E.New.empty())
    return "Remove " + codeSpan(E.Old);
  return "Replace " + codeSpan(E.Old) + " with " + codeSpan(E.New);
}

/// A hoist: an inserted statement that computes what a replaced expression
/// did (now its variable's name), or that a removed statement was.
std::string hoistTitle(const std::vector<Edit> &Edits) {
  for (const Edit &I : Edits) {
    llvm::StringRef Statement = insertedStatement(I.New);
    if (!I.Old.empty() || Statement.empty())
      continue;
    for (const Edit &R : Edits) {
      llvm::StringRef Old = llvm::StringRef(R.Old).trim(), New = llvm::StringRef(R.New).trim();
      if (!Old.empty() && !New.empty() && Statement.contains(Old) && Statement.contains(New))
        return "Hoist " + codeSpan(Old) + " out of the loop into " + codeSpan(New);
      if (!Old.empty() && New.empty() && Old == Statement)
        return "Hoist " + codeSpan(Statement) + " out of the loop";
    }
  }
  return "";
}
} // namespace

std::string fixTitle(const llvm::StringMap<clang::tooling::Replacements> &Fix, const TextSource &Text) {
  std::vector<Edit> Edits;
  for (const auto &[File, Repls] : Fix)
    for (const clang::tooling::Replacement &R : Repls) {
      llvm::StringRef Source = Text(R.getFilePath().str()).text();
      Edits.push_back({Source.substr(R.getOffset(), R.getLength()).str(), R.getReplacementText().str()});
    }
  if (Edits.empty())
    return "";
  if (std::string Hoist = hoistTitle(Edits); !Hoist.empty())
    return Hoist;
  std::string Title = describe(Edits[0]);
  if (Edits.size() > 1)
    Title += " (and " + std::to_string(Edits.size() - 1) + " more edit" + (Edits.size() > 2 ? "s)" : ")");
  return Title;
}

namespace {
json related(const ClangTidyError &E, const TextSource &Text, std::string &Message) {
  json Related = json::array();
  for (const auto &N : E.Notes) {
    if (N.FilePath == E.Message.FilePath && N.FileOffset == E.Message.FileOffset) {
      Message += "\n" + N.Message;
      continue;
    }
    if (N.FilePath.empty())
      continue;
    Related.push_back({{"location", {{"uri", fileUri(N.FilePath)}, {"range", rangeOf(N, Text(N.FilePath))}}},
                       {"message", N.Message}});
  }
  return Related;
}
} // namespace

std::vector<Finding> findingsIn(const std::string &Path, llvm::ArrayRef<ClangTidyError> Errors,
                                const TextSource &Text) {
  std::vector<Finding> Out;
  for (const ClangTidyError &E : Errors) {
    if (E.Message.FilePath != Path || llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-"))
      continue;
    std::string Message = E.Message.Message;
    json Related = related(E, Text, Message);
    Finding F;
    F.Diagnostic = {{"range", rangeOf(E.Message, Text(Path))},
                    {"severity", severity(E)},
                    {"code", E.DiagnosticName},
                    {"source", "mlperf-lint"},
                    {"message", Message}};
    if (std::string Page = checkPageUri(E.DiagnosticName); !Page.empty())
      F.Diagnostic["codeDescription"] = {{"href", Page}};
    if (!Related.empty())
      F.Diagnostic["relatedInformation"] = Related;
    if (!E.Message.Fix.empty()) {
      F.FixTitle = fixTitle(E.Message.Fix, Text);
      F.FixEdits = editsOf(E.Message.Fix, Text);
    } else {
      for (const auto &N : E.Notes)
        if (!N.Fix.empty()) {
          F.FixTitle = N.Message;
          F.FixEdits = editsOf(N.Fix, Text);
          break;
        }
    }
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace mlperf::lint::lsp
