// Older ggml checkouts are included as "ggml/ggml-alloc.h".
#pragma once
#include <ggml-alloc.h>
