// From clang-tidy's findings (files and byte offsets) to the Language Server
// Protocol's diagnostics, text edits and quick fixes (URIs, 0-based lines and
// UTF-16 characters).
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mlperf::lint::lsp {

/// A file's text with its line starts, for offset → position.
class TextIndex {
public:
  explicit TextIndex(std::string Text = "");
  nlohmann::json position(unsigned Offset) const;
  const std::string &text() const { return Text; }

private:
  std::string Text;
  std::vector<unsigned> LineStarts;
};

/// The path of a `file:` URI, percent-decoded; "" for other schemes.
std::string pathFromUri(llvm::StringRef Uri);
std::string uriFromPath(llvm::StringRef Path);

struct Finding {
  nlohmann::json Diagnostic; // an LSP Diagnostic
  std::string FixTitle;      // empty: no fix
  nlohmann::json FixChanges; // WorkspaceEdit.changes: URI → TextEdit[]
};

using TextSource = std::function<const TextIndex &(const std::string &Path)>;

/// The findings of \p Errors located in \p Path: mlperf checks' warnings and
/// errors (compiler diagnostics are left to the language's own server),
/// notes at the finding's location (the measured effect) appended to the
/// message, other notes as related information, and the finding's fix-its
/// (else its first note's) as one quick fix.
std::vector<Finding> findingsIn(const std::string &Path, llvm::ArrayRef<clang::tidy::ClangTidyError> Errors,
                                const TextSource &Text);

} // namespace mlperf::lint::lsp
