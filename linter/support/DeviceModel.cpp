#include "support/DeviceModel.h"

#include "Embedded.h"
#include "support/SafeIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace mlperf::lint {

using nlohmann::json;

namespace {
struct NumberField {
  const char *Key;
  double DeviceModel::*Field;
  double Scale;    // to bytes per second, seconds or bytes
  double Min, Max; // in the file's unit
};

constexpr double GB = 1e9, Micro = 1e-6, Milli = 1e-3, GiB = 1073741824.0;
const NumberField Numbers[] = {
    {"host_to_device_gb_per_s", &DeviceModel::HostToDeviceBytesPerSecond, GB, 1e-3, 1e5},
    {"device_to_host_gb_per_s", &DeviceModel::DeviceToHostBytesPerSecond, GB, 1e-3, 1e5},
    {"copy_latency_us", &DeviceModel::CopySeconds, Micro, 0, 1e7},
    {"sync_latency_us", &DeviceModel::SyncSeconds, Micro, 0, 1e7},
    {"launch_latency_us", &DeviceModel::LaunchSeconds, Micro, 0, 1e7},
    {"allocation_us", &DeviceModel::AllocationSeconds, Micro, 0, 1e7},
    {"compile_ms", &DeviceModel::CompileSeconds, Milli, 0, 1e7},
    {"memory_gib", &DeviceModel::MemoryBytes, GiB, 1e-3, 1e7},
};

/// A bound as people write it: "0", "0.001", "10000000".
std::string bound(double V) {
  if (V == std::floor(V))
    return std::to_string(static_cast<long long>(V));
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%g", V);
  return Buf;
}

std::string problem(const json &J) {
  static const char *const Strings[] = {"name", "description", "source", "basis"};
  for (const auto &[Key, Value] : J.items()) {
    bool Known = llvm::is_contained(Strings, llvm::StringRef(Key)) ||
                 llvm::any_of(Numbers, [&](const NumberField &F) { return Key == F.Key; });
    if (!Known)
      return "unknown field '" + Key + "'";
  }
  for (const char *Key : Strings)
    if (!J.contains(Key) || !J.at(Key).is_string() || J.at(Key).get<std::string>().empty())
      return std::string("'") + Key + "' must be a non-empty string";
  std::string Name = J.at("name").get<std::string>();
  if (Name.size() > 64 || !llvm::all_of(Name, [](char C) { return llvm::isAlnum(C) || C == '-' || C == '.'; }))
    return "'name' must be at most 64 letters, digits, '-' or '.', not \"" + Name.substr(0, 64) + "\"";
  std::string Source = J.at("source").get<std::string>();
  if (Source != "measured" && Source != "published")
    return "'source' must be \"measured\" or \"published\", not \"" + Source.substr(0, 64) + "\"";
  for (const NumberField &F : Numbers) {
    if (!J.contains(F.Key) || !J.at(F.Key).is_number())
      return std::string("'") + F.Key + "' must be a number";
    double V = J.at(F.Key).get<double>();
    if (!std::isfinite(V) || V < F.Min || V > F.Max)
      return std::string("'") + F.Key + "' must be between " + bound(F.Min) + " and " + bound(F.Max) + ", not " +
             J.at(F.Key).dump();
  }
  return "";
}
} // namespace

llvm::Expected<DeviceModel> parseDeviceModel(llvm::StringRef Text, llvm::StringRef Source) {
  auto Fail = [&](const std::string &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: invalid device model: %s", Source.str().c_str(),
                                   Why.c_str());
  };
  if (llvm::Error E = checkNesting(Text, Source))
    return std::move(E);
  json J = json::parse(Text.begin(), Text.end(), nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded())
    return Fail("not valid JSON");
  if (!J.is_object())
    return Fail("the top level must be an object");
  if (std::string Why = problem(J); !Why.empty())
    return Fail(Why);
  DeviceModel M;
  M.Name = J.at("name").get<std::string>();
  M.Description = J.at("description").get<std::string>();
  M.Measured = J.at("source").get<std::string>() == "measured";
  M.Basis = J.at("basis").get<std::string>();
  for (const NumberField &F : Numbers)
    M.*F.Field = J.at(F.Key).get<double>() * F.Scale;
  return M;
}

llvm::Expected<DeviceModel> loadDeviceModel(llvm::StringRef Path) {
  auto Buf = readStructuredFile(Path, "device model");
  if (!Buf)
    return Buf.takeError();
  return parseDeviceModel((*Buf)->getBuffer(), Path);
}

const std::vector<DeviceModel> &builtinDevices() {
  static const std::vector<DeviceModel> Devices = [] {
    std::vector<DeviceModel> Out;
    // The built-in models are checked by the tests; one that fails here is a build defect.
    for (const clang::tidy::mlperf::EmbeddedFile &F : clang::tidy::mlperf::embeddedDevices()) {
      auto M = parseDeviceModel(F.Text, F.Name);
      if (!M)
        llvm::report_fatal_error(M.takeError());
      Out.push_back(std::move(*M));
    }
    return Out;
  }();
  return Devices;
}

} // namespace mlperf::lint
