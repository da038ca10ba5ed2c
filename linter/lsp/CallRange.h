// The extent of the call a finding points into, read from the text alone
// (the checks report a location, the callee's name): the callee with its
// qualifiers, its receiver chain (`model.forward(x).to(device)`) and its
// arguments up to the closing parenthesis, lexed as C++ so that brackets in
// strings and comments do not count.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <utility>
#include <vector>

namespace mlperf::lint::lsp {

class CallRanges {
public:
  /// Lexes \p Text, which must be NUL-terminated (a std::string's data).
  explicit CallRanges(llvm::StringRef Text);
  /// [Begin, End) byte offsets of the call whose callee name starts at
  /// \p Offset; the identifier there (or nothing) when no call follows it.
  std::pair<unsigned, unsigned> at(unsigned Offset) const;

private:
  struct Token {
    unsigned Begin, End;
    char Kind; // 'i' identifier, the punctuator's first character, '-' for "->", ':' for "::", '?' otherwise
  };
  /// The index of the bracket that closes (Step 1) or opens (Step -1) the one at \p I.
  std::optional<size_t> match(size_t I, int Step) const;
  std::optional<size_t> closingAngle(size_t I) const;
  size_t receiverStart(size_t I) const;
  std::vector<Token> Tokens;
};

} // namespace mlperf::lint::lsp
