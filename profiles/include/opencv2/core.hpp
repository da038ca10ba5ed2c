// Declarations of the part of OpenCV (4.x) that ML programs use around a
// model: images (cv::Mat), their geometry, reading, writing, resizing and
// drawing, video capture. Not an API the profiles describe: a data pipeline's
// classes hold these types, and without their declarations clang drops every
// statement that uses such a class (a range-for over a data loader of them).
// mlperf-lint uses it only in place of an OpenCV the machine does not have.
// Declarations only, with OpenCV's namespaces and signatures (simplified
// where OpenCV uses proxy classes: an InputArray accepts anything).
#pragma once

// What the real headers bring in with them (cvstd.hpp, cvstd.inl,
// cvstd_wrapper.hpp), which programs come to rely on.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

typedef unsigned char uchar;
typedef signed char schar;
typedef unsigned short ushort;

#define CV_8U 0
#define CV_8S 1
#define CV_16U 2
#define CV_16S 3
#define CV_32S 4
#define CV_32F 5
#define CV_64F 6
#define CV_MAKETYPE(depth, cn) ((depth) + (((cn) - 1) << 3))
#define CV_8UC(n) CV_MAKETYPE(CV_8U, (n))
#define CV_8UC1 CV_MAKETYPE(CV_8U, 1)
#define CV_8UC3 CV_MAKETYPE(CV_8U, 3)
#define CV_8UC4 CV_MAKETYPE(CV_8U, 4)
#define CV_32SC1 CV_MAKETYPE(CV_32S, 1)
#define CV_32FC1 CV_MAKETYPE(CV_32F, 1)
#define CV_32FC3 CV_MAKETYPE(CV_32F, 3)
#define CV_64FC1 CV_MAKETYPE(CV_64F, 1)
#define CV_BGR2RGB 4
#define CV_RGB2BGR 4
#define CV_BGR2GRAY 6
#define CV_INTER_LINEAR 1
#define CV_LOAD_IMAGE_COLOR 1
#define CV_RGB(r, g, b) cv::Scalar((b), (g), (r), 0)
#define CV_PI 3.1415926535897932384626433832795

