// `mlperf-lint lsp`: a Language Server that publishes the mlperf findings of
// each open file and offers their fix-its as quick fixes. It runs the same
// driver as the command line (configuration files, compilation database
// discovery, the command line's own options), on the editor's buffers
// through in-memory overlays. It runs beside clangd.
//
// Three threads: one reads messages (and marks cancelled requests at once),
// one answers them (none waits for a lint), and the Workspace's worker lints.
#pragma once

#include "lsp/Workspace.h"
#include "project/Request.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <istream>
#include <ostream>

namespace mlperf::lint::lsp {

struct ServerOptions {
  /// From a didChange to the lint of its text; the client's
  /// `initializationOptions.debounceMs` replaces it.
  std::chrono::milliseconds Debounce{300};
};

/// Lints the way the command line does, with \p Base's options.
Linter projectLinter(const LintRequest &Base);

/// Serves until `exit` or the end of \p In; 0 after an orderly shutdown, 1
/// otherwise. \p Log takes one line per lint and per refused message.
int serve(const Linter &Lint, const ServerOptions &Options, std::istream &In, std::ostream &Out,
          llvm::raw_ostream &Log);
int runServer(const LintRequest &Base, std::istream &In, std::ostream &Out, llvm::raw_ostream &Log);

} // namespace mlperf::lint::lsp
