// Declarations for the names that headers which were not found would have
// declared. Skipping a missing header leaves its names undeclared, and clang
// drops what uses them: a class with a member of such a type
// (`cxxopts::ParseResult opts;`) is invalid, so is every expression that
// touches the member, and a training loop whose range or bound reads it is
// lost with everything in it. The names clang's errors report are declared
// instead, in a header included first: each as the kind its use in the source
// shows (a namespace before `::` or after `using namespace`, a type where a
// declaration names it, a function template before `(` or `<...>(`, a variable
// otherwise), all of one permissive type, `__mlperf_any`, which is built from
// anything, converts to anything, is called, indexed and dereferenced, and
// takes every binary operator. Its members are every name the files with such
// errors access with `.` or `->` (a call where one is called), and those the
// errors of the next parse report. Nothing that involves a made-up
// declaration gets a role from a profile (ApiProfiles::match): they keep the
// classes and loops that use them, not what the missing header would say.
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mlperf::lint {

class MissingNames {
public:
  /// Learns the names that the compiler's errors among \p Errors (a parse's
  /// diagnostics) and \p PastLimit (its errors past the error limit) report
  /// as undeclared in files outside the system's directories, reading how
  /// each is used from its file through \p FS. Returns how many of those are
  /// new. (The members the files of those errors access are learnt too, and
  /// not counted.)
  size_t learn(const std::vector<clang::tidy::ClangTidyError> &Errors,
               const std::vector<clang::tooling::DiagnosticMessage> &PastLimit, llvm::vfs::FileSystem &FS);

  /// The declarations, as the text of a system header.
  std::string header() const;
  /// The names declared, qualified, sorted.
  std::vector<std::string> names() const;
  /// The members given to the permissive type, sorted.
  std::vector<std::string> members() const;
  bool empty() const { return Root.Children.empty() && Members.empty(); }

  enum class Kind { Variable, Function, Namespace, Type, TypeTemplate };
  enum class Hint { Name, TypeName, TemplateName }; // what clang's message says a name is
  struct Node {
    Kind K = Kind::Namespace;
    bool MustBeNamespace = false; // named after `using namespace` or in a namespace alias
    std::map<std::string, Node> Children;
  };

private:
  size_t learn(const clang::tooling::DiagnosticMessage &Error, llvm::vfs::FileSystem &FS);
  size_t learnUse(std::vector<std::string> Scope, const std::string &Name, Hint H, llvm::StringRef Text, size_t Offset);
  size_t learnMember(llvm::StringRef Type, llvm::StringRef Name, llvm::StringRef Text, size_t Offset);
  void learnMembers(llvm::StringRef File, llvm::vfs::FileSystem &FS);
  bool add(llvm::ArrayRef<std::string> Scope, llvm::ArrayRef<std::string> Path, Kind K, bool MustBeNamespace);
  bool addMember(const std::string &Name, bool Called);
  const Node *find(llvm::StringRef Qualified) const;
  /// The text of \p File, read once: a file may have thousands of errors.
  std::optional<llvm::StringRef> text(llvm::StringRef File, llvm::vfs::FileSystem &FS);

  Node Root;                           // the global namespace
  std::map<std::string, bool> Members; // of __mlperf_any: name -> used as a call
  std::set<std::string> Scanned;       // files whose member names were read
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Texts;
};

} // namespace mlperf::lint
