// Another file changes the public field after construction: no longer a constant.
#include "loss.h"

void retune(AnchorLoss &loss) { loss.anchors = torch::ones(4); }
