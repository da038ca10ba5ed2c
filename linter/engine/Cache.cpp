#include "engine/Cache.h"

#include "BuildInfo.h"
#include "engine/CommandKey.h"
#include "findings/Findings.h"
#include "support/SafeIO.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <tuple>

namespace mlperf::lint {

using clang::tidy::ClangTidyError;
using nlohmann::json;
namespace fs = llvm::sys::fs;

namespace {
constexpr const char *EntryFormat = "mlperf-lint-cache-3";

/// The executable's path, size and modification time: a rebuild of the tool
/// or of its checks is a new identity.
std::string toolIdentity() {
  static int Anchor;
  std::string Exe = fs::getMainExecutable(nullptr, &Anchor);
  fs::file_status St;
  std::string Id = std::string(EntryFormat) + "\n" MLPERF_VERSION "\n" MLPERF_LLVM_VERSION "\n" + Exe;
  if (!fs::status(Exe, St))
    Id += "\n" + std::to_string(St.getSize()) + "\n" +
          std::to_string(St.getLastModificationTime().time_since_epoch().count());
  return Id;
}

/// The files named by the `Profiles` options (global or per check), with
/// their contents: a changed profile is a new key. Relative names are read
/// from \p Cwd, where the run started (parses move the working directory).
std::string profileContents(const clang::tidy::ClangTidyOptions &O, llvm::StringRef Cwd) {
  std::string Out;
  for (const auto &[Key, Value] : O.CheckOptions) {
    if (Key != "Profiles" && !llvm::StringRef(Key).ends_with(".Profiles"))
      continue;
    std::string List = Value.Value;
    std::replace(List.begin(), List.end(), ';', ',');
    llvm::SmallVector<llvm::StringRef, 4> Files;
    llvm::StringRef(List).split(Files, ',', -1, false);
    for (llvm::StringRef F : Files) {
      llvm::SmallString<256> Path(F.trim());
      if (llvm::sys::path::is_relative(Path))
        Path = (Cwd + "/" + Path).str();
      Out += Path.str().str() + "=" + fileContentHash(Path).value_or("missing") + "\n";
    }
  }
  return Out;
}

// --- ClangTidyError as JSON -------------------------------------------------

json messageToJson(const clang::tooling::DiagnosticMessage &M) {
  json Ranges = json::array(), Fixes = json::array();
  for (const auto &R : M.Ranges)
    Ranges.push_back({R.FilePath, R.FileOffset, R.Length});
  for (const auto &File : M.Fix)
    for (const clang::tooling::Replacement &R : File.getValue())
      Fixes.push_back({R.getFilePath().str(), R.getOffset(), R.getLength(), R.getReplacementText().str()});
  return {{"message", M.Message}, {"file", M.FilePath}, {"offset", M.FileOffset}, {"ranges", Ranges}, {"fixes", Fixes}};
}

clang::tooling::DiagnosticMessage messageFromJson(const json &J) {
  clang::tooling::DiagnosticMessage M;
  M.Message = J.at("message").get<std::string>();
  M.FilePath = J.at("file").get<std::string>();
  M.FileOffset = J.at("offset").get<unsigned>();
  for (const json &R : J.at("ranges")) {
    clang::tooling::FileByteRange Range;
    Range.FilePath = R.at(0).get<std::string>();
    Range.FileOffset = R.at(1).get<unsigned>();
    Range.Length = R.at(2).get<unsigned>();
    M.Ranges.push_back(std::move(Range));
  }
  for (const json &F : J.at("fixes")) {
    clang::tooling::Replacement R(F.at(0).get<std::string>(), F.at(1).get<unsigned>(), F.at(2).get<unsigned>(),
                                  F.at(3).get<std::string>());
    if (llvm::Error E = M.Fix[R.getFilePath()].add(R))
      throw std::runtime_error(llvm::toString(std::move(E)));
  }
  return M;
}

json errorsToJsonValue(const std::vector<ClangTidyError> &Errors) {
  json Out = json::array();
  for (const ClangTidyError &E : Errors) {
    json Notes = json::array();
    for (const auto &N : E.Notes)
      Notes.push_back(messageToJson(N));
    Out.push_back({{"check", E.DiagnosticName},
                   {"level", static_cast<int>(E.DiagLevel)},
                   {"buildDirectory", E.BuildDirectory},
                   {"warningAsError", E.IsWarningAsError},
                   {"aliases", E.EnabledDiagnosticAliases},
                   {"message", messageToJson(E.Message)},
                   {"notes", Notes}});
  }
  return Out;
}

std::vector<ClangTidyError> errorsFromJsonValue(const json &J) {
  if (!J.is_array())
    throw std::runtime_error("findings are not a list");
  std::vector<ClangTidyError> Out;
  for (const json &E : J) {
    int Level = E.at("level").get<int>();
    if (Level < clang::tooling::Diagnostic::Remark || Level > clang::tooling::Diagnostic::Error)
      throw std::runtime_error("bad level");
    ClangTidyError Err(E.at("check").get<std::string>(), static_cast<ClangTidyError::Level>(Level),
                       E.at("buildDirectory").get<std::string>(), E.at("warningAsError").get<bool>());
    Err.EnabledDiagnosticAliases = E.at("aliases").get<std::vector<std::string>>();
    Err.Message = messageFromJson(E.at("message"));
    for (const json &N : E.at("notes"))
      Err.Notes.push_back(messageFromJson(N));
    Out.push_back(std::move(Err));
  }
  return Out;
}

/// Each fix's file, offset, length and the hash of the bytes it replaces:
/// replayed only where the file still has those bytes.
json fixRanges(const std::vector<ClangTidyError> &Errors) {
  json Out = json::array();
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Files;
  auto Visit = [&](const clang::tooling::DiagnosticMessage &M) {
    for (const auto &File : M.Fix)
      for (const clang::tooling::Replacement &R : File.getValue()) {
        auto &Buf = Files[R.getFilePath().str()];
        if (!Buf)
          if (auto B = llvm::MemoryBuffer::getFile(R.getFilePath(), false, false))
            Buf = std::move(*B);
        llvm::StringRef Text = Buf ? Buf->getBuffer() : "";
        bool Inside = R.getOffset() <= Text.size() && R.getLength() <= Text.size() - R.getOffset();
        Out.push_back({R.getFilePath().str(), R.getOffset(), R.getLength(),
                       Inside ? hashText(Text.substr(R.getOffset(), R.getLength())) : ""});
      }
  };
  for (const ClangTidyError &E : Errors) {
    Visit(E.Message);
    for (const auto &N : E.Notes)
      Visit(N);
  }
  return Out;
}

/// Whether every fix of \p Errors is one of \p Ranges and the bytes it
/// replaces are still there.
bool fixesMatch(const std::vector<ClangTidyError> &Errors, const json &Ranges) {
  std::set<std::tuple<std::string, unsigned, unsigned>> Recorded;
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Files;
  for (const json &R : Ranges) {
    std::string File = R.at(0).get<std::string>();
    unsigned Offset = R.at(1).get<unsigned>(), Length = R.at(2).get<unsigned>();
    auto &Buf = Files[File];
    if (!Buf)
      if (auto B = llvm::MemoryBuffer::getFile(File, false, false))
        Buf = std::move(*B);
    llvm::StringRef Text = Buf ? Buf->getBuffer() : "";
    if (!Buf || Offset > Text.size() || Length > Text.size() - Offset ||
        hashText(Text.substr(Offset, Length)) != R.at(3).get<std::string>())
      return false;
    Recorded.insert({File, Offset, Length});
  }
  auto Known = [&](const clang::tooling::DiagnosticMessage &M) {
    return llvm::all_of(M.Fix, [&](const auto &File) {
      return llvm::all_of(File.getValue(), [&](const clang::tooling::Replacement &R) {
        return Recorded.count({R.getFilePath().str(), R.getOffset(), R.getLength()}) > 0;
      });
    });
  };
  return llvm::all_of(Errors,
                      [&](const ClangTidyError &E) { return Known(E.Message) && llvm::all_of(E.Notes, Known); });
}

/// An entry on disk: the hash of its JSON text, a newline, the text.
std::optional<llvm::StringRef> verifiedBody(llvm::StringRef Stored) {
  auto [Sum, Body] = Stored.split('\n');
  if (Body.empty() || Sum != hashText(Body))
    return std::nullopt;
  return Body;
}

} // namespace

std::string cacheDirectory() {
  llvm::SmallString<256> Dir;
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg)
    Dir = Xdg;
  else if (const char *Home = std::getenv("HOME"); Home && *Home)
    llvm::sys::path::append(Dir, Home, ".cache");
  else
    return "";
  llvm::sys::path::append(Dir, "mlperf-lint");
  return std::string(Dir);
}

