// Pageable host memory: where a pointer or a tensor that an asynchronous
// copy reads or writes comes from, when that is ordinary (pageable) memory
// the driver must stage: followed through locals, casts, pointer
// arithmetic, conditionals, the object's fields and container fields, what
// functions return and, for parameters, the calls of the function in this
// translation unit or, through the project's summaries, in other files.
#pragma once

#include "ModelAnalysis.h"

#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace clang::tidy::mlperf {

/// Where pageable host memory comes from, and the call in a caller that passes it.
struct PageableOrigin {
  const Expr *Where = nullptr;    // the allocation, array or container seen in this translation unit
  const Expr *PassedAt = nullptr; // a call of this file that passes it to the parameter followed
  /// Seen only in another file's summary: "file:line" of the memory, and
  /// where that file passes it (Where is then the parameter or field read here).
  std::string Elsewhere;
};

/// The pageable host memory \p E points to; none when unknown or page-locked.
std::optional<PageableOrigin> pageablePointer(const Expr *E, ModelAnalysis &A);
/// The pageable host tensor \p E is (a factory's result, `cpu()`, a
/// data loader's batch, `from_blob` over pageable memory), unless pinned.
std::optional<PageableOrigin> pageableTensor(const Expr *E, ModelAnalysis &A);
/// "file:line" of \p O's memory for another file's summary.
std::string pageableOriginText(const PageableOrigin &O, const SourceManager &SM);

/// The pointer fields \p FD stores into (its constructor's initializers, plain
/// assignments, on any object), each with where the memory comes from when
/// every value it stores is pageable (null stores none), else "": another
/// value, its address taken, registered with the driver, changed in place.
/// For the whole-project summaries (FileSummary::PointerFields).
void pointerFieldStores(const FunctionDecl *FD, ModelAnalysis &A,
                        llvm::function_ref<void(const FieldDecl *, const std::string &Origin)> Store);

} // namespace clang::tidy::mlperf
