#include "MlperfModule.h"
#include "AllocInLoopCheck.h"
#include "BackendChoiceCheck.h"
#include "BatchSizePow2Check.h"
#include "CompileInLoopCheck.h"
#include "CreateOnDeviceCheck.h"
#include "DecodeBatchingCheck.h"
#include "LoopInvariantTransferCheck.h"
#include "MaterializeInLoopCheck.h"
#include "MissingFinalizeCheck.h"
#include "ModelMemoryCheck.h"
#include "NoGradInferenceCheck.h"
#include "PageableAsyncCopyCheck.h"
#include "PerElementReadCheck.h"
#include "RetainedGraphAccumulationCheck.h"
#include "SyncInLoopCheck.h"
#include "VariableBatchShapeCheck.h"

#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace clang::tidy::mlperf {

namespace {
template <class T> void registerAs(ClangTidyCheckFactories &F, llvm::StringRef Name) { F.registerCheck<T>(Name); }

struct CheckEntry {
  CheckInfo Info;
  void (*Register)(ClangTidyCheckFactories &, llvm::StringRef);
};

/// Every check, sorted by name: its summary, default state and class.
constexpr CheckEntry Checks[] = {
    {{"mlperf-alloc-in-loop",
      "device memory, pinned memory, streams or allocator contexts allocated and freed every step", true},
     registerAs<AllocInLoopCheck>},
    {{"mlperf-backend-choice", "large model trained on the reference backend or a hard-coded CPU device", false},
     registerAs<BackendChoiceCheck>},
    {{"mlperf-batch-size-pow2", "constant batch size that is not a power of two, feeding an executable or accelerator",
      false},
     registerAs<BatchSizePow2Check>},
    {{"mlperf-compile-in-loop", "module, optimizer, data loader or executable built inside a loop that runs the model",
      true},
     registerAs<CompileInLoopCheck>},
    {{"mlperf-create-on-device", "tensor created on the host and moved to the device on every step", true},
     registerAs<CreateOnDeviceCheck>},
    {{"mlperf-decode-batching",
      "prompt decoded one token per call, or outputs requested for every token when only the last is read", true},
     registerAs<DecodeBatchingCheck>},
    {{"mlperf-loop-invariant-transfer", "host-to-device copy of a loop-invariant value on every step", true},
     registerAs<LoopInvariantTransferCheck>},
    {{"mlperf-materialize-in-loop", "device-to-host copy or wait on every step", true},
     registerAs<MaterializeInLoopCheck>},
    {{"mlperf-missing-finalize", "device memory kept past the iteration or handle resources never released", true},
     registerAs<MissingFinalizeCheck>},
    {{"mlperf-model-memory", "training step estimated to need more device memory than DeviceMemory", true},
     registerAs<ModelMemoryCheck>},
    {{"mlperf-no-grad-inference", "model run for evaluation or inference with autograd on", true},
     registerAs<NoGradInferenceCheck>},
    {{"mlperf-pageable-async-copy", "asynchronous host-device copy of pageable host memory, which runs synchronously",
      true},
     registerAs<PageableAsyncCopyCheck>},
    {{"mlperf-per-element-read", "tensor read element by element in a loop, a device round trip per element", true},
     registerAs<PerElementReadCheck>},
    {{"mlperf-retained-graph-accumulation", "tensor with autograd history accumulated across iterations", true},
     registerAs<RetainedGraphAccumulationCheck>},
    {{"mlperf-sync-in-loop", "explicit device synchronization on every step", true}, registerAs<SyncInLoopCheck>},
    {{"mlperf-variable-batch-shape", "shape-specialized executable fed inputs whose shape changes per iteration", true},
     registerAs<VariableBatchShapeCheck>},
};

class MlperfModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &F) override {
    for (const CheckEntry &C : Checks)
      C.Register(F, C.Info.Name);
  }
  ClangTidyOptions getModuleOptions() override { return ClangTidyOptions(); }
};
} // namespace

llvm::ArrayRef<CheckInfo> allChecks() {
  static const std::vector<CheckInfo> Infos = [] {
    std::vector<CheckInfo> V;
    for (const CheckEntry &C : Checks)
      V.push_back(C.Info);
    return V;
  }();
  return Infos;
}

llvm::StringRef defaultChecksGlob() {
  static const std::string Glob = [] {
    std::string G = "-*,mlperf-*";
    for (const CheckEntry &C : Checks)
      if (!C.Info.EnabledByDefault)
        G += ",-" + C.Info.Name.str();
    return G;
  }();
  return Glob;
}

void registerMlperfModule() {
  static ClangTidyModuleRegistry::Add<MlperfModule> Module("mlperf-module", "Performance checks for ML model code.");
}

} // namespace clang::tidy::mlperf
