// The linter's code is a pipeline of libraries (linter/CMakeLists.txt): each
// folder may include only the folders after it, and no file includes, through
// any chain, a file that includes it back.
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

/// The pipeline, first to last.
const std::vector<std::string> Layers = {"cli",      "lsp",    "project",  "engine",
                                         "findings", "report", "validate", "support"};

int layerOf(llvm::StringRef Path) {
  auto It = std::find(Layers.begin(), Layers.end(), Path.split('/').first.str());
  return It == Layers.end() ? -1 : It - Layers.begin();
}

/// The linter's sources, relative to linter/, with the linter headers each
/// includes ("engine/Cache.h").
std::map<std::string, std::vector<std::string>> linterIncludes(const std::string &Root) {
  std::map<std::string, std::vector<std::string>> Out;
  std::error_code EC;
  const std::regex Include(R"re(^\s*#\s*include\s*"([^"]+)")re");
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::StringRef Path = It->path();
    if (!Path.ends_with(".cpp") && !Path.ends_with(".h"))
      continue;
    if (Path.contains("/cuda-overlay/"))
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf)
      continue;
    std::string Rel = Path.drop_front(Root.size() + 1).str();
    std::vector<std::string> &Incs = Out[Rel];
    llvm::StringRef Text = (*Buf)->getBuffer();
    while (!Text.empty()) {
      auto [Line, Rest] = Text.split('\n');
      Text = Rest;
      std::smatch M;
      std::string L = Line.str();
      if (std::regex_search(L, M, Include) && layerOf(M[1].str()) >= 0)
        Incs.push_back(M[1].str());
    }
  }
  return Out;
}

/// "report/Sarif.cpp" and "report/Sarif.h" are one unit.
std::string unitOf(llvm::StringRef File) {
  return llvm::sys::path::parent_path(File).str() + "/" + llvm::sys::path::stem(File).str();
}

const std::string LinterRoot = MLPERF_SOURCE_DIR "/linter";

TEST(StructureTest, EveryLinterSourceIsInALayer) {
  auto Files = linterIncludes(LinterRoot);
  ASSERT_GT(Files.size(), 40u);
  for (const auto &[File, Incs] : Files)
    EXPECT_GE(layerOf(File), 0) << File << " is in no layer of the pipeline";
}

TEST(StructureTest, NoIncludeRunsBackUpThePipeline) {
  for (const auto &[File, Incs] : linterIncludes(LinterRoot))
    for (const std::string &Inc : Incs)
      EXPECT_LE(layerOf(File), layerOf(Inc)) << File << " includes " << Inc << ", which comes earlier in the pipeline";
}

TEST(StructureTest, ReportWritersDoNotReadTheResultStore) {
  // Measured figures reach a report through the findings pipeline only.
  for (const auto &[File, Incs] : linterIncludes(LinterRoot))
    if (llvm::StringRef(File).starts_with("report/"))
      for (const std::string &Inc : Incs)
        EXPECT_NE(Inc, "validate/ResultStore.h") << File;
}

TEST(StructureTest, NoIncludeCycles) {
  std::map<std::string, std::set<std::string>> Graph;
  for (const auto &[File, Incs] : linterIncludes(LinterRoot))
    for (const std::string &Inc : Incs)
      if (unitOf(Inc) != unitOf(File))
        Graph[unitOf(File)].insert(unitOf(Inc));
  std::map<std::string, int> State; // 1: on the path, 2: done
  std::vector<std::string> Path;
  std::function<void(const std::string &)> Visit = [&](const std::string &U) {
    State[U] = 1;
    Path.push_back(U);
    for (const std::string &V : Graph[U]) {
      if (State[V] == 1) {
        std::string Cycle;
        for (auto It = std::find(Path.begin(), Path.end(), V); It != Path.end(); ++It)
          Cycle += *It + " -> ";
        ADD_FAILURE() << "include cycle: " << Cycle << V;
      } else if (!State[V]) {
        Visit(V);
      }
    }
    Path.pop_back();
    State[U] = 2;
  };
  for (const auto &[U, Edges] : std::map(Graph))
    if (!State[U])
      Visit(U);
}

TEST(StructureTest, TheTestSeesABackwardInclude) {
  // The rule itself: an engine file including the project layer is refused.
  EXPECT_GT(layerOf("engine/Runner.cpp"), layerOf("project/Lint.h"));
  EXPECT_LE(layerOf("project/Lint.cpp"), layerOf("engine/Runner.h"));
  EXPECT_EQ(layerOf("Lint.h"), -1);
}

} // namespace
