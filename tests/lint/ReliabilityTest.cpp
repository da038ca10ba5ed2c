// Bad input never damages a file, hangs, or ends the run without the other
// files' findings: --fix safety, outputs, the directory walk, configuration
// and crash isolation (issue 12). Inputs are tiny and need no libtorch.
#include "LintTestSupport.h"
#include "findings/Fixes.h"
#include "report/Report.h"
#include "support/FileGuard.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace mlperf::test {
namespace {

const char *SyncLoop = "extern \"C\" int cudaDeviceSynchronize();\n"
                       "extern \"C\" int cuLaunchKernel(void *f);\n"
                       "void train(void *k) {\n"
                       "  for (int i = 0; i < 10; ++i) {\n"
                       "    cuLaunchKernel(k);\n"
                       "    cudaDeviceSynchronize();\n"
                       "  }\n"
                       "}\n";

const char *TransferApi = "namespace fw { struct Dev {}; struct Host { Dev upload() const; void refresh(); };\n"
                          "struct Exec { void run(const Dev &); }; }\n";
const char *Transfer = "void train(fw::Exec &e, const fw::Host &w) {\n"
                       "  for (int i = 0; i < 10; ++i) {\n"
                       "    e.run(w.upload());\n"
                       "  }\n"
                       "}\n";
const char *TransferFixed = "void train(fw::Exec &e, const fw::Host &w) {\n"
                            "  auto w_on_device = w.upload();\n"
                            "  for (int i = 0; i < 10; ++i) {\n"
                            "    e.run(w_on_device);\n"
                            "  }\n"
                            "}\n";

std::vector<std::string> lines(const std::string &Text) {
  std::vector<std::string> Out;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  llvm::StringRef(Text).split(Parts, '\n', -1, false);
  for (llvm::StringRef P : Parts)
    Out.push_back(P.str());
  return Out;
}

class ReliabilityTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    llvm::SmallString<128> Model;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Model);
    llvm::sys::path::append(Model, "mlperf-reliability");
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory(Model, Dir));
    Root = std::string(Dir);
    ::chmod(Root.c_str(), 0755); // readable by the unprivileged user of some tests
    write("p.json", TransferProfile);
  }
  void TearDown() override {
    std::string Cmd = "chmod -R u+rwx '" + Root + "' 2>/dev/null";
    (void)std::system(Cmd.c_str());
    llvm::sys::fs::remove_directories(Root);
  }

  std::string write(const std::string &Rel, const std::string &Text) {
    std::string Path = Root + "/" + Rel;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::ofstream(Path, std::ios::binary) << Text;
    return Path;
  }
  ProcessResult lint(std::vector<std::string> Args, bool WithFlags = true) {
    if (WithFlags) {
      Args.push_back("--");
      Args.push_back("-std=c++17");
    }
    return runProcess(MLPERF_LINT_BINARY, Args, Root);
  }
  /// Runs mlperf-lint through `sh -c` (for redirections), under a time limit.
  ProcessResult shell(const std::string &Command) {
    return runProcess("/bin/sh", {"-c", "exec timeout 120 " MLPERF_LINT_BINARY " " + Command}, Root);
  }
  ProcessResult fix(const std::string &File, std::vector<std::string> Extra = {}) {
    std::vector<std::string> Args = {"--profile=p.json", "--fix", File};
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    return lint(Args);
  }
  std::string Root;
};

// --fix -------------------------------------------------------------------

TEST_F(ReliabilityTest, FixRefusesAFileChangedSinceItWasRead) {
  std::string Path = write("stale.cc", "int a = 1;\n");
  lint::ContentHashes Hashes;
  Hashes.record(Path, lint::contentHash("int a = 1;\n"));
  write("stale.cc", "struct S {};\nint a = 1;\n"); // edited after linting
  clang::tidy::ClangTidyError E("mlperf-test", clang::tidy::ClangTidyError::Warning, Root, false);
  E.Message.FilePath = Path;
  ASSERT_FALSE(E.Message.Fix[Path].add(clang::tooling::Replacement(Path, 8, 1, "2")));
  lint::FixResult R = lint::applyFixes({E}, {&Hashes, false, {}});
  ASSERT_EQ(R.Errors.size(), 1u);
  EXPECT_EQ(R.Errors[0], Path + ": changed since it was linted; not fixed (run mlperf-lint again)");
  EXPECT_EQ(R.Applied, 0u);
  EXPECT_EQ(readFile(Path), "struct S {};\nint a = 1;\n");

  // A file read twice with different contents has no trustworthy hash.
  Hashes.record(Path, lint::contentHash("struct S {};\nint a = 1;\n"));
  R = lint::applyFixes({E}, {&Hashes, false, {}});
  ASSERT_EQ(R.Errors.size(), 1u);
  EXPECT_EQ(readFile(Path), "struct S {};\nint a = 1;\n");
}

