// Where compile flags come from: -p, the nearest compile_commands.json, the
// arguments after `--`, or a fallback that finds libtorch and the runtime and
// adds what the project's build files state (BuildFlags.h) and the
// directories of headers found by name (HeaderNames.h).
#pragma once

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlperf::lint {

struct FlagsRequest {
  std::string BuildPath;              // -p
  bool HaveFixedArgs = false;         // `--` was given
  std::vector<std::string> FixedArgs; // after `--`
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  std::vector<std::string> Files; // to find a compile_commands.json near them
};

struct Flags {
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  std::string Announcement; // one line for the user, or empty
  /// For a file compiled with the fallback flags: the headers found by name
  /// ("vgg.h taken from lesson5/vgg.h") and those ambiguous (HeaderNames.h).
  std::function<std::vector<std::string>(llvm::StringRef File)> IncludeNotes;
};

llvm::Expected<Flags> makeCompilationDatabase(const FlagsRequest &R);
/// Rejects a compile_commands.json (named \p Name) that is not whole: clang's
/// reader would use what it parsed before a syntax error.
llvm::Error checkCompileDatabaseText(llvm::StringRef Json, llvm::StringRef Name);
/// The flags used when nothing else says how to compile \p File: C++17 (what
/// libtorch 1.13's headers need), C++20 for files using the bundled runtime,
/// no standard for a C source (`.c`: the compiler's default C).
std::vector<std::string> fallbackFlags(llvm::StringRef File = "");

} // namespace mlperf::lint
