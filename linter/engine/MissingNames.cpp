#include "engine/MissingNames.h"

#include "clang/Basic/CharInfo.h"
#include "clang/Basic/IdentifierTable.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyError;
using Kind = MissingNames::Kind;
using Node = MissingNames::Node;
using Hint = MissingNames::Hint;

namespace {
constexpr const char *Any = "::__mlperf_any";
constexpr size_t MaxTokens = 96;

/// A file of the project: not a header of the system, the compiler or mlperf-lint's own.
bool inProject(llvm::StringRef Path) {
  return !Path.empty() && !Path.starts_with("/usr/") && !Path.starts_with("/mlperf-lint/") &&
         !Path.contains("/include/c++/");
}

struct Tok {
  clang::tok::TokenKind K;
  llvm::StringRef Text; // identifiers (keywords included) only
};

/// The tokens of \p Buffer from \p Offset on, at most MaxTokens, read raw.
std::vector<Tok> tokensFrom(llvm::StringRef Buffer, size_t Offset) {
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  clang::Lexer Lex(clang::SourceLocation(), LO, Buffer.begin(), Buffer.begin() + Offset, Buffer.end());
  std::vector<Tok> Out;
  clang::Token T;
  while (Out.size() < MaxTokens && !Lex.LexFromRawLexer(T)) {
    Out.push_back({T.getKind(), T.is(clang::tok::raw_identifier) ? T.getRawIdentifier() : llvm::StringRef()});
    if (T.is(clang::tok::eof))
      break;
  }
  return Out;
}

bool isIdentifier(const Tok &T) { return T.K == clang::tok::raw_identifier; }

/// The index after the template arguments that open at \p I (`<`), or 0 when
/// they do not close before the statement ends (`a < b` is a comparison).
size_t afterTemplateArgs(const std::vector<Tok> &Toks, size_t I) {
  int Angles = 0, Parens = 0;
  for (; I < Toks.size(); ++I) {
    switch (Toks[I].K) {
    case clang::tok::less:
      Angles += Parens == 0;
      break;
    case clang::tok::greater:
      Angles -= Parens == 0;
      break;
    case clang::tok::greatergreater:
      Angles -= Parens == 0 ? 2 : 0;
      break;
    case clang::tok::l_paren:
    case clang::tok::l_square:
      ++Parens;
      break;
    case clang::tok::r_paren:
    case clang::tok::r_square:
      if (--Parens < 0)
        return 0;
      break;
    case clang::tok::semi:
    case clang::tok::l_brace:
    case clang::tok::r_brace:
    case clang::tok::eof:
      return 0;
    default:
      break;
    }
    if (Angles <= 0)
      return Angles == 0 ? I + 1 : 0;
  }
  return 0;
}

/// One use of an undeclared name: the qualified chain that starts at it
/// (`cxxopts::ParseResult` from `cxxopts`), each segment with its kind.
struct Use {
  std::vector<std::pair<std::string, Kind>> Chain;
};

/// The use of the name that \p Toks begin with, or nothing when they do not
/// begin with \p Name (a location inside a macro's expansion).
/// Whether the text before a name puts it where a type goes: a template's
/// first argument (`std::shared_ptr<http::response>`), after `const`, or a
/// parameter's type (`(const http::request &req`, `(Frame *f,`), as far as
/// the tokens after it (\p After, \p Then) tell.
bool typeContext(llvm::StringRef Before, clang::tok::TokenKind After, const Tok *Then) {
  Before = Before.rtrim();
  if (Before.ends_with("<") && !Before.ends_with("<<"))
    return After == clang::tok::greater || After == clang::tok::comma || After == clang::tok::greatergreater;
  if (Before.ends_with("const") || Before.ends_with("typename") || Before.ends_with("struct"))
    return true;
  const bool Declarator = After == clang::tok::amp || After == clang::tok::ampamp || After == clang::tok::star;
  return Declarator && (Before.ends_with("(") || Before.ends_with(",")) && Then && isIdentifier(*Then);
}

std::optional<Use> useAt(const std::vector<Tok> &Toks, llvm::StringRef Name, Hint H, llvm::StringRef Before) {
  if (Toks.empty() || !isIdentifier(Toks[0]) || Toks[0].Text != Name)
    return std::nullopt;
  Use U;
  size_t I = 0;
  while (true) {
    std::string Segment = Toks[I].Text.str();
    size_t Next = I + 1;
    bool Templated = false;
    if (Next < Toks.size() && Toks[Next].K == clang::tok::less)
      if (size_t After = afterTemplateArgs(Toks, Next)) {
        Templated = true;
        Next = After;
      }
    const clang::tok::TokenKind After = Next < Toks.size() ? Toks[Next].K : clang::tok::eof;
    if (After == clang::tok::coloncolon && Next + 1 < Toks.size() && isIdentifier(Toks[Next + 1]) &&
        Toks[Next + 1].Text != "template" && Toks[Next + 1].Text != "operator") {
      U.Chain.emplace_back(Segment, Templated ? Kind::TypeTemplate : Kind::Namespace);
      I = Next + 1;
      H = Hint::Name; // what follows a prefix is whatever its own use shows
      continue;
    }
    Kind K = Kind::Variable;
    if (H == Hint::TypeName)
      K = Templated ? Kind::TypeTemplate : Kind::Type;
    else if (Templated || H == Hint::TemplateName)
      K = After == clang::tok::l_paren ? Kind::Function : Kind::TypeTemplate;
    else if (After == clang::tok::l_paren)
      K = Kind::Function;
    else if (After == clang::tok::l_brace || After == clang::tok::raw_identifier ||
             typeContext(Before, After, Next + 1 < Toks.size() ? &Toks[Next + 1] : nullptr))
      K = Kind::Type; // `T{...}`, `T name`, `shared_ptr<T>`
    U.Chain.emplace_back(Segment, K);
    return U;
  }
}

/// Whether the text before \p Offset names a namespace there: `using
/// namespace N`, `namespace fs = N`, with any qualifier before the name.
bool afterNamespaceKeyword(llvm::StringRef Buffer, size_t Offset) {
  static const llvm::Regex Before("namespace[[:space:]]+([A-Za-z_][A-Za-z_0-9]*[[:space:]]*=[[:space:]]*)?"
                                  "(::[[:space:]]*)?([A-Za-z_][A-Za-z_0-9]*[[:space:]]*::[[:space:]]*)*$");
  size_t From = Offset > 160 ? Offset - 160 : 0;
  return Before.match(Buffer.slice(From, Offset));
}

/// Whether the text before \p Offset ends with `::` (a name qualified by a type).
bool afterScope(llvm::StringRef Buffer, size_t Offset) { return Buffer.take_front(Offset).rtrim().ends_with("::"); }

std::vector<std::string> splitQualified(llvm::StringRef Qualified) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Qualified.split(Parts, "::", -1, false);
  return {Parts.begin(), Parts.end()};
}

