// The whole-project summaries' data: what each function of the project does
// when called (runs the model, trains) and where other files call it on every
// step, keyed by USR so that one translation unit sees the functions another
// defines. The collector (SummaryCollector.h) builds a file's summary from its
// model analysis; SummaryJson.cpp reads and writes the form the linter stores
// in its cache directory between runs.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang::tidy::mlperf {

/// What calling a function does, through the functions it calls.
struct FunctionFacts {
  std::string Name, File;
  unsigned Line = 0;
  bool StepsDirectly = false;             // runs a model step on every call, outside any loop of its own
  bool ReachesStep = false;               // runs a model step somewhere
  bool Trains = false;                    // a backward pass or an optimizer step
  std::vector<std::string> Callees;       // USRs of functions it calls that its file does not define
  std::vector<std::string> DirectCallees; // those of them called outside any loop of its own
  /// Handle ownership (Ownership.h): the parameters it releases, and the
  /// acquiring API call (a profile entry's first callee) whose handle it returns.
  std::vector<unsigned> ReleasedParams;
  std::string ReturnedAcquire;
  /// Its non-const pointer and reference parameters it only reads through
  /// (Invariance.h's readsThroughOnly): passing `&net->lr` does not change it.
  std::vector<unsigned> ReadOnlyParams;
  /// It runs an autograd forward that a training step needs with autograd
  /// on (Facts.h's forwardKeptForTraining): a caller that only infers guards it.
  bool ForwardForTraining = false;
  /// It copies device data to the host or waits for the device (ModelAnalysis::readsToHost).
  bool ReadsToHost = false;
  /// It returns tensors, all on the host (Facts.h's returnsHost): a data class's `next()`.
  bool ReturnsHost = false;
  /// USRs of the virtual methods it overrides, directly or not: a call of
  /// one of them (through a base class) may run it.
  std::vector<std::string> Overrides;
};

/// What a callable passed as an argument of a call of another file's function
/// does when that function calls it (a lambda passed as a std::function).
struct PassedCallable {
  unsigned Index = 0; // the argument
  bool StepsDirectly = false, ReachesStep = false, Trains = false;
};

/// A call, on every step, of a function that the calling file does not define.
struct HotCallSite {
  std::string File; // the call
  unsigned Line = 0, Column = 0;
  std::string LoopFile; // the loop that runs the step; empty when the caller is hot by itself
  unsigned LoopLine = 0, LoopColumn = 0;
  std::string Caller; // the calling function's name
  bool Training = false;
  /// Arguments that are the same on every step (Invariance.h's
  /// argumentSameEveryStep): a variable declared before the loop and never
  /// changed in it, or below the loop a parameter passed on unchanged.
  std::vector<unsigned> InvariantArgs;
  /// What the caller does with the value the call returns (Purpose.h's
  /// purposeName: "accumulate", "log", ...); empty when unknown. A value
  /// the callee reads from the device only to return it is explained here.
  std::string ResultUse;
  /// The call's result is a fresh object the loop then loads with state that
  /// changes every iteration (Invariance.h's loadedPerIteration: a model per
  /// checkpoint); only for calls made in the loop itself.
  bool ResultReloaded = false;
  /// Pointer arguments whose host memory the caller next only copies to the
  /// device (Purpose.h's copiedBackAfter): what the callee copies there from
  /// the device makes a round trip. CopiedBackAt: the first copy back, "file:line".
  std::vector<unsigned> CopiedBackArgs;
  std::string CopiedBackAt;
  /// The host needs the callee's device work finished right after the call
  /// (HostWaits.h's waitNeeded in the caller's file: a clock read or a copy
  /// to the host next): a wait the callee ends with is not a cost here.
  bool WaitsAfter = false;
};

/// A call of a function of another file that returns a handle it acquired,
/// made on every step or request, whose caller releases that handle again
/// before the next (through functions that return it in turn): alloc-in-loop
/// reports the churn once, at the acquisition in the callee's file.
struct ChurnCall {
  HotCallSite Site; // the call that ends in the release, and its loop
  bool Request = false;
  std::string Release;                         // the releasing function's name
  unsigned ReleaseLine = 0, ReleaseColumn = 0; // in Site.File
};