namespace cv {
template <typename T> T saturate_cast(double v);

template <typename T> class Size_ {
 public:
  Size_();
  Size_(T width, T height);
  template <typename U> operator Size_<U>() const;
  T area() const;
  bool empty() const;
  T width, height;
};
typedef Size_<int> Size2i;
typedef Size_<float> Size2f;
typedef Size_<double> Size2d;
typedef Size2i Size;

template <typename T> class Point_ {
 public:
  Point_();
  Point_(T x, T y);
  template <typename U> operator Point_<U>() const;
  T dot(const Point_ &pt) const;
  T x, y;
};
typedef Point_<int> Point2i;
typedef Point_<float> Point2f;
typedef Point_<double> Point2d;
typedef Point2i Point;
template <typename T> Point_<T> operator+(const Point_<T> &a, const Point_<T> &b);
template <typename T> Point_<T> operator-(const Point_<T> &a, const Point_<T> &b);

template <typename T> class Point3_ {
 public:
  Point3_();
  Point3_(T x, T y, T z);
  T x, y, z;
};
typedef Point3_<float> Point3f;

template <typename T> class Rect_ {
 public:
  Rect_();
  Rect_(T x, T y, T width, T height);
  Rect_(const Point_<T> &pt1, const Point_<T> &pt2);
  template <typename U> operator Rect_<U>() const;
  Point_<T> tl() const;
  Point_<T> br() const;
  Size_<T> size() const;
  T area() const;
  bool empty() const;
  bool contains(const Point_<T> &pt) const;
  T x, y, width, height;
};
typedef Rect_<int> Rect2i;
typedef Rect_<float> Rect2f;
typedef Rect_<double> Rect2d;
typedef Rect2i Rect;
template <typename T> Rect_<T> operator&(const Rect_<T> &a, const Rect_<T> &b);
template <typename T> Rect_<T> operator|(const Rect_<T> &a, const Rect_<T> &b);

template <typename T> class Scalar_ {
 public:
  Scalar_();
  Scalar_(T v0, T v1 = 0, T v2 = 0, T v3 = 0);
  static Scalar_ all(T v0);
  T &operator[](int i);
  const T &operator[](int i) const;
  T val[4];
};
typedef Scalar_<double> Scalar;

template <typename T, int n> class Vec {
 public:
  Vec();
  Vec(T v0, T v1 = 0, T v2 = 0, T v3 = 0);
  T &operator[](int i);
  const T &operator[](int i) const;
  T val[n];
};
typedef Vec<uchar, 3> Vec3b;
typedef Vec<uchar, 4> Vec4b;
typedef Vec<int, 4> Vec4i;
typedef Vec<float, 2> Vec2f;
typedef Vec<float, 3> Vec3f;
typedef Vec<float, 4> Vec4f;
typedef Vec<double, 3> Vec3d;

class Range {
 public:
  Range();
  Range(int start, int end);
  static Range all();
  int start, end;
};

class _InputArray {
 public:
  _InputArray();
  template <typename T> _InputArray(const T &obj);
  bool empty() const;
};
class _OutputArray : public _InputArray {
 public:
  _OutputArray();
  template <typename T> _OutputArray(T &obj);
  template <typename T> _OutputArray(const T &obj);
};
typedef const _InputArray &InputArray;
typedef InputArray InputArrayOfArrays;
typedef const _OutputArray &OutputArray;
typedef OutputArray OutputArrayOfArrays;
typedef OutputArray InputOutputArray;
typedef OutputArray InputOutputArrayOfArrays;
OutputArray noArray();

class Mat;
struct MatSize {
  Size operator()() const;
  int operator[](int i) const;
  int dims() const;
  int *p;
};
struct MatStep {
  size_t operator[](int i) const;
  operator size_t() const;
};

class Mat {
 public:
  Mat();
  Mat(int rows, int cols, int type);
  Mat(Size size, int type);
  Mat(int rows, int cols, int type, const Scalar &s);
  Mat(Size size, int type, const Scalar &s);
  Mat(int rows, int cols, int type, void *data, size_t step = 0);
  Mat(Size size, int type, void *data, size_t step = 0);
  Mat(int ndims, const int *sizes, int type);
  Mat(int ndims, const int *sizes, int type, void *data, const size_t *steps = nullptr);
  Mat(const std::vector<int> &sizes, int type);
  Mat(const Mat &m, const Rect &roi);
  Mat(const Mat &m, const Range &rowRange, const Range &colRange = Range::all());
  template <typename T> explicit Mat(const std::vector<T> &vec, bool copyData = false);
  Mat(const Mat &m);
  Mat(Mat &&m);
  Mat &operator=(const Mat &m);
  Mat &operator=(Mat &&m);
  Mat &operator=(const Scalar &s);
  ~Mat();

  static Mat zeros(int rows, int cols, int type);
  static Mat zeros(Size size, int type);
  static Mat ones(int rows, int cols, int type);
  static Mat ones(Size size, int type);
  static Mat eye(int rows, int cols, int type);

  Mat clone() const;
  void copyTo(OutputArray m) const;
  void copyTo(OutputArray m, InputArray mask) const;
  void convertTo(OutputArray m, int rtype, double alpha = 1, double beta = 0) const;
  Mat reshape(int cn, int rows = 0) const;
  Mat reshape(int cn, int newndims, const int *newsz) const;
  Mat row(int y) const;
  Mat col(int x) const;
  Mat rowRange(int startrow, int endrow) const;
  Mat colRange(int startcol, int endcol) const;
  Mat t() const;
  Mat inv(int method = 0) const;
  Mat mul(InputArray m, double scale = 1) const;
  double dot(InputArray m) const;
  Mat &setTo(InputArray value, InputArray mask = noArray());
  void create(int rows, int cols, int type);
  void create(Size size, int type);
  void release();
  void push_back(const Mat &m);
  bool empty() const;
  bool isContinuous() const;
  size_t total() const;
  size_t elemSize() const;
  size_t elemSize1() const;
  int type() const;
  int depth() const;
  int channels() const;
  template <typename T> T &at(int i0);
  template <typename T> const T &at(int i0) const;
  template <typename T> T &at(int row, int col);
  template <typename T> const T &at(int row, int col) const;
  template <typename T> T &at(Point pt);
  template <typename T> const T &at(Point pt) const;
  uchar *ptr(int i0 = 0);
  const uchar *ptr(int i0 = 0) const;
  template <typename T> T *ptr(int i0 = 0);
  template <typename T> const T *ptr(int i0 = 0) const;
  template <typename T> T *ptr(int row, int col);
  Mat operator()(const Rect &roi) const;
  Mat operator()(Range rowRange, Range colRange) const;

