#include "jit/jit.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <dlfcn.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/ThreadPool.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "kernel_cache.h"
#include "mlperf/rt/error.h"
#include "options.h"

namespace mlperf::rt::jit {

namespace {

// The clang arguments of every compile (the source file name last).
std::vector<std::string> clang_args(const std::string& cpu, bool veclib) {
  std::vector<std::string> a = {"clang", "-x", "c", "-std=c11", "-O3", "-march=" + cpu, "-fno-math-errno",
                                "-ffp-contract=on", "-mprefer-vector-width=512",
                                // One vector per iteration: the kernels are memory-bound, and without
                                // unrolling and interleaving the module is a third of the size, so
                                // optimization and instruction selection take half the time.
                                "-fno-unroll-loops", "-w"};
  if (veclib) a.push_back("-fveclib=libmvec");
  a.push_back("mlperf_kernels.c");
  return a;
}

struct State {
  std::mutex mu;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::optional<llvm::orc::JITTargetMachineBuilder> jtmb;  // each module's code generator is made from it
  std::unordered_map<std::string, void*> cache;            // source -> function
  std::string cpu;
  bool veclib = false;
  std::vector<std::string> args;  // clang_args(cpu, veclib)
  std::string key_extra;          // host CPU features, part of the persistent cache's key
  std::shared_ptr<clang::CompilerInvocation> base_inv;
  std::unique_ptr<llvm::StdThreadPool> pool;
  int pool_threads = 0;
  int modules = 0;
};

State& state() {
  static State* s = new State();  // never destroyed: kernels stay valid until exit
  return *s;
}

std::string pick_cpu() {
  if (const char* e = std::getenv("MLPERF_JIT_CPU"); e && *e) return e;
  std::string cpu = llvm::sys::getHostCPUName().str();
  if (cpu.empty() || cpu == "generic") cpu = "x86-64-v2";
  return cpu;
}

// The driver (argument parsing, toolchain and include-path probing) runs once per process;
// every translation unit starts from a copy of that invocation.
void make_base_invocation(State& s) {
  std::string diag_text;
  llvm::raw_string_ostream diag_os(diag_text);
  auto diag_opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  auto diags = clang::CompilerInstance::createDiagnostics(
      diag_opts.get(), new clang::TextDiagnosticPrinter(diag_os, diag_opts.get()), /*ShouldOwnClient=*/true);
  std::vector<const char*> args;
  for (const auto& a : s.args) args.push_back(a.c_str());
  clang::CreateInvocationOptions opts;
  opts.Diags = diags;
  s.base_inv = clang::createInvocation(args, opts);
  if (!s.base_inv) throw Error("jit: cannot create a clang invocation: " + diag_text);
  s.base_inv->getFrontendOpts().ProgramAction = clang::frontend::EmitLLVMOnly;
}

void init(State& s) {
  if (s.jit) return;
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  s.cpu = pick_cpu();
  // glibc's vector math library lets the vectorizer call expf/logf/tanhf 8 lanes at a time.
  s.veclib = dlopen("libmvec.so.1", RTLD_NOW | RTLD_GLOBAL) != nullptr;
  s.args = clang_args(s.cpu, s.veclib);
  // The persistent cache's key also names the host's features: a directory shared by machines
  // whose CPUs have one name but different features (a VM that hides AVX-512) never hands one
  // code it cannot run.
  std::vector<std::string> features;
  for (const auto& f : llvm::sys::getHostCPUFeatures()) features.push_back((f.second ? "+" : "-") + f.first().str());
  std::sort(features.begin(), features.end());
  for (const auto& f : features) s.key_extra += f + ",";
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) throw Error("jit: cannot detect the host target: " + llvm::toString(jtmb.takeError()));
  jtmb->setCPU(s.cpu);
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  s.jtmb = *jtmb;
  make_base_invocation(s);
  // Modules arrive as object files (compiled on the pool or read from disk), so LLJIT only links.
  auto j = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!j) throw Error("jit: cannot create LLJIT: " + llvm::toString(j.takeError()));
  s.jit = std::move(*j);
  auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(s.jit->getDataLayout().getGlobalPrefix());
  if (!gen) throw Error("jit: " + llvm::toString(gen.takeError()));
  s.jit->getMainJITDylib().addGenerator(std::move(*gen));
}

}  // namespace

