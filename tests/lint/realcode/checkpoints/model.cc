#include "fw.h"

Model make_model(int width) {
  fw::use_gpu();
  return Model();
}
