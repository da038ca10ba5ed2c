// OpenCV 2-style path of opencv2/highgui.hpp: see core.hpp.
#pragma once

#include "../highgui.hpp"
