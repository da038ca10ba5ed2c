// The "cpu" backend: fused kernels generated as C, compiled in-process with clang 19
// and ORC LLJIT, run over a thread pool; f32 matmuls through cblas_sgemm or a tiled AVX-512
// kernel, the faster per shape (sgemm.h).
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/cpu/sgemm.h"
#include "backends/cpu/thread_pool.h"
#include "codegen/codegen.h"
#include "fusion/fusion.h"
#include "jit/jit.h"
#include "mlperf/rt/backend_interface.h"
#include "mlperf/rt/error.h"
#include "options.h"
#include "reference/kernels.h"

namespace mlperf::rt {

namespace {

using KernelFn = void (*)(void* const*, int64_t, int64_t);

struct CpuKernel {
  KernelFn fn = nullptr;
  std::vector<int> params;
  int64_t iterations = 0;
  int64_t grain = 1;
};

class CpuExecutable : public Executable {
 public:
  fusion::Program prog;
  std::vector<CpuKernel> kernels;
  std::vector<std::vector<uint8_t>> constants;      // per buffer (Constant kind)
  std::vector<std::vector<int>> alloc_at, free_at;  // scratch buffers per step
  int64_t kernel_count() const override { return static_cast<int64_t>(kernels.size() + prog.matmuls.size()); }
  int64_t scratch_bytes() const override { return fusion::peak_scratch_bytes(prog, false); }
  std::shared_ptr<void> module;  // the JIT's per-executable kernels (see options::KernelCache)
  // launch()'s working arrays, sized once: a steady-state step allocates no host memory of its own
  // (launches of one executable are serialized on the backend's stream thread).
  std::vector<void*> ptr, kargs;
  std::vector<char> owned;
  // MLPERF_DUMP=profile: wall time per step, summed over runs, printed when the executable dies.
  bool profile = false;
  int64_t runs = 0;
  std::vector<double> step_seconds;
  ~CpuExecutable() override {
    if (!profile || runs == 0) return;
    std::cerr << "[mlperf cpu] profile over " << runs << " runs (ms per run):\n";
    double total = 0;
    for (size_t s = 0; s < prog.steps.size(); ++s) {
      const fusion::Step& st = prog.steps[s];
      double ms = step_seconds[s] * 1e3 / static_cast<double>(runs);
      total += ms;
      std::cerr << "  step " << s << " ";
      if (st.kind == fusion::Step::Kind::Kernel) {
        const fusion::KernelDesc& k = prog.kernels[static_cast<size_t>(st.index)];
        std::cerr << "kernel " << st.index << " (" << k.iterations() << " x " << k.reduce_count << ")";
      } else if (st.kind == fusion::Step::Kind::MatMul) {
        const fusion::MatMulDesc& m = prog.matmuls[static_cast<size_t>(st.index)];
        std::cerr << "matmul " << m.m << "x" << m.n << "x" << m.k << (m.ta ? " ta" : "") << (m.tb ? " tb" : "");
      } else {
        std::cerr << "copy " << prog.copies[static_cast<size_t>(st.index)].bytes << " B";
      }
      std::cerr << ": " << ms << "\n";
    }
    std::cerr << "  total " << total << "\n";
  }
};

// A 16-bit matmul as a native 16-bit GEMM would run it: f32 accumulation over tiles converted
// to f32 in small host buffers (kTile^2 floats each), so no f32 copy of an operand or of the
// result is ever made in device memory.
void half_gemm(const fusion::MatMulDesc& m, const void* a, const void* b, void* c) {
  constexpr int64_t kTile = 128;
  const bool f16 = m.dtype == DType::F16;
  auto load = [f16](const uint16_t* p, int64_t i) { return f16 ? f16_to_float(p[i]) : bf16_to_float(p[i]); };
  std::vector<float> ta(kTile * kTile), tb(kTile * kTile), tc(kTile * kTile), acc(kTile * kTile);
  for (int64_t bi = 0; bi < m.batch; ++bi) {
    const auto* a_mat = static_cast<const uint16_t*>(a) + bi * m.m * m.k;
    const auto* b_mat = static_cast<const uint16_t*>(b) + bi * m.k * m.n;
    auto* c_mat = static_cast<uint16_t*>(c) + bi * m.m * m.n;
    for (int64_t i0 = 0; i0 < m.m; i0 += kTile)
      for (int64_t j0 = 0; j0 < m.n; j0 += kTile) {
        int64_t mb = std::min(kTile, m.m - i0), nb = std::min(kTile, m.n - j0);
        std::fill(acc.begin(), acc.begin() + mb * nb, 0.0f);
        for (int64_t k0 = 0; k0 < m.k; k0 += kTile) {
          int64_t kb = std::min(kTile, m.k - k0);
          for (int64_t i = 0; i < mb; ++i)
            for (int64_t k = 0; k < kb; ++k)
              ta[i * kb + k] = load(a_mat, m.ta ? (k0 + k) * m.m + i0 + i : (i0 + i) * m.k + k0 + k);
          for (int64_t k = 0; k < kb; ++k)
            for (int64_t j = 0; j < nb; ++j)
              tb[k * nb + j] = load(b_mat, m.tb ? (j0 + j) * m.k + k0 + k : (k0 + k) * m.n + j0 + j);
          ref::gemm(false, false, mb, nb, kb, ta.data(), tb.data(), tc.data());
          for (int64_t x = 0; x < mb * nb; ++x) acc[x] += tc[x];
        }
        for (int64_t i = 0; i < mb; ++i)
          for (int64_t j = 0; j < nb; ++j) {
            float v = acc[i * nb + j];
            c_mat[(i0 + i) * m.n + j0 + j] = f16 ? float_to_f16(v) : float_to_bf16(v);
          }
      }
  }
}

// MLPERF_DUMP=compile: the compile's wall time and its parts, then one line per module.
void dump_compile(const jit::Result& r) {
  auto ms = [](double s) { return s * 1e3; };
  std::cerr << "[mlperf cpu] compile: " << r.compiled << " kernels compiled, " << r.cached << " cached, "
            << r.modules.size() << " modules on " << r.threads << " threads, " << ms(r.seconds) << " ms (modules "
            << ms(r.modules_seconds) << ", ORC link " << ms(r.link_seconds)
            << "; summed over modules: clang -O3 -march=" << jit::target_cpu() << " (parse, IR, optimization) "
            << ms(r.frontend_seconds) << ", machine code " << ms(r.codegen_seconds) << ", CPU " << ms(r.cpu_seconds)
            << ")";
  if (r.disk_modules > 0)
    std::cerr << "; " << r.disk_modules << " modules loaded from the persistent cache (compiled in "
              << ms(r.disk_original_seconds) << " ms when stored)";
  std::cerr << "\n";
  for (size_t m = 0; m < r.modules.size(); ++m) {
    const jit::ModuleTiming& t = r.modules[m];
    std::cerr << "[mlperf cpu]   module " << m << ": " << t.kernels << " kernels, " << t.object_bytes
              << " bytes of object, ";
    if (t.from_disk)
      std::cerr << "read " << ms(t.frontend_seconds) << " ms\n";
    else
      std::cerr << "clang " << ms(t.frontend_seconds) << " ms, machine code " << ms(t.codegen_seconds) << " ms, CPU "
                << ms(t.cpu_seconds) << " ms\n";
  }
}

class CpuBackend : public BackendImpl {
 public:
  CpuBackend() : gemm_(cpu::gemm_mode_from_env()), pool_(threads_from_env()) {}