TEST_F(ReliabilityTest, ConcurrentFixRunsNeverInterleave) {
  std::vector<std::string> Files;
  for (int I = 0; I < 2; ++I)
    Files.push_back(write("c" + std::to_string(I) + ".cc", std::string(TransferApi) + Transfer));
  std::vector<ProcessResult> Results(3);
  std::vector<std::thread> Runs;
  for (int I = 0; I < 3; ++I)
    Runs.emplace_back([&, I] { Results[I] = lint({"--profile=p.json", "--fix", "c0.cc", "c1.cc"}); });
  for (std::thread &T : Runs)
    T.join();
  for (const std::string &F : Files)
    EXPECT_EQ(readFile(F), std::string(TransferApi) + TransferFixed) << F;
  for (const ProcessResult &R : Results) {
    EXPECT_LE(R.Exit, 2) << R.Err;
    // A run that lost the race refuses with one line per file.
    for (const std::string &L : lines(R.Err))
      if (L.find("error:") != std::string::npos)
        EXPECT_NE(L.find("changed since it was linted"), std::string::npos) << L;
  }
}

TEST_F(ReliabilityTest, DuplicateCopiesAreHoistedOnce) {
  std::string Path = write("dup.cc", std::string(TransferApi) + "void train(fw::Exec &e, const fw::Host &w) {\n"
                                                                "  for (int i = 0; i < 10; ++i) {\n"
                                                                "    e.run(w.upload());\n"
                                                                "    e.run(w.upload());\n"
                                                                "  }\n"
                                                                "}\n");
  ProcessResult R = fix("dup.cc");
  EXPECT_EQ(R.Exit, 1) << R.Err;
  std::string Fixed = readFile(Path);
  EXPECT_EQ(count(Fixed, "auto w_on_device = w.upload();"), 1u) << Fixed;
  EXPECT_EQ(count(Fixed, "e.run(w_on_device);"), 2u) << Fixed;
  EXPECT_EQ(compileErrors(Path, Fixed, {"-std=c++17"}), "") << Fixed;
}

TEST_F(ReliabilityTest, NoHoistOfAValueANonConstCallChanges) {
  write("changed.cc", std::string(TransferApi) + "void train(fw::Exec &e, fw::Host &w) {\n"
                                                 "  for (int i = 0; i < 10; ++i) {\n"
                                                 "    w.refresh();\n"
                                                 "    e.run(w.upload());\n"
                                                 "  }\n"
                                                 "}\n");
  ProcessResult R = lint({"--profile=p.json", "--checks=-*,mlperf-loop-invariant-transfer", "changed.cc"});
  EXPECT_EQ(R.Exit, 0) << R.Out << R.Err;
  // Changed through a pointer, an element or a non-const reference alias.
  for (const char *Change : {"fw::Host *p = &w; p->refresh();", "auto &alias = w; alias.refresh();"}) {
    write("alias.cc", std::string(TransferApi) +
                          "void train(fw::Exec &e, fw::Host &w) {\n"
                          "  for (int i = 0; i < 10; ++i) {\n    " +
                          Change + "\n    e.run(w.upload());\n  }\n}\n");
    R = lint({"--profile=p.json", "--checks=-*,mlperf-loop-invariant-transfer", "alias.cc"});
    EXPECT_EQ(R.Exit, 0) << Change << "\n" << R.Out;
  }
}

TEST_F(ReliabilityTest, FixWritesThroughSymlinksAndKeepsModeAndLinks) {
  std::string Target = write("real/t.cc", std::string(TransferApi) + Transfer);
  ASSERT_EQ(::symlink("real/t.cc", (Root + "/link.cc").c_str()), 0);
  std::string Hard = write("h1.cc", std::string(TransferApi) + Transfer);
  ASSERT_EQ(::link(Hard.c_str(), (Root + "/h2.cc").c_str()), 0);
  std::string Mode = write("m.cc", std::string(TransferApi) + Transfer);
  ::chmod(Mode.c_str(), 0751);

  for (const char *F : {"link.cc", "h1.cc", "m.cc"}) {
    ProcessResult R = fix(F);
    EXPECT_EQ(R.Exit, 1) << F << ": " << R.Err;
  }
  struct stat St;
  ASSERT_EQ(::lstat((Root + "/link.cc").c_str(), &St), 0);
  EXPECT_TRUE(S_ISLNK(St.st_mode)) << "the symlink was replaced by a file";
  EXPECT_EQ(readFile(Target), std::string(TransferApi) + TransferFixed);
  ASSERT_EQ(::stat(Hard.c_str(), &St), 0);
  EXPECT_EQ(St.st_nlink, 2u) << "the hard link was split";
  EXPECT_EQ(readFile(Root + "/h2.cc"), std::string(TransferApi) + TransferFixed);
  ASSERT_EQ(::stat(Mode.c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 07777, 0751u);
  EXPECT_EQ(readFile(Mode), std::string(TransferApi) + TransferFixed);
}

TEST_F(ReliabilityTest, FixRefusesReadOnlyFiles) {
  std::string Path = write("ro.cc", std::string(TransferApi) + Transfer);
  ::chmod(Path.c_str(), 0444);
  ProcessResult R = fix("ro.cc");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("mlperf-lint: error: " + Path + ": file is read-only; not fixed\n"), std::string::npos) << R.Err;
  EXPECT_EQ(readFile(Path), std::string(TransferApi) + Transfer);
}

TEST_F(ReliabilityTest, FixKeepsCrlfLineEndings) {
  auto Crlf = [](std::string S) {
    std::string Out;
    for (char C : S)
      Out += C == '\n' ? std::string("\r\n") : std::string(1, C);
    return Out;
  };
  std::string Path = write("crlf.cc", Crlf(std::string(TransferApi) + Transfer));
  ProcessResult R = fix("crlf.cc");
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(readFile(Path), Crlf(std::string(TransferApi) + TransferFixed));
}

