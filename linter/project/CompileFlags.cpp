#include "project/CompileFlags.h"
#include "BuildInfo.h"
#include "project/BuildFlags.h"
#include "project/HeaderNames.h"
#include "project/ProjectScope.h"
#include "support/Installation.h"
#include "support/SafeIO.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

namespace mlperf::lint {

using namespace clang::tooling;

static bool usesRuntime(llvm::StringRef File) {
  if (File.empty())
    return false;
  auto Buf = readInputFile(File, "source", MaxSourceBytes);
  if (!Buf) {
    llvm::consumeError(Buf.takeError());
    return false;
  }
  return (*Buf)->getBuffer().contains("mlperf/rt/");
}

// The bundled runtime's headers: an installed mlperf-lint's own (none needed
// under /usr, whose include directory the compiler searches anyway), else the
// checkout it was built from, so that an installed binary never reads a
// source tree that happens to be on the same machine.
static const std::string &runtimeIncludeDirectory() {
  static const std::string Dir = [] {
    const std::string &Prefix = installPrefix();
    if (!Prefix.empty() && llvm::sys::fs::is_directory(Prefix + "/include/mlperf/rt"))
      return Prefix == "/usr" ? std::string() : Prefix + "/include";
    return llvm::sys::fs::is_directory(MLPERF_RUNTIME_INCLUDE_DIR) ? std::string(MLPERF_RUNTIME_INCLUDE_DIR)
                                                                   : std::string();
  }();
  return Dir;
}

/// A C source (`.c`): no C++ standard applies to it.
static bool isCSource(llvm::StringRef File) { return llvm::sys::path::extension(File) == ".c"; }

std::vector<std::string> fallbackFlags(llvm::StringRef File) {
  std::vector<std::string> Args;
  if (!isCSource(File))
    Args.push_back(usesRuntime(File) ? "-std=c++20" : "-std=c++17");
  for (const char *Dir : {"/usr/include/torch/csrc/api/include", "/usr/local/include/torch/csrc/api/include"})
    if (llvm::sys::fs::is_directory(Dir)) {
      Args.push_back(std::string("-isystem") + Dir);
      break;
    }
  if (const char *Torch = std::getenv("TORCH_INCLUDE_DIR"))
    Args.push_back(std::string("-isystem") + Torch);
  if (const std::string &Dir = runtimeIncludeDirectory(); !Dir.empty())
    Args.push_back("-I" + Dir);
  return Args;
}

namespace {
std::string findDatabaseNear(const std::vector<std::string> &Files) {
  for (const std::string &F : Files) {
    llvm::SmallString<256> Dir(llvm::sys::path::parent_path(F));
    while (!Dir.empty()) {
      for (const char *Sub : {"", "build"}) {
        llvm::SmallString<256> Candidate(Dir);
        llvm::sys::path::append(Candidate, Sub, "compile_commands.json");
        if (llvm::sys::fs::exists(Candidate))
          return std::string(llvm::sys::path::parent_path(Candidate));
      }
      llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
      if (Parent == Dir)
        break;
      Dir = Parent.str(); // Parent points into Dir
    }
  }
  return "";
}

std::string absolutePath(llvm::StringRef File) {
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

/// The fallback flags, with what the project's build files state
/// (BuildFlags.h) and the directories of the headers found by name
/// (HeaderNames.h); each file's command is worked out once per run. Files a
/// project's database does not list get them too, rather than flags guessed
/// from an unrelated neighbour.
class FallbackDatabase : public CompilationDatabase {
public:
  /// \p Probe: the arguments added to every command later (--extra-arg, the
  /// resource directory), for the search path the headers are looked up in.
  explicit FallbackDatabase(std::vector<std::string> Probe) : Probe(std::move(Probe)) {}
  std::vector<CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    std::lock_guard<std::mutex> Lock(Mu);
    return {entry(File).Command};
  }
  /// The headers found by name for a file given these flags, or why not.
  std::vector<std::string> includeNotes(llvm::StringRef File) const {
    std::lock_guard<std::mutex> Lock(Mu);
    auto It = Entries.find(File.str());
    return It == Entries.end() ? std::vector<std::string>() : It->second.Notes;
  }
  /// What the build files state for \p File, and the project root they were read up to.
  std::pair<BuildFileFlags, std::string> buildFlags(llvm::StringRef File) const {
    std::lock_guard<std::mutex> Lock(Mu);
    std::string Abs = absolutePath(File), Root = projectRoots({Abs}).front();
    return {flagsFor(llvm::sys::path::parent_path(Abs).str(), Root), Root};
  }

private:
  struct Entry {
    CompileCommand Command;
    std::vector<std::string> Notes;
  };
  const Entry &entry(llvm::StringRef File) const {
    if (auto It = Entries.find(File.str()); It != Entries.end())
      return It->second;
    std::string Abs = absolutePath(File), Root = projectRoots({Abs}).front();
    const BuildFileFlags &B = flagsFor(llvm::sys::path::parent_path(Abs).str(), Root);
    std::vector<std::string> Args = fallbackFlags(File), Stated = B.args();
    bool C = isCSource(File); // the stated standard is C++'s: the compiler's own C default applies
    if (!B.Standard.empty() && !C)
      Args.front() = Stated.front();
    Args.insert(Args.begin() + (C ? 0 : 1), Stated.begin() + (B.Standard.empty() ? 0 : 1), Stated.end());
    Entry E{FixedCompilationDatabase(".", Args).getCompileCommands(File).front(), {}};
    std::unique_ptr<HeaderNames> &Names = ByRoot[Root];
    if (!Names)
      Names = std::make_unique<HeaderNames>(Root);
    NamedHeaders Found = Names->find(Abs, E.Command.CommandLine, Probe);
    for (const std::string &Dir : Found.Dirs)
      E.Command.CommandLine.insert(E.Command.CommandLine.end() - 1, "-I" + Dir);
    for (const std::string &Dir : Found.SystemDirs)
      E.Command.CommandLine.insert(E.Command.CommandLine.end() - 1, "-isystem" + Dir);
    E.Notes = std::move(Found.Notes);
    return Entries.emplace(File.str(), std::move(E)).first->second;
  }
  const BuildFileFlags &flagsFor(const std::string &Dir, const std::string &Root) const {
    auto [It, New] = ByDir.try_emplace(Dir);
    if (New)
      It->second = buildFileFlags(Dir, Root);
    return It->second;
  }

  std::vector<std::string> Probe;
  mutable std::mutex Mu;
  mutable std::map<std::string, Entry> Entries;
  mutable std::map<std::string, BuildFileFlags> ByDir;
  mutable std::map<std::string, std::unique_ptr<HeaderNames>> ByRoot;
};

/// A database owned with others.
class SharedDatabase : public CompilationDatabase {
public:
  explicit SharedDatabase(std::shared_ptr<CompilationDatabase> Inner) : Inner(std::move(Inner)) {}
  std::vector<CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    return Inner->getCompileCommands(File);
  }

private:
  std::shared_ptr<CompilationDatabase> Inner;
};

class WithFallback : public CompilationDatabase {
public:
  WithFallback(std::unique_ptr<CompilationDatabase> Inner, std::shared_ptr<FallbackDatabase> Fallback)
      : Inner(std::move(Inner)), Fallback(std::move(Fallback)) {
    for (const std::string &F : this->Inner->getAllFiles())
      Listed.insert(F);
  }
  std::vector<CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    // Databases loaded from a directory infer commands for unlisted files
    // from the nearest name; that is a guess about another target.
    if (!Listed.empty() && !Listed.count(File.str()))
      return Fallback->getCompileCommands(File);
    std::vector<CompileCommand> C = Inner->getCompileCommands(File);
    return C.empty() ? Fallback->getCompileCommands(File) : C;
  }
  std::vector<std::string> getAllFiles() const override { return Inner->getAllFiles(); }
  std::vector<CompileCommand> getAllCompileCommands() const override { return Inner->getAllCompileCommands(); }

private:
  std::unique_ptr<CompilationDatabase> Inner;
  std::shared_ptr<FallbackDatabase> Fallback;
  std::set<std::string> Listed;
};

