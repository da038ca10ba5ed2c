// What the constant sizes in model code say about a model: the parameters of
// a layer (backend-choice, model-memory), its output width and element size,
// and the copies of the parameters an optimizer keeps (model-memory).
#pragma once

#include "ApiProfile.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <vector>

namespace clang::tidy::mlperf {

struct LayerSize {
  int64_t Parameters = 0;
  bool Trainable = true;
  /// Values one example produces (the last dimension of a weight of rank >= 2,
  /// or an integer width); none when the sizes do not say (convolutions).
  std::optional<int64_t> OutputWidth;
  unsigned ElementBytes = 4;
};

/// The size of a layer constructed with constant sizes (a `layer` fact), or none.
std::optional<LayerSize> layerSize(const Expr *E, const ProfileEntry &Entry, const ASTContext &Ctx);

/// The memory of one training step by term, in bytes (the formula:
/// docs/checks/model-memory.md).
struct StepMemory {
  /// Values per layer output a step holds: the output, the activated value
  /// kept for the backward pass, and its gradient.
  static constexpr int64_t ValuesPerOutput = 3;
  double Parameters = 0, Gradients = 0, OptimizerState = 0, UpdatedCopies = 0, Activations = 0;
  double PerExample = 0; // activation bytes of one example
  int64_t ParameterCount = 0, Outputs = 0;
  bool Wide = false; // some layer stores more than 2 bytes per element
  double fixed() const { return Parameters + Gradients + OptimizerState + UpdatedCopies; }
  double total() const { return fixed() + Activations; }
};

/// The batch size a `batch-size` fact's argument states, when it is a positive constant.
std::optional<int64_t> constantBatchSize(const Expr *E, const ProfileEntry &Entry, const ASTContext &Ctx);

/// The layers a translation unit constructs with constant sizes and the
/// largest constant batch size it states (`layer` and `batch-size` facts in
/// the project's code): the model-memory check's sizes, for other checks.
struct ModelSizes {
  std::vector<LayerSize> Layers;
  unsigned Unsized = 0; // layers whose sizes are not constants
  std::optional<int64_t> Batch;
};
ModelSizes modelSizesOf(ASTContext &Ctx, const ApiProfiles &P);
/// What one step's autograd graph keeps alive until its loss goes: for each
/// layer output, the output and the activated value the backward pass reads,
/// for the batch's examples. None unless the batch and every layer's sizes
/// and output width are known.
std::optional<double> graphBytes(const ModelSizes &S);

/// \p Copies of the trainable parameters kept by the optimizer, written anew
/// each step when \p OutOfPlace; activations only with a batch size.
StepMemory estimateStep(llvm::ArrayRef<LayerSize> Layers, unsigned Copies, bool OutOfPlace,
                        std::optional<int64_t> Batch);

/// Copies of the parameters the optimizer constructed by \p E keeps as state
/// (an `optimizer-state` fact): its fixed copies, plus one for a momentum that
/// is not a constant zero.
unsigned optimizerCopies(const Expr *E, const ProfileEntry &Entry, const ASTContext &Ctx);

} // namespace clang::tidy::mlperf