TEST_F(ReliabilityTest, NoFixesToFilesWithCompileErrorsUnlessFixErrors) {
  std::string Broken = std::string(TransferApi) + Transfer + "int broken = undeclared_name;\n";
  std::string Path = write("broken.cc", Broken);
  ProcessResult R = fix("broken.cc");
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Err.find(Path + ": has compile errors; its fixes were not applied (--fix-errors applies them)"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(readFile(Path), Broken);
  R = lint({"--profile=p.json", "--fix-errors", "broken.cc"});
  EXPECT_NE(readFile(Path).find("auto w_on_device = w.upload();"), std::string::npos) << R.Err;
}

// Outputs -------------------------------------------------------------------

TEST_F(ReliabilityTest, OutputFileTakesEveryFormat) {
  write("sync.cc", SyncLoop);
  for (const char *Format : {"json", "sarif"}) {
    std::string Out = Root + "/report." + Format;
    ProcessResult R = lint({std::string("--format=") + Format, "-o", Out, "sync.cc"});
    EXPECT_EQ(R.Exit, 1) << R.Err;
    EXPECT_EQ(R.Out, "");
    nlohmann::json J = nlohmann::json::parse(readFile(Out), nullptr, false);
    ASSERT_FALSE(J.is_discarded()) << Format;
    if (std::string(Format) == "json")
      EXPECT_EQ(J["diagnostics"].size(), 1u);
    else
      EXPECT_EQ(J["runs"][0]["results"].size(), 1u);
  }
}

TEST_F(ReliabilityTest, OutputNamingAnInputIsRefused) {
  std::string Path = write("good.cc", SyncLoop);
  for (const char *Option : {"-o", "--export-fixes"}) {
    ProcessResult R = lint({Option, "good.cc", "good.cc"});
    EXPECT_EQ(R.Exit, 2) << Option;
    EXPECT_NE(R.Err.find("good.cc: " + std::string(Option) + " names an input file; it is not overwritten"),
              std::string::npos)
        << R.Err;
    EXPECT_EQ(readFile(Path), SyncLoop);
  }
}

// Found on an untuned repository (a NoGradGuard inserted at the top of
// main, 34 lines above the forward it is for): clang numbers a snippet from
// the first line of every fix-it and range, also those too far away to be
// shown, so the caret's line was printed as line 76 instead of 110. The text
// shows only those near the caret; the finding keeps every fix.
TEST_F(ReliabilityTest, TextReportNumbersTheCaretsLineWhenAFixItIsFarAway) {
  std::string Source = "int main() {\n";
  for (int I = 2; I < 40; ++I)
    Source += "  int v" + std::to_string(I) + " = " + std::to_string(I) + ";\n";
  Source += "  run();\n}\n";
  std::string C = write("c.cc", Source);
  using clang::tidy::ClangTidyError;
  ClangTidyError E("mlperf-test", ClangTidyError::Warning, Root, false);
  E.Message.Message = "far fix";
  E.Message.FilePath = C;
  E.Message.FileOffset = Source.find("run();");
  ASSERT_FALSE(E.Message.Fix[C].add(clang::tooling::Replacement(C, Source.find("int v2"), 0, "guard; ")));
  clang::tooling::FileByteRange Far;
  Far.FilePath = C;
  Far.FileOffset = Source.find("v3");
  Far.Length = 2;
  E.Message.Ranges.push_back(Far);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  lint::writeText({E}, OS);
  EXPECT_EQ(Text, C + ":40:3: warning: far fix [mlperf-test]\n"
                      "   40 |   run();\n"
                      "      |   ^\n");
  EXPECT_EQ(E.Message.Fix[C].size(), 1u);
}

// Found by fuzz_report: clang's text printer drops a line's trailing NUL bytes
// before it maps a fix-it's column, so a fix-it past them read past its column
// table (lines of gigabytes of spaces); an offset past the end of its file was
// shown as a place in the file read after it.
TEST_F(ReliabilityTest, TextReportPlacesStayInsideTheirFile) {
  std::string A = write("a.cc", std::string("int a;\0\0\nint b;\n", 16));
  std::string B = write("b.cc", "int bbbbbbbbbbbbbbbbbbbbbbbb;\n");
  using clang::tidy::ClangTidyError;
  ClangTidyError E("mlperf-test", ClangTidyError::Warning, Root, false);
  E.Message.Message = "in a";
  E.Message.FilePath = A;
  E.Message.FileOffset = 13;
  ASSERT_FALSE(E.Message.Fix[A].add(clang::tooling::Replacement(A, 7, 1, "x")));
  ASSERT_FALSE(E.Message.Fix[A].add(clang::tooling::Replacement(A, 4, 1, "y")));
  clang::tooling::DiagnosticMessage Note;
  Note.Message = "in b";
  Note.FilePath = B;
  Note.FileOffset = 4;
  E.Notes.push_back(Note);
  ClangTidyError Past("mlperf-test", ClangTidyError::Warning, Root, false);
  Past.Message.Message = "past the end of a";
  Past.Message.FilePath = A;
  Past.Message.FileOffset = 40;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  lint::writeText({E, Past}, OS);
  EXPECT_EQ(Text, A +
                      ":2:5: warning: in a [mlperf-test]\n"
                      "    1 | int a;\n"
                      "      |     ~\n"
                      "      |     y\n"
                      "    2 | int b;\n"
                      "      |     ^\n" +
                      B +
                      ":1:5: note: in b\n"
                      "    1 | int bbbbbbbbbbbbbbbbbbbbbbbb;\n"
                      "      |     ^\n" +
                      A + ":3:1: warning: past the end of a [mlperf-test]\n");
}

TEST_F(ReliabilityTest, WriteFailuresAreOneLineAndExitTwo) {
  write("sync.cc", SyncLoop);
  struct Case {
    std::string Command, Line;
  } Cases[] = {{"-o /dev/full sync.cc -- -std=c++17", "/dev/full: cannot write report: No space left on device"},
               {"--export-fixes=/dev/full sync.cc -- -std=c++17 >/dev/null",
                "/dev/full: cannot write fixes: No space left on device"},
               {"sync.cc -- -std=c++17 >/dev/full", "<stdout>: cannot write report: No space left on device"}};
  for (const Case &C : Cases) {
    ProcessResult R = shell(C.Command);
    EXPECT_EQ(R.Exit, 2) << C.Command << "\n" << R.Err;
    EXPECT_NE(R.Err.find("mlperf-lint: error: " + C.Line + "\n"), std::string::npos) << R.Err;
    EXPECT_EQ(R.Err.find("LLVM ERROR"), std::string::npos) << R.Err;
  }
}

TEST_F(ReliabilityTest, ParallelWorkersWriteEachFilesStderrAsOneBlock) {
  std::vector<std::string> Args = {"-j2"};
  for (int I = 0; I < 6; ++I) {
    std::string Name = "e" + std::to_string(I) + ".cc";
    write(Name, "int f() { return undefined; }\nint g(int x) { int unused; return x; }\n");
    Args.push_back(Name);
  }
  Args.insert(Args.end(), {"--", "-std=c++17", "-Wunused-variable"});
  ProcessResult R = lint(Args, /*WithFlags=*/false);
  EXPECT_EQ(R.Exit, 2) << R.Err;
  std::vector<std::string> Err = lines(R.Err);
  for (int I = 0; I < 6; ++I) {
    std::string Line = "Error while processing " + Root + "/e" + std::to_string(I) + ".cc.";
    auto At = std::find(Err.begin(), Err.end(), Line);
    ASSERT_NE(At, Err.end()) << Line << "\n" << R.Err;
    EXPECT_EQ(std::count(Err.begin(), Err.end(), Line), 1) << R.Err;
    ASSERT_NE(At, Err.begin());
    EXPECT_EQ(*(At - 1), "1 warning and 1 error generated.") << R.Err;
  }
  for (const std::string &L : Err)
    EXPECT_TRUE(L == "1 warning and 1 error generated." || llvm::StringRef(L).starts_with("Error while processing /") ||
                llvm::StringRef(L).starts_with("mlperf-lint: ") || llvm::StringRef(L).starts_with("Suppressed "))
        << L << "\n"
        << R.Err;
}

// The directory walk ----------------------------------------------------------

TEST_F(ReliabilityTest, FifosNeverBlock) {
  write("src/a.cc", SyncLoop);
  ASSERT_EQ(::mkfifo((Root + "/src/f.cc").c_str(), 0644), 0);
  ProcessResult R = shell("--verbose src -- -std=c++17");
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_NE(R.Err.find("mlperf-lint: skipped src/f.cc: not a regular file"), std::string::npos) << R.Err;
  R = shell("src/f.cc src/a.cc -- -std=c++17");
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Err.find("mlperf-lint: error: src/f.cc: not a regular file"), std::string::npos) << R.Err;
  EXPECT_NE(R.Out.find("a.cc:6:5: warning:"), std::string::npos);
}

