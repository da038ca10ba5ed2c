// Headers found by name, for files linted without a compilation database: an
// #include that the compile command's search path does not find, naming a
// file that exists under the project, is taken from there when the choice is
// clear, and its directory becomes an -I of the file that includes it. The
// includes are read as text before the parse: the file's, then those of the
// project headers it includes, transitively.
//
// The choice: from the including file's directory up to the project's root,
// the first directory below which files of that name exist decides; one file
// there is taken, several are ambiguous and none is taken. A header next to
// its program's main file therefore wins over another program's header of
// the same name.
//
// A name the project does not hold may be a library's installed one level
// below a system include directory, as Debian installs Eigen
// (/usr/include/eigen3/Eigen/Dense) and OpenCV (/usr/include/opencv4/opencv2/):
// an include named with its folder (`Eigen/Dense`) found in exactly one
// subdirectory of the command's system directories makes that subdirectory an
// -isystem of the file, so its headers stay a library's.

#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mlperf::lint {

/// Whether \p Name is a header's by its extension (`.h`, `.hpp`, `.cuh`, `.inl`, ...).
bool isHeaderName(llvm::StringRef Name);

struct NamedHeaders {
  std::vector<std::string> Dirs;       // to add as -I, in the order found
  std::vector<std::string> SystemDirs; // to add as -isystem: a library's directory below a system one
  std::vector<std::string> Notes;      // "vgg.h taken from lesson5/vgg.h", or why a name was not taken
};

class HeaderNames {
public:
  /// Headers under \p Root (absolute), found by a walk on first use.
  explicit HeaderNames(std::string Root);

  /// The headers \p File needs found by name when compiled with \p CommandLine
  /// (a compile command's: the compiler first, the file last) and \p Probe
  /// (arguments added to it later, such as --extra-arg and the resource directory).
  NamedHeaders find(const std::string &File, const std::vector<std::string> &CommandLine,
                    const std::vector<std::string> &Probe);

  struct Include {
    std::string Name;
    bool Angled = false;
  };
  struct SearchPath {
    std::vector<std::string> Quoted, Angled;
  };

private:
  const std::vector<Include> &includesOf(const std::string &Path);
  const SearchPath &searchPathOf(const std::vector<std::string> &Args);
  std::vector<std::string> candidates(const std::string &Name);
  /// The file that \p Name, included from \p Dir, is taken from; else a note in \p Note.
  std::optional<std::string> pick(const std::string &Name, const std::string &Dir, std::string &Note);
  /// The subdirectory of a system include directory in \p Angled (outside
  /// the project) that alone holds \p Name; else a note in \p Note when
  /// several do.
  std::optional<std::string> pickInstalled(const std::string &Name, const std::vector<std::string> &Angled,
                                           std::string &Note);
  std::string shown(const std::string &Path) const;

  std::string Root;
  bool Indexed = false, Complete = false;
  std::map<std::string, std::vector<std::string>> ByFileName; // "vgg.h" -> absolute paths
  std::map<std::string, std::vector<Include>> Includes;
  std::map<std::string, std::unique_ptr<SearchPath>> Searches; // by the joined arguments
  std::map<std::string, std::vector<std::string>> Subdirs;     // a system include directory's subdirectories
};

} // namespace mlperf::lint
