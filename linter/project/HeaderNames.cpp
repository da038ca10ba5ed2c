#include "project/HeaderNames.h"
#include "project/Inputs.h"
#include "support/SafeIO.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/Utils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <deque>

namespace mlperf::lint {

namespace {
/// A walk that visits more entries than this (a home directory taken as a
/// project) indexes nothing: a name's uniqueness could not be told.
constexpr size_t MaxWalkedEntries = 200000;
constexpr int MaxWalkDepth = 64;
/// Files read for one translation unit's includes.
constexpr size_t MaxScannedFiles = 4000;

bool isFile(const std::string &Path) { return llvm::sys::fs::is_regular_file(Path); }

std::string parentOf(llvm::StringRef Path) { return llvm::sys::path::parent_path(Path).str(); }

bool isUnder(llvm::StringRef Path, llvm::StringRef Dir) {
  return Path.size() > Dir.size() && Path.starts_with(Dir) && (Dir.ends_with("/") || Path[Dir.size()] == '/');
}

/// The include directive on \p Line, if it names its header literally.
std::optional<HeaderNames::Include> includeOn(llvm::StringRef Line) {
  Line = Line.ltrim();
  if (!Line.consume_front("#"))
    return std::nullopt;
  Line = Line.ltrim();
  if (!Line.consume_front("include") && !Line.consume_front("import"))
    return std::nullopt;
  Line = Line.ltrim();
  if (Line.empty() || (Line[0] != '<' && Line[0] != '"'))
    return std::nullopt; // #include_next, or a macro
  char Close = Line[0] == '<' ? '>' : '"';
  size_t End = Line.find(Close, 1);
  if (End == llvm::StringRef::npos || End == 1)
    return std::nullopt;
  return HeaderNames::Include{Line.slice(1, End).str(), Close == '>'};
}

/// The include directories of a command, as clang's driver sets them up
/// (system directories included); empty when the driver rejects it.
HeaderNames::SearchPath driverSearchPath(const std::vector<std::string> &Args) {
  HeaderNames::SearchPath Out;
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  clang::CreateInvocationOptions Opts;
  Opts.Diags = clang::CompilerInstance::createDiagnostics(new clang::DiagnosticOptions(),
                                                          new clang::IgnoringDiagConsumer(), /*ShouldOwnClient=*/true);
  std::unique_ptr<clang::CompilerInvocation> CI = clang::createInvocation(Argv, Opts);
  if (!CI)
    return Out;
  for (const auto &E : CI->getHeaderSearchOpts().UserEntries) {
    if (E.IsFramework)
      continue;
    llvm::SmallString<256> Dir(E.Path);
    llvm::sys::fs::make_absolute(Dir);
    llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
    (E.Group == clang::frontend::Quoted ? Out.Quoted : Out.Angled).push_back(Dir.str().str());
  }
  return Out;
}
} // namespace

bool isHeaderName(llvm::StringRef Name) {
  return llvm::is_contained({".h", ".hh", ".hpp", ".hxx", ".h++", ".cuh", ".inl", ".ipp", ".tpp", ".tcc", ".inc"},
                            llvm::sys::path::extension(Name));
}

HeaderNames::HeaderNames(std::string Root) : Root(std::move(Root)) {}

const std::vector<HeaderNames::Include> &HeaderNames::includesOf(const std::string &Path) {
  auto [It, New] = Includes.try_emplace(Path);
  if (!New)
    return It->second;
  auto Buf = readInputFile(Path, "source", MaxSourceBytes);
  if (!Buf) {
    llvm::consumeError(Buf.takeError());
    return It->second;
  }
  llvm::StringRef Text = (*Buf)->getBuffer();
  if (Text.contains('\0'))
    return It->second;
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (std::optional<Include> I = includeOn(L))
      It->second.push_back(std::move(*I));
  return It->second;
}

const HeaderNames::SearchPath &HeaderNames::searchPathOf(const std::vector<std::string> &Args) {
  std::unique_ptr<SearchPath> &S = Searches[llvm::join(Args, "\x1f")];
  if (!S)
    S = std::make_unique<SearchPath>(driverSearchPath(Args));
  return *S;
}

std::vector<std::string> HeaderNames::candidates(const std::string &Name) {
  if (!Indexed) {
    Indexed = true;
    size_t Entries = 0;
    std::error_code EC;
    llvm::sys::fs::recursive_directory_iterator It(Root, EC, /*follow_symlinks=*/false), End;
    for (; It != End && !EC && Entries < MaxWalkedEntries; It.increment(EC), ++Entries) {
      llvm::StringRef Path = It->path();
      if (It->type() == llvm::sys::fs::file_type::directory_file) {
        if (isSkippedDirectory(Path) || It.level() >= MaxWalkDepth)
          It.no_push();
      } else if (isHeaderName(Path)) {
        ByFileName[llvm::sys::path::filename(Path).str()].push_back(Path.str());
      }
    }
    Complete = It == End && Entries < MaxWalkedEntries;
    for (auto &[Name, Paths] : ByFileName)
      llvm::sort(Paths);
  }
  std::vector<std::string> Out;
  auto It = ByFileName.find(llvm::sys::path::filename(Name).str());
  if (!Complete || It == ByFileName.end())
    return Out;
  for (const std::string &P : It->second)
    if (llvm::StringRef(P).ends_with("/" + Name))
      Out.push_back(P);
  return Out;
}

std::optional<std::string> HeaderNames::pickInstalled(const std::string &Name, const std::vector<std::string> &Angled,
                                                      std::string &Note) {
  if (llvm::StringRef(Name).contains("..") || llvm::sys::path::is_absolute(Name))
    return std::nullopt;
  std::vector<std::string> Found;
  for (const std::string &Dir : Angled) {
    if (isUnder(Dir, Root) || Dir == Root)
      continue;
    auto [It, New] = Subdirs.try_emplace(Dir);
    if (New) {
      std::error_code EC;
      size_t Entries = 0;
      for (llvm::sys::fs::directory_iterator D(Dir, EC), End; D != End && !EC && Entries < MaxWalkedEntries;
           D.increment(EC), ++Entries)
        if (D->type() == llvm::sys::fs::file_type::directory_file)
          It->second.push_back(D->path());
      llvm::sort(It->second);
    }
    for (const std::string &Sub : It->second)
      if (isFile(Sub + "/" + Name))
        Found.push_back(Sub);
  }
  if (Found.size() == 1) {
    Note = Name + " taken from " + Found.front() + "/" + Name;
    return Found.front();
  }
  if (Found.size() > 1)
    Note = Name + " is ambiguous, not taken by name: installed under " + std::to_string(Found.size()) +
           " system include directories (" + llvm::join(llvm::ArrayRef(Found).take_front(3), ", ") +
           (Found.size() > 3 ? ", ..." : "") + ")";
  return std::nullopt;
}

std::string HeaderNames::shown(const std::string &Path) const {
  llvm::StringRef P = Path;
  return P.consume_front(Root) && P.consume_front("/") ? P.str() : Path;
}

std::optional<std::string> HeaderNames::pick(const std::string &Name, const std::string &Dir, std::string &Note) {
  if (llvm::StringRef(Name).contains("..") || llvm::sys::path::is_absolute(Name))
    return std::nullopt;
  std::vector<std::string> All = candidates(Name);
  if (All.empty())
    return std::nullopt;
  std::string D = isUnder(Dir, Root) || Dir == Root ? Dir : Root;
  for (;; D = parentOf(D)) {
    std::vector<std::string> Here;
    for (const std::string &C : All)
      if (isUnder(C, D))
        Here.push_back(C);
    if (Here.size() == 1) {
      Note = Name + " taken from " + shown(Here.front());
      return Here.front();
    }
    if (Here.size() > 1) {
      std::vector<std::string> Shown;
      for (size_t I = 0; I < Here.size() && I < 3; ++I)
        Shown.push_back(shown(Here[I]));
      Note = Name + " is ambiguous, not taken by name: " + std::to_string(Here.size()) + " files of that name (" +
             llvm::join(Shown, ", ") + (Here.size() > 3 ? ", ..." : "") + ")";
      return std::nullopt;
    }
    if (D == Root || D.size() <= 1)
      return std::nullopt;
  }
}

NamedHeaders HeaderNames::find(const std::string &File, const std::vector<std::string> &CommandLine,
                               const std::vector<std::string> &Probe) {
  std::vector<std::string> Args(CommandLine.begin(), CommandLine.end() - (CommandLine.empty() ? 0 : 1));
  Args.insert(Args.end(), Probe.begin(), Probe.end());
  Args.insert(Args.end(), {"-fsyntax-only", "mlperf-lint-probe.cpp"});
  const SearchPath &Search = searchPathOf(Args);
  NamedHeaders Out;
  auto Resolve = [&](const Include &I, const std::string &From) -> std::optional<std::string> {
    std::vector<const std::vector<std::string> *> Lists = {&Search.Angled, &Out.Dirs, &Out.SystemDirs};
    if (!I.Angled)
      Lists.insert(Lists.begin(), &Search.Quoted);
    if (!I.Angled && isFile(From + "/" + I.Name))
      return From + "/" + I.Name;
    for (const auto *List : Lists)
      for (const std::string &Dir : *List)
        if (isFile(Dir + "/" + I.Name))
          return Dir + "/" + I.Name;
    return std::nullopt;
  };
  std::set<std::string> Seen = {File}, Decided;
  std::deque<std::string> Queue = {File};
  std::vector<std::pair<Include, std::string>> Unresolved; // with the including file's directory
  while (!Queue.empty() || !Unresolved.empty()) {
    for (; !Queue.empty() && Seen.size() <= MaxScannedFiles; Queue.pop_front()) {
      std::string From = parentOf(Queue.front());
      for (const Include &I : includesOf(Queue.front())) {
        if (std::optional<std::string> P = Resolve(I, From)) {
          if (isUnder(*P, Root) && Seen.insert(*P).second)
            Queue.push_back(*P);
        } else if (Decided.insert(I.Name).second) {
          Unresolved.push_back({I, From});
        }
      }
    }
    Queue.clear();
    // Names are taken in the order they are met; a directory taken for one
    // may hold the next.
    for (auto &[I, From] : std::exchange(Unresolved, {})) {
      std::string Note;
      std::optional<std::string> P = Resolve(I, From);
      if (!P && (P = pick(I.Name, From, Note))) {
        std::string Dir = llvm::StringRef(*P).drop_back(I.Name.size() + 1).str();
        if (!llvm::is_contained(Out.Dirs, Dir))
          Out.Dirs.push_back(Dir);
      } else if (!P && Note.empty() && llvm::StringRef(I.Name).contains('/')) {
        // Not the project's: perhaps a library installed one level below a
        // system directory, named with its own folder (`Eigen/Dense`, not a
        // bare `config.h` that any package may have). Its own includes are
        // found through it.
        if (std::optional<std::string> Dir = pickInstalled(I.Name, Search.Angled, Note);
            Dir && !llvm::is_contained(Out.SystemDirs, *Dir))
          Out.SystemDirs.push_back(*Dir);
      }
      if (!Note.empty())
        Out.Notes.push_back(std::move(Note));
      if (P && Seen.insert(*P).second)
        Queue.push_back(*P);
    }
  }
  return Out;
}

} // namespace mlperf::lint