  int flags;
  int dims;
  int rows, cols;
  uchar *data;
  MatSize size;
  MatStep step;
};

Mat operator+(const Mat &a, const Mat &b);
Mat operator+(const Mat &a, const Scalar &s);
Mat operator-(const Mat &a, const Mat &b);
Mat operator-(const Mat &a, const Scalar &s);
Mat operator-(const Mat &m);
Mat operator*(const Mat &a, const Mat &b);
Mat operator*(const Mat &a, double s);
Mat operator*(double s, const Mat &a);
Mat operator/(const Mat &a, const Mat &b);
Mat operator/(const Mat &a, double s);
Mat operator/(double s, const Mat &a);
Mat operator>(const Mat &a, double s);
Mat operator<(const Mat &a, double s);
Mat operator&(const Mat &a, const Mat &b);

template <typename T> class Mat_ : public Mat {
 public:
  Mat_();
  Mat_(int rows, int cols);
  Mat_(int rows, int cols, const T &value);
  T &operator()(int row, int col);
};
typedef Mat_<float> Mat1f;
typedef Mat_<uchar> Mat1b;

class Exception : public std::exception {
 public:
  const char *what() const noexcept override;
  std::string msg;
  int code;
};

void split(const Mat &src, Mat *mvbegin);
void split(InputArray m, OutputArrayOfArrays mv);
void merge(const Mat *mv, size_t count, OutputArray dst);
void merge(InputArrayOfArrays mv, OutputArray dst);
void hconcat(InputArray src1, InputArray src2, OutputArray dst);
void hconcat(InputArrayOfArrays src, OutputArray dst);
void vconcat(InputArray src1, InputArray src2, OutputArray dst);
void vconcat(InputArrayOfArrays src, OutputArray dst);
void flip(InputArray src, OutputArray dst, int flipCode);
void transpose(InputArray src, OutputArray dst);
void normalize(InputArray src, InputOutputArray dst, double alpha = 1, double beta = 0, int norm_type = 4,
               int dtype = -1, InputArray mask = noArray());
void minMaxLoc(InputArray src, double *minVal, double *maxVal = nullptr, Point *minLoc = nullptr,
               Point *maxLoc = nullptr, InputArray mask = noArray());
Scalar sum(InputArray src);
Scalar mean(InputArray src, InputArray mask = noArray());
void meanStdDev(InputArray src, OutputArray mean, OutputArray stddev, InputArray mask = noArray());
void add(InputArray src1, InputArray src2, OutputArray dst, InputArray mask = noArray(), int dtype = -1);
void subtract(InputArray src1, InputArray src2, OutputArray dst, InputArray mask = noArray(), int dtype = -1);
void multiply(InputArray src1, InputArray src2, OutputArray dst, double scale = 1, int dtype = -1);
void divide(InputArray src1, InputArray src2, OutputArray dst, double scale = 1, int dtype = -1);
void absdiff(InputArray src1, InputArray src2, OutputArray dst);
void exp(InputArray src, OutputArray dst);
void log(InputArray src, OutputArray dst);
void pow(InputArray src, double power, OutputArray dst);
void sqrt(InputArray src, OutputArray dst);
int countNonZero(InputArray src);
void randu(InputOutputArray dst, InputArray low, InputArray high);
void randn(InputOutputArray dst, InputArray mean, InputArray stddev);

enum NormTypes { NORM_INF = 1, NORM_L1 = 2, NORM_L2 = 4, NORM_MINMAX = 32 };
enum BorderTypes { BORDER_CONSTANT = 0, BORDER_REPLICATE = 1, BORDER_REFLECT = 2, BORDER_WRAP = 3, BORDER_REFLECT_101 = 4,
                   BORDER_DEFAULT = BORDER_REFLECT_101 };
enum DecompTypes { DECOMP_LU = 0, DECOMP_SVD = 1 };
}  // namespace cv

#include "imgproc.hpp"
#include "imgcodecs.hpp"
#include "videoio.hpp"
#include "highgui.hpp"
