// Whole-project analysis: the checks of every file see the functions other
// files define (which run the model or train, which of their calls run on
// every step), through summaries that each file's parse also computes.
//
// One parse per file: the files parsed together are summarized in their
// parses, starting from the summaries stored by earlier runs in the cache
// directory, and their facts (a callee's, a per-step caller's in another
// file) settle in memory, from the ASTs the parses hold, before any check
// runs (Settling.h). Only a file whose analysis read a summary that files
// parsed after it changed (more files than memory holds at once) is linted
// again, until nothing it reads changes. A cache entry is keyed by what its
// file read of the summaries, so an unchanged file whose dependencies are
// unchanged is replayed.
#pragma once

#include "engine/Runner.h"

#include <memory>
#include <string>
#include <vector>

namespace mlperf::lint {

struct ProjectRun {
  std::shared_ptr<ContentHashes> Hashes = std::make_shared<ContentHashes>(); // of every file clang read
  std::vector<std::string> Messages; // stale summaries, an unreadable or unwritable summary file
  unsigned FromCache = 0;            // files whose findings were replayed
  unsigned Parses = 0;               // clang's parses, counting a file linted again
  unsigned ParsedAgain = 0;          // files parsed more than once in one lint: recoveries, or without the preamble
  unsigned Rounds = 0;               // of the whole-project analysis
  unsigned Passes = 0;               // resolutions of the facts of the files parsed together, in memory
};

/// Lints \p Files, the inputs of the projects rooted at \p Roots. The summaries
/// are kept in \p SummaryDir ("": none read or written). With a single file
/// and no stored summaries, the file is analysed alone. \p OnFileDone is
/// called for each file when its findings are final.
ProjectRun lintProject(const std::vector<std::string> &Roots, const std::vector<std::string> &Files,
                       const clang::tooling::CompilationDatabase &DB, const ProviderFactory &Providers,
                       RunSettings Settings, const std::string &SummaryDir, const FileDone &OnFileDone);

} // namespace mlperf::lint