std::string errorsToJson(const std::vector<ClangTidyError> &Errors) { return errorsToJsonValue(Errors).dump(); }

bool errorsFromJson(llvm::StringRef Text, std::vector<ClangTidyError> &Errors) {
  try {
    Errors = errorsFromJsonValue(json::parse(Text.begin(), Text.end()));
    return true;
  } catch (const std::exception &) {
    return false;
  }
}

std::optional<uint64_t> parseByteSize(llvm::StringRef Text) {
  uint64_t Scale = 1;
  if (!Text.empty()) {
    switch (llvm::toUpper(Text.back())) {
    case 'K':
      Scale = 1ull << 10;
      break;
    case 'M':
      Scale = 1ull << 20;
      break;
    case 'G':
      Scale = 1ull << 30;
      break;
    default:
      break;
    }
    if (Scale != 1)
      Text = Text.drop_back();
  }
  uint64_t N;
  if (Text.getAsInteger(10, N) || N == 0 || N > UINT64_MAX / Scale)
    return std::nullopt;
  return N * Scale;
}

ResultCache::ResultCache(std::string Dir, uint64_t MaxBytes, const clang::tooling::CompilationDatabase &DB,
                         ProviderFactory Providers, const ParseOptions &Parse)
    : Dir(std::move(Dir)), MaxBytes(MaxBytes), DB(DB), Providers(std::move(Providers)), ToolIdentity(toolIdentity()),
      ParseMaterial("parse\n" + std::to_string(Parse.RecoverIncludes) + "\n" + Parse.CudaPath) {
  llvm::SmallString<256> Here;
  if (!fs::current_path(Here))
    Cwd = std::string(Here);
}