/// The offsets of \p Word in \p Text where it is not part of a longer identifier.
std::vector<size_t> wordsIn(llvm::StringRef Text, llvm::StringRef Word) {
  std::vector<size_t> Out;
  for (size_t At = Text.find(Word); At != llvm::StringRef::npos; At = Text.find(Word, At + 1))
    if ((At == 0 || !clang::isAsciiIdentifierContinue(Text[At - 1])) &&
        (At + Word.size() == Text.size() || !clang::isAsciiIdentifierContinue(Text[At + Word.size()])))
      Out.push_back(At);
  return Out;
}

/// \p Scope with a namespace alias that \p Text declares for its first name
/// replaced by what it names (`namespace plt = matplotlibcpp;`): clang's
/// message names the alias, which cannot be reopened. (Read by hand, not with
/// a regular expression: a file with thousands of errors asks for each.)
std::vector<std::string> unaliased(std::vector<std::string> Scope, llvm::StringRef Text) {
  if (Scope.empty())
    return Scope;
  for (size_t At : wordsIn(Text, "namespace")) {
    llvm::StringRef Rest = Text.drop_front(At + strlen("namespace"));
    llvm::StringRef Name = Rest.ltrim();
    if (Name.size() == Rest.size() || !Name.consume_front(Scope.front()))
      continue;
    llvm::StringRef Value = Name.ltrim();
    if (!Value.consume_front("="))
      continue;
    Value = Value.ltrim();
    Value.consume_front("::");
    llvm::StringRef Target = Value.take_while([](char C) { return clang::isAsciiIdentifierContinue(C) || C == ':'; });
    if (Target.empty() || llvm::isDigit(Target.front()) || Target.front() == ':' ||
        !Value.drop_front(Target.size()).ltrim().starts_with(";"))
      continue;
    std::vector<std::string> Out = splitQualified(Target);
    Out.insert(Out.end(), Scope.begin() + 1, Scope.end());
    return Out;
  }
  return Scope;
}

