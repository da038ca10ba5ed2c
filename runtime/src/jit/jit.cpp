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
#include <llvm/ExecutionEngine/ObjectCache.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "kernel_cache.h"
#include "mlperf/rt/error.h"
#include "options.h"

namespace mlperf::rt::jit {

namespace {

// Hands LLJIT's object files to compile(), which stores them in the persistent cache.
class ObjectSink : public llvm::ObjectCache {
 public:
  void notifyObjectCompiled(const llvm::Module* m, llvm::MemoryBufferRef obj) override {
    std::lock_guard<std::mutex> lk(mu_);
    objects_[m->getModuleIdentifier()] = {obj.getBuffer().str(), std::chrono::steady_clock::now()};
  }
  std::unique_ptr<llvm::MemoryBuffer> getObject(const llvm::Module*) override { return nullptr; }
  // The object code of a module and when its code generation ended (linking starts there).
  struct Object {
    std::string code;
    std::chrono::steady_clock::time_point generated;
  };
  std::optional<Object> take(const std::string& module) {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = objects_.find(module);
    if (it == objects_.end()) return std::nullopt;
    Object o = std::move(it->second);
    objects_.erase(it);
    return o;
  }

 private:
  std::mutex mu_;
  std::map<std::string, Object> objects_;
};

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

// The persistent cache's entry (kernel_cache.h) when it holds an object file; anything else is a miss.
std::optional<kernel_cache::Entry> read_object(const std::string& path) {
  auto e = kernel_cache::read(path);
  if (!e) return std::nullopt;
  auto parsed = llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(e->data, path));
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  return e;
}

struct State {
  std::mutex mu;
  ObjectSink objects;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unordered_map<std::string, void*> cache;  // source -> function
  std::string cpu;
  bool veclib = false;
  std::vector<std::string> args;  // clang_args(cpu, veclib)
  std::string key_extra;          // host CPU features, part of the persistent cache's key
  std::shared_ptr<clang::CompilerInvocation> base_inv;
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
  ObjectSink* sink = &s.objects;
  auto j =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(*jtmb))
          .setCompileFunctionCreator([sink](llvm::orc::JITTargetMachineBuilder b)
                                         -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
            return std::make_unique<llvm::orc::ConcurrentIRCompiler>(std::move(b), sink);
          })
          .create();
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

// clang: C source -> LLVM IR optimized at -O3.
llvm::orc::ThreadSafeModule frontend(State& s, const std::string& tu, const std::string& module_id) {
  std::string diag_text;
  llvm::raw_string_ostream diag_os(diag_text);
  auto diag_opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  auto* printer = new clang::TextDiagnosticPrinter(diag_os, diag_opts.get());
  auto diags = clang::CompilerInstance::createDiagnostics(diag_opts.get(), printer, /*ShouldOwnClient=*/true);
  // The driver (argument parsing, toolchain and include-path probing) runs once per process;
  // every compile starts from a copy of that invocation.
  if (!s.base_inv) {
    std::vector<const char*> args;
    for (const auto& a : s.args) args.push_back(a.c_str());
    clang::CreateInvocationOptions opts;
    opts.Diags = diags;
    s.base_inv = clang::createInvocation(args, opts);
    if (!s.base_inv) throw Error("jit: cannot create a clang invocation: " + diag_text);
  }
  auto inv = std::make_shared<clang::CompilerInvocation>(*s.base_inv);
  inv->getFrontendOpts().ProgramAction = clang::frontend::EmitLLVMOnly;
  clang::CompilerInstance ci;
  ci.setInvocation(inv);
  ci.setDiagnostics(diags.get());
  ci.getPreprocessorOpts().addRemappedFile("mlperf_kernels.c", llvm::MemoryBuffer::getMemBufferCopy(tu).release());
  auto ctx = std::make_unique<llvm::LLVMContext>();
  clang::EmitLLVMOnlyAction action(ctx.get());
  if (!ci.ExecuteAction(action)) throw Error("jit: clang failed:\n" + diag_text + "\n--- source ---\n" + tu);
  std::unique_ptr<llvm::Module> mod = action.takeModule();
  if (!mod) throw Error("jit: clang produced no module:\n" + diag_text);
  mod->setModuleIdentifier(module_id);
  return llvm::orc::ThreadSafeModule(std::move(mod), std::move(ctx));
}

}  // namespace