llvm::Expected<std::unique_ptr<ResultCache>> ResultCache::open(const CacheSettings &S,
                                                               const clang::tooling::CompilationDatabase &DB,
                                                               ProviderFactory Providers, const ParseOptions &Parse) {
  std::string Dir = S.Dir.empty() ? cacheDirectory() : S.Dir;
  if (Dir.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no cache directory (set XDG_CACHE_HOME or HOME, or pass --cache-dir)");
  llvm::SmallString<256> Abs(Dir);
  fs::make_absolute(Abs);
  llvm::SmallString<256> Entries(Abs);
  llvm::sys::path::append(Entries, "v1");
  if (std::error_code EC = fs::create_directories(Entries))
    return llvm::createStringError(EC, "%s: cannot create the cache directory: %s", Abs.c_str(), EC.message().c_str());
  return std::unique_ptr<ResultCache>(new ResultCache(std::string(Abs), S.MaxBytes, DB, std::move(Providers), Parse));
}

std::string ResultCache::key(const std::string &File, const std::string &Dependencies) const {
  std::vector<clang::tooling::CompileCommand> Commands = DB.getCompileCommands(File);
  std::optional<std::string> Contents = fileContentHash(File);
  if (Commands.empty() || !Contents)
    return "";
  clang::tidy::ClangTidyOptions Options = Providers()->getOptions(File);
  std::string Material =
      ToolIdentity + "\n" + clang::tidy::configurationAsText(Options) + profileContents(Options, Cwd);
  for (const clang::tooling::CompileCommand &C : Commands)
    Material += "\ncommand\n" + C.Directory + "\n" + C.Filename + "\n" +
                llvm::join(withoutPresentationFlags(C.CommandLine), "\x1f");
  Material += "\n" + ParseMaterial + "\nsummaries\n" + Dependencies;
  Material += "\nfile\n" + File + "\n" + *Contents;
  return hashText(Material);
}

std::string ResultCache::recoveryPath(const std::string &File) const {
  std::vector<clang::tooling::CompileCommand> Commands = DB.getCompileCommands(File);
  if (Commands.empty())
    return "";
  std::string Material = ToolIdentity + "\nrecovery\n" + File + "\n" + ParseMaterial;
  for (const clang::tooling::CompileCommand &C : Commands)
    Material += "\ncommand\n" + C.Directory + "\n" + llvm::join(withoutPresentationFlags(C.CommandLine), "\x1f");
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, "v1", "recoveries", hashText(Material) + ".json");
  return std::string(P);
}

std::string ResultCache::entryPath(const std::string &Key) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, "v1", Key.substr(0, 2), Key + ".json");
  return std::string(P);
}

