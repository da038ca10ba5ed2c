#include <torch/script.h>
#include <torch/torch.h>
