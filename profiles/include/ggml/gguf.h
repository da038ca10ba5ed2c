// Older ggml checkouts are included as "ggml/gguf.h".
#pragma once
#include <gguf.h>
