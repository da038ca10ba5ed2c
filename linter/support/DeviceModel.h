// What a device charges for the work a finding repeats (docs/cost-model.md):
// host<->device bandwidth and latency, synchronization, kernel launch,
// allocation and compile times, and memory. Read from JSON
// (profiles/devices/*.json, compiled in; or a file), checked field by field.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlperf::lint {

struct DeviceModel {
  std::string Name;        // "h100-pcie": what --device= names
  std::string Description; // one line
  bool Measured = false;   // measured on a machine, not taken from published figures
  std::string Basis;       // where the figures come from
  double HostToDeviceBytesPerSecond = 0, DeviceToHostBytesPerSecond = 0;
  double CopySeconds = 0;       // latency of one copy, before its bytes move
  double SyncSeconds = 0;       // one wait for an idle device
  double LaunchSeconds = 0;     // one kernel launch
  double AllocationSeconds = 0; // one device allocation
  double CompileSeconds = 0;    // one executable compiled
  double MemoryBytes = 0;
};

/// The device model in \p Text; errors are one line,
/// "<Source>: invalid device model: <why>".
llvm::Expected<DeviceModel> parseDeviceModel(llvm::StringRef Text, llvm::StringRef Source);
/// The device model in the file \p Path (bounded read, as every input).
llvm::Expected<DeviceModel> loadDeviceModel(llvm::StringRef Path);
/// The models compiled into the binary, by name.
const std::vector<DeviceModel> &builtinDevices();

} // namespace mlperf::lint
