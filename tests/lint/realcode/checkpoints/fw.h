// A tiny framework described by profile.json: a module, loaded from a
// checkpoint file, and a helper of the project that builds one.
#pragma once
#include <string>
namespace fw {
struct Module {};
void use_gpu();
} // namespace fw

struct Model : fw::Module {
  float forward(int batch) const;
};
namespace fw {
void load(Model &model, const std::string &path);
} // namespace fw

Model make_model(int width);
