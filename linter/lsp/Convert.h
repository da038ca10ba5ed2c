// From clang-tidy's findings (files and byte offsets) to the Language Server
// Protocol's diagnostics, text edits and quick fixes (URIs, 0-based lines and
// UTF-16 characters).
#pragma once

#include "report/Diagnostics.h"

#include "lsp/CallRange.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlperf::lint::lsp {

/// A file's text with its line starts, for offset → position.
class TextIndex {
public:
  explicit TextIndex(std::string Text = "");
  nlohmann::json position(unsigned Offset) const;
  nlohmann::json range(unsigned Begin, unsigned End) const;
  const std::string &text() const { return Text; }
  /// CallRanges::at on this text, lexed on first use.
  std::pair<unsigned, unsigned> callAt(unsigned Offset) const;

private:
  std::string Text;
  std::vector<unsigned> LineStarts;
  mutable std::unique_ptr<CallRanges> Calls;
};

/// The path of a `file:` URI, percent-decoded; "" for other schemes.
std::string pathFromUri(llvm::StringRef Uri);
// A path's file: URI and a check page's (the installed copy next to the
// binary, else the source tree's) are report/Diagnostics.h's fileUri and
// checkPageUri, as in SARIF.

struct Finding {
  nlohmann::json Diagnostic;                      // an LSP Diagnostic
  std::string FixTitle;                           // empty: no fix
  std::map<std::string, nlohmann::json> FixEdits; // path → TextEdit[]
};

using TextSource = std::function<const TextIndex &(const std::string &Path)>;

/// A quick fix's title from what its edits do: "Hoist `x.to(device)` out of
/// the loop into `x_on_device`", "Replace `a` with `b`", "Insert `c`".
std::string fixTitle(const llvm::StringMap<clang::tooling::Replacements> &Fix, const TextSource &Text);

/// The findings of \p Errors located in \p Path: mlperf checks' warnings and
/// errors (compiler diagnostics are left to the language's own server) over
/// the call they point at, with their check's page, notes at the finding's
/// location (the measured effect) appended to the message, other notes as
/// related information, and the finding's fix-its (else its first note's)
/// as one quick fix.
std::vector<Finding> findingsIn(const std::string &Path, llvm::ArrayRef<clang::tidy::ClangTidyError> Errors,
                                const TextSource &Text);

} // namespace mlperf::lint::lsp
