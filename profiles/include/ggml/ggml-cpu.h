// Older ggml checkouts are included as "ggml/ggml-cpu.h".
#pragma once
#include <ggml-cpu.h>
