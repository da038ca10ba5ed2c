// OpenCV's CUDA resizing and warping (opencv2/cudawarping.hpp): see core/cuda.hpp. Declarations only.
#pragma once

#include "core/cuda.hpp"

namespace cv {
namespace cuda {
void resize(InputArray src, OutputArray dst, Size dsize, double fx = 0, double fy = 0,
            int interpolation = INTER_LINEAR, Stream &stream = Stream::Null());
void warpAffine(InputArray src, OutputArray dst, InputArray M, Size dsize, int flags = INTER_LINEAR,
                int borderMode = BORDER_CONSTANT, Scalar borderValue = Scalar(), Stream &stream = Stream::Null());
}  // namespace cuda
}  // namespace cv
