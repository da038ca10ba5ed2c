// What runs every training step: loops that run the model, functions called
// from them, periodic guards, device awareness. Computed lazily once per
// translation unit over user code only (never inside system headers).
#pragma once

#include "ApiProfile.h"
#include "ModelSize.h"
#include "ProjectSummaries.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <vector>

namespace clang::tidy::mlperf {

/// The body of a `for`, range-`for`, `while` or `do` loop; null for anything else.
const Stmt *loopBody(const Stmt *Loop);

/// Why a statement runs on every step.
struct HotContext {
  /// The loop whose every iteration runs the model and the statement, or null
  /// when the statement is hot because its function is (see CallChain).
  const Stmt *Loop = nullptr;
  /// For statements in helpers or hot functions: call sites from the hot
  /// loop (or hot root) down to the function holding the statement.
  std::vector<const Expr *> CallChain;
  /// A function that runs every step by itself (a module's forward).
  const FunctionDecl *HotRoot = nullptr;
  bool Training = false;
  /// The function is called on every step from another file of the project
  /// (or, from inModelLoopThroughCallers(), when PerIteration: on every
  /// iteration of a loop there that runs the model).
  const HotCallSite *External = nullptr;
  bool PerIteration = false;
  /// perRequest(): a function that runs the model and that nothing in the
  /// project calls (a library's entry point, a callback): each call is a request.
  const FunctionDecl *RequestEntry = nullptr;
  /// perRequest(): the call that hands the function on top of the chain to
  /// code outside the project, which calls it back (handedToLibrary).
  const Expr *HandedAt = nullptr;
  /// perRequest(): once per request (a call of a function that runs the
  /// model, such as a whole generation), not once per model step.
  bool Request = false;
};

class ModelAnalysis {
public:
  ModelAnalysis(ASTContext &Ctx, const ApiProfiles &Profiles);

  /// Set when the statement runs once per model step (inside a step loop and
  /// not under a periodic guard, or in a function called from one).
  std::optional<HotContext> perStep(const Stmt *S);
  /// perStep(), or else once per request: in a function that runs the model
  /// (a whole generation, at any depth) called from a loop that runs the
  /// model, or called from nowhere in the project (see HotContext::RequestEntry).
  std::optional<HotContext> perRequest(const Stmt *S);
  /// The outermost enclosing loop of S (in S's function) that runs the model
  /// at any depth, or, when S's function is called per step, that context.
  std::optional<HotContext> inModelLoop(const Stmt *S);
  /// inModelLoop(S), or, for a statement outside any model loop of its
  /// function, the model loop around a call of that function in this
  /// translation unit (through callers, innermost call last in CallChain):
  /// a helper that builds its data loader and then runs the model in its own
  /// loop, called from the epoch loop, builds it once per epoch. Through the
  /// summaries, the caller's loop may be in another file of the project.
  std::optional<HotContext> inModelLoopThroughCallers(const Stmt *S);

  const Stmt *parent(const Stmt *S) const { return Parents.lookup(S); }
  const FunctionDecl *owner(const Stmt *S) const;
  /// Enclosing loops of S within its function, innermost first.
  std::vector<const Stmt *> enclosingLoops(const Stmt *S) const;
  /// The first of enclosingLoops(S), without collecting the rest; null if none.
  const Stmt *innermostLoop(const Stmt *S) const;
  /// Whether \p S is a loop that repeats its body: not one in form only
  /// (runsOnce), nor `for (i = 0; i < repeat; ++i)` counted by a parameter
  /// whose default runs it once and that no call in this file sets higher
  /// (a timing knob: `infer(int avg_time_set = 1)` called as `infer()`).
  bool isLoop(const Stmt *S) const;
  /// Whether \p S, inside \p Loop, runs once per execution of the loop: in
  /// the branch of `if (step == 0)` on the loop's counter, or of a flag the
  /// branch flips (`if (!started) { started = true; ... }`).
  bool onceIn(const Stmt *S, const Stmt *Loop) const;
  /// Whether S is part of what a loop repeats (body, condition, increment).
  bool isRepeatedBy(const Stmt *S, const Stmt *Loop) const;
  /// Whether \p S, inside \p Loop, is in a branch of an `if` that always
  /// leaves the loop (leavesLoop): it runs at most once per run of the loop.
  bool onceBeforeLeaving(const Stmt *S, const Stmt *Loop) const;