std::optional<ResultCache::FileHashes> ResultCache::hashOnce(const std::string &Path) {
  {
    std::lock_guard<std::mutex> Lock(HashMu);
    if (auto It = Hashes.find(Path); It != Hashes.end())
      return It->second;
  }
  std::optional<FileHashes> H;
  if (auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false))
    H = FileHashes{hashText((*Buf)->getBuffer()), contentHash((*Buf)->getBuffer())};
  std::lock_guard<std::mutex> Lock(HashMu);
  return Hashes.emplace(Path, H).first->second;
}

namespace {
json statsToJson(const clang::tidy::ClangTidyStats &S) {
  return {S.ErrorsDisplayed, S.ErrorsIgnoredCheckFilter, S.ErrorsIgnoredNOLINT, S.ErrorsIgnoredNonUserCode,
          S.ErrorsIgnoredLineFilter};
}

clang::tidy::ClangTidyStats statsFromJson(const json &J) {
  clang::tidy::ClangTidyStats S;
  S.ErrorsDisplayed = J.at(0).get<unsigned>();
  S.ErrorsIgnoredCheckFilter = J.at(1).get<unsigned>();
  S.ErrorsIgnoredNOLINT = J.at(2).get<unsigned>();
  S.ErrorsIgnoredNonUserCode = J.at(3).get<unsigned>();
  S.ErrorsIgnoredLineFilter = J.at(4).get<unsigned>();
  return S;
}
} // namespace

bool ResultCache::readEntry(llvm::StringRef Body, const std::string &Key, CachedRun &Run,
                            std::vector<std::pair<std::string, uint64_t>> &Read, json &FixRanges) {
  json Entry = json::parse(Body.begin(), Body.end());
  if (Entry.at("format") != EntryFormat || Entry.at("key") != Key)
    return false;
  for (const json &Dep : Entry.at("read")) {
    std::string File = Dep.at(0).get<std::string>();
    std::optional<FileHashes> H = hashOnce(File);
    if (!H || H->Strong != Dep.at(1).get<std::string>())
      return false;
    Read.emplace_back(std::move(File), H->Guard);
  }
  for (const json &Absent : Entry.at("absent"))
    if (fs::exists(Absent.get<std::string>()))
      return false;
  Run.Errors = errorsFromJsonValue(Entry.at("errors"));
  Run.Incomplete = Entry.at("incomplete").get<std::string>();
  Run.FollowingErrors = Entry.at("followingErrors").get<bool>();
  Run.CompilerStats = Entry.at("compilerStats").get<std::string>();
  Run.Stats = statsFromJson(Entry.at("stats"));
  FixRanges = Entry.at("fixRanges");
  return true;
}