std::string target_cpu() {
  State& s = state();
  std::lock_guard<std::mutex> lk(s.mu);
  init(s);
  return s.cpu;
}

size_t cache_size() {
  State& s = state();
  std::lock_guard<std::mutex> lk(s.mu);
  return s.cache.size();
}

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The JITDylib a compile adds its kernels to: the process's own (process cache) or a new one
// removed when the last holder of res.module lets go.
llvm::orc::JITDylib& target_dylib(State& s, bool process_cache, int id, Result& res) {
  if (process_cache) return s.jit->getMainJITDylib();
  auto own = s.jit->createJITDylib("mlperf_executable_" + std::to_string(id));
  if (!own) throw Error("jit: " + llvm::toString(own.takeError()));
  llvm::orc::JITDylib* jd = &*own;
  jd->addToLinkOrder(s.jit->getMainJITDylib());  // the process's symbols (libm, libmvec)
  llvm::orc::LLJIT* jit = s.jit.get();
  res.module = std::shared_ptr<void>(jd, [jit](void* p) {
    State& st = state();
    std::lock_guard<std::mutex> lk(st.mu);
    llvm::consumeError(jit->getExecutionSession().removeJITDylib(*static_cast<llvm::orc::JITDylib*>(p)));
  });
  return *jd;
}

// One translation unit: its kernels' sources after the prelude, compiled (or read) on a pool thread.
struct Module {
  std::vector<size_t> kernels;  // indices into compile()'s `kernels`
  std::string tu, path;         // path: its persistent-cache entry ("" without a cache directory)
  std::unique_ptr<llvm::MemoryBuffer> object;
  std::string error;
  ModuleTiming timing;
  double stored_seconds = 0;  // a disk hit: what compiling it took when it was stored
};

// clang: C source -> LLVM IR optimized at -O3.
std::unique_ptr<llvm::Module> frontend(const State& s, const std::string& tu, llvm::LLVMContext& ctx,
                                       std::string& error) {
  std::string diag_text;
  llvm::raw_string_ostream diag_os(diag_text);
  auto diag_opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  auto diags = clang::CompilerInstance::createDiagnostics(
      diag_opts.get(), new clang::TextDiagnosticPrinter(diag_os, diag_opts.get()), /*ShouldOwnClient=*/true);
  clang::CompilerInstance ci;
  ci.setInvocation(std::make_shared<clang::CompilerInvocation>(*s.base_inv));
  ci.setDiagnostics(diags.get());
  ci.getPreprocessorOpts().addRemappedFile("mlperf_kernels.c", llvm::MemoryBuffer::getMemBufferCopy(tu).release());
  clang::EmitLLVMOnlyAction action(&ctx);
  if (!ci.ExecuteAction(action)) {
    error = "jit: clang failed:\n" + diag_text + "\n--- source ---\n" + tu;
    return nullptr;
  }
  std::unique_ptr<llvm::Module> mod = action.takeModule();
  if (!mod) error = "jit: clang produced no module:\n" + diag_text;
  return mod;
}

// The persistent cache's entry (kernel_cache.h) when it holds an object file that defines every
// function in `names`; anything else (an object stored under another module's key, say) is
// dropped from the directory and is a miss.
std::optional<kernel_cache::Entry> read_object(const std::string& path, const std::vector<std::string>& names) {
  auto e = kernel_cache::read(path);
  if (!e) return std::nullopt;
  auto parsed = llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(e->data, path));
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    kernel_cache::drop(path);
    return std::nullopt;
  }
  std::unordered_set<std::string> defined;
  for (const llvm::object::SymbolRef& sym : (*parsed)->symbols()) {
    auto flags = sym.getFlags();
    auto name = sym.getName();
    if (flags && name && !(*flags & llvm::object::SymbolRef::SF_Undefined)) defined.insert(name->str());
    if (!flags) llvm::consumeError(flags.takeError());
    if (!name) llvm::consumeError(name.takeError());
  }
  for (const auto& n : names)
    if (!defined.count(n)) {
      kernel_cache::drop(path);
      return std::nullopt;
    }
  return e;
}

