#include "engine/Preamble.h"

#include "engine/CommandKey.h"
#include "engine/RecordingFileSystem.h"
#include "support/FileGuard.h"

#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <mutex>
#include <optional>
#include <set>

namespace mlperf::lint {

namespace fs = llvm::sys::fs;
using clang::tooling::CompileCommand;

std::string includePrefix(llvm::StringRef Source) {
  static const llvm::Regex Include("^#[ \t]*include[ \t]*<[^>]+>$");
  std::string Prefix;
  while (!Source.empty()) {
    auto [Line, Rest] = Source.split('\n');
    Source = Rest;
    llvm::StringRef T = Line.trim();
    if (T.ends_with("\\")) // a continued line: not a plain include or comment
      break;
    if (T.empty() || T.starts_with("//"))
      continue;
    if (!Include.match(T))
      break;
    Prefix += T.str() + "\n";
  }
  return Prefix;
}

namespace {
/// The command without its input file and its outputs.
std::vector<std::string> sharedArgs(const CompileCommand &C) {
  std::vector<std::string> Args =
      clang::tooling::getClangStripOutputAdjuster()(withoutPresentationFlags(C.CommandLine), C.Filename);
  Args = clang::tooling::getClangStripDependencyFileAdjuster()(Args, C.Filename);
  llvm::SmallString<256> Abs(C.Filename);
  fs::make_absolute(C.Directory, Abs);
  Args.erase(std::remove_if(Args.begin() + (Args.empty() ? 0 : 1), Args.end(),
                            [&](const std::string &A) {
                              return A == C.Filename || A == Abs || A == "-c" || A == "-fsyntax-only";
                            }),
             Args.end());
  return Args;
}

class PchDatabase : public clang::tooling::CompilationDatabase {
public:
  PchDatabase(const clang::tooling::CompilationDatabase &Inner, std::string Pch) : Inner(Inner), Pch(std::move(Pch)) {}
  std::vector<CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    std::vector<CompileCommand> Commands = Inner.getCompileCommands(File);
    for (CompileCommand &C : Commands)
      if (!C.CommandLine.empty())
        C.CommandLine.insert(C.CommandLine.begin() + 1, {"-include-pch", Pch});
    return Commands;
  }
  std::vector<std::string> getAllFiles() const override { return Inner.getAllFiles(); }

private:
  const clang::tooling::CompilationDatabase &Inner;
  std::string Pch;
};

/// The header's own template instantiations are made once, in the
/// precompiled header, instead of at the end of every file that loads it: a
/// file against <torch/torch.h>'s preamble parses in 1 s instead of 3.
constexpr const char *PchFlags = "-fpch-instantiate-templates";

/// Skips an include that cannot be found, as the files' own parses do
/// (engine/IncludeRecovery.cpp): a prefix with a header that is not there
/// (`<opencv2/opencv.hpp>` after `<torch/torch.h>`) is precompiled without
/// it, and each file's parse, whose own #include of it finds no guard,
/// looks it up again and notes it (or finds a stand-in) itself.
/// The headers skipped are noted (as `<spelled>`): where they were looked
/// for is stored with the preamble, which is built again once one appears.
class SkipMissingHeaders : public clang::PPCallbacks {
public:
  explicit SkipMissingHeaders(std::vector<std::string> &Skipped) : Skipped(Skipped) {}
  bool FileNotFound(llvm::StringRef FileName) override {
    Skipped.push_back("<" + FileName.str() + ">");
    return true;
  }

private:
  std::vector<std::string> &Skipped;
};

class GeneratePreamble : public clang::GeneratePCHAction {
public:
  explicit GeneratePreamble(std::vector<std::string> &Skipped) : Skipped(Skipped) {}

private:
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<SkipMissingHeaders>(Skipped));
    return clang::GeneratePCHAction::BeginSourceFileAction(CI);
  }
  std::vector<std::string> &Skipped;
};

bool writeAtomically(const std::string &Path, llvm::StringRef Text) {
  int FD;
  llvm::SmallString<256> Temp;
  if (fs::createUniqueFile(Path + ".tmp%%%%%%%%", FD, Temp))
    return false;
  llvm::sys::RemoveFileOnSignal(Temp);
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  OS.close();
  bool Kept = !OS.has_error() && !fs::rename(Temp, Path);
  OS.clear_error();
  if (!Kept)
    fs::remove(Temp);
  llvm::sys::DontRemoveFileOnSignal(Temp);
  return Kept;
}

/// fileContentHash's and FileGuard's hashes of one file's contents.
std::optional<std::pair<std::string, uint64_t>> hashesOf(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  return std::pair{hashText((*Buf)->getBuffer()), contentHash((*Buf)->getBuffer())};
}