  /// Under a branch whose condition is a constant that excludes it (not one
  /// holding a loop of model steps, a mode of the program, unless the
  /// constant is a literal), or a null test of a parameter that every call
  /// passes null (alwaysNull).
  bool neverRuns(const Stmt *S);
  /// Whether every call of \p PV's function passes a null pointer for it:
  /// the calls in this translation unit and, when other files call it, each
  /// of theirs (ProjectSummaries::nullArgument); none unseen, and the
  /// function never assigns it.
  bool alwaysNull(const ParmVarDecl *PV) const;
  /// The source of \p Loop spells a loop that is not in the AST: clang drops
  /// a range-for over a declaration it could not type (a missing header's
  /// class), so what \p Loop repeats is not all there.
  bool dropsLoop(const Stmt *Loop);
  /// In the taken branch of a periodic guard (`if (epoch % k == 0)`) inside \p Loop.
  bool periodicIn(const Stmt *S, const Stmt *Loop) const;
  /// The translation unit names an accelerator (the profiles' device markers)
  /// and sends tensors or modules there: a device that is only probed for,
  /// printed, or taken from another tensor does not count.
  /// In a whole-project run, a file also is when another file of the project
  /// sends tensors to an accelerator: its helpers may get device tensors.
  bool deviceAware() const { return DeviceAware; }
  /// Where a device argument sends a tensor (ApiProfiles::classifyDeviceArg),
  /// with the variables it reads followed (DeviceFlow.cpp): a local, by the
  /// values that reach the read (`device = kCPU;` after a CUDA probe wins); a
  /// parameter, by what every call in the project passes (this file's calls,
  /// other files' through their summaries, default arguments included).
  DeviceKind deviceKind(const Expr *E) const { return deviceKindAt(E, 0); }
  /// Whether \p S runs only when the program computes on the CPU: in the
  /// branch of `if (device == torch::kCPU)` (or the else of `!= kCPU`), or in
  /// a function every call of which does (a private method or one with
  /// internal linkage, called so in this file; or one the project's other
  /// files do not call). Its tensors are host tensors.
  bool onCpuOnly(const Stmt *S);
  /// For the whole-project summaries: each device argument this file passes
  /// to a function of the project (\p Callee, parameter \p Index).
  void
  forEachDeviceArgument(llvm::function_ref<void(const FunctionDecl *Callee, unsigned Index, DeviceKind K)> Fn) const;
  /// Device awareness from this translation unit's own code.
  bool usesDeviceItself() const { return LocalDeviceAware; }
  bool isTraining(const Stmt *Loop);
  /// A backward pass or optimizer step in \p Loop's own body, not in a loop
  /// nested in it: each iteration is a training step, and an inner loop's
  /// model calls are parts of that step.
  bool trainsDirectly(const Stmt *Loop);
  /// A backward pass or optimizer step in \p FD or a function it calls.
  bool reachesTraining(const FunctionDecl *FD);
  std::optional<RoleMatch> role(const Expr *E) const;
  /// Whether a call in \p FD has a role matched by a member's name alone.
  bool hasByNameRoles(const FunctionDecl *FD) const;
  const ApiProfiles &profiles() const { return Profiles; }
  /// The project's summaries (null without whole-project analysis) and the
  /// file this translation unit is named by in them.
  const ProjectSummaries *project() const { return Project.get(); }
  std::string mainFileName() const;
  ASTContext &context() const { return Ctx; }

  /// Memo of Ownership.cpp's facts about this translation unit's functions.
  struct OwnershipMemo {
    llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<unsigned, 2>> Released;
    llvm::DenseMap<const FunctionDecl *, const ProfileEntry *> Returned;
    llvm::DenseMap<const FieldDecl *, bool> FieldReleased;
  };
  OwnershipMemo &ownershipMemo() { return Ownership; }

  /// The translation unit's constant layer and batch sizes (modelSizesOf), computed once.
  const ModelSizes &modelSizes();

