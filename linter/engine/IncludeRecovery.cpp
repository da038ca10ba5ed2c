#include "engine/IncludeRecovery.h"

#include "engine/CudaInputs.h"
#include "engine/ErrorLimit.h"
#include "engine/MissingNames.h"
#include "engine/RecoveryMemo.h"

#include "Embedded.h"
#include "MlperfCheck.h"
#include "analysis/ModelAnalysis.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Inclusions/StandardLibrary.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <mutex>
#include <optional>
#include <set>

namespace mlperf::lint {

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;
using clang::tidy::mlperf::ApiProfiles;
using clang::tidy::mlperf::FileSummary;
using clang::tidy::mlperf::MlperfCheck;
using clang::tidy::mlperf::ModelAnalysis;

namespace {
constexpr const char *StandInDir = "/mlperf-lint/stand-ins";
constexpr const char *IncompleteTail = "; results may be incomplete";

/// Skips an #include that cannot be found, as if the header were empty, and
/// notes the ones found only among the stand-ins (searched last).
class SkipMissing : public PPCallbacks {
public:
  SkipMissing(const SourceManager &SM, std::vector<std::string> &Missing, std::vector<std::string> &StandIns)
      : SM(SM), Missing(Missing), StandIns(StandIns) {}
  bool FileNotFound(StringRef FileName) override {
    note(FileName, Missing);
    return true;
  }
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef FileName, bool, CharSourceRange,
                          OptionalFileEntryRef File, StringRef SearchPath, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    // Only the user's includes: stand-ins include one another.
    if (File && SearchPath == StandInDir && !SM.getFilename(SM.getExpansionLoc(HashLoc)).starts_with(StandInDir)) {
      note(FileName, Missing);
      note(FileName, StandIns);
    }
  }

private:
  void note(StringRef Name, std::vector<std::string> &List) {
    if (!llvm::is_contained(List, Name))
      List.push_back(Name.str());
  }
  const SourceManager &SM;
  std::vector<std::string> &Missing, &StandIns;
};

/// Summarizes the translation unit once it is parsed.
class SummaryConsumer : public ASTConsumer {
public:
  SummaryConsumer(const ApiProfiles &Profiles, std::string File, FileSummary &Out)
      : Profiles(Profiles), File(std::move(File)), Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    ModelAnalysis A(Ctx, Profiles);
    Out = summarize(A, File);
  }

private:
  const ApiProfiles &Profiles;
  std::string File;
  FileSummary &Out;
};

/// Settles the whole-project facts (engine/Settling.h) before the checks run,
/// and keeps the summaries they were settled with for the checks of this
/// file (on this thread) until the parse ends.
class SettleConsumer : public ASTConsumer {
public:
  SettleConsumer(const ApiProfiles &Profiles, std::string File, FileSummary &Out, const ParseOptions &Options,
                 bool MayParseAgain)
      : Profiles(Profiles), File(std::move(File)), Out(Out), Options(Options), MayParseAgain(MayParseAgain) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // Every recovery, and the repeat without the preamble, follows a parse
    // with errors: one without is the one the file keeps.
    const bool Tentative = MayParseAgain && Ctx.getDiagnostics().hasErrorOccurred();
    auto [Summary, Settled] = Options.Settle(
        File,
        [&] {
          ModelAnalysis A(Ctx, Profiles);
          return summarize(A, File);
        },
        Tentative);
    Out = std::move(Summary);
    Pin.emplace(std::move(Settled));
  }

private:
  const ApiProfiles &Profiles;
  std::string File;
  FileSummary &Out;
  const ParseOptions &Options;
  const bool MayParseAgain;
  std::optional<clang::tidy::mlperf::PinProjectSummaries> Pin;
};

/// Limits the checks' traversal to the declarations outside system headers,
/// as clangd does with the declarations of its preamble: the matchers then
/// skip the tens of thousands of declarations of <torch/torch.h>, where
/// nothing is reported. Not with --system-headers.
class ProjectScope : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<Decl *> Scope;
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (SourceLocation L = SM.getExpansionLoc(D->getLocation()); L.isInvalid() || !SM.isInSystemHeader(L))
        Scope.push_back(D);
    Ctx.setTraversalScope(Scope);
  }
};

