// `mlperf-lint lsp`: a Language Server that publishes the mlperf findings of
// each open file on open and save, and offers their fix-its as quick fixes.
// It runs the same driver as the command line (configuration files,
// compilation database discovery, the command line's own options), on the
// editor's buffer through an in-memory overlay. It runs beside clangd.
#pragma once

#include "project/Request.h"

#include "llvm/Support/raw_ostream.h"

#include <istream>
#include <ostream>

namespace mlperf::lint::lsp {

/// Serves until `exit`; 0 after an orderly shutdown, 1 otherwise.
/// \p Base holds the command line's options; \p Log takes one line per lint.
int runServer(const LintRequest &Base, std::istream &In, std::ostream &Out, llvm::raw_ostream &Log);

} // namespace mlperf::lint::lsp
