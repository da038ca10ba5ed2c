// OpenCV 2-style path of opencv2/imgproc.hpp: see core.hpp.
#pragma once

#include "../imgproc.hpp"