/// Stops the parse at the next top-level declaration once \p Cancelled says
/// so: clang's parser ends when a consumer returns false there, before the
/// translation unit is handed to the checks.
class StopWhenCancelled : public ASTConsumer {
public:
  explicit StopWhenCancelled(const std::function<bool()> &Cancelled) : Cancelled(Cancelled) {}
  bool HandleTopLevelDecl(DeclGroupRef) override { return !Cancelled(); }

private:
  const std::function<bool()> &Cancelled;
};

/// Runs the checks and, with a summary to fill, the summary.
class Action : public ASTFrontendAction {
public:
  Action(ClangTidyASTConsumerFactory &Checks, bool SystemHeaders, FileSummary *Summary, const ApiProfiles *Profiles,
         std::vector<std::string> *Missing, std::vector<std::string> *StandIns, const ParseOptions &Options,
         bool MayParseAgain)
      : Checks(Checks), SystemHeaders(SystemHeaders), Summary(Summary), Profiles(Profiles), Missing(Missing),
        StandIns(StandIns), Options(Options), MayParseAgain(MayParseAgain) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef File) override {
    if (Missing)
      CI.getPreprocessor().addPPCallbacks(std::make_unique<SkipMissing>(CI.getSourceManager(), *Missing, *StandIns));
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    if (Options.Cancelled)
      Consumers.push_back(std::make_unique<StopWhenCancelled>(Options.Cancelled));
    if (!SystemHeaders)
      Consumers.push_back(std::make_unique<ProjectScope>());
    const bool Summarize = Summary && Profiles;
    if (Summarize && Options.Settle)
      // Named as the run names it (the runner's path, not the compile
      // command's spelling): the settling and the summaries key files by it.
      Consumers.push_back(std::make_unique<SettleConsumer>(
          *Profiles, Summary->File.empty() ? File.str() : Summary->File, *Summary, Options, MayParseAgain));
    Consumers.push_back(Checks.createASTConsumer(CI, File));
    if (Summarize && !Options.Settle)
      Consumers.push_back(std::make_unique<SummaryConsumer>(*Profiles, File.str(), *Summary));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  ClangTidyASTConsumerFactory &Checks;
  bool SystemHeaders;
  FileSummary *Summary;
  const ApiProfiles *Profiles;
  std::vector<std::string> *Missing, *StandIns;
  const ParseOptions &Options;
  const bool MayParseAgain; // a parse with errors may be followed by another, and not kept
};

class Factory : public FrontendActionFactory {
public:
  Factory(std::function<std::unique_ptr<FrontendAction>()> Make, std::vector<std::string> *Missing)
      : Make(std::move(Make)), Missing(Missing) {}
  std::unique_ptr<FrontendAction> create() override { return Make(); }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCH, DiagnosticConsumer *Diags) override {
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true; // defines __clang_analyzer__, as clang-tidy does
    // clang's "N warnings generated." is printed below, and not for a file
    // whose errors come from headers that were not found.
    ShowStats = Invocation->getDiagnosticOpts().ShowCarets;
    Invocation->getDiagnosticOpts().ShowCarets = false;
    bool Parsed = FrontendActionFactory::runInvocation(std::move(Invocation), Files, std::move(PCH), Diags);
    // Errors that follow from missing headers are summarized, not a failure.
    return Parsed || (Missing && !Missing->empty());
  }

  bool ShowStats = false;

private:
  std::function<std::unique_ptr<FrontendAction>()> Make;
  std::vector<std::string> *Missing;
};

/// clang's own summary line (CompilerInstance::printDiagnosticStats), or "".
std::string diagnosticStats(unsigned Warnings, unsigned Errors, bool Cuda) {
  if (!Warnings && !Errors)
    return "";
  std::string Line;
  llvm::raw_string_ostream OS(Line);
  if (Warnings)
    OS << Warnings << " warning" << (Warnings == 1 ? "" : "s");
  if (Warnings && Errors)
    OS << " and ";
  if (Errors)
    OS << Errors << " error" << (Errors == 1 ? "" : "s");
  OS << " generated" << (Cuda ? " when compiling for host" : "") << ".\n";
  return Line;
}

