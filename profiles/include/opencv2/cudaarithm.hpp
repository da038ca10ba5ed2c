// OpenCV's CUDA arithmetic (opencv2/cudaarithm.hpp): see core/cuda.hpp. Declarations only.
#pragma once

#include "core/cuda.hpp"

namespace cv {
namespace cuda {
void add(InputArray src1, InputArray src2, OutputArray dst, InputArray mask = noArray(), int dtype = -1,
         Stream &stream = Stream::Null());
void subtract(InputArray src1, InputArray src2, OutputArray dst, InputArray mask = noArray(), int dtype = -1,
              Stream &stream = Stream::Null());
void multiply(InputArray src1, InputArray src2, OutputArray dst, double scale = 1, int dtype = -1,
              Stream &stream = Stream::Null());
void divide(InputArray src1, InputArray src2, OutputArray dst, double scale = 1, int dtype = -1,
            Stream &stream = Stream::Null());
void split(InputArray src, GpuMat *dst, Stream &stream = Stream::Null());
void split(InputArray src, std::vector<GpuMat> &dst, Stream &stream = Stream::Null());
void merge(const GpuMat *src, size_t n, OutputArray dst, Stream &stream = Stream::Null());
void merge(const std::vector<GpuMat> &src, OutputArray dst, Stream &stream = Stream::Null());
void copyMakeBorder(InputArray src, OutputArray dst, int top, int bottom, int left, int right, int borderType,
                    Scalar value = Scalar(), Stream &stream = Stream::Null());
}  // namespace cuda
}  // namespace cv