  /// Whether \p Pred holds for the body of a function or lambda of this translation unit.
  bool anyBody(llvm::function_ref<bool(const Stmt *Body)> Pred) const {
    return llvm::any_of(Functions, [&](const auto &F) { return Pred(F.second.Body); });
  }
  /// Whether \p Pred holds for a function or lambda of this translation unit and its body.
  bool anyFunction(llvm::function_ref<bool(const FunctionDecl *FD, const Stmt *Body)> Pred) const {
    return llvm::any_of(Functions, [&](const auto &F) { return Pred(F.second.FD, F.second.Body); });
  }
  /// The calls and constructions in this translation unit of \p FD (a definition).
  std::vector<const Expr *> callSites(const FunctionDecl *FD) const;
  /// Who may call a function: the one answer every analysis that follows a
  /// parameter to its arguments uses.
  struct WhoCalls {
    /// Its calls and constructions in this translation unit.
    std::vector<const Expr *> Here;
    /// Other files of the project call it (their summaries record how).
    bool Elsewhere = false;
    /// Calls nobody sees may reach it: an override called through its base,
    /// a function named besides calls (`&f`, a thread entry), a lambda or a
    /// function object handed to a library, a template's instantiation, a
    /// function other files may call when no whole-project run records who
    /// does, a library's function (a project without `main`) nothing calls.
    bool Unseen = false;
    /// Nothing calls it, seen or unseen: in a program, it never runs.
    bool never() const { return Here.empty() && !Elsewhere && !Unseen; }
  };
  WhoCalls callersOf(const FunctionDecl *FD) const;

  /// While it lives, a call's arguments stand for its callee's parameters:
  /// where a question about the callee's result (is it on the host?) asks
  /// about a parameter, the answer is that call's argument (or default),
  /// not what every call passes. `getSigmasKarras(n, lo, hi)` returns its
  /// tensor where its defaulted `device = kCPU` puts it, whatever other
  /// calls pass.
  class CallBinding {
  public:
    /// Binds nothing when \p Call is null.
    CallBinding(const ModelAnalysis &A, const Expr *Call) : A(A), Bound(Call != nullptr) {
      if (Bound)
        A.BoundCalls.push_back(Call);
    }
    ~CallBinding() {
      if (Bound)
        A.BoundCalls.pop_back();
    }
    CallBinding(const CallBinding &) = delete;
    CallBinding &operator=(const CallBinding &) = delete;

  private:
    const ModelAnalysis &A;
    bool Bound;
  };
  /// The argument (or default) the innermost bound call of \p P's function
  /// passes for it, at \p Level of the bindings; null when none is bound.
  /// Ask about it with an OutsideCall of that level.
  const Expr *boundArgument(const ParmVarDecl *P, size_t &Level) const;
  /// While it lives, only the bindings made outside the call at \p Level
  /// hold: the argument's own context.
  class OutsideCall {
  public:
    OutsideCall(const ModelAnalysis &A, size_t Level) : A(A), Inner(A.BoundCalls.begin() + Level, A.BoundCalls.end()) {
      A.BoundCalls.resize(Level);
    }
    ~OutsideCall() { A.BoundCalls.insert(A.BoundCalls.end(), Inner.begin(), Inner.end()); }
    OutsideCall(const OutsideCall &) = delete;
    OutsideCall &operator=(const OutsideCall &) = delete;

  private:
    const ModelAnalysis &A;
    std::vector<const Expr *> Inner;
  };
  /// Whether this translation unit's code names \p FD other than to call it
  /// (`&f`, `std::thread(f, x)`): then it may run from calls not seen here.
  bool referencedBesidesCalls(const FunctionDecl *FD) const {
    return NamedBesidesCalls.contains(FD->getCanonicalDecl());
  }

  /// Functions whose every call is a model step by construction (forward).
  bool isHotRoot(const FunctionDecl *FD) const;
  /// A model step on every call of \p FD, outside any loop of its own (a
  /// warm-up, see warmsUp, does not count); anywhere in it.
  bool stepsDirectly(const FunctionDecl *FD);
  bool reachesStep(const FunctionDecl *FD);
  /// Whether \p FD copies device data to the host or waits for the device
  /// (a read, a sync), itself or through what it calls: a sampler that
  /// returns the next token to its generation loop.
  bool readsToHost(const FunctionDecl *FD);
  /// Whether \p Call, a call of this file's functions, reads the device:
  /// a read or a wait itself, or a call of a function that does (readsToHost).
  bool readsToHost(const CallExpr *Call);

