// Older ggml checkouts are included as "ggml/ggml-cuda.h".
#pragma once
#include <ggml-cuda.h>
