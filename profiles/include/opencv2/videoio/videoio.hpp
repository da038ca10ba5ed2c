// OpenCV 2-style path of opencv2/videoio.hpp: see core.hpp.
#pragma once

#include "../videoio.hpp"