  /// For the whole-project summaries: the functions defined here, and the
  /// calls of functions this translation unit only declares, or of virtual
  /// methods (another file may define an override).
  void forEachFunction(llvm::function_ref<void(const FunctionDecl *)> Fn) const;
  void forEachExternalCall(
      llvm::function_ref<void(const Expr *Call, const FunctionDecl *Caller, const FunctionDecl *Callee)> Fn) const;
  /// The lambdas and functions passed to functions this translation unit
  /// only declares: the call, the callee, the argument and what it holds.
  void forEachPassedCallable(llvm::function_ref<void(const Expr *Call, const FunctionDecl *Callee, unsigned Index,
                                                     const FunctionDecl *Callable)>
                                 Fn) const;
  /// The calls of a function's own parameter (a callable): what they run
  /// may come from other files.
  void
  forEachParameterCall(llvm::function_ref<void(const Expr *Call, const FunctionDecl *Owner, unsigned Index)> Fn) const;

private:
  struct CallSite {
    const Expr *E;
    const FunctionDecl *Callee; // definition in this TU, or null
    std::optional<RoleMatch> Role;
    const FunctionDecl *Caller;
    const FunctionFacts *External = nullptr; // the callee is defined in another file of the project
    /// What a call through a callable (a std::function or function pointer
    /// parameter, variable or member) runs: the lambdas and functions that
    /// reach it in this translation unit.
    llvm::SmallVector<const FunctionDecl *, 1> Targets;
  };
  /// Whether \p C, outside the loops of \p FD, is made again word for word in
  /// a loop after it (`mlp.forward(x, y)` once, then timed 100 times): a
  /// warm-up of that loop, so a call of \p FD runs many steps, not one.
  bool warmsUp(const CallSite &C, const FunctionDecl *FD);
  struct FunctionInfo {
    const FunctionDecl *FD;
    const Stmt *Body;
    std::vector<size_t> Calls; // indices into Calls
  };

  void collect();
  DeviceKind deviceKindAt(const Expr *E, unsigned Depth) const;
  std::optional<DeviceKind> variableDevice(const VarDecl *V, const Expr *Use, unsigned Depth) const;
  std::optional<DeviceKind> parameterDevice(const ParmVarDecl *P, unsigned Depth) const;
  /// Fills CallSite::Targets, and Callers with those edges.
  void resolveCallables();
  /// The forwards (a profile's step `method` of its `class_derived_from`)
  /// of the modules this file puts into a module container
  /// (`seq->push_back(layer)`, `Sequential(conv, layer)`), defined here.
  std::vector<const FunctionDecl *> heldModuleForwards() const;
  /// The functions and lambdas \p E may hold: a lambda, a function's name or
  /// address, or a parameter, variable or member holding one (a parameter
  /// through the arguments of this translation unit's calls).
  void callablesOf(const Expr *E, llvm::SmallVectorImpl<const FunctionDecl *> &Out,
                   llvm::DenseSet<const Decl *> &Seen) const;
  /// The call that hands \p FD to code outside the project, which calls it
  /// back: a lambda or function passed (as it is, in a variable, through
  /// `std::ref`) to a function no file of the project defines, or to a call
  /// the parser could not resolve (a server's `route.post("/v1/embeddings",
  /// std::ref(handler))`, a subscription's callback); not to the standard
  /// library (its algorithms and threads run it within the call) nor to an API
  /// a profile knows. Null otherwise.
  const Expr *handedToLibrary(const FunctionDecl *FD);
  /// callablesOf() applied to what \p D holds.
  void heldCallables(const ValueDecl *D, llvm::SmallVectorImpl<const FunctionDecl *> &Out,
                     llvm::DenseSet<const Decl *> &Seen) const;
  /// Whether \p Pred holds for the function \p C calls or one it runs through a callable.
  bool anyCallee(const CallSite &C, llvm::function_ref<bool(const FunctionDecl *)> Pred) const;
  /// The call gives an accelerator (or a device chosen at run time) to
  /// something, or is a device API call other than a probe.
  bool usesDevice(const CallSite &S) const;
  void walk(const Stmt *S, const Stmt *Parent, const FunctionDecl *Owner);
  bool isStepLoop(const Stmt *Loop);
  /// An optimizer step, or a call of a function that reaches one.
  bool callOptimizes(const CallSite &C);
  bool reachesOptimizer(const FunctionDecl *FD);
  /// Gradient accumulation: \p Loop's own body steps an optimizer while the
  /// loops nested in it train (backward passes) without one. Each iteration
  /// of \p Loop is a training step, not an epoch.
  bool accumulates(const Stmt *Loop);
  /// Whether \p Branch, a branch of an `if` inside \p Loop, always ends by
  /// leaving it (return, throw, a call that does not return, a break of it).
  bool leavesLoop(const clang::Stmt *Branch, const clang::Stmt *Loop) const;
  /// Whether \p Branch ends with a call that does not return (`exit`, `abort`).
  bool endsProgram(const clang::Stmt *Branch) const;
  /// A loop that runs parts of the model without training (a head per task,
  /// a target per sample) inside a training step: a loop whose own body
  /// trains, or a function that trains outside its loops (a `train_step`
  /// called on every step). One iteration of that loop, or one call of that
  /// function, is the step, and this loop is inside it.
  bool partOfTrainingStep(const Stmt *Loop);
  /// A loop whose iterations only compute (model calls; no copy to the device
  /// or back, no wait, no training) inside a loop whose own body copies each
  /// iteration's input to the device and its results back: its iterations
  /// are the layers of one step of that loop (a per-layer loop of a serving loop).
  bool layersOfStep(const Stmt *Loop);
  /// Whether \p Loop is in a module's forward (a hot root) that its callers
  /// run on every step: a loop over the module's layers is part of that step.
  bool inForwardOfCallersStep(const Stmt *Loop);
  bool runsModel(const Stmt *Loop);
  /// A loop around a step loop whose own model calls only evaluate (an epoch
  /// loop that validates once per epoch): what it repeats runs once per epoch.
  bool isEpochLoop(const Stmt *Loop);
  bool callIsStep(const CallSite &C);
  /// A backward pass or optimizer step, or a call of a function that reaches one.
  bool callTrains(const CallSite &C);
  bool anyCall(const FunctionDecl *FD, llvm::function_ref<bool(const CallSite &)> Pred) const;
  bool isPeriodicGuard(const Stmt *Cond) const;
  std::optional<HotContext> hotFunction(const FunctionDecl *FD);
  /// perRequest() for a function that runs the model: its request context.
  std::optional<HotContext> requestFunction(const FunctionDecl *FD, llvm::DenseSet<const FunctionDecl *> &Visiting);
  /// This translation unit's definition of main, or null.
  const FunctionDecl *mainOf() const;

