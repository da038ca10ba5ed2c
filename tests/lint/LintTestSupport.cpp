#include "LintTestSupport.h"

#include "MlperfModule.h"
#include "engine/IncludeRecovery.h"

#include "clang-tidy/ClangTidy.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace mlperf::test {

using namespace clang::tidy;

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

bool torchAvailable() { return std::string(MLPERF_TORCH_INCLUDE).size() > 0; }

std::vector<std::string> fixtureArgs(bool NeedsTorch, bool NeedsRuntime) {
  std::vector<std::string> Args = {NeedsRuntime ? "-std=c++20" : "-std=c++17"};
  llvm::StringRef Joined(MLPERF_FIXTURE_ARGS);
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Joined.split(Parts, '|', -1, false);
  for (llvm::StringRef P : Parts)
    Args.push_back(P.str());
  if (NeedsTorch && !NeedsRuntime && torchAvailable()) {
    Args.push_back(std::string("-isystem") + MLPERF_TORCH_INCLUDE);
    if (std::string(MLPERF_TORCH_PCH).size() && llvm::sys::fs::exists(MLPERF_TORCH_PCH)) {
      Args.push_back("-include-pch");
      Args.push_back(MLPERF_TORCH_PCH);
    }
  }
  Args.push_back("-resource-dir=" MLPERF_CLANG_RESOURCE_DIR);
  return Args;
}

Fixture parseFixture(const std::string &Path, std::string &Error) {
  Fixture F;
  F.Path = Path;
  std::string Text = readFile(Path);
  F.NeedsTorch = Text.find("#include <torch/") != std::string::npos;
  F.NeedsRuntime = Text.find("#include <mlperf/rt/") != std::string::npos;
  F.Checks = "-*,mlperf-" + llvm::sys::path::filename(llvm::sys::path::parent_path(Path)).str();
  llvm::Regex Expect("// ?(CHECK-MESSAGES|CHECK-NOTES): *:(\\[\\[@LINE([+-][0-9]+)?\\]\\]|[0-9]+):([0-9]+): "
                     "(warning|note): (.*)$");
  std::istringstream In(Text);
  std::string Line, Blanked;
  unsigned LineNo = 0;
  while (std::getline(In, Line)) {
    ++LineNo;
    size_t Pos = Line.find("// CHECK-");
    if (Pos == std::string::npos)
      Pos = Line.find("// RUN-CHECKS:");
    if (Pos != std::string::npos) {
      llvm::StringRef Comment = llvm::StringRef(Line).substr(Pos);
      llvm::SmallVector<llvm::StringRef, 8> M;
      if (Comment.consume_front("// RUN-CHECKS:")) {
        F.Checks = Comment.trim().str();
      } else if (Comment.consume_front("// CHECK-FIXES:")) {
        F.Fixes.push_back(Comment.trim().str());
      } else if (Comment.consume_front("// CHECK-OPTIONS:")) {
        auto [K, V] = Comment.trim().split('=');
        F.Options[K.trim().str()] = V.trim().str();
      } else if (Expect.match(Comment, &M)) {
        Expectation E;
        if (M[2].starts_with("[[")) {
          int Delta = 0;
          if (!M[3].empty())
            M[3].drop_front(M[3][0] == '+' ? 1 : 0).getAsInteger(10, Delta);
          E.Line = LineNo + Delta;
        } else {
          M[2].getAsInteger(10, E.Line);
        }
        M[4].getAsInteger(10, E.Column);
        E.Kind = M[5].str();
        E.Text = (M[5] + ": " + M[6]).str();
        (M[1] == "CHECK-MESSAGES" ? F.Messages : F.Notes).push_back(E);
      } else {
        Error = Path + ":" + std::to_string(LineNo) + ": malformed expectation: " + Comment.str();
      }
      Line = Line.substr(0, Pos) + "//";
    }
    Blanked += Line + "\n";
  }
  F.Source = Blanked;
  return F;
}

std::vector<ClangTidyError> runChecks(const std::string &Path, const std::string &Source, const std::string &Checks,
                                      const std::map<std::string, std::string> &Options,
                                      const std::vector<std::string> &Args, std::function<bool()> Cancelled) {
  clang::tidy::mlperf::registerMlperfModule();
  ClangTidyOptions Opts = ClangTidyOptions::getDefaults();
  Opts.Checks = Checks;
  Opts.HeaderFilterRegex = "";
  for (const auto &[K, V] : Options)
    Opts.CheckOptions[K] = ClangTidyOptions::ClangTidyValue(V);
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(ClangTidyGlobalOptions(), Opts));
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto Mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Mem->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Source, Path));
  FS->pushOverlay(Mem);
  clang::tooling::FixedCompilationDatabase DB(".", Args);
  // The engine's parse, as `mlperf-lint` runs it (the checks traverse the
  // project's declarations, not libtorch's), with a missing header an error.
  lint::ParseOptions Strict;
  Strict.RecoverIncludes = false;
  Strict.Cancelled = std::move(Cancelled);
  return lint::runTidyOnFile(Context, DB, Path, FS, Strict).Errors;
}

