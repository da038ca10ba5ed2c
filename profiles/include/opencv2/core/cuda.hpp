// OpenCV's CUDA images (opencv2/core/cuda.hpp): cv::cuda::GpuMat and streams,
// as TensorRT pipelines hold them. See ../core.hpp. Declarations only.
#pragma once

#include "../core.hpp"

namespace cv {
namespace cuda {
class Stream {
 public:
  Stream();
  static Stream &Null();
  void waitForCompletion();
  bool queryIfComplete() const;
};

class GpuMat {
 public:
  GpuMat();
  GpuMat(int rows, int cols, int type);
  GpuMat(Size size, int type);
  GpuMat(int rows, int cols, int type, Scalar s);
  GpuMat(Size size, int type, Scalar s);
  GpuMat(int rows, int cols, int type, void *data, size_t step = 0);
  GpuMat(Size size, int type, void *data, size_t step = 0);
  GpuMat(const GpuMat &m, Rect roi);
  explicit GpuMat(InputArray arr);
  void upload(InputArray arr);
  void upload(InputArray arr, Stream &stream);
  void download(OutputArray dst) const;
  void download(OutputArray dst, Stream &stream) const;
  GpuMat clone() const;
  void copyTo(OutputArray dst) const;
  void convertTo(OutputArray dst, int rtype, double alpha = 1, double beta = 0) const;
  void convertTo(OutputArray dst, int rtype, double alpha, double beta, Stream &stream) const;
  GpuMat reshape(int cn, int rows = 0) const;
  GpuMat &setTo(Scalar s);
  void create(int rows, int cols, int type);
  void create(Size size, int type);
  void release();
  bool empty() const;
  bool isContinuous() const;
  size_t elemSize() const;
  int type() const;
  int depth() const;
  int channels() const;
  Size size() const;
  uchar *ptr(int y = 0);
  const uchar *ptr(int y = 0) const;
  template <typename T> T *ptr(int y = 0);
  template <typename T> const T *ptr(int y = 0) const;
  GpuMat operator()(Rect roi) const;
  GpuMat rowRange(int startrow, int endrow) const;
  GpuMat colRange(int startcol, int endcol) const;
  int flags, rows, cols;
  size_t step;
  uchar *data;
};

void createContinuous(int rows, int cols, int type, OutputArray arr);
}  // namespace cuda
}  // namespace cv