struct FileSummary {
  std::string File;
  int64_t MTime = 0;
  uint64_t Size = 0;
  /// Which parse of the file, in a whole-project run's settling, this is the
  /// summary of (linter/engine/Settling.h); 0 outside one. Not stored.
  unsigned Parse = 0;
  std::map<std::string, FunctionFacts> Functions;           // by USR, defined in the file
  std::map<std::string, std::vector<HotCallSite>> HotCalls; // by the callee's USR
  std::map<std::string, std::vector<ChurnCall>> ChurnCalls; // by the callee's USR
  /// By the callee's USR: calls made on every iteration of a loop that runs
  /// the model at any depth (an epoch loop calling a helper that runs its
  /// own batch loop), in the caller or, through callers, around it.
  std::map<std::string, std::vector<HotCallSite>> LoopCalls;
  /// By the callee's USR: the lambdas and functions this file passes to
  /// another file's function, by argument.
  std::map<std::string, std::vector<PassedCallable>> Passed;
  /// By "USR#index": where a function defined here calls its parameter
  /// `index` (a std::function, a function pointer) on every step.
  std::map<std::string, std::vector<HotCallSite>> ParamCalls;
  std::set<std::string> Uses; // USRs of every function it calls that the file does not define
  /// For each of Uses: whether every call of it in the file runs with
  /// gradients off (under a no-grad guard, in its function or its callers).
  std::map<std::string, bool> GradOffCalls;
  /// The file sends tensors or modules to an accelerator (its own code, not
  /// counting other files').
  bool UsesDevice = false;
  /// The device arguments it passes to functions of the project (by the
  /// callee's USR, then parameter): "cpu", "accelerator" or "unknown" when
  /// its calls pass different ones (deviceKindName).
  std::map<std::string, std::map<unsigned, std::string>> DeviceArgs;
  /// The tensor arguments it passes to functions other files define (by the
  /// callee's USR, then parameter): whether each of its calls passes a
  /// tensor, or a list of them, on the host (onHost).
  std::map<std::string, std::map<unsigned, bool>> HostArgs;
  /// The arguments that may hold nothing (Facts' mayBeEmpty: pointers,
  /// flags, optionals, constant objects) it passes to functions other files
  /// define (by the callee's USR, then parameter): whether each of its calls
  /// passes nothing (`nullptr`, `false`, `std::nullopt`, `GpuMat()`, a
  /// default argument of one).
  std::map<std::string, std::map<unsigned, bool>> NullArgs;
  /// USRs of the methods that classes of its functions declare and it does
  /// not define: whether another file defines them (ProjectSummaries::defines)
  /// decides what a private field may hold (storedValues).
  std::set<std::string> Undefined;
  /// USRs of the public fields its functions may change outside the
  /// constructors and destructor of their class (Invariance.h).
  std::set<std::string> WrittenFields;
  /// The pointer arguments it passes to functions other files define (by
  /// the callee's USR, then parameter) that are pageable host memory
  /// (HostMemory.h): where the memory comes from and where it is passed,
  /// "basemodel.cpp:120, passed at yolo.cpp:44"; the first such call.
  std::map<std::string, std::map<unsigned, std::string>> PageableArgs;
  /// By USR, the pointer fields its functions store into: where the memory
  /// comes from when each value stored is pageable host memory (or null),
  /// else "" (anything else: page-locked or unknown memory, its address
  /// taken, registered with the driver).
  std::map<std::string, std::string> PointerFields;
};