TEST_F(ReliabilityTest, SymlinkLoopsEndAndEachFileIsLintedOnce) {
  write("tree/a.cc", SyncLoop);
  write("tree/sub/b.cc", SyncLoop);
  ASSERT_EQ(::symlink("..", (Root + "/tree/sub/up").c_str()), 0);
  ASSERT_EQ(::symlink(".", (Root + "/tree/self").c_str()), 0);
  ASSERT_EQ(::symlink("a.cc", (Root + "/tree/alias.cc").c_str()), 0);
  ProcessResult R = shell("tree tree/a.cc -- -std=c++17");
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(count(R.Out, "a.cc:6:5: warning:"), 1u) << R.Out;
  EXPECT_EQ(count(R.Out, "b.cc:6:5: warning:"), 1u) << R.Out;
  EXPECT_NE(R.Err.find("2 finding(s) in 2 file(s)"), std::string::npos) << R.Err;
}

TEST_F(ReliabilityTest, UnreadableDirectoryIsReportedAfterLintingTheRest) {
  write("tree/a.cc", SyncLoop);
  write("tree/locked/b.cc", SyncLoop);
  ::chmod((Root + "/tree").c_str(), 0755);
  ::chmod((Root + "/tree/locked").c_str(), 0);
  // Root reads any directory: run as an unprivileged user then.
  std::vector<std::string> Args = {MLPERF_LINT_BINARY, "tree", "--", "-std=c++17"};
  std::string Program = MLPERF_LINT_BINARY;
  if (::geteuid() == 0) {
    Program = "/usr/bin/setpriv";
    Args.insert(Args.begin(), {"--reuid=65534", "--regid=65534", "--clear-groups"});
  } else {
    Args.erase(Args.begin());
  }
  ProcessResult R = runProcess(Program, Args, Root);
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Out.find("a.cc:6:5: warning:"), std::string::npos) << R.Out << R.Err;
  EXPECT_NE(R.Err.find("mlperf-lint: error: tree/locked: cannot read directory: Permission denied\n"),
            std::string::npos)
      << R.Err;
}

