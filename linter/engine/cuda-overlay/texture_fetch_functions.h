// Part of mlperf-lint's CUDA overlay, searched after every other include
// directory (-idirafter) and only for CUDA inputs parsed with --cuda-host-only.
//
// clang 19's CUDA wrapper (__clang_cuda_runtime_wrapper.h) includes this
// header unconditionally. It declared the texture-reference fetch functions
// (tex1Dfetch(texture<T>, int) ...). Texture references left the CUDA runtime
// in 12.0 and the header left the toolkit in 13.0; texture objects
// (texture_indirect_functions.h, still shipped) replace them. With no
// texture<> template in the toolkit there is nothing left to declare, and a
// host-only parse needs only that the include resolves. A 12.x toolkit (see
// mlperf-lint --cuda-path) ships its own copy, which is found first.
#pragma once
