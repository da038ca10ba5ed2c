// The "cuda" backend: the fused kernels of codegen/ compiled by NVRTC to PTX, loaded and
// launched with the CUDA driver API (dlopen'ed, so binaries load without a driver),
// cuBLAS for matmul, cuMemAlloc device memory (never managed memory), one stream per
// backend, every CUDA call checked.
#include "backends/cuda/cuda_backend.h"

#include <cublas_v2.h>
#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <unordered_map>

#include "codegen/codegen.h"
#include "fusion/fusion.h"
#include "kernel_cache.h"
#include "mlperf/rt/backend_interface.h"
#include "mlperf/rt/error.h"
#include "options.h"

namespace mlperf::rt::cuda {

namespace {

// The driver API, resolved from libcuda.so.1 at run time.
struct Driver {
#define MLPERF_CU_FN(name, sym) decltype(&::sym) name = nullptr;
#define MLPERF_CU_LIST(X)                             \
  X(Init, cuInit)                                     \
  X(DeviceGetCount, cuDeviceGetCount)                 \
  X(DeviceGet, cuDeviceGet)                           \
  X(DeviceGetAttribute, cuDeviceGetAttribute)         \
  X(DeviceGetName, cuDeviceGetName)                   \
  X(DevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain) \
  X(CtxSetCurrent, cuCtxSetCurrent)                   \
  X(StreamCreate, cuStreamCreate)                     \
  X(StreamDestroy, cuStreamDestroy_v2)                \
  X(StreamSynchronize, cuStreamSynchronize)           \
  X(MemAlloc, cuMemAlloc_v2)                          \
  X(MemFree, cuMemFree_v2)                            \
  X(MemcpyHtoDAsync, cuMemcpyHtoDAsync_v2)            \
  X(MemcpyDtoHAsync, cuMemcpyDtoHAsync_v2)            \
  X(MemcpyDtoDAsync, cuMemcpyDtoDAsync_v2)            \
  X(MemsetD8Async, cuMemsetD8Async)                   \
  X(ModuleLoadData, cuModuleLoadData)                 \
  X(ModuleUnload, cuModuleUnload)                     \
  X(ModuleGetFunction, cuModuleGetFunction)           \
  X(LaunchKernel, cuLaunchKernel)                     \
  X(GetErrorString, cuGetErrorString)
  MLPERF_CU_LIST(MLPERF_CU_FN)
#undef MLPERF_CU_FN
  bool ok = false;
  std::string why;
};

Driver& driver() {
  static Driver* d = [] {
    auto* d = new Driver();
    void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      d->why = "libcuda.so.1 not found (no NVIDIA driver)";
      return d;
    }
#define MLPERF_CU_LOAD(name, sym)                                \
  d->name = reinterpret_cast<decltype(d->name)>(dlsym(h, #sym)); \
  if (!d->name) {                                                \
    d->why = "libcuda.so.1 lacks " #sym;                         \
    return d;                                                    \
  }
    MLPERF_CU_LIST(MLPERF_CU_LOAD)
#undef MLPERF_CU_LOAD
    CUresult r = d->Init(0);
    int n = 0;
    if (r == CUDA_SUCCESS) r = d->DeviceGetCount(&n);
    if (r != CUDA_SUCCESS) {
      const char* s = nullptr;
      d->GetErrorString(r, &s);
      d->why = std::string("cuInit/cuDeviceGetCount failed: ") + (s ? s : "?");
      return d;
    }
    if (n == 0) {
      d->why = "the driver reports no CUDA device";
      return d;
    }
    d->ok = true;
    return d;
  }();
  return *d;
}

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* s = nullptr;
  if (driver().GetErrorString) driver().GetErrorString(r, &s);
  throw DeviceError(std::string("cuda: ") + what + " failed: " + (s ? s : "error " + std::to_string(r)));
}
void check_nvrtc(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS) throw DeviceError(std::string("nvrtc: ") + what + " failed: " + nvrtcGetErrorString(r));
}
void check_cublas(cublasStatus_t r, const char* what) {
  if (r != CUBLAS_STATUS_SUCCESS)
    throw DeviceError(std::string("cublas: ") + what + " failed: status " + std::to_string(static_cast<int>(r)));
}
#define CU(call) check(driver().call, #call)

}  // namespace