/// The configuration's ExtraArgs and ExtraArgsBefore, as clang-tidy adds them.
ArgumentsAdjuster configuredArgs(ClangTidyContext &Context) {
  return [&Context](const CommandLineArguments &Args, StringRef File) {
    ClangTidyOptions Opts = Context.getOptionsForFile(File);
    CommandLineArguments Out = Args;
    if (Opts.ExtraArgsBefore) {
      auto I = Out.begin();
      if (I != Out.end() && !StringRef(*I).starts_with("-"))
        ++I;
      Out.insert(I, Opts.ExtraArgsBefore->begin(), Opts.ExtraArgsBefore->end());
    }
    if (Opts.ExtraArgs)
      Out.insert(Out.end(), Opts.ExtraArgs->begin(), Opts.ExtraArgs->end());
    return Out;
  };
}

/// `FILE:LINE:COL: message` of a diagnostic, FILE relative to the working
/// directory when it is under it.
std::string located(const clang::tooling::DiagnosticMessage &M, llvm::vfs::FileSystem &FS) {
  std::string Where = M.FilePath;
  if (llvm::SmallString<256> Cwd; !llvm::sys::fs::current_path(Cwd)) {
    Cwd += llvm::sys::path::get_separator();
    if (StringRef(Where).starts_with(Cwd))
      Where.erase(0, Cwd.size());
  }
  if (auto Buffer = FS.getBufferForFile(M.FilePath); Buffer && M.FileOffset <= (*Buffer)->getBufferSize()) {
    StringRef Before = (*Buffer)->getBuffer().take_front(M.FileOffset);
    size_t LineStart = Before.rfind('\n');
    Where += ":" + std::to_string(Before.count('\n') + 1) + ":" +
             std::to_string(Before.size() - (LineStart == StringRef::npos ? 0 : LineStart + 1) + 1);
  }
  return Where.empty() ? M.Message : Where + ": " + M.Message;
}

/// A header of libstdc++ or libc++ (`.../include/c++/12/bits/stl_vector.h`).
bool inStandardLibrary(StringRef Path) { return Path.contains("/c++/"); }

/// An error of the compiler's own (not a check's, nor a configuration's).
bool isParseError(const ClangTidyError &E) {
  return E.DiagLevel == ClangTidyError::Error && StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
}

/// Removes the compiler's errors from \p Run, which headers not found
/// explain, counting them and keeping where the first one is.
void setAsideFollowingErrors(FileRun &Run, llvm::vfs::FileSystem &FS) {
  std::vector<ClangTidyError> Kept;
  for (ClangTidyError &E : Run.Errors) {
    if (!isParseError(E)) {
      Kept.push_back(std::move(E));
      continue;
    }
    if (!Run.FollowingErrors)
      Run.FirstFollowingError = located(E.Message, FS);
    Run.FollowingErrors += errorsIn(E);
  }
  Run.Errors = std::move(Kept);
}