std::string applyAll(const std::string &Source, const std::vector<ClangTidyError> &Errors, std::string &Error) {
  clang::tooling::Replacements All;
  for (const ClangTidyError &E : Errors)
    for (const auto &[File, Repls] : E.Message.Fix)
      for (const auto &R : Repls)
        if (llvm::Error Err = All.add(R))
          Error = llvm::toString(std::move(Err));
  auto Fixed = clang::tooling::applyAllReplacements(Source, All);
  if (!Fixed) {
    Error = llvm::toString(Fixed.takeError());
    return Source;
  }
  return *Fixed;
}

std::string compileErrors(const std::string &Path, const std::string &Source, const std::vector<std::string> &Args) {
  std::vector<std::string> Full = Args;
  Full.push_back("-fsyntax-only");
  bool Ok = clang::tooling::runToolOnCodeWithArgs(std::make_unique<clang::SyntaxOnlyAction>(), Source, Full, Path,
                                                  "clang-tool", std::make_shared<clang::PCHContainerOperations>(),
                                                  clang::tooling::FileContentMappings());
  return Ok ? "" : "the fixed file does not compile (its errors are printed above)";
}

std::vector<std::string> allFixtureFiles() {
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(MLPERF_SOURCE_DIR "/fixtures", EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef P = It->path();
    // fixtures/realworld/pending/ holds cases the analysis does not handle yet.
    if (P.ends_with(".cc") && P.contains("/fixtures/") && !P.contains("/pending/"))
      Files.push_back(P.str());
  }
  std::sort(Files.begin(), Files.end());
  return Files;
}

size_t count(const std::string &Text, const std::string &What) {
  size_t N = 0;
  for (size_t P = Text.find(What); P != std::string::npos; P = Text.find(What, P + 1))
    ++N;
  return N;
}

namespace {
ProcessResult runWithStdin(const char *StdinPath, const std::string &Program, const std::vector<std::string> &Args,
                           const std::string &WorkDir, const std::vector<std::pair<std::string, std::string>> &Env) {
  char OutName[] = "/tmp/mlperf-test-out-XXXXXX", ErrName[] = "/tmp/mlperf-test-err-XXXXXX";
  int OutFd = mkstemp(OutName), ErrFd = mkstemp(ErrName);
  pid_t Pid = fork();
  if (Pid == 0) {
    int In = open(StdinPath, O_RDONLY);
    dup2(In, 0);
    dup2(OutFd, 1);
    dup2(ErrFd, 2);
    // Tests never see the results a developer's own `validate` stored.
    setenv("MLPERF_LINT_RESULTS", "/nonexistent/mlperf-lint-test-results.json", 1);
    for (const auto &[K, V] : Env)
      setenv(K.c_str(), V.c_str(), 1);
    if (!WorkDir.empty() && chdir(WorkDir.c_str()) != 0)
      _exit(127);
    std::vector<char *> Argv = {const_cast<char *>(Program.c_str())};
    for (const std::string &A : Args)
      Argv.push_back(const_cast<char *>(A.c_str()));
    Argv.push_back(nullptr);
    execv(Program.c_str(), Argv.data());
    _exit(127);
  }
  int Status = 0;
  waitpid(Pid, &Status, 0);
  close(OutFd);
  close(ErrFd);
  ProcessResult R{WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status), readFile(OutName),
                  readFile(ErrName)};
  unlink(OutName);
  unlink(ErrName);
  return R;
}
} // namespace

ProcessResult runProcess(const std::string &Program, const std::vector<std::string> &Args, const std::string &WorkDir,
                         const std::vector<std::pair<std::string, std::string>> &Env) {
  return runWithStdin("/dev/null", Program, Args, WorkDir, Env);
}

ProcessResult runProcessWithInput(const std::string &Input, const std::string &Program,
                                  const std::vector<std::string> &Args, const std::string &WorkDir) {
  char InName[] = "/tmp/mlperf-test-in-XXXXXX";
  int InFd = mkstemp(InName);
  bool Written = write(InFd, Input.data(), Input.size()) == static_cast<ssize_t>(Input.size());
  close(InFd);
  ProcessResult R = Written ? runWithStdin(InName, Program, Args, WorkDir, {})
                            : ProcessResult{-1, "", "cannot write the standard input file"};
  unlink(InName);
  return R;
}

} // namespace mlperf::test
