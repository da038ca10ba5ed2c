#include "jit/jit.h"

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <unordered_map>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>

#include "mlperf/rt/error.h"
#include "options.h"

namespace mlperf::rt::jit {

namespace {

struct State {
  std::mutex mu;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unordered_map<std::string, void*> cache;  // source -> function
  std::string cpu;
  bool veclib = false;
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
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) throw Error("jit: cannot detect the host target: " + llvm::toString(jtmb.takeError()));
  jtmb->setCPU(s.cpu);
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
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

Result compile(const std::string& prelude, const std::vector<Source>& kernels) {
  State& s = state();
  std::lock_guard<std::mutex> lk(s.mu);
  init(s);
  Result res;
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

  std::string diag_text;
  llvm::raw_string_ostream diag_os(diag_text);
  auto diag_opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  auto* printer = new clang::TextDiagnosticPrinter(diag_os, diag_opts.get());
  auto diags = clang::CompilerInstance::createDiagnostics(diag_opts.get(), printer, /*ShouldOwnClient=*/true);

  // The driver (argument parsing, toolchain and include-path probing) runs once per process;
  // every compile starts from a copy of that invocation.
  if (!s.base_inv) {
    std::string march = "-march=" + s.cpu;
    std::vector<const char*> args = {"clang", "-x", "c", "-std=c11", "-O3", march.c_str(),
                                     "-fno-math-errno", "-ffp-contract=on", "-mprefer-vector-width=512", "-w",
                                     "mlperf_kernels.c"};
    if (s.veclib) args.insert(args.end() - 1, "-fveclib=libmvec");
    clang::CreateInvocationOptions opts;
    opts.Diags = diags;
    s.base_inv = clang::createInvocation(args, opts);
    if (!s.base_inv) throw Error("jit: cannot create a clang invocation: " + diag_text);
  }
  auto inv = std::make_shared<clang::CompilerInvocation>(*s.base_inv);
  auto t1 = std::chrono::steady_clock::now();
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
  auto t2 = std::chrono::steady_clock::now();
  const int id = s.modules++;
  mod->setModuleIdentifier("mlperf_kernels_" + std::to_string(id));
  llvm::orc::JITDylib* jd = &s.jit->getMainJITDylib();
  if (!process_cache) {
    auto own = s.jit->createJITDylib("mlperf_executable_" + std::to_string(id));
    if (!own) throw Error("jit: " + llvm::toString(own.takeError()));
    jd = &*own;
    jd->addToLinkOrder(s.jit->getMainJITDylib());  // the process's symbols (libm, libmvec)
    llvm::orc::LLJIT* jit = s.jit.get();
    res.module = std::shared_ptr<void>(jd, [jit](void* p) {
      State& st = state();
      std::lock_guard<std::mutex> lk(st.mu);
      llvm::consumeError(jit->getExecutionSession().removeJITDylib(*static_cast<llvm::orc::JITDylib*>(p)));
    });
  }
  if (auto err = s.jit->addIRModule(*jd, llvm::orc::ThreadSafeModule(std::move(mod), std::move(ctx))))
    throw Error("jit: " + llvm::toString(std::move(err)));
  for (size_t i : todo) {
    auto it = process_cache ? s.cache.find(kernels[i].code) : s.cache.end();
    if (it != s.cache.end()) {
      res.fns[i] = it->second;
      continue;
    }
    auto sym = s.jit->lookup(*jd, kernels[i].name);
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
  return res;
}

}  // namespace mlperf::rt::jit