/// Headers named `.h`, `.hh`, `.hpp` or `.hxx` are parsed as C++ headers
/// when the rest of the command is C++ (clang's driver takes `.h` for C).
ArgumentsAdjuster cxxHeaderAdjuster() {
  return [](const CommandLineArguments &Args, llvm::StringRef File) {
    llvm::StringRef Ext = llvm::sys::path::extension(File);
    if (!llvm::is_contained({".h", ".hh", ".hpp", ".hxx", ".H"}, Ext) || Args.empty())
      return Args;
    bool Cxx = llvm::StringRef(Args.front()).contains("++");
    for (size_t I = 1; I < Args.size(); ++I) {
      llvm::StringRef A = Args[I];
      if (A == "-x" || A.starts_with("-x") || A.starts_with("--language"))
        return Args; // the command names the language itself
      Cxx |= A.starts_with("-std=c++") || A.starts_with("-std=gnu++") || A.starts_with("--std=c++") ||
             A.starts_with("/std:c++");
    }
    if (!Cxx)
      return Args;
    CommandLineArguments Out = {Args.front(), "-xc++-header"};
    Out.insert(Out.end(), Args.begin() + 1, Args.end());
    return Out;
  };
}

/// Include directories and the input made absolute against the command's
/// directory, as the compiler resolves them: then a header found through
/// `-Iinclude` has an absolute name, which the project's header filter (an
/// absolute path) matches.
class AbsoluteIncludeDirs : public CompilationDatabase {
public:
  explicit AbsoluteIncludeDirs(std::unique_ptr<CompilationDatabase> Inner) : Inner(std::move(Inner)) {}
  std::vector<CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    return absolute(Inner->getCompileCommands(File));
  }
  std::vector<std::string> getAllFiles() const override { return Inner->getAllFiles(); }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return absolute(Inner->getAllCompileCommands());
  }

