#include "project/BuildFlags.h"
#include "support/SafeIO.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <functional>
#include <map>
#include <optional>

namespace mlperf::lint {

namespace {
constexpr uint64_t MaxBuildFileBytes = uint64_t(4) << 20;
constexpr size_t MaxCommands = 100000, MaxArguments = 10000;

/// Replaces the variables a build file may use in a path; nullopt for any
/// other variable or generator expression.
using Resolver = std::function<std::optional<std::string>(llvm::StringRef)>;

/// Collects what one build file states.
class Collector {
public:
  Collector(llvm::StringRef Dir, Resolver Resolve) : Dir(Dir.str()), Resolve(std::move(Resolve)) {}

  /// "17", "c++17", "gnu++17", "cxx_std_17": the newest standard stated wins.
  void standard(llvm::StringRef Value) {
    Value.consume_front("cxx_std_");
    bool Gnu = Value.consume_front("gnu++");
    Value.consume_front("c++");
    static const char *const Known[] = {"98", "03", "11", "14", "17", "20", "23", "26"};
    static const char *const Draft[] = {"", "", "0x", "1y", "1z", "2a", "2b", "2c"};
    const auto *It = llvm::find(Known, Value);
    if (const auto *D = llvm::find(Draft, Value); It == std::end(Known) && !Value.empty() && D != std::end(Draft))
      It = std::begin(Known) + (D - std::begin(Draft));
    if (It == std::end(Known))
      return;
    if (Rank < It - std::begin(Known)) {
      Rank = It - std::begin(Known);
      Out.Standard = (Gnu ? "gnu++" : "c++") + Value.str();
    }
  }
  void include(llvm::StringRef Arg, bool System = false) {
    std::optional<std::string> Path = Resolve(Arg);
    if (!Path || Path->empty())
      return;
    llvm::SmallString<256> Abs(*Path);
    if (llvm::sys::path::is_relative(Abs))
      Abs = (Dir + "/" + *Path);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    std::vector<std::string> &List = System ? Out.System : Out.Includes;
    if (llvm::sys::fs::is_directory(Abs) && !llvm::is_contained(List, Abs.str()))
      List.push_back(Abs.str().str());
  }
  void define(llvm::StringRef Arg) {
    Arg.consume_front("-D");
    std::optional<std::string> Value = Resolve(Arg);
    if (!Value || Value->empty() || llvm::StringRef(*Value).find_first_of("\"'\\`") != llvm::StringRef::npos ||
        !(llvm::isAlpha((*Value)[0]) || (*Value)[0] == '_'))
      return;
    if (!llvm::is_contained(Out.Definitions, *Value))
      Out.Definitions.push_back(*Value);
  }
  /// Compiler arguments in a flags variable or a command line.
  void flags(llvm::StringRef Text) {
    llvm::SmallVector<llvm::StringRef, 16> Tokens;
    llvm::SplitString(Text, Tokens);
    for (size_t I = 0; I < Tokens.size(); ++I) {
      llvm::StringRef T = Tokens[I];
      bool Next = I + 1 < Tokens.size();
      if (T.consume_front("-std=") || T.consume_front("--std="))
        standard(T);
      else if (T.starts_with("-D") && T.size() > 2)
        define(T);
      else if (T == "-I" && Next)
        include(Tokens[++I]);
      else if (T.consume_front("-I"))
        include(T);
      else if (T == "-isystem" && Next)
        include(Tokens[++I], /*System=*/true);
    }
  }
  BuildFileFlags take() { return std::move(Out); }

private:
  std::string Dir;
  Resolver Resolve;
  BuildFileFlags Out;
  long Rank = -1;
};

struct Command {
  std::string Name; // lower case
  std::vector<std::string> Args;
};

/// The level of a bracket opening `[[`, `[=[`, ... at \p I, or -1.
int bracketLevel(llvm::StringRef Text, size_t I) {
  if (I >= Text.size() || Text[I] != '[')
    return -1;
  size_t J = I + 1;
  while (J < Text.size() && Text[J] == '=')
    ++J;
  return J < Text.size() && Text[J] == '[' ? int(J - I - 1) : -1;
}

/// The end of the bracket text opened at \p I with \p Level; its content in \p Content.
size_t skipBracket(llvm::StringRef Text, size_t I, int Level, std::string *Content = nullptr) {
  std::string Close = "]" + std::string(Level, '=') + "]";
  size_t Begin = I + Level + 2, End = Text.find(Close, Begin);
  if (End == llvm::StringRef::npos)
    End = Text.size();
  if (Content)
    *Content = Text.slice(Begin, End).str();
  return std::min(Text.size(), End + Close.size());
}

/// The end of the comment that starts with the `#` at \p I.
size_t skipComment(llvm::StringRef Text, size_t I) {
  if (int Level = bracketLevel(Text, I + 1); Level >= 0)
    return skipBracket(Text, I + 1, Level);
  size_t End = Text.find('\n', I);
  return End == llvm::StringRef::npos ? Text.size() : End;
}

/// The end of the quoted argument that starts at \p I; the argument in \p Arg.
size_t readQuoted(llvm::StringRef Text, size_t I, std::string &Arg) {
  for (++I; I < Text.size() && Text[I] != '"'; ++I) {
    if (Text[I] == '\\' && I + 1 < Text.size())
      ++I;
    Arg += Text[I];
  }
  return std::min(Text.size(), I + 1);
}

/// Reads the arguments of a command from after its `(` to the matching `)`;
/// returns the position after it.
size_t readArguments(llvm::StringRef Text, size_t I, std::vector<std::string> &Args) {
  std::string Current;
  auto Flush = [&] {
    llvm::SmallVector<llvm::StringRef, 4> Items; // the commands read here take lists
    llvm::StringRef(Current).split(Items, ';', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Item : Items)
      if (Args.size() < MaxArguments)
        Args.push_back(Item.str());
    Current.clear();
  };
  for (unsigned Depth = 0; I < Text.size();) {
    char C = Text[I];
    if (C == '"' && !Current.empty()) { // -DX="y": quotes inside an unquoted argument are kept
      std::string Inner;
      size_t End = readQuoted(Text, I, Inner);
      Current += Text.slice(I, End).str();
      I = End;
    } else if (C == '"' || (C == '[' && Current.empty() && bracketLevel(Text, I) >= 0)) {
      I = C == '"' ? readQuoted(Text, I, Current) : skipBracket(Text, I, bracketLevel(Text, I), &Current);
      Flush();
    } else if (C == '#' || C == '(' || C == ')' || llvm::isSpace(C)) {
      Flush();
      if (C == ')' && Depth-- == 0)
        return I + 1;
      Depth += C == '(';
      I = C == '#' ? skipComment(Text, I) : I + 1;
    } else {
      if (C == '\\' && I + 1 < Text.size())
        ++I;
      Current += Text[I++];
    }
  }
  Flush();
  return Text.size();
}

std::vector<Command> cmakeCommands(llvm::StringRef Text) {
  std::vector<Command> Out;
  auto Ident = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (size_t I = 0; I < Text.size() && Out.size() < MaxCommands;) {
    if (Text[I] == '#') {
      I = skipComment(Text, I);
    } else if (Ident(Text[I]) && (I == 0 || !Ident(Text[I - 1]))) {
      size_t Begin = I;
      while (I < Text.size() && Ident(Text[I]))
        ++I;
      size_t Paren = Text.find_first_not_of(" \t", I);
      if (Paren != llvm::StringRef::npos && Text[Paren] == '(') {
        Command C{Text.slice(Begin, I).lower(), {}};
        I = readArguments(Text, Paren + 1, C.Args);
        Out.push_back(std::move(C));
      }
    } else {
      ++I;
    }
  }
  return Out;
}

bool isKeyword(llvm::StringRef Arg) {
  return llvm::is_contained({"AFTER", "BEFORE", "SYSTEM", "INTERFACE", "PUBLIC", "PRIVATE"}, Arg);
}

/// What one command of a CMakeLists.txt states.
void applyCommand(const Command &C, Collector &Out) {
  llvm::ArrayRef<std::string> Args = C.Args;
  const std::string &N = C.Name;
  bool Targeted = llvm::StringRef(N).starts_with("target_") && !Args.empty();
  llvm::ArrayRef<std::string> Rest = Targeted ? Args.drop_front() : Args;
  if (N == "set" && Args.size() >= 2 && Args[0] == "CMAKE_CXX_STANDARD")
    Out.standard(Args[1]);
  else if (N == "set" && !Args.empty() && llvm::StringRef(Args[0]).starts_with("CMAKE_CXX_FLAGS"))
    for (const std::string &A : Args.drop_front())
      Out.flags(A);
  else if (N == "set_property" || N == "set_target_properties")
    for (size_t I = 0; I + 1 < Args.size(); ++I) {
      if (Args[I] == "CXX_STANDARD")
        Out.standard(Args[I + 1]);
    }
  else if (N == "target_compile_features")
    for (const std::string &A : Rest)
      Out.standard(A);
  else if (N == "include_directories" || N == "target_include_directories")
    for (const std::string &A : Rest) {
      if (!isKeyword(A))
        Out.include(A);
    }
  else if (N == "add_definitions" || N == "add_compile_options" || N == "target_compile_options")
    for (const std::string &A : Rest)
      Out.flags(A);
  else if (N == "add_compile_definitions" || N == "target_compile_definitions")
    for (const std::string &A : Rest)
      if (!isKeyword(A))
        Out.define(A);
}

/// What an `if()` of a build file is known to be on the Linux machine a
/// fresh build configures: platform variables (WIN32, MSVC, APPLE: false;
/// UNIX: true), constants, and the options and plain `set()`s read before it
/// at their stated values (an option without one is OFF). Anything else
/// (a package found, a comparison, a variable set elsewhere) is unknown.
enum class Truth { False, True, Unknown };

class Conditions {
public:
  /// Follows if/elseif/else/endif, option() and set(); whether \p C runs:
  /// no enclosing branch is known not to be taken.
  bool runs(const Command &C) {
    const std::string &N = C.Name;
    if (N == "if")
      Stack.push_back({eval(C.Args), eval(C.Args)});
    else if (N == "elseif" && !Stack.empty()) {
      Truth Cond = eval(C.Args);
      Stack.back().Active = both(negate(Stack.back().Taken), Cond);
      Stack.back().Taken = either(Stack.back().Taken, Cond);
    } else if (N == "else" && !Stack.empty())
      Stack.back().Active = negate(Stack.back().Taken);
    else if (N == "endif" && !Stack.empty())
      Stack.pop_back();
    bool Runs = llvm::none_of(Stack, [](const Branch &B) { return B.Active == Truth::False; });
    if (Runs && N == "option" && !C.Args.empty())
      Values[C.Args[0]] = C.Args.size() >= 3 ? constant(C.Args[2]) : Truth::False;
    else if (Runs && N == "set" && (C.Args.size() == 2 || (C.Args.size() > 2 && C.Args[2] == "CACHE")) &&
             !llvm::StringRef(C.Args[0]).starts_with("CMAKE_"))
      Values[C.Args[0]] = constant(C.Args[1]);
    return Runs;
  }

private:
  struct Branch {
    Truth Active; // this branch
    Truth Taken;  // this branch or an earlier one of the same if
  };
  static Truth negate(Truth T) { return T == Truth::Unknown ? T : T == Truth::True ? Truth::False : Truth::True; }
  static Truth both(Truth A, Truth B) {
    return A == Truth::False || B == Truth::False ? Truth::False
           : A == Truth::True && B == Truth::True ? Truth::True
                                                  : Truth::Unknown;
  }
  static Truth either(Truth A, Truth B) { return negate(both(negate(A), negate(B))); }
  static Truth constant(llvm::StringRef V) {
    std::string U = V.upper();
    if (llvm::is_contained({"ON", "YES", "TRUE", "Y", "1"}, U))
      return Truth::True;
    if (llvm::is_contained({"OFF", "NO", "FALSE", "N", "0", "IGNORE", "NOTFOUND", ""}, U) ||
        llvm::StringRef(U).ends_with("-NOTFOUND"))
      return Truth::False;
    return Truth::Unknown;
  }
  Truth atom(llvm::StringRef A) const {
    if (llvm::is_contained({"WIN32", "MSVC", "APPLE", "MINGW", "CYGWIN", "MSYS", "IOS", "ANDROID", "EMSCRIPTEN"}, A))
      return Truth::False;
    if (llvm::is_contained({"UNIX", "LINUX", "CMAKE_HOST_UNIX"}, A))
      return Truth::True;
    if (A.consume_front("${"))
      A.consume_back("}");
    if (auto It = Values.find(A.str()); It != Values.end())
      return It->second;
    Truth T = constant(A);
    return T == Truth::False && A.empty() ? Truth::Unknown : T;
  }
  /// OR of ANDs of NOT* operands, left to right (the parentheses are not
  /// kept by the reader: an `if` that needs them may come out unknown, never
  /// wrong in the direction of dropping a flag the build uses).
  Truth eval(llvm::ArrayRef<std::string> Args) const {
    static const char *const Binary[] = {"STREQUAL",
                                         "STRLESS",
                                         "STRGREATER",
                                         "EQUAL",
                                         "LESS",
                                         "GREATER",
                                         "MATCHES",
                                         "VERSION_LESS",
                                         "VERSION_GREATER",
                                         "VERSION_EQUAL",
                                         "VERSION_LESS_EQUAL",
                                         "VERSION_GREATER_EQUAL",
                                         "LESS_EQUAL",
                                         "GREATER_EQUAL",
                                         "STRLESS_EQUAL",
                                         "STRGREATER_EQUAL",
                                         "IN_LIST",
                                         "IS_NEWER_THAN",
                                         "PATH_EQUAL"};
    static const char *const Unary[] = {"DEFINED", "EXISTS",       "COMMAND",     "TARGET",    "POLICY",
                                        "TEST",    "IS_DIRECTORY", "IS_ABSOLUTE", "IS_SYMLINK"};
    if (Args.empty())
      return Truth::Unknown;
    Truth Or = Truth::False, And = Truth::True;
    bool Not = false;
    for (size_t I = 0; I < Args.size(); ++I) {
      llvm::StringRef A = Args[I];
      if (A == "NOT") {
        Not = !Not;
        continue;
      }
      if (A == "AND")
        continue;
      if (A == "OR") {
        Or = either(Or, And);
        And = Truth::True;
        continue;
      }
      Truth T;
      if (llvm::is_contained(Unary, A)) {
        T = Truth::Unknown;
        ++I;
      } else if (I + 2 < Args.size() && llvm::is_contained(Binary, Args[I + 1])) {
        T = Truth::Unknown;
        I += 2;
      } else {
        T = atom(A);
      }
      And = both(And, Not ? negate(T) : T);
      Not = false;
    }
    return either(Or, And);
  }