  // MLPERF_CPU_THREADS: a whole number from 1 to max_threads(); anything else (0, -3, "four",
  // 100000) is an ArgumentError instead of a pool of one thread or of tens of thousands.
  static int threads_from_env() {
    int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const char* e = std::getenv("MLPERF_CPU_THREADS");
    if (!e || !*e) return cores;
    char* end = nullptr;
    errno = 0;
    long n = std::strtol(e, &end, 10);
    if (end == e || *end != '\0' || errno == ERANGE || n < 1 || n > max_threads(cores))
      throw ArgumentError(std::string("MLPERF_CPU_THREADS: '") + e + "' is not a thread count from 1 to " +
                          std::to_string(max_threads(cores)) + " (" + std::to_string(cores) + " cores here)");
    return static_cast<int>(n);
  }
  static int max_threads(int cores) { return std::max(256, 4 * cores); }

  std::string name() const override { return "cpu"; }
  // Freed blocks are kept for reuse by size (up to kCacheBytes), so the big buffers of a
  // training step are not page-faulted in again on every run.
  void* allocate(size_t bytes) override {
    if (bytes > std::numeric_limits<size_t>::max() - 64) throw std::bad_alloc();  // rounding up would wrap
    size_t sz = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
    {
      std::lock_guard<std::mutex> lk(pool_mu_);
      auto it = free_blocks_.find(sz);
      if (it != free_blocks_.end()) {
        void* p = it->second;
        free_blocks_.erase(it);
        cached_bytes_ -= sz;
        return p;
      }
    }
    void* p = std::aligned_alloc(64, sz);
    ++host_allocations_;
    if (!p) throw Error("cpu backend: host allocation of " + std::to_string(bytes) + " bytes failed");
    return p;
  }
  void free(void* ptr, size_t bytes) override {
    size_t sz = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
    std::lock_guard<std::mutex> lk(pool_mu_);
    if (cached_bytes_ + sz <= kCacheBytes) {
      free_blocks_.emplace(sz, ptr);
      cached_bytes_ += sz;
    } else {
      std::free(ptr);
    }
  }
  ~CpuBackend() override {
    for (auto& [sz, p] : free_blocks_) std::free(p);
  }
  void copy_host_to_device(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  void copy_device_to_host(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }

  std::unique_ptr<Executable> compile(const Graph& graph) override {
    auto exe = std::make_unique<CpuExecutable>();
    exe->prog = fusion::plan(graph, /*half_matmuls=*/true);
    const fusion::Program& program = exe->prog;
    if (options::dump_enabled("fusion")) std::cerr << "[mlperf cpu] " << program.to_string();
    std::vector<jit::Source> sources;
    std::vector<codegen::Kernel> gen;
    for (size_t k = 0; k < program.kernels.size(); ++k) {
      gen.push_back(codegen::generate(program, static_cast<int>(k), codegen::Target::CPU));
      // Balances the modules compiled at once: per kernel, in-process compile time grows with the
      // source and an -O3 kernel costs several times an unoptimized one of its size (measured
      // one module per kernel, runtime/BENCHMARKS.md section 2b).
      double weight = static_cast<double>(gen.back().source.size()) * (gen.back().optimized ? kOptimizedWeight : 1.0);
      sources.push_back({gen.back().name, gen.back().source, weight});
      if (options::dump_enabled("source")) std::cerr << "[mlperf cpu] kernel " << k << ":\n" << gen.back().source;
    }
    jit::Result r = jit::compile(codegen::prelude(codegen::Target::CPU), sources);
    exe->module = r.module;
    if (options::dump_enabled("compile")) dump_compile(r);
    disk_hits_ += r.disk_modules;
    compiled_kernels_ += r.compiled;
    cached_kernels_ += r.cached;
    jit_ns_ += static_cast<int64_t>(r.seconds * 1e9);
    for (size_t k = 0; k < program.kernels.size(); ++k) {
      CpuKernel ck;
      ck.fn = reinterpret_cast<KernelFn>(r.fns[k]);
      ck.params = gen[k].params;
      ck.iterations = program.kernels[k].iterations();
      int64_t cost = std::max<int64_t>(1, program.kernels[k].reduce_count);
      ck.grain = std::max<int64_t>(1, (int64_t{1} << 16) / cost);
      exe->kernels.push_back(std::move(ck));
    }
    exe->profile = options::dump_enabled("profile");
    exe->step_seconds.assign(program.steps.size(), 0.0);
    exe->constants.resize(program.buffers.size());
    exe->alloc_at.resize(program.steps.size());
    exe->free_at.resize(program.steps.size());
    for (size_t b = 0; b < program.buffers.size(); ++b) {
      const fusion::Buffer& buf = program.buffers[b];
      if (buf.kind == fusion::Buffer::Kind::Constant) {
        const NodeData& nd = program.nodes[static_cast<size_t>(buf.node)];
        exe->constants[b].resize(std::max<size_t>(buf.bytes(), 1));
        convert_to_storage(nd.dtype, exe->constants[b].data(), nd.attrs.literal->data(), nd.attrs.literal->size());
      } else if (buf.kind == fusion::Buffer::Kind::Scratch && buf.first_step >= 0 && buf.bytes() > 0) {
        exe->alloc_at[static_cast<size_t>(buf.first_step)].push_back(static_cast<int>(b));
        exe->free_at[static_cast<size_t>(std::max(buf.first_step, buf.last_step))].push_back(static_cast<int>(b));
      }
    }
    return exe;
  }

  void launch(Executable& e, const LaunchArgs& args) override {
    auto& exe = static_cast<CpuExecutable&>(e);
    const fusion::Program& program = exe.prog;
    std::vector<void*>& ptr = exe.ptr;
    std::vector<char>& owned = exe.owned;
    ptr.assign(program.buffers.size(), nullptr);
    owned.assign(program.buffers.size(), 0);
    for (size_t b = 0; b < program.buffers.size(); ++b) {
      const fusion::Buffer& buf = program.buffers[b];
      switch (buf.kind) {
        case fusion::Buffer::Kind::Input:
          ptr[b] = const_cast<void*>(args.inputs.at(static_cast<size_t>(buf.index)));
          break;
        case fusion::Buffer::Kind::Output:
          ptr[b] = args.outputs.at(static_cast<size_t>(buf.index));
          break;
        case fusion::Buffer::Kind::Constant:
          ptr[b] = exe.constants[b].data();
          break;
        case fusion::Buffer::Kind::Scratch:
          break;
      }
    }
    struct Guard {
      DeviceAllocator* a;
      const fusion::Program& program;
      std::vector<void*>& ptr;
      std::vector<char>& owned;
      ~Guard() {
        for (size_t b = 0; b < ptr.size(); ++b)
          if (owned[b]) a->free(ptr[b], program.buffers[b].bytes());
      }
    } guard{args.scratch, program, ptr, owned};
    std::vector<void*>& kargs = exe.kargs;
    if (exe.profile) ++exe.runs;
    for (size_t s = 0; s < program.steps.size(); ++s) {
      auto ts = exe.profile ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
      for (int b : exe.alloc_at[s]) {
        ptr[static_cast<size_t>(b)] = args.scratch->allocate(program.buffers[static_cast<size_t>(b)].bytes());
        owned[static_cast<size_t>(b)] = 1;
      }
      const fusion::Step& st = program.steps[s];
      if (st.kind == fusion::Step::Kind::Kernel) {
        const CpuKernel& k = exe.kernels[static_cast<size_t>(st.index)];
        if (k.iterations > 0) {
          kargs.clear();
          for (int b : k.params) kargs.push_back(ptr[static_cast<size_t>(b)]);
          KernelFn fn = k.fn;
          void* const* a = kargs.data();
          pool_.parallel_for(k.iterations, k.grain, [fn, a](int64_t lo, int64_t hi) { fn(a, lo, hi); });
        }
      } else if (st.kind == fusion::Step::Kind::MatMul) {
        const fusion::MatMulDesc& m = program.matmuls[static_cast<size_t>(st.index)];
        if (m.dtype != DType::F32) {
          half_gemm(m, ptr[static_cast<size_t>(m.a)], ptr[static_cast<size_t>(m.b)], ptr[static_cast<size_t>(m.out)]);
          continue;
        }
        const auto* a_mat = static_cast<const float*>(ptr[static_cast<size_t>(m.a)]);
        const auto* b_mat = static_cast<const float*>(ptr[static_cast<size_t>(m.b)]);
        auto* c_mat = static_cast<float*>(ptr[static_cast<size_t>(m.out)]);
        for (int64_t i = 0; i < m.batch; ++i)
          gemm_.run(m.ta, m.tb, m.m, m.n, m.k, a_mat + i * m.m * m.k, b_mat + i * m.k * m.n, c_mat + i * m.m * m.n);
      } else {
        const fusion::CopyDesc& c = program.copies[static_cast<size_t>(st.index)];
        if (c.bytes) std::memcpy(ptr[static_cast<size_t>(c.dst)], ptr[static_cast<size_t>(c.src)], c.bytes);
      }
      if (exe.profile)
        exe.step_seconds[s] += std::chrono::duration<double>(std::chrono::steady_clock::now() - ts).count();
      for (int b : exe.free_at[s]) {
        args.scratch->free(ptr[static_cast<size_t>(b)], program.buffers[static_cast<size_t>(b)].bytes());
        owned[static_cast<size_t>(b)] = 0;
      }
    }
  }

  nlohmann::json extra_stats() const override {
    return {{"threads", pool_.threads()},
            {"jit_target_cpu", jit::target_cpu()},
            {"jit_kernels_compiled", compiled_kernels_.load()},
            {"jit_kernels_cached", cached_kernels_.load()},
            {"jit_seconds", static_cast<double>(jit_ns_.load()) * 1e-9},
            {"jit_cache_size", jit::cache_size()},
            {"jit_persistent_cache_hits", disk_hits_.load()},
            {"host_allocations", host_allocations_.load()},
            {"matmul", gemm_.mode_name()},
            {"matmul_shapes", gemm_.choices()}};
  }

 private:
  static constexpr size_t kCacheBytes = size_t{512} << 20;
  static constexpr double kOptimizedWeight = 4.0;
  std::mutex pool_mu_;
  std::multimap<size_t, void*> free_blocks_;
  size_t cached_bytes_ = 0;
  cpu::GemmDispatch gemm_;
  cpu::ThreadPool pool_;
  std::atomic<int64_t> compiled_kernels_{0}, cached_kernels_{0}, jit_ns_{0}, disk_hits_{0};
  std::atomic<int64_t> host_allocations_{0};  // buffers not served from free_blocks_
};

}  // namespace

void register_cpu_backend() {
  register_backend("cpu", 10, [] { return std::make_unique<CpuBackend>(); });
}

}  // namespace mlperf::rt
