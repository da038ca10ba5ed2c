// Facts that the code itself states, used instead of requiring a known
// producer: where a tensor lives, which values carry an autograd graph, and
// which statements cannot run on every step.
#pragma once

#include "ModelAnalysis.h"

namespace clang::tidy::mlperf {

/// Whether a loop's body runs at most once: it ends in an unconditional
/// `break` or `return` and no `continue` starts another iteration.
bool runsOnce(const Stmt *Loop);
/// The parameter that counts `for (int i = A; i < n; ++i)`: n, when neither
/// the loop nor the function changes it; null otherwise.
const ParmVarDecl *countingParameter(const Stmt *Loop);
/// A parameter that may hold nothing: a pointer, a flag (false), an optional
/// (`std::optional`, `c10::optional`, `torch::optional`), or a constant
/// object that says whether it holds anything (an `empty()` or `defined()`
/// method: containers, strings, images, tensors).
bool mayBeEmpty(QualType T);
/// Whether \p Arg passes nothing: a null pointer constant, `false`, an empty
/// optional (`std::nullopt`, `torch::nullopt`, `{}`), or such an object
/// made with no arguments (`cv::cuda::GpuMat()`, `torch::Tensor()`).
bool passesNothing(const Expr *Arg, ASTContext &Ctx);
/// How a call of \p MD, a method without arguments, tests its object for a
/// value: `has_value()`, `defined()` and `operator bool` are true when it
/// holds one (Holds), `empty()` when it holds nothing (Empty).
enum class EmptinessTest { None, Holds, Empty };
EmptinessTest emptinessTest(const CXXMethodDecl *MD);
/// Whether that loop runs its body at most once when n is \p Bound (a
/// constant, or a parameter's default argument).
bool runsOnceWith(const Stmt *Loop, const Expr *Bound);

/// A type that carries tensors: a tensor, a tuple or a list of them, a
/// batch (a class of the program with tensor fields).
bool carriesTensors(QualType T, const ApiProfiles &P);
/// Whether \p E is a tensor in host memory: a copy to the host (`cpu()`,
/// `to(kCPU)`), wrapped host memory, a data loader's example, a factory
/// without a device, a framework operation whose tensor operands are all on
/// the host, or a local variable initialized from one and never reassigned.
bool onHost(const Expr *E, const ModelAnalysis &A);
/// Whether \p FD returns tensors (a tensor, a tuple of them, or a batch: a
/// class of the program with tensor fields) and every value it returns is
/// on the host (onHost of each returned value): a data class's `next()`.
/// A function that another file defines: the project's summary of it.
bool returnsHost(const FunctionDecl *FD, const ModelAnalysis &A);

/// The tensor whose device a move (a call with role \p R) follows
/// (`t.to(other)`, `t.to(other.options())`), or null.
const Expr *followedByMove(const CallExpr *CE, const RoleMatch &R, const ModelAnalysis &A);

/// The factory that created \p E's tensor in host memory in this function:
/// a host factory, then operations on the host that only convert or combine
/// such tensors (`arange(n).to(kFloat).unsqueeze(0)`), through local
/// variables never reassigned and, given \p Loop, made in each of its
/// iterations (one made before the loop is an invariant, not a creation per
/// step); null for anything else (data, a loaded batch, a tensor of unknown
/// origin).
const CallExpr *createdOnHost(const Expr *E, const ModelAnalysis &A, const Stmt *Loop = nullptr);

/// The factory of host values (`torch::tensor({1.0, 2.0})`: a profile
/// entry with copies_host_data) whose data are constants of the program
/// (literals, constant expressions, `const` and `constexpr` variables with
/// such initializers) that made \p E's tensor, through operations on the
/// host and local variables that nothing changes after their declaration:
/// the same tensor on every call. Null otherwise.
const CallExpr *madeFromConstants(const Expr *E, const ModelAnalysis &A);
/// Whether \p V is the object of a backward pass inside \p Scope:
/// `V.backward()` proves that V carries an autograd graph.
bool provesGraph(const VarDecl *V, const Stmt *Scope, const ModelAnalysis &A);
/// Whether a backward pass after \p Loop, in its function, differentiates a
/// value made from a variable declared before the loop that the loop changes
/// (\p Only, when given): outputs collected over several forward passes and
/// then differentiated at once. The graphs the loop keeps are what that pass
/// needs, and a no-grad guard or a detach there would break it.
bool differentiatedAfter(const Stmt *Loop, const ModelAnalysis &A, const VarDecl *Only = nullptr);

/// A forward of a model with autograd (a libtorch module's), in \p FD's own
/// body and under no no-grad guard, that a training step runs through
/// \p FD (a `predict()` that both the training loop and a search or an
/// evaluation call): its autograd must stay on, and a caller that only
/// infers needs a guard of its own. Null when there is none.
const CallExpr *forwardKeptForTraining(const FunctionDecl *FD, ModelAnalysis &A);

} // namespace clang::tidy::mlperf