private:
  static std::vector<CompileCommand> absolute(std::vector<CompileCommand> Commands) {
    static const char *const Options[] = {"-I", "-isystem", "-iquote", "-idirafter", "--include-directory="};
    for (CompileCommand &C : Commands) {
      llvm::SmallString<256> Dir(C.Directory);
      llvm::sys::fs::make_absolute(Dir);
      llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
      auto Resolve = [&](llvm::StringRef Path) {
        if (Path.empty() || llvm::sys::path::is_absolute(Path))
          return Path.str();
        llvm::SmallString<256> Abs(Dir);
        llvm::sys::path::append(Abs, Path);
        llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
        return std::string(Abs);
      };
      std::vector<std::string> &Args = C.CommandLine;
      // A relative "file" names the input relative to "directory": made
      // absolute, the findings in it carry a path that resolves anywhere.
      if (!C.Filename.empty() && llvm::sys::path::is_relative(C.Filename)) {
        std::string File = Resolve(C.Filename);
        std::replace(Args.begin() + 1, Args.end(), C.Filename, File);
        C.Filename = File;
      }
      for (size_t I = 1; I < Args.size(); ++I)
        for (llvm::StringRef O : Options) {
          if (Args[I] == O && I + 1 < Args.size() && !O.ends_with("=")) {
            Args[I + 1] = Resolve(Args[I + 1]);
            ++I;
            break;
          }
          if (llvm::StringRef(Args[I]).starts_with(O) && Args[I].size() > O.size()) {
            llvm::StringRef Rest = llvm::StringRef(Args[I]).substr(O.size());
            if (Rest != "-") // -I- splits quoted from angled includes
              Args[I] = O.str() + Resolve(Rest);
            break;
          }
        }
      C.Directory = std::string(Dir);
    }
    return Commands;
  }
  std::unique_ptr<CompilationDatabase> Inner;
};

/// The compile_commands.json in \p Dir or the nearest parent, or "".
std::string jsonDatabaseAt(llvm::StringRef Dir) {
  llvm::SmallString<256> D(Dir);
  llvm::sys::fs::make_absolute(D);
  for (llvm::StringRef P = D; !P.empty(); P = llvm::sys::path::parent_path(P)) {
    llvm::SmallString<256> Candidate(P);
    llvm::sys::path::append(Candidate, "compile_commands.json");
    if (llvm::sys::fs::exists(Candidate))
      return std::string(Candidate);
  }
  return "";
}

/// clang reads compile_flags.txt whole, from \p Dir or the nearest parent
/// that has one: it must be a regular file under the size limit.
llvm::Error checkFlagsFiles(llvm::StringRef Dir) {
  llvm::SmallString<256> D(Dir);
  llvm::sys::fs::make_absolute(D);
  for (llvm::StringRef P = D; !P.empty(); P = llvm::sys::path::parent_path(P)) {
    llvm::SmallString<256> Candidate(P);
    llvm::sys::path::append(Candidate, "compile_flags.txt");
    if (llvm::sys::fs::exists(Candidate)) {
      auto Buf = readInputFile(Candidate, "compile flags");
      return Buf ? llvm::Error::success() : Buf.takeError();
    }
  }
  return llvm::Error::success();
}

llvm::Error checkJsonDatabase(const std::string &File) {
  auto Buf = readStructuredFile(File, "compilation database");
  if (!Buf)
    return Buf.takeError();
  return checkCompileDatabaseText((*Buf)->getBuffer(), File);
}
} // namespace

llvm::Error checkCompileDatabaseText(llvm::StringRef Json, llvm::StringRef Name) {
  if (llvm::Error E = checkNesting(Json, Name)) // the JSON parser recurses once per level
    return E;
  auto Parsed = llvm::json::parse(Json);
  std::string Problem;
  if (!Parsed)
    Problem = llvm::toString(Parsed.takeError());
  else if (!Parsed->getAsArray())
    Problem = "not a JSON array of compile commands";
  else
    for (const llvm::json::Value &V : *Parsed->getAsArray()) {
      const llvm::json::Object *O = V.getAsObject();
      if (!O || !O->getString("directory") || !O->getString("file") ||
          (!O->getString("command") && !O->getArray("arguments"))) {
        Problem = "an entry is not an object with \"directory\", \"file\" and \"command\" or \"arguments\"";
        break;
      }
      // clang would join a relative directory to the current one, and no
      // command would match its file: the entry would be ignored silently.
      if (llvm::sys::path::is_relative(*O->getString("directory"))) {
        Problem = "the entry for '" + O->getString("file")->str() + "' has a relative \"directory\" ('" +
                  O->getString("directory")->str() + "'); it must be absolute";
        break;
      }
    }
  if (Problem.empty())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: invalid compilation database: %s",
                                 Name.str().c_str(), Problem.c_str());
}

