// Where the host needs the device's work finished: the waits that are not a
// cost but the point where a result is used (sync-in-loop's exceptions, and
// what a call site tells the function it calls through the summaries).
#pragma once

#include "ModelAnalysis.h"

namespace clang::tidy::mlperf {

/// Whether the host needs the device's work done right after \p Call: a
/// comment on its line or the line above mentions timing; it completes an
/// asynchronous copy to the host queued before it in its block or a block
/// around it (up to the loop's body); or the statement after it, past
/// declarations that only make room for a result, reads a clock or host
/// memory directly. (A copy to the host there does not need it: a blocking
/// copy waits by itself.)
bool hostWaitsAfter(const CallExpr *Call, ModelAnalysis &A);

/// Whether \p Call is the last device work of its function: it is in no loop
/// of the function and nothing after it there runs a model step, copies, waits
/// or calls a function that does. What it finishes is handed to the callers.
bool endsDeviceWork(const CallExpr *Call, ModelAnalysis &A);

/// Whether the wait \p Call is needed where its function hands the device's
/// results back: hostWaitsAfter(Call), or \p Call ends its function's device
/// work (endsDeviceWork) and every call of that function on a step needs it
/// there in turn, through up to \p Depth callers of this translation unit and,
/// with \p Elsewhere, the calls other files make (HotCallSite::WaitsAfter).
/// False when no call on a step is known.
bool waitNeeded(const CallExpr *Call, ModelAnalysis &A, bool Elsewhere, unsigned Depth = 3);

} // namespace clang::tidy::mlperf