/// clang-tidy's adjusters, CUDA's, and with recovery from missing headers:
/// no spelling correction (an unknown name stays an error expression instead
/// of becoming a guess at a similar declaration), the command's error limit
/// kept by \p Limit instead of clang (which then never stops), and two
/// directories searched after every other one, so the project's own flags
/// always win: the machine's CUDA toolkit for C++ files that include its
/// runtime API without naming it (and its `cccl` directory, where CUDA 13
/// keeps thrust and cub), then the profiles' stand-ins for SDKs the machine
/// lacks; then \p Added, arguments a recovery adds (`-include <vector>`).
void addAdjusters(ClangTool &Tool, ClangTidyContext &Context, const std::string &File, llvm::vfs::FileSystem &FS,
                  const ParseOptions &Options, ErrorLimit &Limit, llvm::ArrayRef<std::string> Added) {
  Tool.appendArgumentsAdjuster(configuredArgs(Context));
  Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());
  Tool.appendArgumentsAdjuster(cudaHostOnlyAdjuster(Options.CudaPath));
  if (!Options.RecoverIncludes)
    return;
  Tool.appendArgumentsAdjuster([&Limit](const CommandLineArguments &Args, StringRef) {
    Limit.setLimit(errorLimitOf(Args).value_or(DefaultErrorLimit));
    return Args;
  });
  CommandLineArguments Extra = {"-ferror-limit=0", "-fno-spell-checking"};
  std::string Toolkit = (Options.CudaPath.empty() ? std::string("/usr/local/cuda") : Options.CudaPath) + "/include";
  const bool HasToolkit = FS.exists(Toolkit + "/cuda_runtime_api.h");
  if (!isCudaInput(File) && HasToolkit)
    Extra.insert(Extra.end(), {"-idirafter", Toolkit});
  // CUDA 13 keeps thrust, cub and libcu++ in include/cccl, which nvcc searches by itself.
  if (HasToolkit && FS.exists(Toolkit + "/cccl/thrust/version.h"))
    Extra.insert(Extra.end(), {"-idirafter", Toolkit + "/cccl"});
  Extra.insert(Extra.end(), {"-idirafter", StandInDir});
  Extra.insert(Extra.end(), Added.begin(), Added.end());
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(Extra, ArgumentInsertPosition::END));
}

} // namespace

namespace {
/// Runs \p Make's actions on \p File with clang-tidy's diagnostics and the
/// recovery from missing headers; returns the diagnostics.
std::vector<ClangTidyError> runTool(ClangTidyContext &Context, const CompilationDatabase &DB, const std::string &File,
                                    IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS, const ParseOptions &Options,
                                    std::function<std::unique_ptr<FrontendAction>(std::vector<std::string> *)> Make,
                                    std::vector<std::string> *Missing, bool &Ok, std::string *Stats,
                                    IntrusiveRefCntPtr<DiagnosticIDs> IDs, llvm::ArrayRef<std::string> Added,
                                    std::vector<clang::tooling::DiagnosticMessage> *Past) {
  if (isCudaInput(File))
    addCudaOverlay(*FS);
  if (Options.RecoverIncludes)
    addEmbeddedDirectory(*FS, StandInDir, clang::tidy::mlperf::embeddedStandIns());
  ClangTool Tool(DB, {File}, std::make_shared<PCHContainerOperations>(), FS);
  ClangTidyDiagnosticConsumer Consumer(Context, nullptr, /*RemoveIncompatibleErrors=*/true, /*GetFixesFromNotes=*/true);
  ErrorLimit Limit(Consumer, 0);
  Limit.keepPast(Past);
  addAdjusters(Tool, Context, File, *FS, Options, Limit, Added);
  DiagnosticsEngine Engine(IDs, new DiagnosticOptions(), &Consumer, /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&Engine);
  Tool.setDiagnosticConsumer(&Limit);
  // ClangTool writes its "Error while processing" line straight to stderr, in
  // pieces, from whichever worker runs it: it goes into the file's block.
  Tool.setPrintErrorMessage(false);
  std::vector<std::string> *Recovering = Options.RecoverIncludes ? Missing : nullptr;
  Factory F([&] { return Make(Recovering); }, Recovering);
  Ok = Tool.run(&F) == 0;
  if (Stats && F.ShowStats && (!Recovering || Recovering->empty()))
    *Stats = diagnosticStats(Consumer.getNumWarnings(), Consumer.getNumErrors() + Limit.dropped(), isCudaInput(File));
  if (Stats && !Ok)
    *Stats += "Error while processing " + File + ".\n";
  std::vector<ClangTidyError> Errors = Consumer.take();
  if (std::optional<ClangTidyError> TooMany = Limit.summary(Context.getCurrentBuildDirectory()))
    Errors.push_back(std::move(*TooMany));
  return Errors;
}
} // namespace

