// What a finding costs, as the analysis knows it: the work one model step
// repeats (synchronizations, copies and their bytes, allocations,
// compilations) and how many steps the loop runs. Checks hand these facts to
// the findings pipeline in a note (costFactsNote), which prices them on a
// device model (DeviceModel.h) and replaces the note with the estimate
// (docs/cost-model.md).
#pragma once

#include "ModelAnalysis.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace clang::tidy::mlperf {

/// A count or a size that is a constant, or unknown with the input it depends on.
struct Quantity {
  std::optional<double> Value;
  std::string DependsOn; // the expression that decides it, when Value is unknown
  static Quantity known(double V) { return {V, ""}; }
  static Quantity unknown(std::string On) { return {std::nullopt, std::move(On)}; }
};

/// Memory a finding leaves allocated on every repeat: what a step keeps
/// alive that the next one does not free, so memory grows with the steps.
struct Retention {
  Quantity Bytes;    // per repeat
  std::string What;  // what is kept: "the autograd graph of 'loss'", "the allocation 'buf'"
  bool Host = false; // host memory, not the device's

  bool operator==(const Retention &O) const;
};

/// The work a finding adds to each model step, and how many steps run.
struct CostFacts {
  Quantity Repeats = Quantity::known(1);       // times per step (a read per element: the inner loop's trips)
  unsigned Syncs = 0;                          // waits for the device, per repeat
  unsigned Allocations = 0;                    // device allocations, per repeat
  unsigned Compilations = 0;                   // executables compiled, per repeat
  unsigned HostToDevice = 0, DeviceToHost = 0; // copies, per repeat
  Quantity Bytes = Quantity::known(0);         // bytes of each copy
  std::optional<Retention> Retained;           // memory kept alive, per repeat
  std::optional<Quantity> Steps;               // steps the run makes; none: not a per-step finding

  bool operator==(const CostFacts &O) const;
};

/// The prefix of the note that carries a finding's facts. The findings
/// pipeline removes that note, so no report shows it; checks write it only
/// when the `CostFacts` option is on (the driver sets it), so clang-tidy
/// with the plugin never does.
inline constexpr llvm::StringLiteral CostFactsPrefix = "mlperf-cost-facts: ";
std::string costFactsNote(const CostFacts &F);
/// The facts in a note's message, or none when it is not such a note (or damaged).
std::optional<CostFacts> parseCostFactsNote(llvm::StringRef Message);

/// One wait for the device.
CostFacts syncFacts();
/// A device -> host read of \p Bytes: one copy and the wait for it.
CostFacts readFacts(Quantity Bytes);
/// The bytes a device -> host read \p Read of \p Object copies: one element
/// for a value (`item()`: its type's size, 4 B for a scalar object), else
/// unknown, naming the tensor.
Quantity readBytes(const CallExpr *Read, const Expr *Object, const ModelAnalysis &A);
/// The bytes a host factory's tensor holds: the constant sizes in its first
/// argument that is not a number (`ones({64, 128})`, `randint(0, 10, {64})`)
/// times 4 B (float, the default element type); else unknown, naming the sizes.
Quantity factoryBytes(const CallExpr *Factory, const ASTContext &Ctx);

/// The bytes the allocation \p Call (an acquire entry \p E with a
/// `size_arg`) allocates: the argument's constant value, else unknown,
/// naming it; unknown too without a size argument.
Quantity allocationBytes(const CallExpr *Call, const ProfileEntry &E, const ASTContext &Ctx);

/// How often a loop's body runs, when its bounds are constants
/// (`for (int i = 0; i < 1000; ++i)`, `for (auto &x : std::array<..., 8>)`);
/// else unknown with the bound's source text.
Quantity tripCount(const Stmt *Loop, const ASTContext &Ctx);
/// The steps of \p H: the trips of its loop times those of the loops around
/// it; unknown (naming the first unknown bound) when one is not constant.
Quantity stepsOf(const HotContext &H, const Stmt *S, const ModelAnalysis &A);

} // namespace clang::tidy::mlperf