namespace {
std::string joined(const std::vector<std::string> &Args) {
  std::string S;
  for (const std::string &A : Args)
    S += (S.empty() ? "" : " ") + A;
  return S;
}

/// The one fallback line: the flags, and what the build files of \p Files state.
std::string fallbackAnnouncement(const FallbackDatabase &F, const std::vector<std::string> &Files) {
  std::string Line = "no compilation database found; using fallback flags: " + joined(fallbackFlags()) +
                     " (-std=c++20 for files that use the bundled runtime)";
  std::vector<std::string> Stated;
  for (const std::string &File : Files) {
    auto [B, Root] = F.buildFlags(File);
    if (B.empty())
      continue;
    std::vector<std::string> Names;
    for (llvm::StringRef S : B.Sources)
      Names.push_back(S.consume_front(Root) && S.consume_front("/") ? S.str() : S.str());
    std::string Part = llvm::join(Names, ", ") + " (" + B.describe(Root) + ")";
    if (!llvm::is_contained(Stated, Part))
      Stated.push_back(std::move(Part));
  }
  constexpr size_t Shown = 3;
  if (!Stated.empty())
    Line += "; flags from " + llvm::join(llvm::ArrayRef(Stated).take_front(Shown), "; ") +
            (Stated.size() > Shown ? "; and " + std::to_string(Stated.size() - Shown) + " more" : "");
  return Line;
}
} // namespace

llvm::Expected<Flags> makeCompilationDatabase(const FlagsRequest &R) {
  Flags Out;
  std::string Error;
  std::unique_ptr<CompilationDatabase> DB;
  std::vector<std::string> Probe = R.ExtraArgsBefore;
  Probe.insert(Probe.end(), R.ExtraArgs.begin(), R.ExtraArgs.end());
  Probe.push_back("-resource-dir=" MLPERF_CLANG_RESOURCE_DIR);
  auto Fallback = std::make_shared<FallbackDatabase>(Probe);
  Out.IncludeNotes = [Fallback](llvm::StringRef File) { return Fallback->includeNotes(File); };
  if (!R.BuildPath.empty()) {
    if (std::string Json = jsonDatabaseAt(R.BuildPath); !Json.empty())
      if (llvm::Error E = checkJsonDatabase(Json))
        return std::move(E);
    if (llvm::Error E = checkFlagsFiles(R.BuildPath))
      return std::move(E);
    DB = CompilationDatabase::autoDetectFromDirectory(R.BuildPath, Error);
    if (!DB)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: no compilation database (compile_commands.json or compile_flags.txt) in "
                                     "this directory or its parents",
                                     R.BuildPath.c_str());
    DB = std::make_unique<WithFallback>(std::move(DB), Fallback);
  } else if (R.HaveFixedArgs) {
    DB = std::make_unique<FixedCompilationDatabase>(".", R.FixedArgs);
  } else if (std::string Dir = findDatabaseNear(R.Files); !Dir.empty()) {
    if (llvm::Error E = checkJsonDatabase(Dir + "/compile_commands.json"))
      return std::move(E);
    DB = CompilationDatabase::loadFromDirectory(Dir, Error);
    if (!DB)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s/compile_commands.json: invalid compilation database: %s", Dir.c_str(),
                                     Error.c_str());
    DB = std::make_unique<WithFallback>(std::move(DB), Fallback);
  } else {
    Out.Announcement = fallbackAnnouncement(*Fallback, R.Files);
    DB = std::make_unique<SharedDatabase>(Fallback);
  }
  auto Adjusting = std::make_unique<ArgumentsAdjustingCompilations>(std::move(DB));
  if (!R.ExtraArgsBefore.empty())
    Adjusting->appendArgumentsAdjuster(getInsertArgumentAdjuster(R.ExtraArgsBefore, ArgumentInsertPosition::BEGIN));
  std::vector<std::string> After = R.ExtraArgs;
  After.push_back("-resource-dir=" MLPERF_CLANG_RESOURCE_DIR);
  Adjusting->appendArgumentsAdjuster(getInsertArgumentAdjuster(After, ArgumentInsertPosition::END));
  Adjusting->appendArgumentsAdjuster(cxxHeaderAdjuster());
  Out.Database = std::make_unique<AbsoluteIncludeDirs>(std::move(Adjusting));
  return Out;
}

} // namespace mlperf::lint