/// A repository of independent programs (several files with `main`, each
/// with its own functions and headers) is analysed as separate programs: each
/// file sees the summaries of its own program only. The rule, by directory:
/// - a file that defines `main` starts a program;
/// - any other file belongs to the programs of the mains in the nearest
///   directory above it (its own included) that holds a main;
/// - a file below no such directory is shared code, part of every program.
/// A main file sees its program (itself, its directory's other files and the
/// directories below, shared code); another file sees the programs it belongs
/// to; shared code sees everything. Without two mains in different places
/// every file sees every other, as one program.
class ProjectSummaries {
public:
  /// Adds or replaces the summary of one file.
  void add(FileSummary S);
  /// Removes the summary of one file (one that no longer exists); whether it had one.
  bool remove(llvm::StringRef File);
  /// Sorts the files into programs and propagates facts through calls across
  /// the files each file sees (call it after adding).
  void resolve();
  /// The facts of a function as the analysis of \p From sees them ("": as
  /// the whole project sees them).
  const FunctionFacts *function(llvm::StringRef Usr, llvm::StringRef From = "") const;
  /// Whether a file other than \p NotFrom (of the files it sees) calls the function.
  bool calledFrom(llvm::StringRef Usr, llvm::StringRef NotFrom) const;
  /// Whether a file that \p From sees (\p From included) defines the function.
  bool defines(llvm::StringRef Usr, llvm::StringRef From) const;
  /// Whether a file of the project defines main.
  bool hasMain() const { return !Mains.empty(); }
  /// A per-step call of the function from another file than \p NotFrom.
  const HotCallSite *hotCaller(llvm::StringRef Usr, llvm::StringRef NotFrom) const;
  /// A call of the function from another file than \p NotFrom on every
  /// iteration of a loop that runs the model (FileSummary::LoopCalls).
  const HotCallSite *loopCaller(llvm::StringRef Usr, llvm::StringRef NotFrom) const;
  /// What the callables that the files \p From sees pass as argument \p Index
  /// of the function do, together (null when none is passed).
  const FunctionFacts *passedCallables(llvm::StringRef Usr, unsigned Index, llvm::StringRef From) const;
  /// A call on every step, in another file than \p NotFrom, of the
  /// function's parameter \p Index (FileSummary::ParamCalls).
  const HotCallSite *paramCaller(llvm::StringRef Usr, unsigned Index, llvm::StringRef NotFrom) const;
  /// The churn calls (see ChurnCall) of the function from other files than \p NotFrom.
  std::vector<const ChurnCall *> churnCalls(llvm::StringRef Usr, llvm::StringRef NotFrom) const;
  /// Whether other files than \p NotFrom call the function and every such call
  /// runs with gradients off.
  bool calledWithGradOff(llvm::StringRef Usr, llvm::StringRef NotFrom) const;
  /// Whether every call of the function on a step in other files than \p
  /// NotFrom needs its device work finished right after it
  /// (HotCallSite::WaitsAfter); none when no such call is known.
  std::optional<bool> hotCallsWaitAfter(llvm::StringRef Usr, llvm::StringRef NotFrom) const;
  /// Whether other files than \p NotFrom call the function on every step and
  /// each such call passes an invariant variable as argument \p Index.
  bool passesSameValue(llvm::StringRef Usr, llvm::StringRef NotFrom, unsigned Index) const;
  /// Where the callers of \p Usr in files other than \p NotFrom copy the host
  /// memory they pass as argument \p Index back to the device: every such
  /// call on every step does (HotCallSite::CopiedBackArgs); else none.
  std::optional<std::string> copiedBackBy(llvm::StringRef Usr, llvm::StringRef NotFrom, unsigned Index) const;
  /// Whether a file other than \p NotFrom (of the files it sees) sends tensors to an accelerator: then
  /// the program's tensors may live there, in a helper file that only moves
  /// tensors next to others (`t.to(other)`) too.
  bool anyUsesDevice(llvm::StringRef NotFrom) const;
  /// Whether a file other than \p NotFrom (of the files it sees) may change
  /// the public field \p Usr after construction (FileSummary::WrittenFields).
  bool fieldWritten(llvm::StringRef Usr, llvm::StringRef NotFrom) const;
  /// The device that every call from files other than \p NotFrom passes as
  /// parameter \p Index of the function ("cpu", "accelerator", "unknown"
  /// when they differ), or nothing when no other file passes one.
  std::optional<std::string> deviceArgument(llvm::StringRef Usr, llvm::StringRef NotFrom, unsigned Index) const;
  /// Whether every call of the function from files other than \p NotFrom
  /// passes a host tensor as parameter \p Index (FileSummary::HostArgs);
  /// false when no other file calls it or one records nothing there.
  bool hostArgument(llvm::StringRef Usr, llvm::StringRef NotFrom, unsigned Index) const {
    return everyCallPasses(Usr, NotFrom, Index, &FileSummary::HostArgs);
  }
  /// Whether every call of the function from files other than \p NotFrom
  /// passes nothing as parameter \p Index (FileSummary::NullArgs).
  bool nullArgument(llvm::StringRef Usr, llvm::StringRef NotFrom, unsigned Index) const {
    return everyCallPasses(Usr, NotFrom, Index, &FileSummary::NullArgs);
  }
  /// Where a call from a file other than \p NotFrom passes pageable host
  /// memory as parameter \p Index of the function (FileSummary::PageableArgs).
  std::optional<std::string> pageableArgument(llvm::StringRef Usr, llvm::StringRef NotFrom, unsigned Index) const;
  /// Where the pageable memory comes from that the files \p From sees store
  /// into the pointer field \p Usr, when at least one stores some and every
  /// value stored is pageable or null (FileSummary::PointerFields).
  std::optional<std::string> pageableField(llvm::StringRef Usr, llvm::StringRef From) const;
  const std::map<std::string, FileSummary> &files() const { return Files; }
  /// Everything the analysis of the file that \p S summarizes reads of these
  /// summaries: the facts of the functions it calls from other files, and the
  /// per-step calls from other files of the functions it defines. Its findings
  /// depend on the project's summaries through this text alone.
  std::string dependencies(const FileSummary &S) const;

