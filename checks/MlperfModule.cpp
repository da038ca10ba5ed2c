#include "MlperfModule.h"
#include "BackendChoiceCheck.h"
#include "BatchSizePow2Check.h"
#include "CompileInLoopCheck.h"
#include "CreateOnDeviceCheck.h"
#include "LoopInvariantTransferCheck.h"
#include "MaterializeInLoopCheck.h"
#include "MissingFinalizeCheck.h"
#include "NoGradInferenceCheck.h"
#include "RetainedGraphAccumulationCheck.h"
#include "SyncInLoopCheck.h"
#include "VariableBatchShapeCheck.h"

#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace clang::tidy::mlperf {

namespace {
constexpr CheckInfo Checks[] = {
    {"mlperf-backend-choice", "large model trained on the reference backend or a hard-coded CPU device", false},
    {"mlperf-batch-size-pow2", "constant batch size that is not a power of two, feeding an executable or accelerator",
     false},
    {"mlperf-compile-in-loop", "module, optimizer, data loader or executable built inside a loop that runs the model",
     true},
    {"mlperf-create-on-device", "tensor created on the host and moved to the device on every step", true},
    {"mlperf-loop-invariant-transfer", "host-to-device copy of a loop-invariant value on every step", true},
    {"mlperf-materialize-in-loop", "device-to-host copy or wait on every step", true},
    {"mlperf-sync-in-loop", "explicit device synchronization on every step", true},
    {"mlperf-missing-finalize", "device memory kept past the iteration or handle resources never released", true},
    {"mlperf-no-grad-inference", "model run for evaluation or inference with autograd on", true},
    {"mlperf-retained-graph-accumulation", "tensor with autograd history accumulated across iterations", true},
    {"mlperf-variable-batch-shape", "shape-specialized executable fed inputs whose shape changes per iteration",
     true},
};

class MlperfModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &F) override {
    F.registerCheck<BackendChoiceCheck>("mlperf-backend-choice");
    F.registerCheck<BatchSizePow2Check>("mlperf-batch-size-pow2");
    F.registerCheck<CompileInLoopCheck>("mlperf-compile-in-loop");
    F.registerCheck<CreateOnDeviceCheck>("mlperf-create-on-device");
    F.registerCheck<LoopInvariantTransferCheck>("mlperf-loop-invariant-transfer");
    F.registerCheck<MaterializeInLoopCheck>("mlperf-materialize-in-loop");
    F.registerCheck<SyncInLoopCheck>("mlperf-sync-in-loop");
    F.registerCheck<MissingFinalizeCheck>("mlperf-missing-finalize");
    F.registerCheck<NoGradInferenceCheck>("mlperf-no-grad-inference");
    F.registerCheck<RetainedGraphAccumulationCheck>("mlperf-retained-graph-accumulation");
    F.registerCheck<VariableBatchShapeCheck>("mlperf-variable-batch-shape");
  }
  ClangTidyOptions getModuleOptions() override {
    ClangTidyOptions Options;
    return Options;
  }
};
} // namespace

llvm::ArrayRef<CheckInfo> allChecks() { return Checks; }

llvm::StringRef defaultChecksGlob() {
  static const std::string Glob = [] {
    std::string G = "-*,mlperf-*";
    for (const CheckInfo &C : Checks)
      if (!C.EnabledByDefault)
        G += ",-" + C.Name.str();
    return G;
  }();
  return Glob;
}

void registerMlperfModule() {
  static ClangTidyModuleRegistry::Add<MlperfModule> Module("mlperf-module", "Performance checks for ML model code.");
}

} // namespace clang::tidy::mlperf