namespace {
/// Errors inside the C++ standard library's headers: in C++20, libstdc++'s
/// containers are constexpr, and clang instantiates a constexpr function
/// where it is first used, so a `std::vector<T>` member of a class that a
/// library completes T after (libtorch's `c10::IValue`, whose list holds
/// them) fails to compile with clang although it does with gcc. Parsed
/// again (\p Again) as C++17; kept when that parse has fewer errors.
void retryAsCxx17(FileRun &Run, FileSummary *Summary, Recovery &R, llvm::function_ref<void()> Again) {
  if (llvm::none_of(Run.Errors,
                    [](const ClangTidyError &E) { return isParseError(E) && inStandardLibrary(E.Message.FilePath); }))
    return;
  FileRun First = Run;
  std::optional<FileSummary> FirstSummary = Summary ? std::optional(*Summary) : std::nullopt;
  size_t Before = llvm::count_if(Run.Errors, isParseError);
  R.AsCxx17 = true;
  Again();
  if (llvm::count_if(Run.Errors, isParseError) < Before) {
    Run.Retried = "parsed as C++17: clang cannot compile its C++20 standard library's containers of a type "
                  "completed later (libtorch's c10::IValue)";
    return;
  }
  R.AsCxx17 = false;
  Run = std::move(First);
  if (Summary)
    *Summary = std::move(*FirstSummary);
}

/// Names of the standard library used without their header: parsed again
/// with those headers included first, as an older standard library would
/// have brought them in (a few rounds: a name's errors may hide another's).
void includeForgottenHeaders(FileRun &Run, Recovery &R, llvm::function_ref<void()> Again) {
  for (int Round = 0; Round < 3 && llvm::any_of(Run.Errors, isParseError); ++Round) {
    size_t Before = R.PreIncludes.size();
    for (const auto &[Header, Name] : missingStandardHeaders(Run.Errors))
      if (std::string Bare = StringRef(Header).drop_front().drop_back().str();
          !llvm::is_contained(R.PreIncludes, Bare)) {
        R.PreIncludes.push_back(Bare);
        Run.StandardHeaders.push_back(Header + " (" + Name + ")");
      }
    if (R.PreIncludes.size() == Before)
      break;
    Again();
  }
}

/// Whether MLPERF_DUMP (a comma-separated list of stages, or `all`, as the
/// runtime reads it) names \p Stage.
bool dumpsStage(llvm::StringRef Stage) {
  const char *Dump = std::getenv("MLPERF_DUMP");
  if (!Dump || !*Dump)
    return false;
  llvm::SmallVector<llvm::StringRef, 4> Stages;
  llvm::StringRef(Dump).split(Stages, ',');
  return llvm::is_contained(Stages, "all") || llvm::is_contained(Stages, Stage);
}

/// Whether \p Errors hold one that a parse against a preamble may owe to it:
/// about the precompiled header (damaged or stale), of no place in the file,
/// or inside the standard library (answered by parsing as C++17, a standard
/// the preamble was not built with).
bool mayComeFromPreamble(const std::vector<ClangTidyError> &Errors) {
  return llvm::any_of(Errors, [](const ClangTidyError &E) {
    StringRef Message = E.Message.Message;
    return isParseError(E) &&
           (E.Message.FilePath.empty() || inStandardLibrary(E.Message.FilePath) ||
            Message.contains_insensitive("precompiled") || Message.contains("PCH") || Message.contains("AST file"));
  });
}

/// The compiler's errors, as clang counts them.
size_t parseErrors(const FileRun &Run) {
  size_t N = 0;
  for (const ClangTidyError &E : Run.Errors)
    if (isParseError(E))
      N += errorsIn(E);
  return N;
}

/// Names that headers which were not found would have declared: parsed
/// again with permissive declarations of them included first
/// (engine/MissingNames.h), a few rounds while each names more (the members
/// of a made-up type are reported only once the type is declared, and a
/// round may show more errors than the one before it for that reason); the
/// parse with the fewest errors is kept, the first one included. Not for C,
/// where none of it parses.
void declareMissingNames(FileRun &Run, FileSummary *Summary, Recovery &R, llvm::vfs::OverlayFileSystem &FS,
                         llvm::StringRef File, llvm::function_ref<void()> Again) {
  if (Run.MissingIncludes.empty() || llvm::sys::path::extension(File) == ".c" || !parseErrors(Run))
    return;
  struct Kept {
    FileRun Run;
    std::optional<FileSummary> Summary;
    std::string Declarations;
    size_t Errors;
  };
  Kept Best{Run, Summary ? std::optional(*Summary) : std::nullopt, R.Declarations, parseErrors(Run)};
  MissingNames Names;
  for (int Round = 0; Round < 3 && Names.learn(Run.Errors, Run.PastLimit, FS); ++Round) {
    std::string Path = "/mlperf-lint/declared/missing-names-" + std::to_string(Round) + ".h";
    auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Names.header(), Path));
    FS.pushOverlay(Memory);
    if (dumpsStage("declared"))
      llvm::errs() << "mlperf-lint: " << File << ": declarations, round " << Round + 1 << ":\n" << Names.header();
    R.Declarations = Path;
    Again();
    if (size_t Now = parseErrors(Run); Now < Best.Errors) {
      Run.Declared = Names.names();
      Run.DeclaredMembers = Names.members().size();
      Best = {Run, Summary ? std::optional(*Summary) : std::nullopt, R.Declarations, Now};
    }
  }
  R.Declarations = Best.Declarations;
  Run = std::move(Best.Run);
  if (Summary)
    *Summary = std::move(*Best.Summary);
}