  std::vector<Branch> Stack;
  std::map<std::string, Truth> Values;
};

/// Replaces ${NAME} for the names in \p Known; nullopt for any other
/// variable, a generator expression (but $<BUILD_INTERFACE:x>, which is x)
/// or $ENV{...}.
std::optional<std::string> substitute(llvm::StringRef Arg,
                                      llvm::ArrayRef<std::pair<llvm::StringRef, llvm::StringRef>> Known,
                                      llvm::StringRef Open = "${", char Close = '}') {
  if (Arg.consume_front("$<BUILD_INTERFACE:") && !Arg.consume_back(">"))
    return std::nullopt;
  std::string Out;
  for (size_t I = 0; I < Arg.size();) {
    if (Arg[I] != '$') {
      Out += Arg[I++];
      continue;
    }
    size_t End = Arg.find(Close, I);
    if (!Arg.substr(I).starts_with(Open) || End == llvm::StringRef::npos)
      return std::nullopt;
    llvm::StringRef Name = Arg.slice(I + Open.size(), End);
    const auto *It = llvm::find_if(Known, [&](const auto &K) { return K.first == Name; });
    if (It == Known.end())
      return std::nullopt;
    Out += It->second.str();
    I = End + 1;
  }
  return Out;
}

/// A Makefile's lines, continuations joined, comments removed.
std::vector<std::string> makeLines(llvm::StringRef Text) {
  std::vector<std::string> Lines;
  std::string Current;
  llvm::SmallVector<llvm::StringRef, 64> Raw;
  Text.split(Raw, '\n');
  for (llvm::StringRef L : Raw) {
    L = L.rtrim("\r");
    bool Continued = L.ends_with("\\");
    Current += L.drop_back(Continued ? 1 : 0).str() + " ";
    if (Continued)
      continue;
    size_t Hash = Current.find('#');
    while (Hash != std::string::npos && Hash > 0 && Current[Hash - 1] == '\\')
      Hash = Current.find('#', Hash + 1);
    Lines.push_back(Current.substr(0, Hash));
    Current.clear();
  }
  return Lines;
}

/// Whether a Makefile line runs a C++ or CUDA compiler.
bool compilerLine(llvm::StringRef Line) {
  for (const char *C : {"g++", "clang++", "c++", "nvcc", "$(CXX)", "${CXX}", "$(NVCC)", "${NVCC}", "$(CC)"})
    if (Line.contains(C))
      return true;
  return false;
}

std::optional<llvm::StringRef> readText(const std::string &Path, std::string &Storage) {
  auto Buf = readInputFile(Path, "build file", MaxBuildFileBytes);
  if (!Buf) {
    llvm::consumeError(Buf.takeError());
    return std::nullopt;
  }
  Storage = (*Buf)->getBuffer().str();
  if (llvm::StringRef(Storage).contains('\0'))
    return std::nullopt; // not text
  return llvm::StringRef(Storage);
}
} // namespace

std::vector<std::string> BuildFileFlags::args() const {
  std::vector<std::string> Args;
  if (!Standard.empty())
    Args.push_back("-std=" + Standard);
  for (const std::string &D : Includes)
    Args.push_back("-I" + D);
  for (const std::string &D : System)
    Args.insert(Args.end(), {"-isystem", D});
  for (const std::string &D : Definitions)
    Args.push_back("-D" + D);
  return Args;
}

std::string BuildFileFlags::describe(llvm::StringRef Dir) const {
  std::vector<std::string> Parts;
  if (!Standard.empty())
    Parts.push_back("-std=" + Standard);
  auto Shown = [&](llvm::StringRef Path) {
    llvm::StringRef Rel = Path;
    if (Rel == Dir)
      return std::string(".");
    return Rel.consume_front(Dir) && Rel.consume_front("/") ? Rel.str() : Path.str();
  };
  for (const std::string &D : Includes)
    Parts.push_back("-I " + Shown(D));
  for (const std::string &D : System)
    Parts.push_back("-isystem " + Shown(D));
  for (const std::string &D : Definitions)
    Parts.push_back("-D " + D);
  return llvm::join(Parts, ", ");
}

BuildFileFlags parseCMakeLists(llvm::StringRef Text, llvm::StringRef Dir, llvm::StringRef TopDir) {
  std::pair<llvm::StringRef, llvm::StringRef> Known[] = {{"CMAKE_CURRENT_SOURCE_DIR", Dir},
                                                         {"CMAKE_CURRENT_LIST_DIR", Dir},
                                                         {"PROJECT_SOURCE_DIR", TopDir},
                                                         {"CMAKE_SOURCE_DIR", TopDir}};
  Collector Out(Dir, [&](llvm::StringRef Arg) { return substitute(Arg, Known); });
  Conditions If;
  for (const Command &C : cmakeCommands(Text))
    if (If.runs(C))
      applyCommand(C, Out);
  return Out.take();
}

BuildFileFlags parseMakefile(llvm::StringRef Text, llvm::StringRef Dir) {
  std::pair<llvm::StringRef, llvm::StringRef> Known[] = {{"CURDIR", Dir}};
  Collector Out(Dir, [&](llvm::StringRef Arg) { return substitute(Arg, Known, "$(", ')'); });
  for (const std::string &Line : makeLines(Text)) {
    llvm::StringRef L = Line;
    bool Recipe = L.starts_with("\t");
    size_t Eq = L.find('=');
    llvm::StringRef Name = Eq == llvm::StringRef::npos ? "" : L.take_front(Eq).rtrim(":+?! \t").trim();
    bool Variable = !Recipe && !Name.empty() && llvm::all_of(Name, [](char C) { return llvm::isAlnum(C) || C == '_'; });
    if (Variable && (Name.contains("FLAGS") || Name.starts_with("INC")))
      Out.flags(L.drop_front(Eq + 1));
    else if (!Variable && compilerLine(L))
      Out.flags(L);
  }
  return Out.take();
}

BuildFileFlags buildFileFlags(llvm::StringRef Dir, llvm::StringRef Root) {
  std::vector<std::string> Dirs;
  for (llvm::StringRef D = Dir; !D.empty(); D = llvm::sys::path::parent_path(D)) {
    Dirs.push_back(D.str());
    if (D == Root || !D.starts_with(Root) || llvm::sys::path::parent_path(D) == D)
      break;
  }
  std::string Top;
  for (const std::string &D : Dirs)
    if (llvm::sys::fs::exists(D + "/CMakeLists.txt"))
      Top = D;
  BuildFileFlags Out;
  for (const std::string &D : Dirs) {
    std::string Storage, Path;
    for (const char *Name : {"CMakeLists.txt", "GNUmakefile", "makefile", "Makefile"})
      if (Path.empty() && llvm::sys::fs::is_regular_file(D + "/" + Name))
        Path = D + "/" + Name;
    std::optional<llvm::StringRef> Text = Path.empty() ? std::nullopt : readText(Path, Storage);
    if (!Text)
      continue;
    BuildFileFlags F = Path.ends_with("CMakeLists.txt") ? parseCMakeLists(*Text, D, Top) : parseMakefile(*Text, D);
    if (F.empty())
      continue;
    Out.Sources.push_back(Path);
    if (Out.Standard.empty())
      Out.Standard = F.Standard;
    for (auto [From, To] : {std::pair{&F.Includes, &Out.Includes}, std::pair{&F.System, &Out.System},
                            std::pair{&F.Definitions, &Out.Definitions}})
      for (std::string &S : *From)
        if (!llvm::is_contained(*To, S))
          To->push_back(std::move(S));
  }
  return Out;
}

} // namespace mlperf::lint
