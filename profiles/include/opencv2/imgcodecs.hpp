// OpenCV's image files (opencv2/imgcodecs.hpp): see core.hpp. Declarations only.
#pragma once

#include "core.hpp"

namespace cv {
enum ImreadModes { IMREAD_UNCHANGED = -1, IMREAD_GRAYSCALE = 0, IMREAD_COLOR = 1, IMREAD_ANYDEPTH = 2 };
enum ImwriteFlags { IMWRITE_JPEG_QUALITY = 1, IMWRITE_PNG_COMPRESSION = 16 };
Mat imread(const std::string &filename, int flags = IMREAD_COLOR);
bool imwrite(const std::string &filename, InputArray img, const std::vector<int> &params = std::vector<int>());
Mat imdecode(InputArray buf, int flags);
bool imencode(const std::string &ext, InputArray img, std::vector<uchar> &buf,
              const std::vector<int> &params = std::vector<int>());
}  // namespace cv
