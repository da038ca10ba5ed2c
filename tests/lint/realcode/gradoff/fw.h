// A tiny framework with autograd, described by profile.json.
#pragma once
namespace fw {
struct Tensor {};
struct Model { Tensor forward(int) const; };
struct NoGradGuard { NoGradGuard(); ~NoGradGuard(); };
} // namespace fw
void detect_all(const fw::Model &m, int n);
