// LibTorchFramework's shape: the batch loop is a member template of a base
// class, instantiated in no file of the project, and calls a virtual
// ProcessBatch with a batch of the loader's type, so the call is resolved
// only at instantiation; a subclass in another file trains in its override.
#pragma once
#include "fw.h"

struct Batch {
  int index;
};

class Runner {
public:
  virtual ~Runner() = default;
  template <typename Loader> void RunEpoch(Loader &loader) {
    for (auto &batch : loader)
      this->ProcessBatch(batch);
  }
  virtual void ProcessBatch(Batch &batch);

protected:
  Model model;
};