namespace {

std::string nvrtc_version() {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string compile_ptx_uncached(const std::string& source, const std::string& arch);

}  // namespace

std::string compile_ptx(const std::string& source, const std::string& arch, double* seconds, bool* from_disk) {
  auto t0 = std::chrono::steady_clock::now();
  const std::string dir = options::kernel_cache_dir();
  std::string path;
  if (!dir.empty()) {
    path = kernel_cache::path(dir, kernel_cache::key({"nvrtc", nvrtc_version(), arch, source}), ".ptx");
    auto e = kernel_cache::read(path);
    if (e && e->data.find(".version") != std::string::npos && e->data.find(".target") != std::string::npos) {
      if (from_disk) *from_disk = true;
      if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return e->data;
    }
  }
  std::string ptx = compile_ptx_uncached(source, arch);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!path.empty()) kernel_cache::write(dir, path, ptx, secs);
  if (from_disk) *from_disk = false;
  if (seconds) *seconds = secs;
  return ptx;
}

namespace {

std::string compile_ptx_uncached(const std::string& source, const std::string& arch) {
  nvrtcProgram prog;
  check_nvrtc(nvrtcCreateProgram(&prog, source.c_str(), "mlperf_kernels.cu", 0, nullptr, nullptr),
              "nvrtcCreateProgram");
  std::string a = "--gpu-architecture=" + arch;
  std::vector<const char*> opts = {a.c_str(), "--std=c++17", "-default-device", "--use_fast_math=false", "--minimal"};
  opts.erase(std::remove_if(opts.begin(), opts.end(),
                            [](const char* o) { return std::strcmp(o, "--use_fast_math=false") == 0; }),
             opts.end());
  nvrtcResult r = nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
  if (r == NVRTC_ERROR_INVALID_OPTION) {  // older NVRTC without --minimal
    opts.pop_back();
    nvrtcDestroyProgram(&prog);
    check_nvrtc(nvrtcCreateProgram(&prog, source.c_str(), "mlperf_kernels.cu", 0, nullptr, nullptr),
                "nvrtcCreateProgram");
    r = nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
  }
  if (r != NVRTC_SUCCESS) {
    size_t n = 0;
    nvrtcGetProgramLogSize(prog, &n);
    std::string log(n, '\0');
    nvrtcGetProgramLog(prog, log.data());
    nvrtcDestroyProgram(&prog);
    throw Error(std::string("nvrtc: compilation failed: ") + nvrtcGetErrorString(r) + "\n" + log +
                "\n--- source ---\n" + source);
  }
  size_t n = 0;
  check_nvrtc(nvrtcGetPTXSize(prog, &n), "nvrtcGetPTXSize");
  std::string ptx(n, '\0');
  check_nvrtc(nvrtcGetPTX(prog, ptx.data()), "nvrtcGetPTX");
  nvrtcDestroyProgram(&prog);
  return ptx;
}

}  // namespace

bool driver_available(std::string* why) {
  Driver& d = driver();
  if (why) *why = d.why;
  return d.ok;
}

