// OpenCV's windows (opencv2/highgui.hpp): see core.hpp. Declarations only.
#pragma once

#include "core.hpp"

namespace cv {
enum WindowFlags { WINDOW_NORMAL = 0, WINDOW_AUTOSIZE = 1 };
void namedWindow(const std::string &winname, int flags = WINDOW_AUTOSIZE);
void imshow(const std::string &winname, InputArray mat);
int waitKey(int delay = 0);
void destroyWindow(const std::string &winname);
void destroyAllWindows();
}  // namespace cv
