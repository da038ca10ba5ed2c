// Reads of one tensor element per loop iteration (`out[i].item()`): found
// here once, reported by per-element-read and left to it by materialize-in-loop.
#pragma once

#include "ModelAnalysis.h"

#include <optional>

namespace clang::tidy::mlperf {

struct ElementRead {
  /// The loop whose every iteration makes the read.
  const Stmt *Loop = nullptr;
  /// The selection whose index that loop changes (`out[i]`, `t[i][j]`), and
  /// its profile entry (the fix in the API's spelling); null for a read in a
  /// loop nested in a model step (one read per box, row or environment).
  const Expr *Selection = nullptr;
  const ProfileEntry *Entry = nullptr;
  /// Set when the read also runs on every model step.
  std::optional<HotContext> Hot;
};

/// What a read that only waits for the device (RoleMatch::waitsOnly) does,
/// for a message: "waits for the device to learn the size of <Result>";
/// otherwise "copies a tensor from the device and waits for it".
std::string waitText(const RoleMatch &Read, llvm::StringRef Result);

/// Whether \p Read, a device -> host read (role materialize) of a tensor that
/// is not known to be on the host, reads one element per iteration of a loop
/// that runs more than once and is not excluded by a constant condition:
/// - the tensor is selected by an index (profile fact `element-index`) that
///   the loop changes, from a tensor the loop does not change; or
/// - the read yields a value, not a tensor (`item()`, not `cpu()`), runs
///   every model step inside a loop nested in the step, and its value is
///   needed (stored, returned, passed on).
std::optional<ElementRead> elementRead(const CallExpr *Read, ModelAnalysis &A);

/// A host -> device copy of one element per loop iteration: either its
/// results the loop collects and a join makes one tensor of after it, or a
/// copy into one device buffer at a position the loop advances.
struct ElementUpload {
  const Stmt *Loop = nullptr;
  const CallExpr *Join = nullptr;    // `torch::stack(xs)`
  const VarDecl *List = nullptr;     // `xs`
  const Expr *Destination = nullptr; // the buffer written into (`pos` of `tensor_set(pos, &v, i * 4, 4)`)
  int64_t Bytes = 0;                 // what each of those copies moves
  std::optional<HotContext> Hot;     // set when the copies also run on every model step
};

/// Whether \p Move, a copy to the device (role to-device), runs once per
/// iteration of its innermost loop, its result appended to a list declared
/// before that loop (`xs.push_back(x.to(device))`, `emplace_back`), and the
/// list is given to a join (profile role `join`: `stack`, `cat`) after the
/// loop in the same function: n small copies, each a transfer and a wait on
/// pageable memory, where joining on the host makes one. Or, for a copy
/// whose profile entry names its `dest_arg` and `size_arg` (a C API's
/// `cudaMemcpy`, `ggml_backend_tensor_set`): it copies a few bytes (at most
/// MaxElementBytes, known at compile time) into a destination the loop does
/// not change, at a position the loop does (`dst + i`, `&dst[i]`, or the
/// `offset_arg`): n calls, each a transfer, where filling a host buffer in
/// the loop and copying it once after makes one. Only in a program that uses
/// a device, or through an API that always does (its profile's `device_context`).
std::optional<ElementUpload> elementUpload(const CallExpr *Move, ModelAnalysis &A);
constexpr int64_t MaxElementBytes = 256;

} // namespace clang::tidy::mlperf