/// The recorded inputs of a preamble built earlier, when every one of them
/// still has its contents and modification time.
std::optional<Preamble> reuse(const std::string &Meta, const std::string &Pch, const std::string &Header) {
  auto Buf = llvm::MemoryBuffer::getFile(Meta);
  if (!Buf || !fs::exists(Pch) || !fs::exists(Header))
    return std::nullopt;
  try {
    auto J = nlohmann::json::parse((*Buf)->getBuffer().begin(), (*Buf)->getBuffer().end());
    // A precompiled header damaged on disk would make every file that loads
    // it fail to parse: it is rebuilt instead.
    auto PchHashes = hashesOf(Pch);
    if (!PchHashes || PchHashes->first != J.at("pch").get<std::string>()) {
      for (const std::string &F : {Meta, Pch})
        fs::remove(F);
      return std::nullopt;
    }
    // A header skipped when it was built exists now: it would be read.
    for (const auto &Absent : J.value("absent", nlohmann::json::array()))
      if (fs::exists(Absent.get<std::string>()))
        return std::nullopt;
    Preamble P{Pch, {}};
    for (const auto &In : J.at("inputs")) {
      std::string Path = In.at(0).get<std::string>(), Hash = In.at(1).get<std::string>();
      fs::file_status St;
      if (fs::status(Path, St) || St.getLastModificationTime().time_since_epoch().count() != In.at(2).get<int64_t>())
        return std::nullopt;
      auto Hashes = hashesOf(Path);
      if (!Hashes || Hashes->first != Hash)
        return std::nullopt;
      P.Inputs.emplace_back(Path, Hash);
      P.Guards.emplace_back(Path, Hashes->second);
    }
    return P;
  } catch (const std::exception &) {
    return std::nullopt;
  }
}

/// Keeps the \p Keep most recently used preambles in \p Dir.
void evictPreambles(const std::string &Dir, size_t Keep) {
  std::vector<std::pair<llvm::sys::TimePoint<>, std::string>> Metas;
  std::error_code EC;
  for (fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    fs::file_status St;
    if (llvm::StringRef(It->path()).ends_with(".json") && !fs::status(It->path(), St))
      Metas.emplace_back(St.getLastModificationTime(), It->path());
  }
  std::sort(Metas.rbegin(), Metas.rend());
  for (size_t I = Keep; I < Metas.size(); ++I) {
    llvm::StringRef Stem = llvm::StringRef(Metas[I].second).drop_back(5);
    for (const char *Ext : {".json", ".pch", ".h"})
      fs::remove(Stem + Ext);
  }
}
} // namespace

/// \p File's include prefix, from its unsaved text in \p Buffers if it is
/// there; nullopt when the file cannot be read.
static std::optional<std::string> prefixOf(const std::string &File, const std::map<std::string, std::string> *Buffers) {
  if (Buffers)
    if (auto Open = Buffers->find(File); Open != Buffers->end())
      return includePrefix(Open->second);
  auto Buf = llvm::MemoryBuffer::getFile(File);
  if (!Buf)
    return std::nullopt;
  return includePrefix((*Buf)->getBuffer());
}

SharedPreambles::SharedPreambles(const clang::tooling::CompilationDatabase &DB, std::string Dir,
                                 const std::vector<std::string> &Files,
                                 const std::map<std::string, std::string> *Buffers)
    : Dir(std::move(Dir)) {
  struct Candidate {
    std::string File, Directory, Flags;
    std::vector<std::string> Args;
    std::vector<std::string> Prefixes; // the first 1, 2, ... include lines
  };
  std::vector<Candidate> Candidates;
  std::map<std::string, unsigned> Sharing; // flags and prefix -> files that begin with it
  for (const std::string &File : Files) {
    std::vector<CompileCommand> Commands = DB.getCompileCommands(File);
    std::optional<std::string> Prefix = prefixOf(File, Buffers);
    if (Commands.size() != 1 || !Prefix)
      continue;
    llvm::SmallVector<llvm::StringRef, 8> Lines;
    llvm::StringRef(*Prefix).split(Lines, '\n', -1, /*KeepEmpty=*/false);
    if (Lines.empty())
      continue;
    Candidate C{File, Commands.front().Directory, "", sharedArgs(Commands.front()), {}};
    C.Flags = std::string(PchFlags) + "\n" + C.Directory + "\n" + llvm::join(C.Args, "\x1f") + "\n";
    std::string P;
    for (llvm::StringRef L : Lines) {
      P += L.str() + "\n";
      C.Prefixes.push_back(P);
      ++Sharing[C.Flags + P];
    }
    Candidates.push_back(std::move(C));
  }
  // Each file takes the prefix it shares with the most files, the longest of
  // those: every file that begins with <torch/torch.h> shares its preamble,
  // whatever it includes after it (its own includes then find their guards).
  // A file that shares none: see Preamble.h.
  std::map<std::string, std::shared_ptr<Group>> Groups;
  for (Candidate &C : Candidates) {
    const std::string *Best = nullptr;
    unsigned BestCount = 1;
    for (const std::string &P : C.Prefixes)
      if (unsigned N = Sharing[C.Flags + P]; N >= BestCount && N >= 2)
        Best = &P, BestCount = N;
    for (auto P = C.Prefixes.rbegin(); !Best && P != C.Prefixes.rend(); ++P)
      if (fs::exists(this->Dir + "/" + hashText(C.Flags + *P) + ".pch"))
        Best = &*P;
    if (!Best && Files.size() == 1)
      Best = &C.Prefixes.back();
    if (!Best)
      continue;
    std::string Key = hashText(C.Flags + *Best);
    auto &G = Groups[Key];
    if (!G) {
      G = std::make_shared<Group>();
      G->Key = Key;
      G->Prefix = *Best;
      G->Directory = C.Directory;
      G->Args = C.Args;
    }
    ByFile[C.File] = G;
  }
}

