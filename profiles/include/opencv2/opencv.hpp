// OpenCV's umbrella header (opencv2/opencv.hpp): see core.hpp.
#pragma once

#include "core.hpp"
