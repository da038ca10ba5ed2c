#include <torch/torch.h>
#include <torch/script.h>
