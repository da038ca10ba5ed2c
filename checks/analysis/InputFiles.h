// Every file the linter and its checks read: a regular file under a size
// limit (a FIFO, a device or a directory is refused without blocking), and
// structured text (JSON, YAML) that nests no deeper than a limit. Each file
// read is recorded, so that no output of the run replaces it.
#pragma once

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::mlperf {

inline constexpr uint64_t MaxSourceBytes = uint64_t(64) << 20;
inline constexpr uint64_t MaxStructuredBytes = uint64_t(8) << 20;
/// Deepest nesting of brackets (or YAML block levels) that structured inputs may have.
inline constexpr unsigned MaxNesting = 256;

/// The content of \p Path (through symlinks) when it is a regular file of at
/// most \p Limit bytes; otherwise one line, "<Path>: cannot read <What>: <why>".
/// Records it as an input unless \p Record is false (a file the run itself
/// keeps up to date, as the stored validation results).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef Path, llvm::StringRef What, uint64_t Limit = MaxStructuredBytes, bool Record = true);
/// readInputFile, and the same error when the JSON or YAML text in it nests
/// deeper than MaxNesting (parsers recurse once per level).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readStructuredFile(llvm::StringRef Path, llvm::StringRef What,
                                                                       bool Record = true);
/// An error naming \p Source when \p Text nests deeper than MaxNesting.
llvm::Error checkNesting(llvm::StringRef Text, llvm::StringRef Source);
/// The deepest nesting of \p Text read as JSON or YAML: brackets outside
/// quoted strings, plus YAML block levels (indentation steps and "- " items).
unsigned nestingDepth(llvm::StringRef Text);

/// Records \p Path as read by this run.
void noteInput(llvm::StringRef Path);
void noteInputs(const std::vector<std::string> &Paths);
/// Whether \p Path is (or links to) a file this run read.
bool isInput(llvm::StringRef Path);

} // namespace clang::tidy::mlperf