/// Whether \p Text declares \p Name as a variable or parameter (`Frame<3>
/// frame)`): clang reports the uses of a declaration it rejected as
/// undeclared, and a made-up global would stand in for the local. (Read by
/// hand, as unaliased is.)
bool declaresLocally(llvm::StringRef Text, llvm::StringRef Name) {
  for (size_t At : wordsIn(Text, Name)) {
    llvm::StringRef Before = Text.take_front(At);
    llvm::StringRef Type = Before.rtrim();
    if (Type.size() == Before.size() || Type.empty())
      continue;
    char Last = Type.back();
    llvm::StringRef After = Text.drop_front(At + Name.size()).ltrim();
    if ((clang::isAsciiIdentifierContinue(Last) || llvm::StringRef(">*&").contains(Last)) && !After.empty() &&
        llvm::StringRef(",;)=[{").contains(After.front()))
      return true;
  }
  return false;
}

Kind merged(Kind Old, Kind New) {
  if (Old == New)
    return Old;
  auto IsType = [](Kind K) { return K == Kind::Type || K == Kind::TypeTemplate; };
  if (IsType(Old) || IsType(New))
    return Old == Kind::TypeTemplate || New == Kind::TypeTemplate ? Kind::TypeTemplate : Kind::Type;
  if (Old == Kind::Namespace || New == Kind::Namespace)
    return Kind::Type;   // `X::y` and `X(...)`: a struct is both
  return Kind::Variable; // called and used as a value: a variable that can be called
}

void render(const std::string &Name, const Node &N, bool InType, std::string &Out) {
  std::string Template = N.K == Kind::TypeTemplate ? "template <class...> " : "";
  if (!InType && (N.MustBeNamespace || N.K == Kind::Namespace)) {
    Out += "namespace " + Name + " {\n";
    for (const auto &[Child, C] : N.Children)
      render(Child, C, false, Out);
    Out += "}\n";
    return;
  }
  if (N.K == Kind::Namespace || N.K == Kind::Type || N.K == Kind::TypeTemplate || !N.Children.empty()) {
    Out += Template + "struct " + Name + " : " + Any + " {\n  using " + Any + "::__mlperf_any;\n";
    for (const auto &[Child, C] : N.Children)
      render(Child, C, true, Out);
    Out += "};\n";
    return;
  }
  if (N.K == Kind::Function)
    Out += std::string("template <class... T, class... A> ") + (InType ? "static " : "") + Any + " &" + Name +
           "(A &&...);\n";
  else
    Out += std::string(InType ? "static " : "extern ") + Any + " " + Name + ";\n";
}

void namesOf(const std::string &Prefix, const Node &N, std::vector<std::string> &Out) {
  for (const auto &[Name, C] : N.Children) {
    Out.push_back(Prefix + Name);
    namesOf(Prefix + Name + "::", C, Out);
  }
}

constexpr const char *Preamble = R"(#pragma clang system_header
// mlperf-lint: declarations for the names of headers that were not found.
struct __mlperf_any {
  __mlperf_any();
  template <class... A> __mlperf_any(A &&...);
  template <class T> operator T &() const;
  template <class... A> __mlperf_any &operator()(A &&...) const;
  template <class A> __mlperf_any &operator[](A &&) const;
  __mlperf_any *operator->() const;
  __mlperf_any &operator*() const;
  __mlperf_any &operator-() const;
  __mlperf_any &operator+() const;
  __mlperf_any &operator~() const;
  __mlperf_any &operator++();
  __mlperf_any &operator++(int);
  __mlperf_any &operator--();
  __mlperf_any &operator--(int);
)";

