// Declarations of TensorRT's plugin library entry point (NvInferPlugin.h),
// for programs that load an engine with plugins. Declarations only.
#pragma once

#include "NvInferRuntime.h"

extern "C" bool initLibNvInferPlugins(void *logger, char const *libNamespace);
