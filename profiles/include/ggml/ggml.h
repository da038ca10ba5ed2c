// Older ggml checkouts are included as "ggml/ggml.h".
#pragma once
#include <ggml.h>
