// OpenCV's CUDA color conversion (opencv2/cudaimgproc.hpp): see core/cuda.hpp. Declarations only.
#pragma once

#include "core/cuda.hpp"

namespace cv {
namespace cuda {
void cvtColor(InputArray src, OutputArray dst, int code, int dcn = 0, Stream &stream = Stream::Null());
}  // namespace cuda
}  // namespace cv
