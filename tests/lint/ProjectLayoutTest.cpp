// How a project is linted without being told how it is built: headers found
// by name, the fallback flags taken from its CMakeLists.txt or Makefile, library
// headers that never carry a finding, and a repository of independent programs
// analysed as separate programs. Each test copies a small project from
// tests/lint/data/projects/ into a temporary directory (outside this
// repository, whose root would otherwise be the project's) and runs the linter.
#include "LintTestSupport.h"
#include "project/BuildFlags.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <tuple>

namespace mlperf::test {
namespace {

using lint::BuildFileFlags;
using lint::parseCMakeLists;
using lint::parseMakefile;

const std::string Projects = MLPERF_SOURCE_DIR "/tests/lint/data/projects/";

/// A unique temporary directory with the given subdirectories, removed at the end of its scope.
struct ScratchTree {
  std::string Root;
  ScratchTree(const char *Prefix, std::initializer_list<const char *> Subdirs) {
    llvm::SmallString<128> Dir;
    if (llvm::sys::fs::createUniqueDirectory(Prefix, Dir))
      return;
    Root = std::string(Dir);
    for (const char *Sub : Subdirs)
      llvm::sys::fs::create_directories(Root + Sub);
  }
  ~ScratchTree() {
    if (!Root.empty())
      llvm::sys::fs::remove_directories(Root);
  }
};

class ProjectLayout : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mlperf-layout", Dir));
    Root = std::string(Dir);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  /// Copies tests/lint/data/projects/<Name> to <Root>/<Name>; returns its path.
  std::string copy(const std::string &Name) {
    std::string From = Projects + Name, To = Root + "/" + Name;
    std::error_code EC = llvm::sys::fs::create_directories(To);
    for (llvm::sys::fs::recursive_directory_iterator It(From, EC), End; It != End && !EC; It.increment(EC)) {
      std::string Rel = It->path().substr(From.size());
      if (It->type() == llvm::sys::fs::file_type::directory_file)
        llvm::sys::fs::create_directories(To + Rel);
      else
        EXPECT_FALSE(llvm::sys::fs::copy_file(It->path(), To + Rel)) << Rel;
    }
    EXPECT_FALSE(EC) << EC.message();
    return To;
  }
  void write(const std::string &Path, const std::string &Text) {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::ofstream(Path, std::ios::binary) << Text;
  }
  ProcessResult lint(const std::string &Dir, std::vector<std::string> Args) {
    Args.insert(Args.begin(), {"--no-cache", "--format=json"});
    return runProcess(MLPERF_LINT_BINARY, Args, Dir);
  }
  std::string Root;
};

using Place = std::tuple<std::string, unsigned, std::string>; // file, line, check

/// The findings of a JSON report, with the paths below \p Under.
std::set<Place> findings(const ProcessResult &R, const std::string &Under = "") {
  std::set<Place> Out;
  nlohmann::json J = nlohmann::json::parse(R.Out, nullptr, false);
  EXPECT_FALSE(J.is_discarded()) << R.Out << R.Err;
  if (J.is_discarded())
    return Out;
  for (const auto &D : J["diagnostics"]) {
    std::string File = D["file"];
    if (llvm::StringRef(File).starts_with(Under))
      Out.insert({File, D["line"].get<unsigned>(), D["check"].get<std::string>()});
  }
  return Out;
}

TEST_F(ProjectLayout, AHeaderFoundByNameIsUsedAndSaid) {
  std::string Dir = copy("byname");
  ProcessResult R = lint(Dir, {"lesson1/main.cpp"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R), (std::set<Place>{{Dir + "/lesson1/main.cpp", 7, "mlperf-sync-in-loop"}})) << R.Out;
  // The lesson's own header wins over another lesson's of the same name.
  EXPECT_NE(R.Err.find(Dir + "/lesson1/main.cpp: vgg.h taken from lesson1/include/vgg.h"), std::string::npos) << R.Err;
  EXPECT_EQ(R.Err.find("not found"), std::string::npos) << R.Err;

  // A header found beside the file as usual says nothing.
  ProcessResult Quoted = lint(Dir, {"lesson2/main.cpp"});
  EXPECT_EQ(Quoted.Exit, 0) << Quoted.Err;
  EXPECT_EQ(Quoted.Err.find("taken from"), std::string::npos) << Quoted.Err;
}

TEST_F(ProjectLayout, ALibraryInstalledBelowASystemDirectoryIsFoundAndStaysALibrary) {
  // As Debian installs Eigen: /usr/include/eigen3/Eigen/Dense, with
  // /usr/include on the search path but not eigen3.
  std::string Sys = Root + "/sys", Dir = Root + "/tracker";
  write(Sys + "/mathlib3/MathLib/Dense", "#pragma once\n#include \"Core\"\n");
  write(Sys + "/mathlib3/MathLib/Core",
        "#pragma once\nextern \"C\" int cudaDeviceSynchronize();\nextern \"C\" int cuLaunchKernel(void *f);\n"
        "namespace MathLib {\nstruct Vector4f { float v[4]; float operator[](int i) const { return v[i]; } };\n"
        "inline void settle(void *k) {\n  for (int i = 0; i < 3; ++i) {\n    cuLaunchKernel(k);\n"
        "    cudaDeviceSynchronize();\n  }\n}\n}\n");
  write(Sys + "/other/Other.h", "#pragma once\n");
  write(Dir + "/main.cpp", "#include <MathLib/Dense>\n"
                           "\n"
                           "int track(void *k, const MathLib::Vector4f &box) {\n"
                           "  int n = static_cast<int>(box[2]);\n"
                           "  for (int i = 0; i < n; ++i) {\n"
                           "    cuLaunchKernel(k);\n"
                           "    cudaDeviceSynchronize();\n"
                           "  }\n"
                           "  return n;\n"
                           "}\n");
  ProcessResult R = lint(Dir, {"main.cpp", "--extra-arg=-isystem" + Sys});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  // The library's own loop carries no finding: it came in as -isystem.
  EXPECT_EQ(findings(R), (std::set<Place>{{Dir + "/main.cpp", 7, "mlperf-sync-in-loop"}})) << R.Out;
  EXPECT_NE(R.Err.find(Dir + "/main.cpp: MathLib/Dense taken from " + Sys + "/mathlib3/MathLib/Dense"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Err.find("not found"), std::string::npos) << R.Err;

  // Installed twice: not taken, and said.
  write(Sys + "/mathlib4/MathLib/Dense", "#pragma once\n");
  ProcessResult Twice = lint(Dir, {"main.cpp", "--extra-arg=-isystem" + Sys});
  EXPECT_NE(Twice.Err.find("MathLib/Dense is ambiguous, not taken by name: installed under 2 system include "
                           "directories (" +
                           Sys + "/mathlib3, " + Sys + "/mathlib4)"),
            std::string::npos)
      << Twice.Err;
}

TEST_F(ProjectLayout, AnAmbiguousHeaderNameIsNotTaken) {
  std::string Dir = copy("byname");
  ProcessResult R = lint(Dir, {"tools/bench.cpp"});
  EXPECT_EQ(R.Exit, 0) << R.Out << R.Err;
  // The header's names are made up instead (a made-up call has no role: nothing is reported).
  EXPECT_NE(R.Err.find(Dir + "/tools/bench.cpp: 1 include not found (vgg.h); permissive declarations made up for 2 "
                             "names they would declare (Vgg, cudaDeviceSynchronize) and 2 members of their types; "
                             "vgg.h is ambiguous, not taken by name: 2 files of that name (lesson1/include/vgg.h, "
                             "lesson2/vgg.h); results may be incomplete"),
            std::string::npos)
      << R.Err;
  // With a compilation database nothing is looked up by name.
  write(Dir + "/compile_commands.json", "[{\"directory\": \"" + Dir +
                                            "\", \"file\": \"lesson1/main.cpp\", \"command\": \"c++ -std=c++17 -c "
                                            "lesson1/main.cpp\"}]");
  ProcessResult WithDatabase = lint(Dir, {"lesson1/main.cpp"});
  EXPECT_NE(WithDatabase.Err.find("1 include not found (vgg.h); permissive declarations made up for 2 names they "
                                  "would declare (Vgg, cudaDeviceSynchronize) and 2 members of their types; results "
                                  "may be incomplete"),
            std::string::npos)
      << WithDatabase.Err;
}

TEST_F(ProjectLayout, FallbackFlagsComeFromTheCMakeLists) {
  std::string Dir = copy("buildflags");
  ProcessResult R = lint(Dir, {"app/main.cpp"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R), (std::set<Place>{{Dir + "/app/main.cpp", 6, "mlperf-sync-in-loop"}})) << R.Out << R.Err;
  EXPECT_NE(R.Err.find("no compilation database found; using fallback flags: -std=c++17"), std::string::npos);
  EXPECT_NE(R.Err.find("; flags from CMakeLists.txt (-std=c++23, -I src, -I app, -D MLQM_GPU=1)\n"), std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Err.find("taken from"), std::string::npos) << "found through -I src: " << R.Err;
}

TEST_F(ProjectLayout, FallbackFlagsComeFromAMakefile) {
  std::string Dir = copy("makeflags");
  ProcessResult R = lint(Dir, {"train.cpp"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R), (std::set<Place>{{Dir + "/train.cpp", 7, "mlperf-sync-in-loop"}})) << R.Out << R.Err;
  EXPECT_NE(R.Err.find("; flags from Makefile (-std=c++20, -I ., -I include, -D USE_GPU)\n"), std::string::npos)
      << R.Err;
  // A C source of the same directory takes the include directories, not the C++ standard.
  ProcessResult C = lint(Dir, {"launch.c"});
  EXPECT_EQ(C.Exit, 1) << C.Err;
  EXPECT_EQ(findings(C), (std::set<Place>{{Dir + "/launch.c", 11, "mlperf-sync-in-loop"}})) << C.Out << C.Err;
  EXPECT_EQ(C.Err.find("error"), std::string::npos) << C.Err;
}

TEST_F(ProjectLayout, BadBuildFilesStateNothing) {
  std::string Dir = copy("buildflags");
  std::string Binary("set(CMAKE_CXX_STANDARD 23)\0\x01\x02", 30);
  std::string Huge = "include_directories(src)\n" + std::string(5 << 20, '#');
  std::string Unbalanced = "set(CMAKE_CXX_STANDARD 23\ninclude_directories(\"src" + std::string(100000, '(') + "[[" +
                           std::string(1000, '$') + "${";
  for (const std::string &Text : {Binary, Huge, Unbalanced}) {
    write(Dir + "/CMakeLists.txt", Text);
    ProcessResult R = lint(Dir, {"app/main.cpp"});
    EXPECT_EQ(R.Exit, 0) << R.Err;
    EXPECT_EQ(findings(R), std::set<Place>()) << R.Out;
  }
  // The unbalanced file still states what it does before it breaks off.
  ProcessResult R = lint(Dir, {"app/main.cpp"});
  EXPECT_NE(R.Err.find("flags from CMakeLists.txt (-std=c++23)"), std::string::npos) << R.Err;
}

TEST(BuildFlags, CMakeCommandsAreReadAsCMakeSplitsThem) {
  ScratchTree Tree("mlperf-cmake", {"/src", "/include", "/sub/inc", "/gen"});
  ASSERT_FALSE(Tree.Root.empty());
  const std::string &D = Tree.Root;
  std::string Text = "# include_directories(commented)\n"
                     "#[==[ include_directories(src) ]==]\n"
                     "cmake_minimum_required(VERSION 3.20)\n"
                     "SET(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} -std=gnu++14 -DLEGACY -I gen\")\n"
                     "set_target_properties(app PROPERTIES CXX_STANDARD 17 CXX_EXTENSIONS OFF)\n"
                     "target_compile_features(app PUBLIC cxx_std_20)\n"
                     "target_include_directories(app SYSTEM BEFORE PUBLIC\n"
                     "  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>\n"
                     "  ${OTHER_DIR} missing \"sub/inc;src\")\n"
                     "add_definitions(-DWITH_CUDA -Wall -DNAME=\"quoted\")\n"
                     "target_compile_definitions(app PRIVATE $<$<CONFIG:Debug>:DEBUG> -DFAST=1)\n"
                     "if((A) AND (B))\n  add_compile_definitions(IN_IF)\nendif()\n";
  BuildFileFlags F = parseCMakeLists(Text, D + "/sub/..", D);
  EXPECT_EQ(F.Standard, "c++20") << "the newest standard stated";
  EXPECT_EQ(F.Includes, (std::vector<std::string>{D + "/gen", D + "/include", D + "/sub/inc", D + "/src"}));
  EXPECT_EQ(F.Definitions, (std::vector<std::string>{"LEGACY", "WITH_CUDA", "FAST=1", "IN_IF"}));
  EXPECT_EQ(F.describe(D),
            "-std=c++20, -I gen, -I include, -I sub/inc, -I src, -D LEGACY, -D WITH_CUDA, -D FAST=1, -D IN_IF");

  BuildFileFlags M = parseMakefile("CPPFLAGS += -I$(CURDIR)/src -isystem /nonexistent\n"
                                   "NVCCFLAGS := -std=c++17 # -std=c++23 in a comment\n"
                                   "all:\n\tnvcc $(NVCCFLAGS) -Iinclude -DK=2 x.cu\n"
                                   "\techo -I/ignored\n",
                                   D);
  EXPECT_EQ(M.Standard, "c++17");
  EXPECT_EQ(M.Includes, (std::vector<std::string>{D + "/src", D + "/include"}));
  EXPECT_EQ(M.Definitions, (std::vector<std::string>{"K=2"}));
}

TEST(BuildFlags, BranchesKnownNotToBeTakenOnLinuxStateNothing) {
  ScratchTree Tree("mlperf-cmake-if", {"/win", "/unix", "/perf", "/found", "/shim"});
  ASSERT_FALSE(Tree.Root.empty());
  const std::string &D = Tree.Root;
  std::string Text = "option(WITH_PERF \"timings\" OFF)\n"
                     "option(WITH_FAST \"fast\" ON)\n"
                     "set(USE_SHIM NO)\n"
                     "set(NO_GPU OFF CACHE STRING \"Disables the GPU\")\n"
                     "if(NO_GPU)\n  add_compile_definitions(NO_GPU)\nendif()\n"
                     "if(WIN32)\n  include_directories(win)\n  add_definitions(-DNOMINMAX=1)\n"
                     "elseif(UNIX)\n  include_directories(unix)\nelse()\n  add_definitions(-DOTHER)\nendif()\n"
                     "if (APPLE AND WITH_FAST)\n  add_compile_definitions(GGML_USE_ACCELERATE)\nendif()\n"
                     "if(NOT MSVC)\n  if(WITH_PERF)\n    include_directories(perf)\n  endif()\n"
                     "  if(WITH_FAST OR WIN32)\n    add_compile_definitions(FAST)\n  endif()\nendif()\n"
                     "if(USE_SHIM)\n  include_directories(shim)\nendif()\n"
                     "if(BLAS_FOUND)\n  include_directories(found)\nendif()\n"
                     "if(\"${CMAKE_SYSTEM_NAME}\" STREQUAL \"Windows\")\n  add_definitions(-DUNSURE)\nendif()\n";
  BuildFileFlags F = parseCMakeLists(Text, D, D);
  EXPECT_EQ(F.Includes, (std::vector<std::string>{D + "/unix", D + "/found"}))
      << "a branch known not taken states nothing; one not known (a package found) is read";
  EXPECT_EQ(F.Definitions, (std::vector<std::string>{"FAST", "UNSURE"}));
}

TEST(BuildFlags, AnyTextIsReadWithoutCrashing) {
  static const char Alphabet[] = "()[]=#\"\\$;{}<> \n\tabcSET-DIinclude_directories";
  std::string Noise;
  for (unsigned I = 0, X = 12345; I < 200000; ++I, X = X * 1103515245 + 12345)
    Noise += Alphabet[(X >> 16) % (sizeof(Alphabet) - 1)];
  for (const std::string &Text : {Noise, std::string(300000, '('), std::string(300000, '[') + "=",
                                  std::string("set(") + std::string(20000, ' ') + "\"", std::string("\\")})
    for (auto Parse : {+[](const std::string &T) { return parseCMakeLists(T, "/nonexistent", "/nonexistent"); },
                       +[](const std::string &T) { return parseMakefile(T, "/nonexistent"); }}) {
      BuildFileFlags F = Parse(Text);
      EXPECT_TRUE(F.Includes.empty());
    }
}

TEST_F(ProjectLayout, LibraryHeadersCarryNoFindingHoweverIncluded) {
  std::string Dir = copy("libscope");
  std::string Lib = Dir + "/lib";
  write(Dir + "/db/compile_commands.json", "[{\"directory\": \"" + Dir + "/proj\", \"file\": \"" + Dir +
                                               "/proj/train.cc\", \"command\": \"c++ -std=c++17 -I" + Lib + " -c " +
                                               Dir + "/proj/train.cc\"}]");
  for (std::vector<std::string> Args : {std::vector<std::string>{"proj/train.cc", "--", "-std=c++17", "-I" + Lib},
                                        {"proj/train.cc", "--", "-std=c++17", "-isystem", Lib},
                                        {"-p", "db", "proj/train.cc"}}) {
    ProcessResult R = lint(Dir, Args);
    EXPECT_EQ(R.Exit, 1) << R.Err;
    // The cost is reported at the project's call, never inside the library.
    EXPECT_EQ(findings(R), (std::set<Place>{{Dir + "/proj/train.cc", 6, "mlperf-sync-in-loop"}})) << Args.back() << "\n"
                                                                                                  << R.Out;
  }
}

TEST_F(ProjectLayout, ASingleFileLibraryCopiedIntoTheProjectIsALibrary) {
  std::string Dir = copy("libscope");
  // single_sync.h compiles its implementation under SINGLE_SYNC_IMPLEMENTATION,
  // in use_single.cc: its loop is the library's, not the project's.
  ProcessResult R = lint(Dir, {"proj/use_single.cc", "--", "-std=c++17"});
  EXPECT_EQ(R.Exit, 0) << R.Err << R.Out;
  EXPECT_EQ(findings(R), std::set<Place>{}) << R.Out;
  // Named as an input, it is the user's file.
  ProcessResult Named = lint(Dir, {"proj/use_single.cc", "proj/single_sync.h", "--", "-std=c++17"});
  EXPECT_EQ(findings(Named), (std::set<Place>{{Dir + "/proj/single_sync.h", 12, "mlperf-sync-in-loop"}})) << Named.Out;
}

/// A repository of two lessons, each a program with its own `main`, whose
/// trainers define `train_step` with the same signature: lesson1's syncs on
/// every step, lesson2's does not.
TEST_F(ProjectLayout, ProgramsOfOneRepositoryDoNotMerge) {
  std::string Dir = copy("programs");
  std::set<Place> Lesson1 = {{Dir + "/lesson1/trainer.cpp", 5, "mlperf-sync-in-loop"}};
  ProcessResult Alone = lint(Dir, {"lesson1"});
  EXPECT_EQ(findings(Alone), Lesson1) << Alone.Err;
  ProcessResult All = lint(Dir, {"."});
  EXPECT_EQ(findings(All, Dir + "/lesson1/"), Lesson1) << All.Out << All.Err;
  EXPECT_EQ(findings(All, Dir + "/lesson2/"), findings(lint(Dir, {"lesson2"}))) << All.Out;

  // Alone again, with the summaries the whole run stored of both lessons.
  std::string Cache = "--cache-dir=" + Root + "/cache";
  ProcessResult Stored = runProcess(MLPERF_LINT_BINARY, {Cache, "--format=json", "."}, Dir);
  ASSERT_EQ(findings(Stored, Dir + "/lesson1/"), Lesson1) << Stored.Err;
  ProcessResult AloneAfter = runProcess(MLPERF_LINT_BINARY, {Cache, "--format=json", "lesson1/trainer.cpp"}, Dir);
  EXPECT_EQ(findings(AloneAfter), Lesson1) << AloneAfter.Err;
}

} // namespace
} // namespace mlperf::test