/// Starts \p File from what its recoveries settled on before, if they did:
/// the arguments, the made-up declarations' header in \p FS, and what the
/// file's line says of them. Returns the memo, to check the parse against.
std::optional<RecalledRecovery> recallRecovery(const ParseOptions &Options, const std::string &File, Recovery &R,
                                               FileRun &Run, llvm::vfs::OverlayFileSystem &FS) {
  std::optional<RecalledRecovery> E = Options.Memo ? Options.Memo->recall(File) : std::nullopt;
  if (!E)
    return std::nullopt;
  R = E->R;
  if (!E->Header.empty()) {
    auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    Memory->addFile(R.Declarations, 0, llvm::MemoryBuffer::getMemBufferCopy(E->Header, R.Declarations));
    FS.pushOverlay(Memory);
  }
  Run.StandardHeaders = E->StandardHeaders;
  Run.Declared = E->Declared;
  Run.DeclaredMembers = E->DeclaredMembers;
  Run.Retried = E->Retried;
  return E;
}

/// Whether a recalled recovery still fits the file: the parse it gives has
/// no more errors than the search ended with, and misses the same headers.
bool fits(const RecalledRecovery &E, const FileRun &Run) {
  return parseErrors(Run) <= E.Errors && Run.MissingIncludes == E.Missing;
}

/// Drops \p File's recovery when it no longer fits (the file was edited, its
/// flags changed): the file is parsed as its command says (\p Again), to
/// search again.
void forgetRecovery(const ParseOptions &Options, const std::string &File, Recovery &R, FileRun &Run,
                    llvm::function_ref<void()> Again) {
  Options.Memo->forget(File);
  R = Recovery();
  Run.StandardHeaders.clear();
  Run.Declared.clear();
  Run.DeclaredMembers = 0;
  Run.Retried.clear();
  Again();
}

void rememberRecovery(const ParseOptions &Options, const std::string &File, const Recovery &R, const FileRun &Run,
                      llvm::vfs::FileSystem &FS) {
  if (!Options.Memo || R.empty())
    return;
  RecalledRecovery E{R,
                     "",
                     Run.StandardHeaders,
                     Run.Declared,
                     Run.DeclaredMembers,
                     Run.Retried,
                     parseErrors(Run),
                     Run.MissingIncludes};
  if (!R.Declarations.empty())
    if (auto Buffer = FS.getBufferForFile(R.Declarations))
      E.Header = (*Buffer)->getBuffer().str();
  Options.Memo->remember(File, std::move(E));
}

/// The recoveries tried in turn on a file parsed as its command says, each
/// kept when its parse has fewer errors; what they settle on is remembered,
/// unless the parse against a preamble may owe its errors to it.
void searchRecovery(const ParseOptions &Options, const std::string &File, FileRun &Run, FileSummary *Summary,
                    Recovery &R, llvm::vfs::OverlayFileSystem &FS, bool AgainstPreamble,
                    llvm::function_ref<void()> Again) {
  retryAsCxx17(Run, Summary, R, Again);
  includeForgottenHeaders(Run, R, Again);
  declareMissingNames(Run, Summary, R, FS, File, Again);
  Run.PreambleMayMatter = AgainstPreamble && (!Run.Retried.empty() || mayComeFromPreamble(Run.Errors));
  if (!Run.PreambleMayMatter)
    rememberRecovery(Options, File, R, Run, FS);
}