// Per-thread CPU time of a scope, into `out`.
struct CpuTime {
  double& out;
  double start = thread_cpu_seconds();
  ~CpuTime() { out += thread_cpu_seconds() - start; }
};

// Fills m.object from the persistent cache; false when it has no good entry.
bool load_module(Module& m, const std::string& name, const std::vector<Source>& kernels) {
  if (m.path.empty()) return false;
  CpuTime cpu{m.timing.cpu_seconds};
  auto t0 = Clock::now();
  std::vector<std::string> names;
  for (size_t k : m.kernels) names.push_back(kernels[k].name);
  auto stored = read_object(m.path, names);
  if (!stored) return false;
  m.object = llvm::MemoryBuffer::getMemBufferCopy(stored->data, name);
  m.timing.from_disk = true;
  m.timing.object_bytes = stored->data.size();
  m.timing.frontend_seconds = since(t0);
  m.stored_seconds = stored->seconds;
  return true;
}

// Fills m.object with clang and the code generator, and stores it in the persistent cache. Runs
// on a pool thread (everything it touches is its own, or read-only State), so errors go to m.error.
void compile_module(const State& s, Module& m, const std::string& name) {
  CpuTime cpu{m.timing.cpu_seconds};
  auto t0 = Clock::now();
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> mod = frontend(s, m.tu, ctx, m.error);
  m.timing.frontend_seconds = since(t0);
  if (!mod) return;
  auto t1 = Clock::now();
  // One target machine per thread, kept: it caches the subtarget (the X86 lowering and legalizer
  // tables), whose construction was a fixed cost of every module.
  thread_local std::unique_ptr<llvm::TargetMachine> tm;
  if (!tm) {
    llvm::orc::JITTargetMachineBuilder builder = *s.jtmb;  // a copy: creating a machine is not const
    auto made = builder.createTargetMachine();
    if (!made) {
      m.error = "jit: " + llvm::toString(made.takeError());
      return;
    }
    tm = std::move(*made);
  }
  mod->setModuleIdentifier(name);
  auto obj = llvm::orc::SimpleCompiler(*tm)(*mod);
  if (!obj) {
    m.error = "jit: code generation failed: " + llvm::toString(obj.takeError());
    return;
  }
  m.object = std::move(*obj);
  m.timing.codegen_seconds = since(t1);
  m.timing.object_bytes = m.object->getBufferSize();
  if (!m.path.empty())
    kernel_cache::write(std::filesystem::path(m.path).parent_path().string(), m.path, m.object->getBuffer().str(),
                        m.timing.frontend_seconds + m.timing.codegen_seconds);
}

// Splits the kernels into at most `count` groups of about equal weight (longest first, each to
// the lightest group: deterministic, so an unchanged graph gets the same modules and cache keys).
std::vector<std::vector<size_t>> partition(const std::vector<Source>& kernels, const std::vector<size_t>& todo,
                                           int count) {
  std::vector<size_t> order = todo;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return kernels[a].weight != kernels[b].weight ? kernels[a].weight > kernels[b].weight : a < b;
  });
  std::vector<std::vector<size_t>> groups(std::min(order.size(), static_cast<size_t>(std::max(1, count))));
  std::vector<double> load(groups.size(), 0.0);
  for (size_t k : order) {
    size_t g = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    groups[g].push_back(k);
    load[g] += kernels[k].weight;
  }
  for (auto& g : groups) std::sort(g.begin(), g.end());  // source order within a module
  return groups;
}

llvm::StdThreadPool& pool(State& s, int threads) {
  if (!s.pool || s.pool_threads != threads) {
    s.pool.reset();  // joins the old threads
    s.pool = std::make_unique<llvm::StdThreadPool>(llvm::hardware_concurrency(static_cast<unsigned>(threads)));
    s.pool_threads = threads;
  }
  return *s.pool;
}

}  // namespace