constexpr const char *Operators = R"(};
template <bool, class> struct __mlperf_if {};
template <class T> struct __mlperf_if<true, T> { typedef T type; };
template <class T> struct __mlperf_is { static const bool value = __is_base_of(__mlperf_any, __remove_cvref(T)); };
#define __MLPERF_OP(OP)                                                                                             \
  template <class L, class R>                                                                                       \
  typename __mlperf_if<__mlperf_is<L>::value || __mlperf_is<R>::value, __mlperf_any &>::type operator OP(L &&, R &&);
__MLPERF_OP(+) __MLPERF_OP(-) __MLPERF_OP(*) __MLPERF_OP(/) __MLPERF_OP(%) __MLPERF_OP(&) __MLPERF_OP(|)
__MLPERF_OP(^) __MLPERF_OP(==) __MLPERF_OP(!=) __MLPERF_OP(<) __MLPERF_OP(>) __MLPERF_OP(<=) __MLPERF_OP(>=)
__MLPERF_OP(+=) __MLPERF_OP(-=) __MLPERF_OP(*=) __MLPERF_OP(/=) __MLPERF_OP(%=) __MLPERF_OP(&=) __MLPERF_OP(|=)
__MLPERF_OP(^=) __MLPERF_OP(<<=) __MLPERF_OP(>>=)
#undef __MLPERF_OP
// A shift into a stream gives the stream back: `std::cout << x << std::endl`.
template <class L, class R>
typename __mlperf_if<!__mlperf_is<L>::value && __mlperf_is<R>::value, L &&>::type operator<<(L &&, R &&);
template <class L, class R> typename __mlperf_if<__mlperf_is<L>::value, __mlperf_any &>::type operator<<(L &&, R &&);
template <class L, class R>
typename __mlperf_if<!__mlperf_is<L>::value && __mlperf_is<R>::value, L &&>::type operator>>(L &&, R &&);
template <class L, class R> typename __mlperf_if<__mlperf_is<L>::value, __mlperf_any &>::type operator>>(L &&, R &&);
)";
} // namespace

bool MissingNames::add(llvm::ArrayRef<std::string> Scope, llvm::ArrayRef<std::string> Path, Kind K,
                       bool MustBeNamespace) {
  bool Changed = false;
  Node *N = &Root;
  for (const std::string &S : Scope)
    N = &N->Children[S];
  for (size_t I = 0; I < Path.size(); ++I) {
    const bool Last = I + 1 == Path.size();
    Kind Want = Last ? K : Kind::Namespace;
    auto [It, New] = N->Children.try_emplace(Path[I]);
    Node &C = It->second;
    if (New) {
      C.K = Want;
      Changed = true;
    } else if (Kind M = merged(C.K, Want); M != C.K) {
      C.K = M;
      Changed = true;
    }
    if (Last && MustBeNamespace && !C.MustBeNamespace) {
      C.MustBeNamespace = true;
      Changed = true;
    }
    N = &C;
  }
  return Changed;
}

bool MissingNames::addMember(const std::string &Name, bool Called) {
  auto [It, New] = Members.try_emplace(Name, Called);
  if (!New && Called && !It->second) {
    It->second = true;
    return true;
  }
  return New;
}

const Node *MissingNames::find(llvm::StringRef Qualified) const {
  const Node *N = &Root;
  for (const std::string &S : splitQualified(Qualified)) {
    auto It = N->Children.find(S);
    if (It == N->Children.end())
      return nullptr;
    N = &It->second;
  }
  return N == &Root ? nullptr : N;
}