/// The profiles a summary of the file needs (the checks report a bad one).
std::shared_ptr<const ApiProfiles> summaryProfiles(ClangTidyContext &Context, const std::string &File) {
  Context.setCurrentFile(File);
  const auto &CheckOptions = Context.getOptions().CheckOptions;
  auto It = CheckOptions.find("Profiles");
  llvm::Expected<std::shared_ptr<const ApiProfiles>> Profiles =
      MlperfCheck::loadProfiles(It != CheckOptions.end() ? It->second.Value : "");
  if (!Profiles) {
    llvm::consumeError(Profiles.takeError());
    return nullptr;
  }
  return *Profiles;
}
} // namespace

FileRun runTidyOnFile(ClangTidyContext &Context, const CompilationDatabase &DB, const std::string &File,
                      IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS, const ParseOptions &Options,
                      FileSummary *Summary, bool AgainstPreamble) {
  FileRun Run;
  std::shared_ptr<const ApiProfiles> Profiles;
  if (Summary) {
    Summary->File = File;
    Profiles = summaryProfiles(Context, File);
  }
  ClangTidyASTConsumerFactory Checks(Context, FS);
  std::vector<std::string> *StandIns = &Run.StandIns;
  bool Ok = false;
  const bool SystemHeaders = Context.getOptions().SystemHeaders.value_or(false);
  // One table of diagnostic IDs for every parse of the file: the context
  // names a finding's check by its ID, kept from the first parse that made it.
  IntrusiveRefCntPtr<DiagnosticIDs> IDs(new DiagnosticIDs());
  Recovery R;
  unsigned Parses = 0; // not in Run, which a recovery not kept restores
  // A parse with errors may be followed by another that replaces it: a
  // recovery, a search again, or the repeat without the preamble.
  const bool MayParseAgain = AgainstPreamble || Options.RecoverIncludes;
  auto Parse = [&] {
    ++Parses;
    return runTool(
        Context, DB, File, FS, Options,
        [&](std::vector<std::string> *M) {
          return std::make_unique<Action>(Checks, SystemHeaders, Summary, Profiles.get(), M, StandIns, Options,
                                          MayParseAgain);
        },
        &Run.MissingIncludes, Ok, &Run.CompilerStats, IDs, R.args(), &Run.PastLimit);
  };
  auto Again = [&] {
    Run.MissingIncludes.clear();
    Run.StandIns.clear();
    Run.CompilerStats.clear();
    Run.PastLimit.clear();
    Run.Errors = Parse();
  };
  std::optional<RecalledRecovery> Recalled =
      Options.RecoverIncludes ? recallRecovery(Options, File, R, Run, *FS) : std::nullopt;
  Run.Errors = Parse();
  // Errors the preamble may cause end the search here: the file is parsed
  // again without it and searches there (a C++17 retry against a C++20
  // preamble fails at once, with fewer errors than the file has).
  Run.PreambleMayMatter = AgainstPreamble && mayComeFromPreamble(Run.Errors);
  if (Recalled && !Run.PreambleMayMatter && !fits(*Recalled, Run)) {
    Recalled.reset();
    forgetRecovery(Options, File, R, Run, Again);
    Run.PreambleMayMatter = AgainstPreamble && mayComeFromPreamble(Run.Errors);
  }
  if (Options.RecoverIncludes && !Recalled && !Run.PreambleMayMatter)
    searchRecovery(Options, File, Run, Summary, R, *FS, AgainstPreamble, Again);
  if (Summary)
    Summary->File = File;
  if (!Run.MissingIncludes.empty())
    setAsideFollowingErrors(Run, *FS);
  Run.Parses = Parses;
  return Run;
}

