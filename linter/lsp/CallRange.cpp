#include "lsp/CallRange.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace mlperf::lint::lsp {

namespace {
char kindOf(const clang::Token &T) {
  switch (T.getKind()) {
  case clang::tok::raw_identifier:
    return 'i';
  case clang::tok::l_paren:
    return '(';
  case clang::tok::r_paren:
    return ')';
  case clang::tok::l_square:
    return '[';
  case clang::tok::r_square:
    return ']';
  case clang::tok::less:
    return '<';
  case clang::tok::greater:
    return '>';
  case clang::tok::period:
    return '.';
  case clang::tok::arrow:
    return '-';
  case clang::tok::coloncolon:
    return ':';
  case clang::tok::semi:
    return ';';
  case clang::tok::l_brace:
    return '{';
  case clang::tok::r_brace:
    return '}';
  default:
    return '?';
  }
}
} // namespace

CallRanges::CallRanges(llvm::StringRef Text) {
  clang::LangOptions Lang;
  Lang.CPlusPlus = Lang.CPlusPlus11 = Lang.CPlusPlus14 = Lang.CPlusPlus17 = true;
  clang::SourceLocation Base = clang::SourceLocation::getFromRawEncoding(1);
  clang::Lexer L(Base, Lang, Text.begin(), Text.begin(), Text.end());
  clang::Token T;
  for (;;) {
    L.LexFromRawLexer(T);
    if (T.is(clang::tok::eof))
      break;
    unsigned Begin = T.getLocation().getRawEncoding() - Base.getRawEncoding();
    if (T.is(clang::tok::greatergreater)) { // the end of two template argument lists
      Tokens.push_back({Begin, Begin + 1, '>'});
      Tokens.push_back({Begin + 1, Begin + 2, '>'});
      continue;
    }
    Tokens.push_back({Begin, Begin + T.getLength(), kindOf(T)});
  }
}

std::optional<size_t> CallRanges::match(size_t I, int Step) const {
  char Open = Tokens[I].Kind;
  char Close = Open == '(' ? ')' : Open == ')' ? '(' : Open == '[' ? ']' : '[';
  unsigned Depth = 0;
  for (size_t K = I; K < Tokens.size(); K += Step) {
    if (Tokens[K].Kind == Open)
      ++Depth;
    else if (Tokens[K].Kind == Close && --Depth == 0)
      return K;
    if (K == 0 && Step < 0)
      break;
  }
  return std::nullopt;
}

/// The '>' closing the template argument list that opens at \p I, when it
/// is one: no statement or block boundary on the way, within 64 tokens.
std::optional<size_t> CallRanges::closingAngle(size_t I) const {
  unsigned Depth = 0;
  for (size_t K = I; K < Tokens.size() && K < I + 64; ++K) {
    char C = Tokens[K].Kind;
    if (C == ';' || C == '{' || C == '}')
      return std::nullopt;
    if (C == '(' || C == '[') {
      std::optional<size_t> M = match(K, 1);
      if (!M)
        return std::nullopt;
      K = *M;
    } else if (C == '<') {
      ++Depth;
    } else if (C == '>' && --Depth == 0) {
      return K;
    }
  }
  return std::nullopt;
}

/// The first token of the receiver chain in front of the name at \p I:
/// `a.b(x)->` before `c` ends at `a`.
size_t CallRanges::receiverStart(size_t I) const {
  size_t K = I;
  while (K >= 2) {
    char Link = Tokens[K - 1].Kind, Before = Tokens[K - 2].Kind;
    if (Link != '.' && Link != '-' && Link != ':')
      break;
    if (Before == 'i') {
      K -= 2;
      continue;
    }
    if (Link == ':' || (Before != ')' && Before != ']'))
      break;
    std::optional<size_t> Open = match(K - 2, -1);
    if (!Open)
      break;
    K = *Open > 0 && Tokens[*Open - 1].Kind == 'i' ? *Open - 1 : *Open;
  }
  return K;
}

std::pair<unsigned, unsigned> CallRanges::at(unsigned Offset) const {
  auto It =
      std::lower_bound(Tokens.begin(), Tokens.end(), Offset, [](const Token &T, unsigned O) { return T.Begin < O; });
  if (It == Tokens.end() || It->Begin != Offset || It->Kind != 'i')
    return {Offset, Offset};
  size_t I = It - Tokens.begin(), J = I;
  while (J + 2 < Tokens.size() && Tokens[J + 1].Kind == ':' && Tokens[J + 2].Kind == 'i')
    J += 2;
  if (J + 1 < Tokens.size() && Tokens[J + 1].Kind == '<')
    if (std::optional<size_t> Close = closingAngle(J + 1);
        Close && *Close + 1 < Tokens.size() && Tokens[*Close + 1].Kind == '(')
      J = *Close;
  std::optional<size_t> Close;
  if (J + 1 < Tokens.size() && Tokens[J + 1].Kind == '(')
    Close = match(J + 1, 1);
  if (!Close)
    return {It->Begin, It->End};
  return {Tokens[receiverStart(I)].Begin, Tokens[*Close].End};
}

} // namespace mlperf::lint::lsp