size_t MissingNames::learn(const std::vector<ClangTidyError> &Errors,
                           const std::vector<clang::tooling::DiagnosticMessage> &PastLimit, llvm::vfs::FileSystem &FS) {
  size_t Learnt = 0;
  for (const ClangTidyError &E : Errors)
    if (E.DiagLevel == ClangTidyError::Error && llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-"))
      Learnt += learn(E.Message, FS);
  for (const clang::tooling::DiagnosticMessage &E : PastLimit)
    Learnt += learn(E, FS);
  // The members the made-up types may need, before a parse reports them one
  // by one; not a reason for another round by themselves.
  for (const ClangTidyError &E : Errors)
    learnMembers(E.Message.FilePath, FS);
  for (const clang::tooling::DiagnosticMessage &E : PastLimit)
    learnMembers(E.FilePath, FS);
  return Learnt;
}

void MissingNames::learnMembers(llvm::StringRef File, llvm::vfs::FileSystem &FS) {
  if (!inProject(File) || !Scanned.insert(File.str()).second)
    return;
  std::optional<llvm::StringRef> Read = text(File, FS);
  if (!Read)
    return;
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  clang::IdentifierTable Keywords(LO);
  llvm::StringRef Text = *Read;
  clang::Lexer Lex(clang::SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
  clang::Token Access, Name, After;
  for (bool End = Lex.LexFromRawLexer(Access); !End;) {
    if (!Access.isOneOf(clang::tok::period, clang::tok::arrow)) {
      End = Lex.LexFromRawLexer(Access);
      continue;
    }
    if (Lex.LexFromRawLexer(Name) || !Name.is(clang::tok::raw_identifier)) {
      Access = Name;
      End = Name.is(clang::tok::eof);
      continue;
    }
    End = Lex.LexFromRawLexer(After);
    llvm::StringRef Member = Name.getRawIdentifier();
    if (!Member.starts_with("__") && !Keywords.get(Member).isKeyword(LO))
      addMember(Member.str(), After.isOneOf(clang::tok::l_paren, clang::tok::less));
    Access = After;
  }
}

std::optional<llvm::StringRef> MissingNames::text(llvm::StringRef File, llvm::vfs::FileSystem &FS) {
  auto [It, New] = Texts.try_emplace(File.str());
  if (New)
    if (auto Buffer = FS.getBufferForFile(File))
      It->second = std::move(*Buffer);
  if (!It->second)
    return std::nullopt;
  return It->second->getBuffer();
}

size_t MissingNames::learnMember(llvm::StringRef Type, llvm::StringRef Name, llvm::StringRef Text, size_t Offset) {
  Type.consume_front("const ");
  Type.consume_front("struct ");
  Type = Type.take_until([](char C) { return C == '<'; });
  const Node *Owner = Type == "__mlperf_any" ? nullptr : find(Type);
  if (Type != "__mlperf_any" &&
      (!Owner || Owner->K == Kind::Namespace || Owner->K == Kind::Function || Owner->K == Kind::Variable))
    return 0; // a member a real class lacks is not made up
  std::vector<Tok> Toks = tokensFrom(Text, Offset);
  if (Toks.size() < 2 || !isIdentifier(Toks[0]) || Toks[0].Text != Name)
    return 0;
  const bool Called = Toks[1].K == clang::tok::l_paren || Toks[1].K == clang::tok::less;
  if (Owner && afterScope(Text, Offset)) // `Type::name`: a static member
    return add(splitQualified(Type), {Name.str()}, Called ? Kind::Function : Kind::Variable, false);
  return addMember(Name.str(), Called);
}

size_t MissingNames::learnUse(std::vector<std::string> Scope, const std::string &Name, Hint H, llvm::StringRef Text,
                              size_t Offset) {
  if (llvm::StringRef(Name).starts_with("__") || (!Scope.empty() && Scope.front() == "std"))
    return 0;
  std::optional<Use> U = useAt(tokensFrom(Text, Offset), Name, H, Text.slice(Offset > 80 ? Offset - 80 : 0, Offset));
  if (!U)
    return 0;
  if (Scope.empty() && U->Chain.size() == 1 && U->Chain[0].second == Kind::Variable && declaresLocally(Text, Name))
    return 0;
  size_t Learnt = 0;
  if (Scope.empty() && U->Chain.size() > 1) // `plt::plot` with `namespace plt = matplotlibcpp;`
    if (std::vector<std::string> Target = unaliased({U->Chain.front().first}, Text);
        Target.front() != U->Chain.front().first) {
      Scope = Target;
      U->Chain.erase(U->Chain.begin());
    }
  std::vector<std::string> Path;
  for (size_t I = 0; I < U->Chain.size(); ++I) {
    Path.push_back(U->Chain[I].first);
    const bool Last = I + 1 == U->Chain.size();
    const bool Namespace = Last && afterNamespaceKeyword(Text, Offset);
    Learnt += add(Scope, Path, Namespace ? Kind::Namespace : U->Chain[I].second, Namespace);
  }
  return Learnt;
}

size_t MissingNames::learn(const clang::tooling::DiagnosticMessage &E, llvm::vfs::FileSystem &FS) {
  static const llvm::Regex Undeclared("^use of undeclared identifier '([A-Za-z_][A-Za-z_0-9]*)'");
  static const llvm::Regex UnknownType("^unknown type name '([A-Za-z_][A-Za-z_0-9]*)'");
  static const llvm::Regex NoTemplate("^no template named '([A-Za-z_][A-Za-z_0-9]*)'$");
  static const llvm::Regex InNamespace("^no (member|type|template) named '([A-Za-z_][A-Za-z_0-9]*)' in "
                                       "(namespace '([A-Za-z_0-9:]+)'|the global namespace)");
  static const llvm::Regex NoMember("^no member named '([A-Za-z_][A-Za-z_0-9]*)' in '([^']+)'$");
  static const llvm::Regex ExpectedNamespace("^expected namespace name");
  if (!inProject(E.FilePath))
    return 0;
  std::optional<llvm::StringRef> Read = text(E.FilePath, FS);
  if (!Read || E.FileOffset >= Read->size())
    return 0;
  llvm::StringRef Text = *Read;
  const size_t Offset = E.FileOffset;
  llvm::StringRef Message = E.Message;
  llvm::SmallVector<llvm::StringRef, 5> M;
  std::vector<std::string> Scope;
  std::string Name;
  Hint H = Hint::Name;
  if (Undeclared.match(Message, &M)) {
    Name = M[1].str();
  } else if (UnknownType.match(Message, &M)) {
    Name = M[1].str();
    H = Hint::TypeName;
  } else if (NoTemplate.match(Message, &M)) {
    Name = M[1].str();
    H = Hint::TemplateName;
  } else if (InNamespace.match(Message, &M)) {
    Name = M[2].str();
    H = M[1] == "type" ? Hint::TypeName : M[1] == "template" ? Hint::TemplateName : Hint::Name;
    Scope = unaliased(splitQualified(M[4]), Text);
  } else if (NoMember.match(Message, &M)) {
    return learnMember(M[2], M[1], Text, Offset);
  } else if (ExpectedNamespace.match(Message)) {
    std::vector<Tok> Toks = tokensFrom(Text, Offset);
    if (Toks.empty() || !isIdentifier(Toks[0]))
      return 0;
    Name = Toks[0].Text.str();
  } else {
    return 0;
  }
  return learnUse(std::move(Scope), Name, H, Text, Offset);
}

std::vector<std::string> MissingNames::members() const {
  std::vector<std::string> Out;
  for (const auto &Member : Members)
    Out.push_back(Member.first);
  return Out;
}

std::string MissingNames::header() const {
  std::string Out = Preamble;
  for (const auto &[Name, Called] : Members)
    Out += Called ? "  template <class... T, class... A> __mlperf_any &" + Name + "(A &&...) const;\n"
                  : "  static __mlperf_any " + Name + ";\n";
  Out += Operators;
  for (const auto &[Name, N] : Root.Children)
    render(Name, N, false, Out);
  return Out;
}

std::vector<std::string> MissingNames::names() const {
  std::vector<std::string> Out;
  namesOf("", Root, Out);
  return Out;
}

} // namespace mlperf::lint
