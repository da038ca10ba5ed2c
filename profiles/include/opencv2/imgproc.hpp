// OpenCV's image processing (opencv2/imgproc.hpp): see core.hpp. Declarations only.
#pragma once

#include "core.hpp"

namespace cv {
enum InterpolationFlags { INTER_NEAREST = 0, INTER_LINEAR = 1, INTER_CUBIC = 2, INTER_AREA = 3, INTER_LANCZOS4 = 4 };
enum ColorConversionCodes {
  COLOR_BGR2BGRA = 0, COLOR_RGB2RGBA = 0, COLOR_BGRA2BGR = 1, COLOR_RGBA2RGB = 1, COLOR_BGR2RGBA = 2,
  COLOR_RGB2BGRA = 2, COLOR_RGBA2BGR = 3, COLOR_BGRA2RGB = 3, COLOR_BGR2RGB = 4, COLOR_RGB2BGR = 4,
  COLOR_BGR2GRAY = 6, COLOR_RGB2GRAY = 7, COLOR_GRAY2BGR = 8, COLOR_GRAY2RGB = 8, COLOR_BGR2HSV = 40,
  COLOR_HSV2BGR = 54
};
enum ThresholdTypes { THRESH_BINARY = 0, THRESH_BINARY_INV = 1, THRESH_TRUNC = 2, THRESH_OTSU = 8 };
enum RetrievalModes { RETR_EXTERNAL = 0, RETR_LIST = 1, RETR_CCOMP = 2, RETR_TREE = 3 };
enum ContourApproximationModes { CHAIN_APPROX_NONE = 1, CHAIN_APPROX_SIMPLE = 2 };
enum LineTypes { FILLED = -1, LINE_4 = 4, LINE_8 = 8, LINE_AA = 16 };
enum HersheyFonts { FONT_HERSHEY_SIMPLEX = 0, FONT_HERSHEY_PLAIN = 1, FONT_HERSHEY_DUPLEX = 2, FONT_HERSHEY_COMPLEX = 3 };

void resize(InputArray src, OutputArray dst, Size dsize, double fx = 0, double fy = 0,
            int interpolation = INTER_LINEAR);
void cvtColor(InputArray src, OutputArray dst, int code, int dstCn = 0);
void copyMakeBorder(InputArray src, OutputArray dst, int top, int bottom, int left, int right, int borderType,
                    const Scalar &value = Scalar());
void GaussianBlur(InputArray src, OutputArray dst, Size ksize, double sigmaX, double sigmaY = 0,
                  int borderType = BORDER_DEFAULT);
void blur(InputArray src, OutputArray dst, Size ksize);
void medianBlur(InputArray src, OutputArray dst, int ksize);
Mat getRotationMatrix2D(Point2f center, double angle, double scale);
Mat getAffineTransform(const Point2f src[], const Point2f dst[]);
Mat getPerspectiveTransform(const Point2f src[], const Point2f dst[], int solveMethod = DECOMP_LU);
void warpAffine(InputArray src, OutputArray dst, InputArray M, Size dsize, int flags = INTER_LINEAR,
                int borderMode = BORDER_CONSTANT, const Scalar &borderValue = Scalar());
void warpPerspective(InputArray src, OutputArray dst, InputArray M, Size dsize, int flags = INTER_LINEAR,
                     int borderMode = BORDER_CONSTANT, const Scalar &borderValue = Scalar());
double threshold(InputArray src, OutputArray dst, double thresh, double maxval, int type);
void findContours(InputArray image, OutputArrayOfArrays contours, int mode, int method, Point offset = Point());
void findContours(InputArray image, OutputArrayOfArrays contours, OutputArray hierarchy, int mode, int method,
                  Point offset = Point());
void drawContours(InputOutputArray image, InputArrayOfArrays contours, int contourIdx, const Scalar &color,
                  int thickness = 1, int lineType = LINE_8);
Rect boundingRect(InputArray array);
double contourArea(InputArray contour, bool oriented = false);
void rectangle(InputOutputArray img, Point pt1, Point pt2, const Scalar &color, int thickness = 1,
               int lineType = LINE_8, int shift = 0);
void rectangle(InputOutputArray img, Rect rec, const Scalar &color, int thickness = 1, int lineType = LINE_8,
               int shift = 0);
void circle(InputOutputArray img, Point center, int radius, const Scalar &color, int thickness = 1,
            int lineType = LINE_8, int shift = 0);
void line(InputOutputArray img, Point pt1, Point pt2, const Scalar &color, int thickness = 1, int lineType = LINE_8,
          int shift = 0);
void putText(InputOutputArray img, const std::string &text, Point org, int fontFace, double fontScale, Scalar color,
             int thickness = 1, int lineType = LINE_8, bool bottomLeftOrigin = false);
Size getTextSize(const std::string &text, int fontFace, double fontScale, int thickness, int *baseLine);
void fillPoly(InputOutputArray img, InputArrayOfArrays pts, const Scalar &color, int lineType = LINE_8);
}  // namespace cv