std::optional<CachedRun> ResultCache::lookup(const std::string &Key, ContentHashes &Recorded) {
  std::string Path = entryPath(Key);
  auto Buf = readInputFile(Path, "cache entry", MaxSourceBytes, /*Record=*/false);
  if (!Buf) {
    llvm::consumeError(Buf.takeError());
    return std::nullopt;
  }
  // A damaged entry (a changed digit, flipped bytes, a cut-off write) is
  // dropped: the file is linted again and the entry rewritten.
  auto Drop = [&](llvm::StringRef Why) -> std::optional<CachedRun> {
    fs::remove(Path);
    std::lock_guard<std::mutex> Lock(HashMu);
    Warnings.push_back(Path + ": damaged cache entry (" + Why.str() + "); dropped, its file is linted again");
    return std::nullopt;
  };
  if ((*Buf)->getBuffer().starts_with("{"))
    return std::nullopt; // an entry of an earlier format, without a checksum: replaced
  std::optional<llvm::StringRef> Body = verifiedBody((*Buf)->getBuffer());
  if (!Body)
    return Drop("checksum mismatch");
  CachedRun Run;
  std::vector<std::pair<std::string, uint64_t>> Read;
  json FixRanges;
  try {
    if (!readEntry(*Body, Key, Run, Read, FixRanges))
      return std::nullopt;
  } catch (const std::exception &) {
    return Drop("malformed");
  }
  try {
    if (!fixesMatch(Run.Errors, FixRanges))
      return Drop("a fix does not match its file");
  } catch (const std::exception &) {
    return Drop("malformed fix ranges");
  }
  for (const auto &[File, Guard] : Read)
    Recorded.record(File, Guard);
  int FD;
  if (!fs::openFileForRead(Path, FD)) {
    (void)fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
    (void)llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  return Run;
}

/// The files a parse read (through preamble \p P's inputs when it had one)
/// with their hashes; nullopt when one changed since the parse read it: its
/// findings are not those of the contents hashed now.
static std::optional<json> readFiles(const RecordingFileSystem &Read, const Preamble *P) {
  json Deps = json::array();
  if (P)
    for (const auto &[Path, Hash] : P->Inputs)
      Deps.push_back({Path, Hash});
  for (const RecordingFileSystem::Opened &F : Read.opened()) {
    if (P && F.Path == P->Pch)
      continue;
    fs::file_status St;
    std::optional<std::string> Hash = fileContentHash(F.Path);
    if (fs::status(F.Path, St) || St.getLastModificationTime() != F.ModTime || !Hash)
      return std::nullopt;
    Deps.push_back({F.Path, *Hash});
  }
  return Deps;
}

/// Writes \p Entry with its checksum to \p Path through a temporary file
/// that a signal removes; "" or why it could not (a full disk costs the
/// entry, never the findings).
static std::string writeEntry(const std::string &Path, const json &Entry) {
  if (std::error_code EC = fs::create_directories(llvm::sys::path::parent_path(Path)))
    return Path + ": " + EC.message();
  auto Temp = fs::TempFile::create(Path + ".tmp%%%%%%%%");
  if (!Temp)
    return Path + ": " + llvm::toString(Temp.takeError());
  std::string Body = Entry.dump(-1, ' ', false, json::error_handler_t::replace);
  llvm::raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
  OS << hashText(Body) << "\n" << Body;
  OS.flush();
  std::error_code EC = OS.error();
  OS.clear_error();
  if (EC) {
    llvm::consumeError(Temp->discard());
    return Path + ": " + EC.message();
  }
  if (llvm::Error E = Temp->keep(Path)) // keep removes the temporary file when it cannot rename it
    return Path + ": " + llvm::toString(std::move(E));
  return "";
}

void ResultCache::store(const std::string &Key, const CachedRun &Run, const std::vector<std::string> &Missing,
                        const RecordingFileSystem &Read, const Preamble *P) {
  if (Read.opened().empty() || hasCompilerErrors(Run.Errors))
    return;
  std::optional<json> Deps = readFiles(Read, P);
  if (!Deps)
    return;
  json Absent = Read.absentFor(Missing);
  if (!Missing.empty() && Absent.empty())
    return; // no trace of where they were looked for
  json Entry = {{"format", EntryFormat},
                {"key", Key},
                {"read", *Deps},
                {"absent", Absent},
                {"errors", errorsToJsonValue(Run.Errors)},
                {"incomplete", Run.Incomplete},
                {"followingErrors", Run.FollowingErrors},
                {"compilerStats", Run.CompilerStats},
                {"stats", statsToJson(Run.Stats)},
                {"fixRanges", fixRanges(Run.Errors)}};
  if (std::string Failed = writeEntry(entryPath(Key), Entry); !Failed.empty())
    writeFailed(Failed);
}

void ResultCache::writeFailed(const std::string &What) {
  std::lock_guard<std::mutex> Lock(HashMu);
  if (std::exchange(WriteFailed, true))
    return;
  Warnings.push_back(Dir + ": cannot write the result cache (" + What +
                     "); the findings are complete, but this run's are not cached");
}

std::vector<std::string> ResultCache::takeWarnings() {
  std::lock_guard<std::mutex> Lock(HashMu);
  return std::exchange(Warnings, {});
}

void ResultCache::trim() {
  struct Item {
    llvm::sys::TimePoint<> Used;
    uint64_t Size;
    std::string Path;
  };
  std::vector<Item> Items;
  uint64_t Total = 0;
  std::error_code EC;
  llvm::SmallString<256> Root(Dir);
  llvm::sys::path::append(Root, "v1");
  for (fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC; It.increment(EC)) {
    fs::file_status St;
    if (fs::status(It->path(), St) || St.type() != fs::file_type::regular_file)
      continue;
    Items.push_back({St.getLastModificationTime(), St.getSize(), It->path()});
    Total += St.getSize();
  }
  if (Total <= MaxBytes)
    return;
  // Down to 90% of the limit, so that the next runs do not evict again at once.
  std::sort(Items.begin(), Items.end(), [](const Item &A, const Item &B) { return A.Used < B.Used; });
  for (const Item &I : Items) {
    if (Total <= MaxBytes / 10 * 9)
      break;
    if (!fs::remove(I.Path))
      Total -= I.Size;
  }
}

} // namespace mlperf::lint
