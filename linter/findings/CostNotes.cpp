#include "findings/CostNotes.h"

#include "validate/ResultStore.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

std::string localDevicePath() {
  if (std::optional<std::string> Env = llvm::sys::Process::GetEnv("MLPERF_LINT_DEVICE"); Env && !Env->empty())
    return *Env;
  return ::mlperf::validate::cacheDir() + "/device.json";
}

llvm::Expected<DeviceModel> selectDevice(llvm::StringRef Name) {
  if (Name == "none")
    return DeviceModel(); // no name: nothing is priced
  if (Name.empty()) {
    std::string Local = localDevicePath();
    if (llvm::sys::fs::exists(Local))
      return loadDeviceModel(Local);
    Name = "generic-pcie4-gpu";
  }
  for (const DeviceModel &D : builtinDevices())
    if (D.Name == Name)
      return D;
  if (Name.ends_with(".json"))
    return loadDeviceModel(Name);
  std::string Known;
  for (const DeviceModel &D : builtinDevices())
    Known += (Known.empty() ? "" : ", ") + D.Name;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "--device=%s: no such device model (the built-in ones: %s; or a .json file)",
                                 Name.str().c_str(), Known.c_str());
}

void CostNotes::add(std::vector<ClangTidyError> &Errors) {
  llvm::erase_if(Errors, [&](ClangTidyError &E) {
    std::optional<clang::tidy::mlperf::CostFacts> Facts;
    auto It = llvm::find_if(E.Notes, [&](const clang::tooling::DiagnosticMessage &N) {
      return (Facts = clang::tidy::mlperf::parseCostFactsNote(N.Message)).has_value() ||
             llvm::StringRef(N.Message).starts_with(clang::tidy::mlperf::CostFactsPrefix);
    });
    if (It == E.Notes.end())
      return false;
    clang::tooling::DiagnosticMessage Note = *It;
    E.Notes.erase(It);
    std::optional<CostEstimate> C = Facts && !Device.Name.empty() ? estimateCost(*Facts, Device) : std::nullopt;
    if (!C)
      return false;
    if (MinSeconds && C->weight() < *MinSeconds)
      return true;
    Note.Message = C->note();
    E.Notes.push_back(Note);
    Costs->add(E, std::move(*C));
    return false;
  });
}

} // namespace mlperf::lint
