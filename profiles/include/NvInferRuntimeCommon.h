// TensorRT's NvInferRuntimeCommon.h: its declarations are in NvInferRuntime.h here.
#pragma once

#include "NvInferRuntime.h"
