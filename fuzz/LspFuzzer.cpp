// `mlperf-lint lsp`'s transport and dispatcher: the bytes an editor (or
// anything on the other end of the pipe) sends, through the real server —
// reader thread, dispatcher, worker — with a linter that reports each "x" of
// a buffer (at most 8) as a finding with a fix and a note, so that the
// conversion (call ranges lexed from the buffer, fix titles) and code
// actions run on fuzzed text too. Whatever comes in, the server returns and
// everything it writes is framed JSON-RPC.
#include "lsp/Server.h"
#include "lsp/Transport.h"

#include <cstdint>
#include <sstream>

namespace {
namespace lsp = mlperf::lint::lsp;

lsp::LintedBuffer lintXs(const std::string &Path, const std::map<std::string, std::string> &Buffers,
                         const std::function<bool()> &) {
  const std::string &Text = Buffers.at(Path);
  std::vector<clang::tidy::ClangTidyError> Errors;
  for (size_t At = Text.find('x'); At != std::string::npos && Errors.size() < 8; At = Text.find('x', At + 1)) {
    clang::tidy::ClangTidyError E("mlperf-loop-invariant-transfer", clang::tidy::ClangTidyError::Warning, "/", false);
    E.Message.Message = "x";
    E.Message.FilePath = Path;
    E.Message.FileOffset = At;
    llvm::consumeError(E.Message.Fix[Path].add(clang::tooling::Replacement(Path, 0, 0, "auto y = x;\n")));
    llvm::consumeError(E.Message.Fix[Path].add(clang::tooling::Replacement(Path, At, 1, "y")));
    clang::tooling::DiagnosticMessage Note("note");
    Note.FilePath = Path;
    Note.FileOffset = At / 2;
    E.Notes.push_back(Note);
    Errors.push_back(E);
  }
  std::map<std::string, lsp::TextIndex> Texts;
  lsp::TextSource Source = [&](const std::string &P) -> const lsp::TextIndex & {
    auto [It, New] = Texts.try_emplace(P);
    if (New && Buffers.count(P))
      It->second = lsp::TextIndex(Buffers.at(P));
    return It->second;
  };
  return {lsp::findingsIn(Path, Errors, Source), {}};
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::istringstream In(std::string(reinterpret_cast<const char *>(Data), Size));
  std::ostringstream Out;
  std::string Log;
  llvm::raw_string_ostream LogStream(Log);
  lsp::ServerOptions Options;
  Options.Debounce = std::chrono::milliseconds(0);
  int Exit = lsp::serve(lintXs, Options, In, Out, LogStream);
  if (Exit != 0 && Exit != 1)
    __builtin_trap();
  std::istringstream Written(Out.str());
  for (lsp::Incoming M = lsp::readMessage(Written); M.What != lsp::Incoming::End; M = lsp::readMessage(Written))
    if (M.What != lsp::Incoming::Message || !M.Body.is_object() || M.Body.value("jsonrpc", "") != "2.0")
      __builtin_trap(); // the server wrote something that is not a JSON-RPC message
  return 0;
}