namespace {

struct CudaKernel {
  CUfunction fn = nullptr;
  std::vector<int> params;
  int64_t iterations = 0;
};

class CudaExecutable : public Executable {
 public:
  fusion::Program prog;
  std::vector<CudaKernel> kernels;
  std::vector<CUdeviceptr> constants;  // per buffer
  std::function<void(CUdeviceptr)> release;
  std::function<void()> unload;  // its own module (options::KernelCache::Executable)
  ~CudaExecutable() override {
    for (CUdeviceptr p : constants)
      if (p && release) release(p);
    if (unload) unload();
  }
  int64_t kernel_count() const override { return static_cast<int64_t>(kernels.size() + prog.matmuls.size()); }
  int64_t scratch_bytes() const override { return fusion::peak_scratch_bytes(prog, true); }
};

class CudaBackend : public BackendImpl {
 public:
  CudaBackend() {
    Driver& d = driver();
    if (!d.ok) throw BackendError("cuda backend: " + d.why);
    CU(DeviceGet(&dev_, 0));
    CU(DevicePrimaryCtxRetain(&ctx_, dev_));
    CU(CtxSetCurrent(ctx_));
    int major = 0, minor = 0;
    CU(DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev_));
    CU(DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev_));
    arch_ = "compute_" + std::to_string(major * 10 + minor);
    char name[256] = {0};
    CU(DeviceGetName(name, sizeof name, dev_));
    device_name_ = name;
    CU(StreamCreate(&stream_, CU_STREAM_NON_BLOCKING));
    check_cublas(cublasCreate(&blas_), "cublasCreate");
    check_cublas(cublasSetStream(blas_, reinterpret_cast<cudaStream_t>(stream_)), "cublasSetStream");
  }
  ~CudaBackend() override {
    if (blas_) cublasDestroy(blas_);
    if (stream_) driver().StreamDestroy(stream_);
  }

  std::string name() const override { return "cuda"; }
  void* allocate(size_t bytes) override {
    CU(CtxSetCurrent(ctx_));
    CUdeviceptr p = 0;
    CU(MemAlloc(&p, std::max<size_t>(bytes, 4)));
    return reinterpret_cast<void*>(p);
  }
  void free(void* ptr, size_t) override {
    CU(CtxSetCurrent(ctx_));
    CU(MemFree(reinterpret_cast<CUdeviceptr>(ptr)));
  }
  void copy_host_to_device(void* dst, const void* src, size_t bytes) override {
    if (!bytes) return;
    CU(CtxSetCurrent(ctx_));
    CU(MemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(dst), src, bytes, stream_));
    CU(StreamSynchronize(stream_));  // the host staging buffer may go away after we return
  }
  void copy_device_to_host(void* dst, const void* src, size_t bytes) override {
    if (!bytes) return;
    CU(CtxSetCurrent(ctx_));
    CU(MemcpyDtoHAsync(dst, reinterpret_cast<CUdeviceptr>(src), bytes, stream_));
    CU(StreamSynchronize(stream_));
  }
  void synchronize() override {
    CU(CtxSetCurrent(ctx_));
    CU(StreamSynchronize(stream_));
  }

  std::unique_ptr<Executable> compile(const Graph& graph) override {
    CU(CtxSetCurrent(ctx_));
    auto exe = std::make_unique<CudaExecutable>();
    exe->prog = fusion::plan(graph);
    const fusion::Program& program = exe->prog;
    if (options::dump_enabled("fusion")) std::cerr << "[mlperf cuda] " << program.to_string();
    std::vector<codegen::Kernel> gen;
    std::string tu = codegen::prelude(codegen::Target::CUDA);
    std::vector<size_t> todo;
    // Per-executable kernels (the default) compile every kernel of the graph into a module of its own.
    std::unordered_map<std::string, CUfunction> own;
    auto& cache = options::kernel_cache() == options::KernelCache::Process ? cache_ : own;
    {
      std::lock_guard<std::mutex> lk(mu_);
      for (size_t k = 0; k < program.kernels.size(); ++k) {
        gen.push_back(codegen::generate(program, static_cast<int>(k), codegen::Target::CUDA));
        if (options::dump_enabled("source")) std::cerr << "[mlperf cuda] kernel " << k << ":\n" << gen.back().source;
        if (!cache.count(gen.back().source) && tu.find(gen.back().name) == std::string::npos) {
          tu += "\n" + gen.back().source;
          todo.push_back(k);
        }
      }
    }
    if (!todo.empty()) {
      double secs = 0;
      bool from_disk = false;
      std::string ptx = compile_ptx(tu, arch_, &secs, &from_disk);
      CUmodule mod;
      CU(ModuleLoadData(&mod, ptx.c_str()));
      if (&cache == &own)
        exe->unload = [ctx = ctx_, mod] {
          driver().CtxSetCurrent(ctx);
          driver().ModuleUnload(mod);
        };
      if (options::dump_enabled("compile"))
        std::cerr << "[mlperf cuda] compile: " << todo.size() << " kernels, "
                  << (from_disk ? "PTX from the persistent cache " : "nvrtc ") << secs * 1e3 << " ms (" << arch_
                  << ")\n";
      std::lock_guard<std::mutex> lk(mu_);
      for (size_t k : todo) {
        CUfunction f;
        CU(ModuleGetFunction(&f, mod, gen[k].name.c_str()));
        cache[gen[k].source] = f;
      }
      nvrtc_ns_ += static_cast<int64_t>(secs * 1e9);
      disk_hits_ += from_disk ? 1 : 0;
      compiled_ += static_cast<int64_t>(todo.size());
    }
    for (size_t k = 0; k < program.kernels.size(); ++k) {
      CudaKernel ck;
      {
        std::lock_guard<std::mutex> lk(mu_);
        ck.fn = cache.at(gen[k].source);
      }
      ck.params = gen[k].params;
      ck.iterations = program.kernels[k].iterations();
      exe->kernels.push_back(std::move(ck));
    }
    exe->constants.assign(program.buffers.size(), 0);
    exe->release = [ctx = ctx_](CUdeviceptr p) {
      driver().CtxSetCurrent(ctx);
      driver().MemFree(p);
    };
    for (size_t b = 0; b < program.buffers.size(); ++b) {
      const fusion::Buffer& buf = program.buffers[b];
      if (buf.kind != fusion::Buffer::Kind::Constant) continue;
      const NodeData& nd = program.nodes[static_cast<size_t>(buf.node)];
      std::vector<uint8_t> host(std::max<size_t>(buf.bytes(), 4));
      convert_to_storage(nd.dtype, host.data(), nd.attrs.literal->data(), nd.attrs.literal->size());
      CU(MemAlloc(&exe->constants[b], host.size()));
      CU(MemcpyHtoDAsync(exe->constants[b], host.data(), host.size(), stream_));
      CU(StreamSynchronize(stream_));
    }
    return exe;
  }

  void launch(Executable& e, const LaunchArgs& args) override {
    CU(CtxSetCurrent(ctx_));
    auto& exe = static_cast<CudaExecutable&>(e);
    const fusion::Program& program = exe.prog;
    std::vector<CUdeviceptr> ptr(program.buffers.size(), 0);
    std::vector<bool> owned(program.buffers.size(), false);
    struct Guard {
      CudaBackend* self;
      DeviceAllocator* a;
      const fusion::Program& program;
      std::vector<CUdeviceptr>& ptr;
      std::vector<bool>& owned;
      ~Guard() {
        driver().StreamSynchronize(self->stream_);  // kernels may still read the scratch buffers
        for (size_t b = 0; b < ptr.size(); ++b)
          if (owned[b]) a->free(reinterpret_cast<void*>(ptr[b]), program.buffers[b].bytes());
      }
    } guard{this, args.scratch, program, ptr, owned};
    for (size_t b = 0; b < program.buffers.size(); ++b) {
      const fusion::Buffer& buf = program.buffers[b];
      switch (buf.kind) {
        case fusion::Buffer::Kind::Input:
          ptr[b] = reinterpret_cast<CUdeviceptr>(args.inputs.at(static_cast<size_t>(buf.index)));
          break;
        case fusion::Buffer::Kind::Output:
          ptr[b] = reinterpret_cast<CUdeviceptr>(args.outputs.at(static_cast<size_t>(buf.index)));
          break;
        case fusion::Buffer::Kind::Constant:
          ptr[b] = exe.constants[b];
          break;
        case fusion::Buffer::Kind::Scratch:
          if (buf.first_step >= 0 && buf.bytes() > 0) {
            ptr[b] = reinterpret_cast<CUdeviceptr>(args.scratch->allocate(buf.bytes()));
            owned[b] = true;
          }
          break;
      }
    }
    const float one = 1.0f, zero = 0.0f;
    for (const fusion::Step& st : program.steps) {
      if (st.kind == fusion::Step::Kind::Kernel) {
        const CudaKernel& k = exe.kernels[static_cast<size_t>(st.index)];
        if (k.iterations <= 0) continue;
        std::vector<CUdeviceptr> vals;
        for (int b : k.params) vals.push_back(ptr[static_cast<size_t>(b)]);
        int64_t begin = 0, end = k.iterations;
        std::vector<void*> kp;
        for (auto& v : vals) kp.push_back(&v);
        kp.push_back(&begin);
        kp.push_back(&end);
        const unsigned block = 256;
        auto grid = static_cast<unsigned>(std::min<int64_t>((k.iterations + block - 1) / block, 1 << 20));
        CU(LaunchKernel(k.fn, grid, 1, 1, block, 1, 1, 0, stream_, kp.data(), nullptr));
      } else if (st.kind == fusion::Step::Kind::MatMul) {
        const fusion::MatMulDesc& m = program.matmuls[static_cast<size_t>(st.index)];
        auto* a_mat = reinterpret_cast<const float*>(ptr[static_cast<size_t>(m.a)]);
        auto* b_mat = reinterpret_cast<const float*>(ptr[static_cast<size_t>(m.b)]);
        auto* c_mat = reinterpret_cast<float*>(ptr[static_cast<size_t>(m.out)]);
        if (m.m == 0 || m.n == 0 || m.batch == 0) continue;
        if (m.k == 0) {
          CU(MemsetD8Async(ptr[static_cast<size_t>(m.out)], 0, static_cast<size_t>(m.batch * m.m * m.n) * 4, stream_));
          continue;
        }
        // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T.
        check_cublas(cublasSgemmStridedBatched(
                         blas_, m.tb ? CUBLAS_OP_T : CUBLAS_OP_N, m.ta ? CUBLAS_OP_T : CUBLAS_OP_N,
                         static_cast<int>(m.n), static_cast<int>(m.m), static_cast<int>(m.k), &one, b_mat,
                         static_cast<int>(m.tb ? m.k : m.n), m.k * m.n, a_mat, static_cast<int>(m.ta ? m.m : m.k),
                         m.m * m.k, &zero, c_mat, static_cast<int>(m.n), m.m * m.n, static_cast<int>(m.batch)),
                     "cublasSgemmStridedBatched");
      } else {
        const fusion::CopyDesc& c = program.copies[static_cast<size_t>(st.index)];
        if (c.bytes)
          CU(MemcpyDtoDAsync(ptr[static_cast<size_t>(c.dst)], ptr[static_cast<size_t>(c.src)], c.bytes, stream_));
      }
    }
  }

  nlohmann::json extra_stats() const override {
    return {{"device", device_name_},
            {"arch", arch_},
            {"nvrtc_kernels_compiled", compiled_},
            {"nvrtc_seconds", static_cast<double>(nvrtc_ns_) * 1e-9},
            {"nvrtc_persistent_cache_hits", disk_hits_},
            {"matmul", "cublasSgemmStridedBatched"}};
  }

 private:
  CUdevice dev_ = 0;
  CUcontext ctx_ = nullptr;
  CUstream stream_ = nullptr;
  cublasHandle_t blas_ = nullptr;
  std::string arch_, device_name_;
  std::mutex mu_;
  std::unordered_map<std::string, CUfunction> cache_;
  int64_t nvrtc_ns_ = 0, compiled_ = 0, disk_hits_ = 0;
};

}  // namespace
}  // namespace mlperf::rt::cuda

namespace mlperf::rt {

void register_cuda_backend() {
  // Only where a driver and a device exist, so Backend::create() never picks a cuda it cannot open.
  std::string why;
  if (!cuda::driver_available(&why)) {
    register_unavailable_backend("cuda", "the cuda backend is built, but no CUDA driver/device was found: " + why);
    return;
  }
  register_backend("cuda", 20, [] { return std::make_unique<cuda::CudaBackend>(); });
}

}  // namespace mlperf::rt