std::shared_ptr<const Preamble> SharedPreambles::forFile(const std::string &File) {
  auto It = ByFile.find(File);
  if (It == ByFile.end())
    return nullptr;
  Group &G = *It->second;
  std::call_once(G.Once, [&] { G.Result = build(G); });
  return G.Result;
}

/// The preambles this process failed to build (their prefix does not compile
/// alone with their flags): not tried again by a later run in the same
/// process, such as each lint of a language server session.
static bool failedBefore(const std::string &Pch, bool Failed = false) {
  static std::mutex Lock;
  static std::set<std::string> Failures;
  std::lock_guard<std::mutex> G(Lock);
  if (Failed)
    Failures.insert(Pch);
  return Failures.count(Pch) > 0;
}

std::shared_ptr<const Preamble> SharedPreambles::build(Group &G) {
  llvm::SmallString<256> Stem(Dir);
  llvm::sys::path::append(Stem, G.Key);
  std::string Header = (Stem + ".h").str(), Pch = (Stem + ".pch").str(), Meta = (Stem + ".json").str();
  if (std::optional<Preamble> Old = reuse(Meta, Pch, Header)) {
    int FD;
    if (!fs::openFileForRead(Meta, FD)) {
      (void)fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
      (void)llvm::sys::Process::SafelyCloseFileDescriptor(FD);
    }
    return std::make_shared<Preamble>(std::move(*Old));
  }
  if (failedBefore(Pch) || fs::create_directories(Dir) || !writeAtomically(Header, G.Prefix))
    return nullptr;
  int FD;
  llvm::SmallString<256> Temp;
  if (fs::createUniqueFile(Pch + ".tmp%%%%%%%%", FD, Temp))
    return nullptr;
  (void)llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  llvm::sys::RemoveFileOnSignal(Temp);

  std::vector<std::string> CommandLine = G.Args;
  CommandLine.insert(CommandLine.end(), {PchFlags, "-x", "c++-header", Header, "-o", std::string(Temp)});
  auto Read = llvm::makeIntrusiveRefCnt<RecordingFileSystem>(llvm::vfs::getRealFileSystem());
  clang::FileSystemOptions Options;
  Options.WorkingDir = G.Directory;
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(Options, Read);
  clang::IgnoringDiagConsumer Quiet;
  std::vector<std::string> Skipped;
  clang::tooling::ToolInvocation Invocation(CommandLine, std::make_unique<GeneratePreamble>(Skipped), Files.get());
  Invocation.setDiagnosticConsumer(&Quiet);
  bool Made = Invocation.run() && !fs::rename(Temp, Pch);
  if (!Made) {
    fs::remove(Temp);
    failedBefore(Pch, /*Failed=*/true);
  }
  llvm::sys::DontRemoveFileOnSignal(Temp);
  auto PchHashes = Made ? hashesOf(Pch) : std::nullopt;
  if (!PchHashes)
    return nullptr;
  auto P = std::make_shared<Preamble>();
  P->Pch = Pch;
  nlohmann::json Inputs = nlohmann::json::array();
  for (const RecordingFileSystem::Opened &F : Read->opened()) {
    auto Hashes = hashesOf(F.Path);
    if (!Hashes || F.Path == Header)
      continue;
    P->Inputs.emplace_back(F.Path, Hashes->first);
    P->Guards.emplace_back(F.Path, Hashes->second);
    Inputs.push_back({F.Path, Hashes->first, F.ModTime.time_since_epoch().count()});
  }
  writeAtomically(
      Meta, nlohmann::json{{"inputs", Inputs}, {"absent", Read->absentFor(Skipped)}, {"pch", PchHashes->first}}.dump());
  evictPreambles(Dir, 4);
  ++Built;
  return P;
}

std::unique_ptr<clang::tooling::CompilationDatabase>
SharedPreambles::withPreamble(const clang::tooling::CompilationDatabase &DB, const Preamble &P) {
  return std::make_unique<PchDatabase>(DB, P.Pch);
}

} // namespace mlperf::lint