Result compile(const std::string& prelude, const std::vector<Source>& kernels) {
  State& s = state();
  Result res;  // destroyed after the lock is released: its module's deleter takes the lock
  std::lock_guard<std::mutex> lk(s.mu);
  init(s);
  res.fns.assign(kernels.size(), nullptr);
  const bool process_cache = options::kernel_cache() == options::KernelCache::Process;
  std::string tu = prelude;
  std::vector<size_t> todo;
  std::unordered_map<std::string, size_t> in_tu;
  for (size_t i = 0; i < kernels.size(); ++i) {
    auto it = process_cache ? s.cache.find(kernels[i].code) : s.cache.end();
    if (it != s.cache.end()) {
      res.fns[i] = it->second;
      ++res.cached;
      continue;
    }
    todo.push_back(i);
    if (in_tu.emplace(kernels[i].code, i).second) tu += "\n" + kernels[i].code;
  }
  if (todo.empty()) return res;
  auto t0 = std::chrono::steady_clock::now();
  const std::string dir = options::kernel_cache_dir();
  std::vector<std::string_view> key_parts = {LLVM_VERSION_STRING, s.key_extra};
  for (const auto& a : s.args) key_parts.push_back(a);
  key_parts.push_back(tu);
  const std::string path = dir.empty() ? "" : kernel_cache::path(dir, kernel_cache::key(key_parts), ".o");
  const int id = s.modules++;
  const std::string module_id = "mlperf_kernels_" + std::to_string(id);
  llvm::orc::JITDylib& jd = target_dylib(s, process_cache, id, res);
  // A compile that throws after code generation leaves no object behind in the sink.
  struct DropObject {
    ObjectSink& sink;
    const std::string& module;
    ~DropObject() { sink.take(module); }
  } drop{s.objects, module_id};
  auto stored = path.empty() ? std::nullopt : read_object(path);
  auto t1 = std::chrono::steady_clock::now();
  if (stored) {
    auto err = s.jit->addObjectFile(jd, llvm::MemoryBuffer::getMemBufferCopy(stored->data, module_id));
    if (err) throw Error("jit: loading " + path + ": " + llvm::toString(std::move(err)));
    res.from_disk = true;
    res.disk_original_seconds = stored->seconds;
  } else {
    if (auto err = s.jit->addIRModule(jd, frontend(s, tu, module_id)))
      throw Error("jit: " + llvm::toString(std::move(err)));
  }
  auto t2 = std::chrono::steady_clock::now();
  for (size_t i : todo) {
    auto it = process_cache ? s.cache.find(kernels[i].code) : s.cache.end();
    if (it != s.cache.end()) {
      res.fns[i] = it->second;
      continue;
    }
    auto sym = s.jit->lookup(jd, kernels[i].name);  // the first lookup generates the machine code
    if (!sym) throw Error("jit: lookup of " + kernels[i].name + " failed: " + llvm::toString(sym.takeError()));
    void* fn = sym->toPtr<void*>();
    if (process_cache) s.cache.emplace(kernels[i].code, fn);
    res.fns[i] = fn;
    ++res.compiled;
  }
  auto t3 = std::chrono::steady_clock::now();
  res.seconds = std::chrono::duration<double>(t3 - t0).count();
  res.setup_seconds = std::chrono::duration<double>(t1 - t0).count();
  res.frontend_seconds = std::chrono::duration<double>(t2 - t1).count();
  res.codegen_seconds = std::chrono::duration<double>(t3 - t2).count();
  std::optional<ObjectSink::Object> obj = s.objects.take(module_id);
  if (obj) {
    res.link_seconds = std::chrono::duration<double>(t3 - obj->generated).count();
    res.codegen_seconds -= res.link_seconds;
    if (!path.empty() && !stored) kernel_cache::write(dir, path, obj->code, res.seconds);
  }
  return res;
}

}  // namespace mlperf::rt::jit
