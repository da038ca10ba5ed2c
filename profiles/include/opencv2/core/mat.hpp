// OpenCV 2-style path of opencv2/core.hpp: see core.hpp.
#pragma once

#include "../core.hpp"