Result compile(const std::string& prelude, const std::vector<Source>& kernels) {
  State& s = state();
  Result res;  // destroyed after the lock is released: its module's deleter takes the lock
  std::lock_guard<std::mutex> lk(s.mu);
  init(s);
  res.fns.assign(kernels.size(), nullptr);
  const bool process_cache = options::kernel_cache() == options::KernelCache::Process;
  const int threads = options::jit_threads();
  const int module_count = options::jit_modules();
  // The kernels to compile: each distinct source once.
  std::vector<size_t> todo, distinct;
  std::unordered_map<std::string, size_t> in_tu;
  for (size_t i = 0; i < kernels.size(); ++i) {
    auto it = process_cache ? s.cache.find(kernels[i].code) : s.cache.end();
    if (it != s.cache.end()) {
      res.fns[i] = it->second;
      ++res.cached;
      continue;
    }
    todo.push_back(i);
    if (in_tu.emplace(kernels[i].code, i).second) distinct.push_back(i);
  }
  if (todo.empty()) return res;
  auto t0 = Clock::now();
  const std::string dir = options::kernel_cache_dir();
  std::vector<Module> modules;
  for (auto& group : partition(kernels, distinct, module_count)) {
    Module m;
    m.kernels = std::move(group);
    m.tu = prelude;
    for (size_t k : m.kernels) m.tu += "\n" + kernels[k].code;
    if (!dir.empty()) {
      std::vector<std::string_view> key_parts = {LLVM_VERSION_STRING, s.key_extra};
      for (const auto& a : s.args) key_parts.push_back(a);
      key_parts.push_back(m.tu);
      m.path = kernel_cache::path(dir, kernel_cache::key(key_parts), ".o");
    }
    modules.push_back(std::move(m));
  }
  const int id = s.modules++;
  auto name = [id](size_t m) { return "mlperf_kernels_" + std::to_string(id) + "_" + std::to_string(m); };
  // Entries of the persistent cache are read here (a fraction of a millisecond each); the misses
  // are compiled at once, the first on this thread and the others on the pool.
  std::vector<size_t> misses;
  for (size_t m = 0; m < modules.size(); ++m)
    if (!load_module(modules[m], name(m), kernels)) misses.push_back(m);
  res.threads = static_cast<int>(std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(threads), misses.size())));
  {
    std::optional<llvm::ThreadPoolTaskGroup> group;
    if (res.threads > 1) group.emplace(pool(s, threads - 1));
    for (size_t i = 1; i < misses.size(); ++i) {
      auto task = [&s, &modules, m = misses[i], n = name(misses[i])] { compile_module(s, modules[m], n); };
      if (group)
        group->async(task);
      else
        task();
    }
    if (!misses.empty()) compile_module(s, modules[misses[0]], name(misses[0]));
    if (group) group->wait();
  }
  res.modules_seconds = since(t0);
  for (const Module& m : modules)
    if (!m.error.empty()) throw Error(m.error);
  auto t1 = Clock::now();
  llvm::orc::JITDylib& jd = target_dylib(s, process_cache, id, res);
  for (size_t i = 0; i < modules.size(); ++i) {
    Module& m = modules[i];
    if (auto err = s.jit->addObjectFile(jd, std::move(m.object)))
      throw Error("jit: adding " + name(i) + ": " + llvm::toString(std::move(err)));
    m.timing.kernels = static_cast<int>(m.kernels.size());
    res.frontend_seconds += m.timing.frontend_seconds;
    res.codegen_seconds += m.timing.codegen_seconds;
    res.cpu_seconds += m.timing.cpu_seconds;
    if (m.timing.from_disk) {
      ++res.disk_modules;
      res.disk_original_seconds += m.stored_seconds;
    }
    res.modules.push_back(m.timing);
  }
  res.from_disk = res.disk_modules == static_cast<int>(modules.size());
  for (size_t i : todo) {
    auto it = process_cache ? s.cache.find(kernels[i].code) : s.cache.end();
    if (it != s.cache.end()) {
      res.fns[i] = it->second;
      continue;
    }
    auto sym = s.jit->lookup(jd, kernels[i].name);  // the first lookup links the objects
    if (!sym) throw Error("jit: lookup of " + kernels[i].name + " failed: " + llvm::toString(sym.takeError()));
    void* fn = sym->toPtr<void*>();
    if (process_cache) s.cache.emplace(kernels[i].code, fn);
    res.fns[i] = fn;
    ++res.compiled;
  }
  res.link_seconds = since(t1);
  res.seconds = since(t0);
  return res;
}

}  // namespace mlperf::rt::jit
