// Older ggml checkouts are included as "ggml/ggml-metal.h".
#pragma once
#include <ggml-metal.h>
