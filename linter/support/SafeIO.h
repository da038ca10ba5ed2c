// The one rule for every file the tool writes (-o, --export-fixes,
// --write-baseline, validate's --json/--html/--results, merge-sarif -o): it
// never replaces a file the run read (checks/analysis/InputFiles.h records
// them), is written to a temporary file in its directory that a signal
// removes, and is renamed into place.
#pragma once

#include "analysis/InputFiles.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlperf::lint {

using clang::tidy::mlperf::checkNesting;
using clang::tidy::mlperf::MaxSourceBytes;
using clang::tidy::mlperf::MaxStructuredBytes;
using clang::tidy::mlperf::noteInput;
using clang::tidy::mlperf::noteInputs;
using clang::tidy::mlperf::readInputFile;
using clang::tidy::mlperf::readStructuredFile;

/// Why \p Path may not be written by \p Option (it is, or links to, an input),
/// as one line; empty when it may.
std::string refusedOutput(llvm::StringRef Path, llvm::StringRef Option);
/// Writes \p Path for \p Option with \p Write: refused as refusedOutput says;
/// otherwise into a temporary file in the target's directory (removed if a
/// signal ends the run) renamed over the target, which keeps its mode. A
/// symlink's target is written; a device or FIFO (/dev/stdout) is written
/// directly. Errors are one line naming the file ("cannot write <What>: ...").
llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Option, llvm::StringRef What,
                            llvm::function_ref<void(llvm::raw_ostream &)> Write);

} // namespace mlperf::lint
