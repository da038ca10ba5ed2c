#include "engine/RecoveryMemo.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace mlperf::lint {

using nlohmann::json;

namespace {
constexpr const char *Format = "mlperf-lint-recovery-1";

json toJson(const RecalledRecovery &E) {
  return {{"format", Format},       {"preIncludes", E.R.PreIncludes},
          {"cxx17", E.R.AsCxx17},   {"declarations", E.R.Declarations},
          {"header", E.Header},     {"standardHeaders", E.StandardHeaders},
          {"declared", E.Declared}, {"declaredMembers", E.DeclaredMembers},
          {"retried", E.Retried},   {"errors", E.Errors},
          {"missing", E.Missing}};
}

/// A stored recovery, or nothing for a file that is absent, damaged or of
/// another format (it is a cache: the file searches again).
std::optional<RecalledRecovery> read(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  json J = json::parse((*Buffer)->getBuffer().begin(), (*Buffer)->getBuffer().end(), nullptr,
                       /*allow_exceptions=*/false);
  try {
    if (!J.is_object() || J.value("format", "") != Format)
      return std::nullopt;
    RecalledRecovery E;
    E.R.PreIncludes = J.at("preIncludes").get<std::vector<std::string>>();
    E.R.AsCxx17 = J.at("cxx17").get<bool>();
    E.R.Declarations = J.at("declarations").get<std::string>();
    E.Header = J.at("header").get<std::string>();
    E.StandardHeaders = J.at("standardHeaders").get<std::vector<std::string>>();
    E.Declared = J.at("declared").get<std::vector<std::string>>();
    E.DeclaredMembers = J.at("declaredMembers").get<size_t>();
    E.Retried = J.at("retried").get<std::string>();
    E.Errors = J.at("errors").get<size_t>();
    E.Missing = J.at("missing").get<std::vector<std::string>>();
    return E;
  } catch (const json::exception &) {
    return std::nullopt;
  }
}

/// Through a temporary file renamed into place; a write that fails leaves
/// nothing (the next run searches again).
void write(const std::string &Path, const RecalledRecovery &E) {
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)))
    return;
  auto Temp = llvm::sys::fs::TempFile::create(Path + ".tmp%%%%%%%%");
  if (!Temp) {
    llvm::consumeError(Temp.takeError());
    return;
  }
  llvm::raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
  OS << toJson(E).dump();
  OS.flush();
  const bool Failed = OS.has_error();
  OS.clear_error();
  llvm::consumeError(Failed ? Temp->discard() : Temp->keep(Path));
}
} // namespace

std::vector<std::string> Recovery::args() const {
  std::vector<std::string> Added;
  if (!Declarations.empty())
    Added.insert(Added.end(), {"-include", Declarations});
  for (const std::string &Header : PreIncludes)
    Added.insert(Added.end(), {"-include", Header});
  if (AsCxx17)
    Added.push_back("-std=c++17");
  return Added;
}

void RecoveryMemo::keepIn(std::function<std::string(const std::string &File)> Path) {
  std::lock_guard<std::mutex> Lock(Mu);
  PathOf = std::move(Path);
}

std::optional<RecalledRecovery> RecoveryMemo::recall(const std::string &File) {
  std::lock_guard<std::mutex> Lock(Mu);
  if (auto It = ByFile.find(File); It != ByFile.end())
    return It->second;
  std::string Path = pathOf(File);
  std::optional<RecalledRecovery> Stored = Path.empty() ? std::nullopt : read(Path);
  if (Stored)
    ByFile[File] = *Stored;
  return Stored;
}

void RecoveryMemo::remember(const std::string &File, RecalledRecovery E) {
  std::lock_guard<std::mutex> Lock(Mu);
  if (std::string Path = pathOf(File); !Path.empty())
    write(Path, E);
  ByFile[File] = std::move(E);
}

void RecoveryMemo::forget(const std::string &File) {
  std::lock_guard<std::mutex> Lock(Mu);
  ByFile.erase(File);
  if (std::string Path = pathOf(File); !Path.empty())
    llvm::sys::fs::remove(Path);
}

std::shared_ptr<RecoveryMemo> newRecoveryMemo() { return std::make_shared<RecoveryMemo>(); }

} // namespace mlperf::lint
