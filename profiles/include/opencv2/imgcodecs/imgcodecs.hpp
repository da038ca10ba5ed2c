// OpenCV 2-style path of opencv2/imgcodecs.hpp: see core.hpp.
#pragma once

#include "../imgcodecs.hpp"
