// Why a program pulls a value to the host: to log it, to test a condition, to
// accumulate a metric (avoidable), or because it is the program's output.
#pragma once

#include "ModelAnalysis.h"

#include <optional>
#include <string>

namespace clang::tidy::mlperf {

enum class Purpose { Log, Condition, Accumulate, Store, Return, Other };

/// Follows the value of \p E through casts, arithmetic and local variables to
/// the use that explains it. Of several uses, the most "needed" one wins.
Purpose purposeOf(const Expr *E, const ModelAnalysis &A);
llvm::StringRef describe(Purpose P);
/// For a host scalar \p E that the function adds to a container of its own
/// (`losses.push_back(loss.item<float>())`), what it then does with the
/// container: the most needed purpose of its uses, where a call that takes
/// the container and whose result is used stands for that result
/// (`mean(losses)`, `std::accumulate(l.begin(), l.end(), 0.f)`) and a
/// range-for over it that sums its elements accumulates. Store when the
/// values are kept or that is not known (the container returned, stored,
/// given to a call whose result is not used, one element read back, its
/// elements printed one by one), or \p E is not so stored.
Purpose storedFor(const Expr *E, const ModelAnalysis &A);
/// Like purposeOf, but a value that a per-step helper or lambda returns is
/// followed to its call site, the last of \p CallChain (innermost last).
Purpose purposeThroughCalls(const Expr *E, const ModelAnalysis &A, llvm::ArrayRef<const Expr *> CallChain);
/// purposeThroughCalls along \p H's call chain and, for a value returned
/// from a function another file calls every step, on to what that call site
/// does with it (HotCallSite::ResultUse).
Purpose purposeThroughCalls(const Expr *E, const ModelAnalysis &A, const HotContext &H);
/// Whether a read in \p Loop (of \p Object, the tensor it reads, or into the
/// variable its value initializes) feeds the loop's next iteration: a
/// variable declared before the loop, that the loop reads, is assigned there
/// from it (`ys = cat({ys, next_word})`, `input = torch::tensor({token})`).
/// Such a loop is autoregressive: a greedy decode whose stop test needs
/// each token on the host.
bool feedsNextIteration(const Expr *Read, const Expr *Object, const Stmt *Loop, const ModelAnalysis &A);
/// Whether the read \p Read of \p Object goes straight into a print (`std::cout
/// << x.item<float>()`, a logging call's argument) and \p Object is the
/// model's whole output for its input: a step's result (a `forward`, a
/// module's call) through locals and methods with the `whole` fact that take
/// no other tensor (`forward(x).squeeze(0)`, `.softmax(1)`, `.argmax(1)`). A
/// reduction (`max()`), one element, or a value combined with another tensor
/// (`pred.eq(target)`, a loss) is a statistic or a metric.
bool printsPrediction(const CallExpr *Read, const Expr *Object, const ModelAnalysis &A);
/// What the transfer \p Call (matched by entry \p E) moves: its `value_arg`
/// (a copy to the device's host value, a copy to the host's host buffer),
/// else a method's object (`x.to(device)`, `x.cpu()`).
const Expr *movedValue(const CallExpr *Call, const ProfileEntry &E);
/// A round trip's copy back to the device: a call of this translation unit,
/// or where another file makes it ("yolo.cpp:80").
struct Reupload {
  const CallExpr *Local = nullptr;
  std::string Elsewhere;
};
/// The copy back to the device that is the next use of what the device ->
/// host copy \p Read wrote, with nothing reading it on the host in between: a
/// round trip. What it wrote: its result's variable, or the host memory a
/// `value_arg` names (`ggml_backend_tensor_get(t, row.data(), ...)` then
/// `ggml_backend_tensor_set(u, row.data(), ...)` in the same block); a field
/// of this object, also when the next use is inside a method of the object
/// called next (`inference();`); a pointer parameter the function fills last,
/// when every caller's next use of the memory it passed is a copy back (the
/// callers in other files through the summaries: copiedBackAfter).
std::optional<Reupload> reuploadOf(const CallExpr *Read, const ModelAnalysis &A);
/// The copy to the device that is the next use, after the call \p Call, of
/// the host memory its pointer argument \p Arg names (a local, a parameter, a
/// field of this object; one level into a method of the object), in the
/// call's block; null otherwise.
const CallExpr *copiedBackAfter(const CallExpr *Call, unsigned Arg, const ModelAnalysis &A);
/// The name a summary records for \p P, and back.
llvm::StringRef purposeName(Purpose P);
std::optional<Purpose> purposeNamed(llvm::StringRef Name);

} // namespace clang::tidy::mlperf
