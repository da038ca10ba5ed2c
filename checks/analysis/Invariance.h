// Which values a loop changes: used to hoist work out of loops safely.
#pragma once

#include "ModelAnalysis.h"

namespace clang::tidy::mlperf {

/// Whether \p VD, or an object reached through it (a member, an element,
/// what a raw pointer points to), may change in \p Region: assigned,
/// incremented, passed by non-const reference or pointer, given a non-const
/// method call or an in-place one (a name ending in '_', as libtorch's),
/// bound to a non-const reference, iterated by non-const reference, or
/// declared there. Arguments \p Self (a call) writes through its parameters
/// are its outputs, not changes of its inputs.
bool isChangedIn(const VarDecl *VD, const Stmt *Region, const Stmt *Self = nullptr);
/// isChangedIn, except that a declaration of \p VD in \p Region is not a
/// change: whether anything writes the variable after it is declared.
bool isWrittenIn(const VarDecl *VD, const Stmt *Region);

/// The memory an object's data pointer reaches (`buf.data()`,
/// `pair.hostBuffer.data()`): a local variable or parameter and the members
/// (through `.`) down to the object whose `data()` is called.
struct ObjectMemory {
  const VarDecl *Root = nullptr;
  llvm::SmallVector<const ValueDecl *, 2> Path;
  const Expr *Object = nullptr;
};
std::optional<ObjectMemory> dataPointerOf(const Expr *E);
/// Whether \p Loop may change that memory: it names the object, a part of
/// it or a whole it is part of (not a sibling member: `pair.deviceBuffer`)
/// anywhere but in \p Self, or names a variable of \p Body that points into
/// it (`auto *p = static_cast<int *>(pair.hostBuffer.data())`).
bool objectMemoryChangedIn(const ObjectMemory &M, const Stmt *Loop, const Stmt *Self, const Stmt *Body);

/// An earlier copy to the device, in the same function, of the same
/// variable to the same place (the same source text as \p Copy), that runs
/// whenever \p Copy does (no branch, loop or lambda between it and a block
/// that holds both), with \p Var unchanged from it to \p Copy: \p Copy
/// copies what is already on the device. Null when there is none.
const CallExpr *earlierSameCopy(const CallExpr *Copy, const VarDecl *Var, const ModelAnalysis &A);

/// Whether the memory raw pointer or array \p VD points to may also be
/// reached through another name in \p Body: its value (or a pointer into
/// it) initializes or is assigned to another variable, is put in an object,
/// a list or a lambda, is returned, or is passed to a method, a constructor
/// or a non-const reference. Then writes through that name are not writes
/// of \p VD to isChangedIn. Passing it to a free function's pointer
/// parameter (memcpy, fread, cudaMemcpy) is not: such functions are taken
/// not to keep it.
bool pointerMayBeAliased(const VarDecl *VD, const Stmt *Body, const ModelAnalysis &A);

/// Whether \p Region may make \p VD itself hold another value (assign it,
/// increment it, bind it to a non-const reference, take its address, declare
/// it); unlike isChangedIn, writes through it (`vd[i] = 1`, passing the
/// pointer `vd` on) do not count.
bool isReassignedIn(const VarDecl *VD, const Stmt *Region);

/// Whether \p FD, a function of the program, only reads through its
/// non-const pointer or reference parameter \p Index (`double *scale` it
/// never assigns through, passes on only to functions that read through it
/// too, and neither keeps nor returns): an argument passed there is not
/// changed by the call. From its definition, or, defined in another file,
/// from the project's summaries. False for a library's function, a virtual
/// method and what neither says.
bool readsThroughOnly(const FunctionDecl *FD, unsigned Index);

/// Calls \p Fn for each public field (of any object) that \p FD may change,
/// outside the constructors and destructor of the field's class: what the
/// whole-project summaries record, so that a field no file changes after
/// construction counts as constant (perCallConstant).
void forEachPublicFieldWritten(const FunctionDecl *FD, llvm::function_ref<void(const FieldDecl *)> Fn);

/// Whether \p S reads a variable that isChangedIn \p Region.
bool readsChangedIn(const Stmt *S, const Stmt *Region);

/// The outermost loop among \p Loops (innermost first) in which every
/// variable that \p E reads is loop-invariant and declared outside the loop;
/// null when E depends on the innermost loop, or reads or builds a
/// single-pass object (a prefetcher, an iterator): what it yields changes
/// with every use, so no hoist may move it.
const Stmt *outermostInvariantLoop(const Expr *E, llvm::ArrayRef<const Stmt *> Loops, const ApiProfiles &P);

/// The field whose value \p E (in a method) copies, when every call copies
/// the same host data: a field of the method's object that nothing but a
/// constructor changes (no method of its class; for a public field, no
/// function of this file or, by the summaries, of the project's others), either a tensor that every constructor makes
/// on the host, or host data a factory turns into a tensor (`torch::tensor(_means)`).
const FieldDecl *perCallConstant(const Expr *E, const ModelAnalysis &A);

/// Every value stored into \p F, a private field, as far as this translation
/// unit shows: the class's default member initializer, the initializer each
/// constructor writes for it, and each plain assignment to it in a
/// method of its class (a constructor's body included). Null when it may hold
/// something else: a constructor or a non-const method of the class that this
/// translation unit does not define (unless no file of the program defines it:
/// then it never runs), or any other write to the field itself (a compound
/// assignment, its address or a non-const reference taken, a non-const method
/// called on it, for an array or object a write into it; for a pointer, writes
/// through it change what it points to, not its value).
std::optional<llvm::SmallVector<const Expr *, 4>> storedValues(const FieldDecl *F, const ModelAnalysis &A);
/// Every value put into an element of \p F, a private container field (a
/// `std::vector<float *>`), as far as this translation unit shows: what a
/// method of its class assigns to an element (`bufs_[i] = new float[n]`) or
/// adds (`push_back`, `emplace_back` of one value). Elements are otherwise
/// only read, and the container sized or cleared (`resize` of pointers adds
/// null ones). Null when it may hold something else: an element's address or
/// a non-const reference taken (`cudaMalloc(&bufs_[i], n)`), another
/// non-const method, a constructor's initializer, a method the file does not
/// define (as storedValues).
std::optional<llvm::SmallVector<const Expr *, 4>> storedElements(const FieldDecl *F, const ModelAnalysis &A);

/// Whether \p Loop loads state that changes with its iterations into \p VD:
/// a `load-state` call on it (`torch::load(model, paths[i])`) with an
/// argument the loop changes. Each iteration's object is then another
/// model, one per checkpoint, not the same one built again.
bool loadedPerIteration(const VarDecl *VD, const Stmt *Loop, const ModelAnalysis &A);

/// Whether the value \p Made (a construction, or a call that returns one)
/// goes into a variable that the loop of \p H loads per iteration
/// (loadedPerIteration), returned through the functions of its call chain
/// up to the loop's function; or, returned by the function another file's
/// loop calls, whether that call's result is (HotCallSite::ResultReloaded).
bool madeForEachIteration(const Expr *Made, const HotContext &H, const ModelAnalysis &A);

/// The loops around \p S, innermost first, up to and including \p Loop;
/// none when \p Loop does not enclose \p S.
std::vector<const Stmt *> loopsUpTo(const Stmt *S, const Stmt *Loop, const ModelAnalysis &A);

/// Whether argument \p I of \p Call, in \p Loop, names the same variable on
/// every iteration (or its address, `&x`): one declared before the loop
/// that the loop never changes. With \p Identity, the same object whatever
/// the loop writes into it: a variable the loop never reassigns.
bool argumentInvariantIn(const CallExpr *Call, unsigned I, const Stmt *Loop, const ModelAnalysis &A,
                         bool Identity = false);

/// Whether argument \p I of \p Call, made on every step as \p H says, is the
/// same on every step: in the loop itself, an invariant variable
/// (argumentInvariantIn); below it, through up to \p Depth calls, a parameter
/// of the calling function or a field of what one points to that nothing
/// changes after construction (`&net->learning_rate`), when every per-step
/// call of that function passes the same (parameterInvariant). A field
/// nothing changes needs only the same object around it, not an unchanged
/// one (the loop updates `net->weights`, never `net->learning_rate`): from
/// there up, \p Identity asks for variables never reassigned.
bool argumentSameEveryStep(const CallExpr *Call, unsigned I, const HotContext &H, ModelAnalysis &A, unsigned Depth = 3,
                           bool Identity = false);

/// Whether every per-step call of \p Hot's function (in this file and, from
/// the project's summaries, in the others) passes the same value for
/// \p Param on every step (argumentSameEveryStep).
bool parameterInvariant(const ParmVarDecl *Param, const HotContext &Hot, ModelAnalysis &A, unsigned Depth = 3,
                        bool Identity = false);

} // namespace clang::tidy::mlperf