std::vector<std::pair<std::string, std::string>> missingStandardHeaders(const std::vector<ClangTidyError> &Errors) {
  // The std:: name in a quoted type (`'std::basic_ifstream<char>'`), or the
  // name that namespace std lacks.
  static const llvm::Regex Quoted("'std::([A-Za-z_][A-Za-z_0-9]*)");
  static const llvm::Regex Lacks("named '([A-Za-z_][A-Za-z_0-9]*)' in namespace 'std'");
  std::vector<std::pair<std::string, std::string>> Out;
  for (const ClangTidyError &E : Errors) {
    if (!isParseError(E))
      continue;
    StringRef Message = E.Message.Message;
    llvm::SmallVector<StringRef, 2> Match;
    if (!(Message.contains("undefined template") || Message.contains("incomplete type") ||
          Message.contains("incomplete class")) ||
        !Quoted.match(Message, &Match))
      if (!Lacks.match(Message, &Match))
        continue;
    std::optional<clang::tooling::stdlib::Symbol> Sym = clang::tooling::stdlib::Symbol::named("std::", Match[1]);
    std::optional<clang::tooling::stdlib::Header> Header = Sym ? Sym->header() : std::nullopt;
    if (!Header)
      continue;
    std::string Name = "std::" + Match[1].str();
    if (llvm::none_of(Out, [&](const auto &P) { return P.first == Header->name(); }))
      Out.emplace_back(Header->name().str(), Name);
  }
  return Out;
}

std::string incompleteMessage(const std::string &File, const FileRun &Run) {
  std::string Standard = Run.StandardHeaders.empty() ? ""
                                                     : "included " + llvm::join(Run.StandardHeaders, ", ") +
                                                           ", whose names the file uses without including " +
                                                           (Run.StandardHeaders.size() == 1 ? "it" : "them");
  if (!Run.Retried.empty())
    Standard = Standard.empty() ? Run.Retried : Run.Retried + "; " + Standard;
  size_t N = Run.MissingIncludes.size();
  if (!N)
    return Standard.empty() ? "" : File + ": " + Standard;
  size_t M = Run.StandIns.size();
  std::string Replaced = M ? ", " + std::to_string(M) + " of them replaced by declarations of " +
                                 (M == 1 ? "its" : "their") + " API that mlperf-lint ships (" +
                                 llvm::join(Run.StandIns, ", ") + ")"
                           : "";
  std::string Declared;
  if (size_t D = Run.Declared.size()) {
    std::vector<std::string> Shown(Run.Declared.begin(), Run.Declared.begin() + std::min<size_t>(D, 8));
    size_t M = Run.DeclaredMembers;
    Declared = "; permissive declarations made up for " + std::to_string(D) + (D == 1 ? " name" : " names") +
               " they would declare (" + llvm::join(Shown, ", ") + (D > Shown.size() ? ", ..." : "") + ")" +
               (M ? " and " + std::to_string(M) + (M == 1 ? " member" : " members") + " of their types" : "");
  }
  size_t E = Run.FollowingErrors;
  std::string Following = E ? "; " + std::to_string(E) + (E == 1 ? " compiler error" : " compiler errors") +
                                  " set aside as following from " + (N == 1 ? "it" : "them") + " (" +
                                  (E == 1 ? "" : "the first: ") + Run.FirstFollowingError + ")"
                            : "";
  return File + ": " + std::to_string(N) + (N == 1 ? " include" : " includes") + " not found (" +
         llvm::join(Run.MissingIncludes, ", ") + ")" + Replaced + Declared + Following +
         (Standard.empty() ? "" : "; " + Standard) + IncompleteTail;
}

std::string withIncludeNotes(const std::string &File, const std::string &Incomplete,
                             const std::vector<std::string> &Notes) {
  if (Notes.empty())
    return Incomplete;
  std::string Joined = llvm::join(Notes, "; ");
  llvm::StringRef Line = Incomplete;
  if (Line.consume_back(IncompleteTail))
    return Line.str() + "; " + Joined + IncompleteTail;
  return Incomplete.empty() ? File + ": " + Joined : Incomplete + "; " + Joined;
}

} // namespace mlperf::lint
