// Who owns a handle of a C-style API across the functions of the project:
// which calls acquire one (a profile's acquire, or a construct with a pair,
// or a function of the project that returns a handle it acquired), which
// calls release one (a release entry, `delete`, or a function of the project
// that releases its parameter), and where a handle is kept. Missing-finalize,
// alloc-in-loop and compile-in-loop ask these instead of matching the
// pair's name at the call alone; functions of other files answer through
// their summaries (FunctionFacts::ReleasedParams, ReturnedAcquire).
#pragma once

#include "ModelAnalysis.h"

#include <functional>
#include <optional>

namespace clang::tidy::mlperf {

/// A call that hands out a handle: the profile entry that says what it is
/// (pair, kind, message) and, when the call is a function of the project
/// that returns it, that function's name.
struct Acquisition {
  const ProfileEntry *Entry = nullptr;
  std::string Via; // the project's function that returns the handle; empty for the API call itself
  std::optional<unsigned> handleArg() const { return Via.empty() ? Entry->HandleArg : std::nullopt; }
};

/// Where a handle is kept: a variable, a field of `this`, or an element of
/// a local array at a constant index or at the index a variable holds
/// (`void *buffers[2]; cudaMalloc(&buffers[inputIndex], n)`, TensorRT's bindings),
/// or the elements of a local array that a loop walks (`cudaStreamCreate(&streams[i])`
/// in one loop, `cudaStreamDestroy(streams[i])` in another): then EachElement.
struct HandleRef {
  const ValueDecl *D = nullptr;
  std::optional<int64_t> Index;
  const ValueDecl *IndexVar = nullptr;
  bool EachElement = false;
  bool Member = false;
  /// A field of the struct a variable points to (`matrix->data`): D is the variable.
  const FieldDecl *Field = nullptr;
  explicit operator bool() const { return D != nullptr; }
  bool element() const { return Index || IndexVar || EachElement; }
  bool operator==(const HandleRef &O) const {
    return D == O.D && Index == O.Index && IndexVar == O.IndexVar && EachElement == O.EachElement &&
           Member == O.Member && Field == O.Field;
  }
  /// The variable itself, without the field.
  HandleRef holder() const {
    HandleRef H = *this;
    H.Field = nullptr;
    return H;
  }
  /// A local variable or an element of a local array: owned by the function.
  bool isLocal() const;
};

/// The handle an expression names (`p`, `&p`, `(void **)&buffers[1]`,
/// `this->stream_`, `m->data`).
HandleRef handleRefOf(const Expr *E);

/// What \p Call acquires, if anything: an acquire entry or a construct with
/// a pair, or a function of the project (this file's, or another's through
/// its summary) that returns a handle it acquired.
std::optional<Acquisition> acquisitionAt(const CallExpr *Call, ModelAnalysis &A);

/// Where \p Call's handle goes: its out-argument, else the variable its
/// result initializes or is assigned to; empty when it is returned at once
/// (then \p Returned is set) or kept nowhere nameable.
HandleRef acquiredHandleRef(const CallExpr *Call, const Acquisition &Acq, const ModelAnalysis &A,
                            bool *Returned = nullptr);

/// Whether an expression names \p Handle (exitBetween's null tests).
std::function<bool(const Expr *)> isHandle(const HandleRef &Handle);
/// Whether a call allocates memory (an acquire of the profiles' `allocation`
/// kind, or of host memory: `cudaMalloc`, `malloc`): exitBetween's test of
/// an out-of-memory branch.
std::function<bool(const CallExpr *)> allocates(ModelAnalysis &A);

/// Whether \p Call releases its argument \p I: a release entry's handle
/// argument, or a function of the project that releases its parameter \p I.
bool releasesArgument(const CallExpr *Call, unsigned I, ModelAnalysis &A);

/// The first release of \p Handle in \p Region: a call that releases it (see
/// releasesArgument) or a `delete` of it; null if none. Catch handlers do not
/// count: they run only when something failed.
const Expr *findReleaseOf(const Stmt *Region, const HandleRef &Handle, ModelAnalysis &A);

/// The field of the method's object that \p Call's handle is kept in, when
/// every call of the method acquires into it (directly, `cudaMalloc(&buf_,
/// n)`, or through a local it then assigns, `buf_ = tmp`) and nothing
/// releases what the field held before: not the method, not any other method
/// of the class but the destructor (all defined in this translation unit),
/// and no condition of the method reads the field (a buffer made on first
/// use). Each call then leaks the previous call's handle. Null otherwise.
const FieldDecl *overwrittenMember(const CallExpr *Call, const HandleRef &Handle, ModelAnalysis &A);

/// The field of a struct its caller passes (`state->feature.buffer =
/// ggml_backend_alloc_buffer(...)`, \p Handle's Field of a pointer or
/// reference parameter) that a function (not a constructor) acquires into on
/// every call, when the function does not test the field, release it, or
/// pass the struct to a function that may, no call here passes a struct
/// made anew for it (an out-parameter), the function is not called only
/// from other files with a struct it fills whole (an out-parameter too:
/// `parse_params(json, &params)`), and nothing in this translation
/// unit releases the field but functions that end the object (its free
/// function, which also deletes or frees it, or a destructor). Called every
/// step or request, each call leaks the handle of the call before. Null
/// otherwise.
const FieldDecl *overwrittenField(const CallExpr *Call, const HandleRef &Handle, ModelAnalysis &A);

/// The field that \p Call acquires into on every iteration of \p Loop, of
/// an object that outlives the iteration (a parameter, a global, a
/// local declared before the loop: `ctx->state->vad_ctx = ggml_init(...)`),
/// when the iteration does not test the field, release it, or pass the
/// object to a function that may: each iteration leaks the handle of the one
/// before. Null otherwise.
const FieldDecl *overwrittenInLoop(const CallExpr *Call, const HandleRef &Handle, const Stmt *Loop, ModelAnalysis &A);

/// The field a function (not a constructor) acquires \p Call's handle into on
/// every call, for an object that outlives the call (`this`, see
/// overwrittenMember, or a struct its caller passes, `ctx->allocr =
/// ggml_gallocr_new(...)`, defined in this file: an opaque C API's context),
/// when the function does not test the field first and nothing in this
/// translation unit ever releases what the field holds (the destructor and
/// the object's free function included). Every call leaks the handle of the
/// call before, and the last one is never released. Null otherwise.
const FieldDecl *unreleasedField(const CallExpr *Call, const HandleRef &Handle, ModelAnalysis &A);

/// The variable of this translation unit alone (`static float *buf_dev;`)
/// that \p Call's function acquires \p Handle into on every call, when the
/// function does not test it first or release it, and every function that
/// releases it does so unconditionally and not on every step or request (a
/// `destroy()` called once at exit): called every step or request, each
/// call leaks the handle of the call before. Null otherwise.
const VarDecl *overwrittenGlobal(const CallExpr *Call, const HandleRef &Handle, ModelAnalysis &A);

/// The parameters \p FD releases on some path (its own releases, and the
/// calls it passes them to that release them); releasing a field of a
/// parameter (`cudaFreeHost(m->data)`) releases what the parameter holds.
llvm::ArrayRef<unsigned> releasedParameters(const FunctionDecl *FD, ModelAnalysis &A);

/// The acquire entry of the handle \p FD returns, when it returns one it
/// acquired (a local handle, the result of an acquiring call, or a struct
/// whose field it acquired into: an `allocation` there is preferred, since
/// its churn is what costs); null otherwise.
const ProfileEntry *returnedAcquisition(const FunctionDecl *FD, ModelAnalysis &A);

/// A call that acquires a handle on every step or request (the API's call, or
/// a call of a function of the project that returns one) and the release of
/// that handle before the next step: alloc-in-loop's churn.
struct Churn {
  /// The acquisition (a call, or the construction of a raii object) or the
  /// call of the project's function that returns it, in this translation
  /// unit; null for a call in another file.
  const Expr *Call = nullptr;
  const Expr *Release = nullptr;
  /// An exit between the acquisition and Release (not the acquisition's own
  /// failure) that skips the release: the handle leaks on that path, the
  /// normal path releases it.
  const Stmt *Skip = nullptr;
  HotContext Hot;
  /// The calls between the acquisition and Call, innermost first: each one's
  /// function returns what the one before hands out.
  std::vector<const CallExpr *> Through;
  const ChurnCall *External = nullptr; // the call in another file, from its summary
  /// The size changes with the iteration of the loop around the acquisition
  /// (a crop per detected box): allocating the largest once, or growing the
  /// buffer only when an iteration needs more, removes the churn.
  const Expr *VaryingSize = nullptr;
  /// A raii acquisition's object that the step makes anew: the local its
  /// construction initializes or the call writes into (`cv::cuda::GpuMat
  /// crop; roi.copyTo(crop);`), released when it goes.
  const VarDecl *Object = nullptr;
};

/// The churn at \p Site itself (a call, or the construction of a raii
/// object): it runs on every step or request, not only on some (a buffer
/// grown on demand), and the handle it acquires into a local variable or
/// member is released after it in the same iteration (or call of its
/// function): on every path, or on the normal path with an early exit that
/// skips the release (Skip). A raii object the step declares (a local)
/// allocates on every pass that reaches it, under a condition or not; one an
/// entry writes into (`into_arg`, `into_object`) only on its first write
/// after an empty declaration.
std::optional<Churn> churnAt(const Expr *Site, const Acquisition &Acq, ModelAnalysis &A);

/// The churn of a handle that \p Call acquires and its function returns:
/// the calls of that function (through the functions that return its result
/// in turn, in this file or, through the summaries, in others) whose callers
/// release the handle again on every step or request.
std::vector<Churn> churnThroughCallers(const CallExpr *Call, const Acquisition &Acq, ModelAnalysis &A);

/// Where the handle \p Site acquires churns: at the acquisition itself
/// (churnAt), else through the callers of the functions that return it.
std::vector<Churn> churnSites(const Expr *Site, const Acquisition &Acq, ModelAnalysis &A);

/// The churn of the local handle \p Handle (a stream or event that a wait
/// names) when the function that names it acquires and releases it on
/// every call or step (see churnAt), in \p Within (a function's body):
/// alloc-in-loop reports that cost at the acquisition.
std::optional<Churn> churnOfLocal(const HandleRef &Handle, const Stmt *Within, ModelAnalysis &A);

/// Whether \p Call's function (a function of the project, this file's or
/// another's) returns the handle \p Call acquires.
bool handsOut(const CallExpr *Call, const Acquisition &Acq, ModelAnalysis &A);

/// Whether the acquisition \p Acq (through a function of the project) is
/// decided at the API call inside that function: the function is the
/// project's, defined in this file outside system headers or in another file.
bool acquiredInsideProject(const CallExpr *Call, const Acquisition &Acq, ModelAnalysis &A);

/// The acquire (or construct) entry whose callee is \p Name (a summary's
/// ReturnedAcquire), or null.
const ProfileEntry *acquireEntryNamed(llvm::StringRef Name, const ApiProfiles &P);

/// The name a summary records for \p E (its first callee).
std::string acquireEntryName(const ProfileEntry &E);

} // namespace clang::tidy::mlperf