  /// The JSON form, with a version (SummaryJson.cpp). Summaries of an older
  /// version read as none (they are rebuilt); errors name \p Source.
  std::string toJson() const;
  static llvm::Expected<ProjectSummaries> fromJson(llvm::StringRef Json, llvm::StringRef Source);

private:
  /// What the files of one program (or of several, or the whole project) see.
  struct View {
    std::vector<std::string> Files;                // the summarized files seen
    std::map<std::string, FunctionFacts> Resolved; // by USR
    std::set<std::string> Ambiguous;               // USRs with different definitions in different files
    // Which of Files name a USR among their per-step and grad-off calls, and
    // use a device: a query reads the few files that call a function, not
    // every file (dependencies() of each of 10,000 files was quadratic).
    std::map<std::string, std::vector<std::string>> HotCallers, GradOffCallers, ChurnCallers, DeviceArgCallers,
        LoopCallers, ParamCallers;
    /// By USR: the files that call it (FileSummary::Uses).
    std::map<std::string, std::vector<std::string>> Callers;
    /// The USRs of the functions the files define (ambiguous ones included).
    std::set<std::string> Defined;
    /// By a public field's USR: the files that may change it (WrittenFields).
    std::map<std::string, std::vector<std::string>> FieldWriters;
    /// By "USR#index": what the callables that Files pass there do, together.
    std::map<std::string, FunctionFacts> PassedFacts;
    std::vector<std::string> DeviceUsers;
    /// The USRs a call of a function may be recorded under in other files:
    /// its own, and those of the virtual methods it overrides.
    std::vector<std::string> callKeys(llvm::StringRef Usr) const;
  };
  /// Whether other files than \p NotFrom call the function and \p Field
  /// says yes for parameter \p Index at every such call.
  bool everyCallPasses(llvm::StringRef Usr, llvm::StringRef NotFrom, unsigned Index,
                       std::map<std::string, std::map<unsigned, bool>> FileSummary::*Field) const;
  /// The argument indices that every per-step call from another file than
  /// \p NotFrom passes unchanged (see HotCallSite::InvariantArgs).
  std::vector<unsigned> sameValueArgs(llvm::StringRef Usr, llvm::StringRef NotFrom) const;
  /// The argument indices \p Field lists at every hot call of \p Usr from files other than \p NotFrom.
  std::vector<unsigned> commonArgs(llvm::StringRef Usr, llvm::StringRef NotFrom,
                                   std::vector<unsigned> HotCallSite::*Field) const;
  /// The key of the view \p File sees: the main file itself, "dir:" and the
  /// nearest directory above it that holds a main, or "" (everything).
  std::string viewKey(llvm::StringRef File) const;
  const View &viewOf(llvm::StringRef File) const;
  static void resolveView(View &V, const std::map<std::string, FileSummary> &Files);

  std::map<std::string, FileSummary> Files;
  std::set<std::string> Mains;                              // files that define main
  std::map<std::string, std::vector<std::string>> MainDirs; // directory -> its mains
  std::map<std::string, View> Views;                        // by viewKey
};

/// The project's summaries for the analysis of every translation unit in
/// this process; null when there are none (a single file, the plugin). A
/// thread that pinned summaries (PinProjectSummaries) sees those instead.
std::shared_ptr<const ProjectSummaries> projectSummaries();
void setProjectSummaries(std::shared_ptr<const ProjectSummaries> S);

/// While it lives, the analyses run on this thread see \p S as the project's
/// summaries: the files settled together keep the view they were settled
/// against while other files' facts change (linter/engine/Settling.h).
class PinProjectSummaries {
public:
  explicit PinProjectSummaries(std::shared_ptr<const ProjectSummaries> S);
  ~PinProjectSummaries();
  PinProjectSummaries(const PinProjectSummaries &) = delete;
  PinProjectSummaries &operator=(const PinProjectSummaries &) = delete;

private:
  std::shared_ptr<const ProjectSummaries> Before;
  bool WasPinned;
};

} // namespace clang::tidy::mlperf
