// Each finding's cost on the chosen device (docs/cost-model.md): the facts
// note its check wrote (checks/analysis/Cost.h) is replaced by the estimate,
// kept by finding for the reports, and --min-cost drops the cheap ones.
#pragma once

#include "report/Cost.h"
#include "support/DeviceModel.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlperf::lint {

/// The device --device= names: a built-in model by name or a JSON file by
/// path; "none" prices nothing; "" is the measured local model (cacheDir()/device.json, or
/// $MLPERF_LINT_DEVICE) when it exists, else generic-pcie4-gpu. Errors are
/// one line naming the input.
llvm::Expected<DeviceModel> selectDevice(llvm::StringRef Name);
/// Where the measured local model lives.
std::string localDevicePath();

class CostNotes {
public:
  /// No device: the facts notes are dropped, nothing is priced.
  CostNotes() : Costs(std::make_shared<CostTable>()) {}
  CostNotes(DeviceModel Device, std::optional<double> MinSeconds)
      : Device(std::move(Device)), MinSeconds(MinSeconds), Costs(std::make_shared<CostTable>()) {}

  /// Replaces each finding's facts with its estimate (a note, and an entry
  /// in table()); drops the findings whose estimate is under --min-cost.
  void add(std::vector<clang::tidy::ClangTidyError> &Errors);
  std::shared_ptr<const CostTable> table() const { return Costs; }
  const DeviceModel &device() const { return Device; }

private:
  DeviceModel Device;
  std::optional<double> MinSeconds;
  std::shared_ptr<CostTable> Costs;
};

} // namespace mlperf::lint