TEST_F(ReliabilityTest, BuildDirectoriesAndExcludedPathsAreSkipped) {
  write("tree/a.cc", SyncLoop);
  for (const char *Dir : {"build", "build_release", "builddir", "cmake-build-debug", ".hidden", "gen"})
    write(std::string("tree/") + Dir + "/x.cc", SyncLoop);
  write("tree/keep/generated_y.cc", SyncLoop);
  ProcessResult R = lint({"--verbose", "--exclude=gen", "--exclude=*/generated_*", "tree"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(count(R.Out, ": warning:"), 1u) << R.Out;
  EXPECT_NE(R.Err.find("skipped tree/build_release: hidden or build directory"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("skipped tree/gen: excluded"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("skipped tree/keep/generated_y.cc: excluded"), std::string::npos) << R.Err;
  // The usage reference documents the same rule.
  EXPECT_NE(readFile(MLPERF_SOURCE_DIR "/docs/usage.md").find("`build*`"), std::string::npos);
}

// Configuration ---------------------------------------------------------------

TEST_F(ReliabilityTest, MalformedConfigFailsOnlyTheFilesUnderIt) {
  write("bad/x.cc", SyncLoop);
  write("bad/.mlperf-lint", "Checks: 'mlperf-*'\nCheckOptions:\n  - {key: x\n");
  write("good/y.cc", SyncLoop);
  ProcessResult R = lint({"bad", "good"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Out.find("good/y.cc:6:5: warning:"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("x.cc"), std::string::npos) << R.Out;
  EXPECT_NE(R.Err.find("mlperf-lint: error: " + Root + "/bad/.mlperf-lint: invalid configuration: line 3: "),
            std::string::npos)
      << R.Err;
}

TEST_F(ReliabilityTest, UnknownCheckOptionsAreWarnedOnceAndVerifyConfig) {
  write("a/x.cc", SyncLoop);
  write("a/y.cc", SyncLoop);
  write("a/.mlperf-lint", "CheckOptions:\n  mlperf-sync-in-loop.Profile: p.json\n");
  ProcessResult R = lint({"a"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  std::string Warning = "mlperf-lint: warning: " + Root +
                        "/a/.mlperf-lint: unknown check option 'mlperf-sync-in-loop.Profile'; did you mean "
                        "'mlperf-sync-in-loop.Profiles'?\n";
  EXPECT_EQ(count(R.Err, Warning), 1u) << R.Err;
  R = lint({"--verify-config", "a"}, false);
  EXPECT_EQ(R.Exit, 0);
  EXPECT_EQ(count(R.Err, Warning), 1u) << R.Err;
  R = lint({"--verify-config", "--config=Checks: 'mlperf-nope'"}, false);
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "mlperf-lint: error: --config: unknown check 'mlperf-nope' (see --list-checks)\n");
}

TEST_F(ReliabilityTest, MissingProfilesFileIsAConfigurationError) {
  write("a/x.cc", SyncLoop);
  write("a/.mlperf-lint", "CheckOptions:\n  mlperf-sync-in-loop.Profiles: /nonexistent/p.json\n");
  ProcessResult R = lint({"a"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_EQ(R.Out.find("clang-tidy-config"), std::string::npos) << R.Out;
  EXPECT_NE(R.Err.find("/nonexistent/p.json: cannot read API profile"), std::string::npos) << R.Err;
}

TEST_F(ReliabilityTest, CommandLineGlobsAndRegexesAreValidated) {
  write("sync.cc", SyncLoop);
  struct Case {
    std::string Option, Error;
  } Cases[] = {
      {"--checks=-*,foo-*", "--checks: '-*,foo-*' enables no check (see --list-checks)"},
      {"--warnings-as-errors=mlperf-nope", "--warnings-as-errors: unknown check 'mlperf-nope' (see --list-checks)"},
      {"--header-filter=([", "--header-filter: invalid regular expression '([': brackets ([ ]) not balanced"},
      {"-j-1", "-j: the number of jobs must be 0 (one per core) or more, not -1"},
  };
  for (const Case &C : Cases) {
    ProcessResult R = lint({C.Option, "sync.cc"});
    EXPECT_EQ(R.Exit, 2) << C.Option;
    EXPECT_EQ(R.Err, "mlperf-lint: error: " + C.Error + "\n") << C.Option;
  }
  // An option's value LLVM rejects is one line too.
  ProcessResult R = lint({"-jx", "sync.cc"});
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(lines(R.Err).size(), 1u) << R.Err;
}

TEST_F(ReliabilityTest, DamagedCompileDatabaseIsRejected) {
  write("db/s.cc", SyncLoop);
  write("db/compile_commands.json", "[{\"directory\": \"" + Root +
                                        "/db\", \"file\": \"s.cc\", \"arguments\": [\"c++\", \"-c\", \"s.cc\"]},\n"
                                        " {\"directory\": \"" +
                                        Root + "/db\", \"file\": \"t.cc\", \"argu");
  for (std::vector<std::string> Args : {std::vector<std::string>{"db/s.cc"}, {"-p", "db", "db/s.cc"}}) {
    ProcessResult R = lint(Args, false);
    EXPECT_EQ(R.Exit, 2);
    EXPECT_EQ(lines(R.Err).size(), 1u) << R.Err;
    EXPECT_EQ(
        R.Err.rfind("mlperf-lint: error: " + Root + "/db/compile_commands.json: invalid compilation database: ", 0), 0u)
        << R.Err;
    EXPECT_NE(R.Err.find("Unterminated string"), std::string::npos) << R.Err;
  }
  llvm::sys::fs::create_directories(Root + "/empty");
  write("e/s.cc", SyncLoop);
  ProcessResult R = lint({"-p", "empty", "e/s.cc"}, false);
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "mlperf-lint: error: empty: no compilation database (compile_commands.json or "
                   "compile_flags.txt) in this directory or its parents\n");
}

// Crash isolation -------------------------------------------------------------

std::string nestedFors(int Depth) {
  std::string S = "void f() {\n  int x = 0;\n  ";
  for (int I = 0; I < Depth; ++I)
    S += "for (;;) ";
  return S + "x++;\n}\n";
}

TEST_F(ReliabilityTest, DeepNestingAndLongExpressionsAreLinted) {
  write("sync.cc", SyncLoop);
  write("deep.cc", nestedFors(4500));
  std::string Sum = "int g(int a) {\n  return a";
  for (int I = 1; I < 70000; ++I)
    Sum += " + a";
  write("wide.cc", Sum + ";\n}\n");
  ProcessResult R = lint({"-j2", "deep.cc", "wide.cc", "sync.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_NE(R.Out.find("sync.cc:6:5: warning:"), std::string::npos);
  EXPECT_NE(R.Err.find("1 finding(s) in 3 file(s)"), std::string::npos) << R.Err;
}

TEST_F(ReliabilityTest, ACrashInClangEndsOnlyThatFile) {
  write("sync.cc", SyncLoop);
  // Deep enough to exhaust even the large parsing stack.
  std::string Deeper = write("deeper.cc", nestedFors(400000));
  ProcessResult R = lint({"-j2", "deeper.cc", "sync.cc"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Out.find("sync.cc:6:5: warning:"), std::string::npos) << R.Out;
  EXPECT_NE(R.Err.find("mlperf-lint: error: " + Deeper + ": clang crashed while parsing (signal 11: "),
            std::string::npos)
      << R.Err;
}

// Issue 26 ------------------------------------------------------------------

TEST_F(ReliabilityTest, NoOutputReplacesAnInputOrWritesThroughALinkToOne) {
  std::string Path = write("good.cc", SyncLoop);
  ASSERT_EQ(::symlink(Path.c_str(), (Root + "/link.json").c_str()), 0);
  for (std::string Option : {"-o", "--export-fixes", "--write-baseline"})
    for (std::string Target : {"good.cc", "link.json"}) {
      ProcessResult R = lint({Option + "=" + Target, "good.cc"});
      EXPECT_EQ(R.Exit, 2) << Option << " " << Target;
      EXPECT_EQ(R.Err,
                "mlperf-lint: error: " + Target + ": " + Option + " names an input file; it is not overwritten\n");
      EXPECT_EQ(readFile(Path), SyncLoop) << Option << " " << Target;
    }
  // merge-sarif: its inputs.
  ASSERT_EQ(lint({"--format=sarif", "-o", "a.sarif", "good.cc"}).Exit, 1);
  std::string Sarif = readFile(Root + "/a.sarif");
  ProcessResult Merge = runProcess(MLPERF_LINT_BINARY, {"merge-sarif", "a.sarif", "-o", "a.sarif"}, Root);
  EXPECT_EQ(Merge.Exit, 2);
  EXPECT_NE(Merge.Err.find("a.sarif: -o names an input file; it is not overwritten"), std::string::npos) << Merge.Err;
  EXPECT_EQ(readFile(Root + "/a.sarif"), Sarif);
}

TEST_F(ReliabilityTest, OutputsAreRenamedIntoPlaceAndKeepTheirMode) {
  write("sync.cc", SyncLoop);
  std::string Out = write("report.json", "old");
  ::chmod(Out.c_str(), 0640);
  std::string Other = Root + "/other.json";
  ASSERT_EQ(::link(Out.c_str(), Other.c_str()), 0);
  ProcessResult R = lint({"--format=json", "-o", "report.json", "sync.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_FALSE(nlohmann::json::parse(readFile(Out), nullptr, false).is_discarded());
  EXPECT_EQ(readFile(Other), "old") << "a new file took the name: another link to the old one keeps its content";
  struct stat St;
  ASSERT_EQ(::stat(Out.c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0640u);
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Root, EC), End; It != End && !EC; It.increment(EC))
    EXPECT_EQ(llvm::sys::path::filename(It->path()).find(".mlperf-lint-"), llvm::StringRef::npos) << It->path();
}

TEST_F(ReliabilityTest, GitRefsAreNeverReadAsOptions) {
  std::string Victim = write("victim.cc", SyncLoop);
  ProcessResult Git = runProcess("/bin/sh",
                                 {"-c", "git init -q . && git add victim.cc && git -c user.name=t "
                                        "-c user.email=t@t.invalid commit -qm init"},
                                 Root);
  ASSERT_EQ(Git.Exit, 0) << Git.Err;
  for (std::string Ref : {"--output=victim.cc", "-pvictim.cc", "HEAD --output=victim.cc", "no-such-ref"}) {
    ProcessResult R = lint({"--diff=" + Ref, "victim.cc"});
    EXPECT_EQ(R.Exit, 2) << Ref;
    EXPECT_EQ(R.Err, "mlperf-lint: error: --diff: '" + Ref + "' is not a commit of this repository\n") << Ref;
    EXPECT_EQ(readFile(Victim), SyncLoop) << Ref;
  }
  write("victim.cc", std::string(SyncLoop) + "void more() {}\n");
  ProcessResult R = lint({"--diff=HEAD", "victim.cc"});
  EXPECT_EQ(R.Exit, 0) << R.Err << R.Out; // the changed line has no finding
}

TEST_F(ReliabilityTest, AFixKilledInTheMiddleOfAnInPlaceWriteIsUndoneByTheNextRun) {
  std::string A = write("a.cc", SyncLoop), B = Root + "/b.cc";
  ASSERT_EQ(::link(A.c_str(), B.c_str()), 0); // two links: written in place
  std::string Fixed = std::string(SyncLoop) + "// fixed\n";
  // What a SIGKILL during the write leaves: the journal, and the file half
  // written (the rest NUL bytes from the space reserved).
  ASSERT_FALSE(llvm::errorToBool(lint::writeJournal(A, SyncLoop, Fixed)));
  {
    std::fstream F(A, std::ios::in | std::ios::out | std::ios::binary);
    F << std::string(Fixed).substr(0, 40) << std::string(Fixed.size() - 40, '\0');
  }
  ProcessResult R = lint({"a.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_NE(R.Err.find("mlperf-lint: warning: " + A +
                       ": a fix of it was interrupted: restored the content it had before that run\n"),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Out.find("a.cc:6:5: warning:"), std::string::npos) << R.Out;
  EXPECT_EQ(readFile(A), SyncLoop);
  EXPECT_EQ(readFile(B), SyncLoop);
  EXPECT_FALSE(llvm::sys::fs::exists(lint::journalPath(A)));
  // A journal cut off while it was written: the file had not been touched.
  ASSERT_FALSE(llvm::errorToBool(lint::writeJournal(A, SyncLoop, Fixed)));
  ASSERT_EQ(::truncate(lint::journalPath(A).c_str(), 60), 0);
  R = lint({"a.cc"});
  EXPECT_NE(R.Err.find("its file was not changed; the incomplete journal was removed"), std::string::npos) << R.Err;
  EXPECT_EQ(readFile(A), SyncLoop);
  EXPECT_FALSE(llvm::sys::fs::exists(lint::journalPath(A)));
  // The write had finished: the fixed content stays.
  ASSERT_FALSE(llvm::errorToBool(lint::writeJournal(A, SyncLoop, Fixed)));
  write("a.cc", Fixed);
  R = lint({"a.cc"});
  EXPECT_EQ(R.Err.find("interrupted"), std::string::npos) << R.Err;
  EXPECT_EQ(readFile(B), Fixed);
  EXPECT_FALSE(llvm::sys::fs::exists(lint::journalPath(A)));
  // A fix through --fix leaves no journal.
  write("t.cc", std::string(TransferApi) + Transfer);
  ASSERT_EQ(::link((Root + "/t.cc").c_str(), (Root + "/t2.cc").c_str()), 0);
  R = fix("t.cc");
  EXPECT_EQ(readFile(Root + "/t2.cc"), std::string(TransferApi) + TransferFixed) << R.Err;
  EXPECT_FALSE(llvm::sys::fs::exists(lint::journalPath(Root + "/t.cc")));
}

std::string nestedJson(int Depth) { return std::string(Depth, '[') + std::string(Depth, ']'); }

TEST_F(ReliabilityTest, EveryInputIsARegularFileUnderALimitAndNestsALimitedDepth) {
  write("sync.cc", SyncLoop);
  ASSERT_EQ(::mkfifo((Root + "/fifo").c_str(), 0600), 0);
  ASSERT_EQ(::symlink("/dev/zero", (Root + "/zero").c_str()), 0);
  std::string DeepYaml;
  for (int I = 0; I < 30000; ++I)
    DeepYaml += "- ";
  DeepYaml = "Checks: 'mlperf-*'\nCheckOptions:\n  x:\n    " + DeepYaml + "y\n";
  write("deep.yaml", DeepYaml);
  write("deep.json", nestedJson(50000));
  write("db/compile_commands.json", "[" + nestedJson(50000) + "]");
  write("big.json", "{\"findings\": [" + std::string(9 << 20, ' ') + "]}");
  struct Case {
    std::string Args, Line;
  } Cases[] = {
      {"--config-file=/dev/zero sync.cc", "/dev/zero: cannot read configuration: not a regular file"},
      {"--config-file=fifo sync.cc", "fifo: cannot read configuration: not a regular file"},
      {"--config-file=deep.yaml sync.cc", "deep.yaml: cannot read configuration: nested more than 256 levels deep"},
      {"--profile=zero sync.cc", "zero: cannot read API profile: not a regular file"},
      {"--profile=fifo sync.cc", "fifo: cannot read API profile: not a regular file"},
      {"--profile=deep.json sync.cc", "deep.json: cannot read API profile: nested more than 256 levels deep"},
      {"--baseline=fifo sync.cc", "fifo: cannot read the baseline: not a regular file"},
      {"--baseline=zero sync.cc", "zero: cannot read the baseline: not a regular file"},
      {"--baseline=big.json sync.cc", "big.json: cannot read the baseline: larger than 8 MB"},
      {"--baseline=deep.json sync.cc", "deep.json: cannot read the baseline: nested more than 256 levels deep"},
      {"'--line-filter=" + nestedJson(50000) + "' sync.cc",
       "--line-filter: nested more than 256 levels deep; not read"},
  };
  for (const Case &C : Cases) {
    ProcessResult R = shell(C.Args + " -- -std=c++17");
    EXPECT_EQ(R.Exit, 2) << C.Args.substr(0, 80) << "\n" << R.Err.substr(0, 2000);
    EXPECT_EQ(R.Err, "mlperf-lint: error: " + C.Line + "\n") << C.Args.substr(0, 80);
  }
  write("db/s.cc", SyncLoop);
  ProcessResult Db = shell("db/s.cc");
  EXPECT_EQ(Db.Exit, 2);
  EXPECT_EQ(lines(Db.Err).size(), 1u) << Db.Err;
  EXPECT_NE(Db.Err.find("db/compile_commands.json: cannot read compilation database: nested more than 256 levels "
                        "deep\n"),
            std::string::npos)
      << Db.Err;
  llvm::sys::fs::remove(Root + "/db/compile_commands.json");
  ASSERT_EQ(::mkfifo((Root + "/db/compile_commands.json").c_str(), 0600), 0);
  Db = shell("db/s.cc");
  EXPECT_EQ(Db.Exit, 2);
  EXPECT_NE(Db.Err.find("compile_commands.json: cannot read compilation database: not a regular file"),
            std::string::npos)
      << Db.Err;
  // A per-directory configuration fails only its directory's files.
  write("bad/x.cc", SyncLoop);
  write("bad/.mlperf-lint", DeepYaml);
  write("good/y.cc", SyncLoop);
  ProcessResult R = lint({"bad", "good"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Out.find("good/y.cc:6:5: warning:"), std::string::npos) << R.Out;
  EXPECT_NE(R.Err.find("mlperf-lint: error: " + Root +
                       "/bad/.mlperf-lint: cannot read configuration: nested more than 256 levels deep\n"),
            std::string::npos)
      << R.Err;
}

TEST_F(ReliabilityTest, AReportNeverReplacesAProfileOrConfiguration) {
  write("good.cc", SyncLoop);
  std::string Profile = readFile(Root + "/p.json");
  ProcessResult R = lint({"--profile=p.json", "-o", "p.json", "good.cc"});
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("mlperf-lint: error: p.json: -o names an input file; it is not overwritten\n"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(readFile(Root + "/p.json"), Profile);
  std::string Config = write("c.yaml", "Checks: 'mlperf-*'\n");
  R = lint({"--config-file=c.yaml", "--export-fixes=c.yaml", "good.cc"});
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("mlperf-lint: error: c.yaml: --export-fixes names an input file; it is not overwritten\n"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(readFile(Config), "Checks: 'mlperf-*'\n");
}

TEST_F(ReliabilityTest, RegexesBaselineCountsAndDatabaseDirectoriesAreValidated) {
  write("sync.cc", SyncLoop);
  ProcessResult R = lint({"--exclude-header-filter=([", "sync.cc"});
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "mlperf-lint: error: --exclude-header-filter: invalid regular expression '([': brackets ([ ]) not "
                   "balanced\n");
  R = lint({"--config=ExcludeHeaderFilterRegex: '(['", "sync.cc"});
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "mlperf-lint: error: --config: invalid regular expression '([': brackets ([ ]) not balanced\n");
  for (std::string Count : {"\"many\"", "-3", "0", "1.5"}) {
    write("base.json", "{\"findings\": [{\"file\": \"sync.cc\", \"check\": \"mlperf-sync-in-loop\", \"text\": "
                       "\"cudaDeviceSynchronize();\", \"count\": " +
                           Count + "}]}");
    R = lint({"--baseline=base.json", "sync.cc"});
    EXPECT_EQ(R.Exit, 2) << Count;
    EXPECT_EQ(lines(R.Err).size(), 1u) << R.Err;
    EXPECT_EQ(R.Err.rfind("mlperf-lint: error: base.json: an entry's \"count\" must be a positive whole number: ", 0),
              0u)
        << R.Err;
  }
  write("db/s.cc", SyncLoop);
  write("db/compile_commands.json",
        "[{\"directory\": \"db\", \"file\": \"s.cc\", \"arguments\": [\"c++\", \"-std=c++17\", \"-c\", \"s.cc\"]}]");
  R = lint({"db/s.cc"}, false);
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "mlperf-lint: error: " + Root +
                       "/db/compile_commands.json: invalid compilation database: the "
                       "entry for 's.cc' has a relative \"directory\" ('db'); it must be absolute\n");
}

} // namespace
} // namespace mlperf::test
