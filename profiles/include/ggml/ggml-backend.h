// Older ggml checkouts are included as "ggml/ggml-backend.h".
#pragma once
#include <ggml-backend.h>