  ASTContext &Ctx;
  const ApiProfiles &Profiles;
  bool DeviceAware = false, LocalDeviceAware = false;
  std::shared_ptr<const ProjectSummaries> Project;
  llvm::DenseMap<const Stmt *, const Stmt *> Parents;
  llvm::DenseMap<const Stmt *, const FunctionDecl *> BodyOwner;
  llvm::DenseMap<const FunctionDecl *, FunctionInfo> Functions;
  std::vector<CallSite> Calls;
  llvm::DenseMap<const Expr *, size_t> CallIndex;
  llvm::DenseMap<const FunctionDecl *, std::vector<size_t>> Callers;
  llvm::DenseMap<const FunctionDecl *, int> StepsDirectlyMemo, ReachesMemo, TrainingMemo, OptimizerMemo;
  llvm::DenseMap<const FunctionDecl *, bool> ReadsMemo;
  bool readsToHost(const CallSite &C);
  std::optional<bool> ExportsCalled;
  std::optional<llvm::DenseMap<const FunctionDecl *, const Expr *>> HandedOut;
  /// Whether the program calls one of this file's exported functions (`extern "C"`, used).
  bool exportsCalledInProgram();
  mutable llvm::DenseMap<const Stmt *, bool> RepeatsMemo;
  /// The calls bound by CallBinding, outermost first.
  mutable std::vector<const Expr *> BoundCalls;

  llvm::DenseMap<const Stmt *, int> StepLoopMemo, LayersMemo, RunsModelMemo, TrainingLoopMemo, EpochLoopMemo,
      DropsLoopMemo;
  /// Where the loops of the AST begin (file locations; a do loop's `while` too).
  llvm::DenseSet<unsigned> LoopKeywords;
  llvm::DenseMap<const FunctionDecl *, std::optional<HotContext>> HotMemo;
  llvm::DenseSet<const FunctionDecl *> HotInProgress, CallersInProgress;
  /// Hot roots (a module's forward) that a step or request of their callers runs.
  llvm::DenseSet<const FunctionDecl *> RunByCallersStep;
  OwnershipMemo Ownership;
  llvm::DenseMap<const FunctionDecl *, int> CpuOnlyMemo;
  std::optional<ModelSizes> Sizes;
  /// What variables and members are assigned (member initializers included).
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<const Expr *, 1>> Assigned;
  /// Lambdas and functions passed to another file's function: its USR and the argument.
  llvm::DenseMap<const FunctionDecl *, std::pair<std::string, unsigned>> PassedAcross;
  /// Model functions and lambdas handed to an executable's constructor.
  llvm::DenseSet<const FunctionDecl *> ModelFunctions;
  /// Functions named other than as the callee of a call (canonical
  /// declarations), and while collecting, the names that are callees.
  llvm::DenseSet<const FunctionDecl *> NamedBesidesCalls;
  llvm::DenseSet<const DeclRefExpr *> CalleeNames;
};

} // namespace clang::tidy::mlperf
