// Linting a tree fast: one model analysis per translation unit, the result
// cache (hits, invalidation by a header, damage, eviction, --fix), sharding
// and merging the shards' reports, and the memory-aware default of -j.
#include "LintTestSupport.h"

#include "MaterializeInLoopCheck.h"
#include "SyncInLoopCheck.h"
#include "engine/Cache.h"
#include "engine/Jobs.h"
#include "engine/Preamble.h"
#include "engine/WholeProject.h"
#include "project/Shard.h"
#include "report/MergeReports.h"
#include "report/Report.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>

namespace mlperf::test {
namespace {

using clang::tidy::ClangTidyError;
namespace fs = llvm::sys::fs;

class TempDir : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(fs::createUniqueDirectory("mlperf-cache", Dir));
    Root = std::string(Dir);
  }
  void TearDown() override { fs::remove_directories(Root); }
  std::string write(const std::string &Rel, const std::string &Text) {
    std::string Path = Root + "/" + Rel;
    fs::create_directories(llvm::sys::path::parent_path(Path));
    std::ofstream(Path, std::ios::binary) << Text;
    return Path;
  }
  std::string Root;
};

std::unique_ptr<clang::tidy::ClangTidyContext> makeContext() {
  return std::make_unique<clang::tidy::ClangTidyContext>(std::make_unique<clang::tidy::DefaultOptionsProvider>(
      clang::tidy::ClangTidyGlobalOptions(), clang::tidy::ClangTidyOptions::getDefaults()));
}

TEST(SharedAnalysis, OnePerTranslationUnitAndContext) {
  auto AST = clang::tooling::buildASTFromCode("void f() { for (int i = 0; i < 3; ++i) {} }");
  auto AST2 = clang::tooling::buildASTFromCode("void g() {}");
  auto Ctx = makeContext(), Other = makeContext();
  clang::tidy::mlperf::SyncInLoopCheck Sync("mlperf-sync-in-loop", Ctx.get());
  clang::tidy::mlperf::MaterializeInLoopCheck Materialize("mlperf-materialize-in-loop", Ctx.get());
  clang::tidy::mlperf::SyncInLoopCheck Elsewhere("mlperf-sync-in-loop", Other.get());
  clang::tidy::mlperf::ModelAnalysis *A = &Sync.analysis(AST->getASTContext());
  EXPECT_EQ(A, &Materialize.analysis(AST->getASTContext())) << "two checks of one translation unit share it";
  EXPECT_NE(A, &Elsewhere.analysis(AST->getASTContext())) << "another context (thread) has its own";
  EXPECT_EQ(&Sync.analysis(AST2->getASTContext()).context(), &AST2->getASTContext());
}

TEST(ErrorJson, RoundTripsEveryField) {
  ClangTidyError E("mlperf-sync-in-loop", ClangTidyError::Warning, "/build", /*IsWarningAsError=*/true);
  E.Message.Message = "blocks";
  E.Message.FilePath = "/src/a.cc";
  E.Message.FileOffset = 42;
  clang::tooling::FileByteRange Range;
  Range.FilePath = "/src/a.cc";
  Range.FileOffset = 40;
  Range.Length = 3;
  E.Message.Ranges.push_back(Range);
  cantFail(E.Message.Fix["/src/a.cc"].add(clang::tooling::Replacement("/src/a.cc", 10, 2, "x\"y")));
  cantFail(E.Message.Fix["/src/a.cc"].add(clang::tooling::Replacement("/src/a.cc", 30, 0, "z")));
  E.EnabledDiagnosticAliases = {"alias-1"};
  clang::tooling::DiagnosticMessage Note;
  Note.Message = "this loop";
  Note.FilePath = "/src/b.h";
  Note.FileOffset = 7;
  E.Notes.push_back(Note);

  std::vector<ClangTidyError> Back;
  ASSERT_TRUE(lint::errorsFromJson(lint::errorsToJson({E}), Back));
  ASSERT_EQ(Back.size(), 1u);
  const ClangTidyError &B = Back[0];
  EXPECT_EQ(B.DiagnosticName, E.DiagnosticName);
  EXPECT_EQ(B.DiagLevel, E.DiagLevel);
  EXPECT_EQ(B.BuildDirectory, "/build");
  EXPECT_TRUE(B.IsWarningAsError);
  EXPECT_EQ(B.EnabledDiagnosticAliases, E.EnabledDiagnosticAliases);
  EXPECT_EQ(B.Message.Message, "blocks");
  EXPECT_EQ(B.Message.FileOffset, 42u);
  ASSERT_EQ(B.Message.Ranges.size(), 1u);
  EXPECT_EQ(B.Message.Ranges[0].Length, 3u);
  ASSERT_EQ(B.Message.Fix.count("/src/a.cc"), 1u);
  const clang::tooling::Replacements &Stored = B.Message.Fix.find("/src/a.cc")->getValue();
  std::vector<clang::tooling::Replacement> Fixes(Stored.begin(), Stored.end());
  ASSERT_EQ(Fixes.size(), 2u);
  EXPECT_EQ(Fixes[0].getReplacementText(), "x\"y");
  EXPECT_EQ(Fixes[1].getOffset(), 30u);
  ASSERT_EQ(B.Notes.size(), 1u);
  EXPECT_EQ(B.Notes[0].FilePath, "/src/b.h");

  for (const char *Damaged : {"", "{", "[{\"check\": 1}]", "[{\"check\":\"c\",\"level\":9}]", "null"})
    EXPECT_FALSE(lint::errorsFromJson(Damaged, Back)) << Damaged;
}

TEST(CacheSettings, SizesAndDefaultDirectory) {
  EXPECT_EQ(lint::parseByteSize("512M"), 512ull << 20);
  EXPECT_EQ(lint::parseByteSize("2g"), 2ull << 30);
  EXPECT_EQ(lint::parseByteSize("1000"), 1000u);
  for (const char *Bad : {"", "0", "M", "-1", "12X", "1.5G"})
    EXPECT_FALSE(lint::parseByteSize(Bad)) << Bad;
  auto Saved = [](const char *Name) -> std::optional<std::string> {
    const char *V = getenv(Name);
    return V ? std::optional<std::string>(V) : std::nullopt;
  };
  std::optional<std::string> Xdg = Saved("XDG_CACHE_HOME"), Home = Saved("HOME");
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(lint::cacheDirectory(), "/tmp/xdg/mlperf-lint");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/home/u", 1);
  EXPECT_EQ(lint::cacheDirectory(), "/home/u/.cache/mlperf-lint");
  for (auto &[Name, Value] : {std::pair{"XDG_CACHE_HOME", Xdg}, std::pair{"HOME", Home}}) {
    if (Value)
      setenv(Name, Value->c_str(), 1);
    else
      unsetenv(Name);
  }
}

TEST_F(TempDir, TrimEvictsLeastRecentlyUsed) {
  clang::tooling::FixedCompilationDatabase DB(".", {"-std=c++17"});
  lint::ProviderFactory Providers = [] {
    return std::make_unique<clang::tidy::DefaultOptionsProvider>(clang::tidy::ClangTidyGlobalOptions(),
                                                                 clang::tidy::ClangTidyOptions::getDefaults());
  };
  auto Cache = lint::ResultCache::open({true, Root, 2500}, DB, Providers, {});
  ASSERT_TRUE(bool(Cache)) << llvm::toString(Cache.takeError());
  auto Now = std::chrono::system_clock::now();
  for (int I = 0; I < 4; ++I) {
    std::string Path = write("v1/ab/entry" + std::to_string(I) + ".json", std::string(1000, 'x'));
    int FD;
    ASSERT_FALSE(fs::openFileForWrite(Path, FD, fs::CD_OpenExisting));
    // entry0 was used last, entry1 first.
    ASSERT_FALSE(fs::setLastAccessAndModificationTime(FD, Now - std::chrono::hours(I == 0 ? 0 : 10 - I)));
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  (*Cache)->trim();
  std::set<std::string> Left;
  std::error_code EC;
  for (fs::directory_iterator It(Root + "/v1/ab", EC), End; It != End && !EC; It.increment(EC))
    Left.insert(llvm::sys::path::filename(It->path()).str());
  EXPECT_EQ(Left, (std::set<std::string>{"entry0.json", "entry3.json"}));
}

TEST(Shard, ParsesAndSplitsStablyByPath) {
  EXPECT_FALSE(bool(lint::parseShard("0/3")));
  EXPECT_FALSE(bool(lint::parseShard("4/3")));
  EXPECT_FALSE(bool(lint::parseShard("1")));
  EXPECT_FALSE(bool(lint::parseShard("a/b")));
  auto S = lint::parseShard("2/3");
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(S->Index, 2u);
  EXPECT_EQ(S->Count, 3u);

  std::vector<std::string> Files;
  for (int I = 0; I < 60; ++I)
    Files.push_back("src/f" + std::to_string(I) + ".cc");
  std::map<std::string, unsigned> Before;
  std::vector<unsigned> Sizes(3);
  for (const std::string &F : Files) {
    Before[F] = lint::shardOf("/repo/" + F, "/repo", 3);
    EXPECT_EQ(Before[F], lint::shardOf("/elsewhere/checkout/" + F, "/elsewhere/checkout/", 3))
        << "the shard does not depend on where the tree is checked out";
    ++Sizes[Before[F] - 1];
  }
  for (unsigned N : Sizes)
    EXPECT_GT(N, 5u) << "every shard gets a share";
  for (int I = 0; I < 20; ++I)
    Files.insert(Files.begin() + I, "aaa/new" + std::to_string(I) + ".cc");
  for (const auto &[F, Shard] : Before)
    EXPECT_EQ(lint::shardOf("/repo/" + F, "/repo", 3), Shard) << F << " moved when files were added";
}

TEST(Jobs, MemoryLowersTheDefault) {
  EXPECT_EQ(lint::memAvailable("MemTotal: 100 kB\nMemAvailable:    2048000 kB\n"), 2048000ull * 1024);
  EXPECT_FALSE(lint::memAvailable("MemTotal: 100 kB\n"));
  lint::JobChoice Plenty = lint::defaultJobs(16, 100, 64ull << 30);
  EXPECT_EQ(Plenty.Jobs, 16u);
  EXPECT_EQ(Plenty.Note, "");
  EXPECT_EQ(lint::defaultJobs(16, 3, 64ull << 30).Jobs, 3u) << "no more jobs than files";
  lint::JobChoice Low = lint::defaultJobs(16, 100, 2200ull << 20);
  EXPECT_EQ(Low.Jobs, 3u);
  EXPECT_NE(Low.Note.find("3 job(s) instead of 16"), std::string::npos) << Low.Note;
  EXPECT_EQ(lint::defaultJobs(16, 100, 100ull << 20).Jobs, 1u);
  EXPECT_EQ(lint::defaultJobs(8, 100, std::nullopt).Jobs, 8u);
}

TEST(Jobs, FilesHeldInMemoryFollowTheAvailableMemory) {
  EXPECT_EQ(lint::filesInMemory(0, 2, 12ull << 30), 10u) << "half of 12 GB at 600 MB a file";
  EXPECT_EQ(lint::filesInMemory(0, 4, 1ull << 30), 4u) << "never fewer than the jobs";
  EXPECT_EQ(lint::filesInMemory(0, 1, std::nullopt), 16u);
  EXPECT_EQ(lint::filesInMemory(3, 2, 64ull << 30), 3u) << "--files-in-memory";
  EXPECT_EQ(lint::filesInMemory(1, 2, 64ull << 30), 2u);
}

// --- the binary -------------------------------------------------------------

const char *Prelude = "extern \"C\" int cudaDeviceSynchronize();\n"
                      "extern \"C\" int cuLaunchKernel(void *f);\n";

std::string loopUsing(const std::string &Body) {
  return std::string(Prelude) +
         "#include \"common.h\"\nvoid train(void *k) {\n  for (int i = 0; i < 10; ++i) {\n"
         "    cuLaunchKernel(k);\n    " +
         Body + ";\n  }\n}\n";
}

class CacheCli : public TempDir {
protected:
  ProcessResult lint(std::vector<std::string> Args, bool Cache = true) {
    if (Cache)
      Args.insert(Args.begin(), "--cache-dir=" + Root + "/cache");
    Args.push_back("--");
    Args.push_back("-std=c++17");
    // The whole-project summaries stay in the test's directory too.
    return runProcess(MLPERF_LINT_BINARY, Args, Root + "/src", {{"XDG_CACHE_HOME", Root + "/xdg"}});
  }
  static unsigned fromCache(const ProcessResult &R) {
    size_t At = R.Err.find(" file(s) from the result cache");
    if (At == std::string::npos)
      return 0;
    size_t Start = R.Err.rfind("mlperf-lint: ", At) + 13;
    return std::stoul(R.Err.substr(Start, R.Err.find(' ', Start) - Start));
  }
  void writeTree() {
    write("src/common.h", "#define STEP_SYNC cudaDeviceSynchronize()\n");
    write("src/a.cc", loopUsing("STEP_SYNC"));
    write("src/b.cc", loopUsing("STEP_SYNC"));
    write("src/c.cc", std::string(Prelude) + "void train(void *k) {\n  for (int i = 0; i < 10; ++i) {\n"
                                             "    cuLaunchKernel(k);\n    cudaDeviceSynchronize();\n  }\n}\n");
  }
};

TEST_F(CacheCli, UnchangedTreeIsReplayedAndAHeaderRelintsItsIncluders) {
  writeTree();
  ProcessResult Cold = lint({"--format=json", "a.cc", "b.cc", "c.cc"});
  ASSERT_EQ(Cold.Exit, 1) << Cold.Err;
  EXPECT_EQ(fromCache(Cold), 0u) << Cold.Err;
  EXPECT_EQ(nlohmann::json::parse(Cold.Out)["diagnostics"].size(), 3u) << Cold.Out;

  ProcessResult Warm = lint({"--format=json", "a.cc", "b.cc", "c.cc"});
  EXPECT_EQ(Warm.Exit, 1);
  EXPECT_EQ(fromCache(Warm), 3u) << Warm.Err;
  EXPECT_EQ(Warm.Out, Cold.Out) << "a replay reports what the parse did";
  ProcessResult Text = lint({"a.cc", "b.cc", "c.cc"});
  EXPECT_EQ(fromCache(Text), 3u) << Text.Err;
  EXPECT_NE(Text.Out.find("STEP_SYNC;\n      |     ^"), std::string::npos) << Text.Out;

  // The header a.cc and b.cc include no longer synchronizes: exactly those two
  // are parsed again, and their findings go.
  write("src/common.h", "#define STEP_SYNC 0\n");
  ProcessResult Touched = lint({"--format=json", "a.cc", "b.cc", "c.cc"});
  EXPECT_EQ(fromCache(Touched), 1u) << Touched.Err;
  auto Diags = nlohmann::json::parse(Touched.Out)["diagnostics"];
  ASSERT_EQ(Diags.size(), 1u) << Touched.Out;
  EXPECT_TRUE(llvm::StringRef(Diags[0]["file"].get<std::string>()).ends_with("/c.cc"));

  // A changed configuration is a new key.
  ProcessResult Other = lint({"--format=json", "--checks=-*,mlperf-materialize-in-loop", "c.cc"});
  EXPECT_EQ(fromCache(Other), 0u) << Other.Err;
  EXPECT_EQ(Other.Exit, 0);
}

TEST_F(CacheCli, AHitReplaysIncludesNotFoundUntilTheHeaderAppears) {
  write("src/m.cc", "#include \"generated/config.h\"\n" + std::string(Prelude) +
                        "void train(void *k) {\n  for (int i = 0; i < 10; ++i) {\n    cuLaunchKernel(k);\n"
                        "    cudaDeviceSynchronize();\n  }\n}\n");
  ProcessResult Cold = lint({"--format=json", "m.cc"});
  ASSERT_EQ(Cold.Exit, 1) << Cold.Err;
  const std::string Line = "m.cc: 1 include not found (generated/config.h); results may be incomplete";
  EXPECT_NE(Cold.Err.find(Line), std::string::npos) << Cold.Err;
  ProcessResult Warm = lint({"--format=json", "m.cc"});
  EXPECT_EQ(fromCache(Warm), 1u) << Warm.Err;
  EXPECT_EQ(Warm.Out, Cold.Out);
  EXPECT_NE(Warm.Err.find(Line), std::string::npos) << Warm.Err;
  // It did not compile: --fix leaves it alone from a hit as after a parse.
  ProcessResult Fix = lint({"--fix", "m.cc"});
  EXPECT_EQ(fromCache(Fix), 1u) << Fix.Err;
  EXPECT_NE(Fix.Err.find("applied 0 fix(es)"), std::string::npos) << Fix.Err;

  write("src/generated/config.h", "#pragma once\n");
  ProcessResult Found = lint({"--format=json", "m.cc"});
  EXPECT_EQ(fromCache(Found), 0u) << "the missing header now exists: " << Found.Err;
  EXPECT_EQ(Found.Err.find("not found"), std::string::npos) << Found.Err;
}

TEST_F(CacheCli, AChangedSummaryOfAnotherFileRelintsItsCallers) {
  write("src/step.cc", std::string(Prelude) + "void step(void *k) { cuLaunchKernel(k); }\n");
  write("src/loop.cc", std::string(Prelude) + "void step(void *k);\nvoid train(void *k) {\n"
                                              "  for (int i = 0; i < 10; ++i) {\n    step(k);\n"
                                              "    cudaDeviceSynchronize();\n  }\n}\n");
  ProcessResult Cold = lint({"--format=json", "--checks=-*,mlperf-sync-in-loop", "loop.cc", "step.cc"});
  ASSERT_EQ(Cold.Exit, 1) << Cold.Err << Cold.Out;
  EXPECT_NE(Cold.Out.find("loop.cc"), std::string::npos) << "step() runs a model step: " << Cold.Out;
  EXPECT_EQ(fromCache(lint({"--format=json", "--checks=-*,mlperf-sync-in-loop", "loop.cc", "step.cc"})), 2u);

  write("src/step.cc", std::string(Prelude) + "void step(void *k) { (void)k; }\n");
  ProcessResult After = lint({"--format=json", "--checks=-*,mlperf-sync-in-loop", "loop.cc", "step.cc"});
  EXPECT_EQ(fromCache(After), 0u) << "loop.cc's entry was made with step.cc's old summary: " << After.Err;
  EXPECT_EQ(After.Exit, 0) << After.Out;
}

TEST_F(CacheCli, DamagedEntriesAreMissesAndNoCacheWritesNothing) {
  writeTree();
  ProcessResult Cold = lint({"--format=json", "a.cc", "c.cc"});
  ASSERT_EQ(Cold.Exit, 1) << Cold.Err;
  unsigned Damaged = 0;
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Root + "/cache/v1", EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".json")) {
      std::ofstream(It->path(), std::ios::binary)
          << (Damaged++ ? "{\"format\": \"mlperf-lint-cache-2\"" : "\x01garbage");
    }
  EXPECT_EQ(Damaged, 2u);
  ProcessResult Again = lint({"--format=json", "a.cc", "c.cc"});
  EXPECT_EQ(Again.Exit, 1) << Again.Err;
  EXPECT_EQ(fromCache(Again), 0u) << Again.Err;
  EXPECT_EQ(Again.Out, Cold.Out);
  EXPECT_EQ(fromCache(lint({"--format=json", "a.cc", "c.cc"})), 2u) << "the damaged entries were rewritten";

  fs::remove_directories(Root + "/cache");
  ProcessResult Off = lint({"--no-cache", "--format=json", "a.cc"});
  EXPECT_EQ(Off.Exit, 1);
  EXPECT_FALSE(fs::exists(Root + "/cache/v1/")) << "--no-cache writes no entry";
  ProcessResult Bad = lint({"--cache-size=lots", "a.cc"});
  EXPECT_EQ(Bad.Exit, 2);
  EXPECT_NE(Bad.Err.find("--cache-size: 'lots' is not a size"), std::string::npos) << Bad.Err;
}

TEST_F(CacheCli, FixWorksFromACacheHit) {
  write("src/p.json", TransferProfile);
  std::string Src = TransferSource;
  std::string Path = write("src/fixme.cc", Src);
  EXPECT_EQ(lint({"--profile=p.json", "fixme.cc"}).Exit, 1);
  ProcessResult Fix = lint({"--profile=p.json", "--fix", "fixme.cc"});
  EXPECT_EQ(fromCache(Fix), 1u) << Fix.Err;
  EXPECT_NE(readFile(Path).find("  auto w_on_device = w.upload();\n  for (int i = 0; i < 10; ++i) {\n"
                                "    e.run(w_on_device);"),
            std::string::npos)
      << readFile(Path);
  ProcessResult After = lint({"--profile=p.json", "fixme.cc"});
  EXPECT_EQ(After.Exit, 0) << "the fixed file is a new key: " << After.Err;
  EXPECT_EQ(fromCache(After), 0u);

  // A changed profile is a new key too.
  EXPECT_EQ(fromCache(lint({"--profile=p.json", "fixme.cc"})), 1u);
  write("src/p.json", R"({"name": "p", "device_context": "always", "entries": [
      {"role": "step", "kind": "exec", "callee": "fw::Exec::run"},
      {"role": "to-device", "callee": "fw::Host::send"}]})");
  ProcessResult NewProfile = lint({"--profile=p.json", "fixme.cc"});
  EXPECT_EQ(NewProfile.Exit, 0) << NewProfile.Err;
  EXPECT_EQ(fromCache(NewProfile), 0u);
}

TEST_F(CacheCli, FixReachesAProjectHeaderInTheSharedPreamble) {
  write("src/p.json", TransferProfile);
  std::string Header = write("src/inc/trainer.h", "#pragma once\n"
                                                  "namespace fw { struct Dev {}; struct Host { Dev upload() const; };\n"
                                                  "struct Exec { void run(const Dev &); }; }\n"
                                                  "inline void train(fw::Exec &e, const fw::Host &w) {\n"
                                                  "  for (int i = 0; i < 10; ++i) {\n"
                                                  "    e.run(w.upload());\n"
                                                  "  }\n"
                                                  "}\n");
  for (const char *Name : {"a.cc", "b.cc"})
    write(std::string("src/") + Name, "#include <trainer.h>\nvoid use_" + std::string(1, Name[0]) +
                                          "(fw::Exec &e, const fw::Host &w) { train(e, w); }\n");
  std::vector<std::string> Args = {"--profile=p.json", "--header-filter=trainer", "--extra-arg=-I" + Root + "/src/inc",
                                   "a.cc", "b.cc"};
  ProcessResult Cold = lint(Args);
  ASSERT_EQ(Cold.Exit, 1) << Cold.Err << Cold.Out;
  std::error_code EC;
  fs::directory_iterator It(Root + "/cache/preamble", EC);
  ASSERT_FALSE(EC) << "the two files share <trainer.h> as a preamble";
  // Parsed again against the stored preamble: the header was read through
  // it, not opened, and its contents are still known for --fix.
  fs::remove_directories(Root + "/cache/v1");
  Args.insert(Args.begin(), "--fix");
  ProcessResult Fix = lint(Args);
  EXPECT_EQ(fromCache(Fix), 0u) << Fix.Err;
  EXPECT_NE(Fix.Err.find("applied 1 fix(es) to 1 file(s)"), std::string::npos) << Fix.Err;
  EXPECT_NE(readFile(Header).find("  auto w_on_device = w.upload();\n"), std::string::npos) << readFile(Header);
}

TEST_F(CacheCli, OneParsePerFileUnlessAnotherFileChangesWhatItReads) {
  write("src/step.cc", std::string(Prelude) + "void step(void *k) { cuLaunchKernel(k); }\n");
  write("src/loop.cc", std::string(Prelude) + "void step(void *k);\nvoid train(void *k) {\n"
                                              "  for (int i = 0; i < 10; ++i) {\n    step(k);\n"
                                              "    cudaDeviceSynchronize();\n  }\n}\n");
  write("src/alone.cc", std::string(Prelude) + "void other(void *k) { cuLaunchKernel(k); }\n");
  std::vector<std::string> Args = {"--verbose", "--format=json", "--checks=-*,mlperf-sync-in-loop",
                                   "loop.cc",   "step.cc",       "alone.cc"};
  // The three are parsed once each and wait with their ASTs while their
  // facts settle in memory: loop.cc learns that step() runs a kernel, then
  // step.cc that loop.cc calls it on every step (no second round of parses).
  // alone.cc reads nothing of the others.
  ProcessResult Cold = lint(Args);
  EXPECT_EQ(Cold.Exit, 1) << Cold.Err;
  EXPECT_NE(Cold.Err.find("3 parse(s) for 3 file(s), facts settled in memory in"), std::string::npos) << Cold.Err;
  EXPECT_EQ(nlohmann::json::parse(Cold.Out)["diagnostics"].size(), 1u) << Cold.Out;
  ProcessResult Warm = lint(Args);
  EXPECT_NE(Warm.Err.find("0 parse(s) for 3 file(s)"), std::string::npos) << Warm.Err;
  EXPECT_EQ(Warm.Out, Cold.Out);
  // A change that no other file reads: that file alone.
  write("src/alone.cc", readFile(Root + "/src/alone.cc") + "// edited\n");
  ProcessResult Edited = lint(Args);
  EXPECT_NE(Edited.Err.find("1 parse(s) for 3 file(s)"), std::string::npos) << Edited.Err;
  EXPECT_EQ(fromCache(Edited), 2u) << Edited.Err;
  // Without the cache, nothing is stored or read: the same findings, cold.
  std::vector<std::string> NoCache = Args;
  NoCache.insert(NoCache.begin(), "--no-cache");
  ProcessResult Plain = lint(NoCache, /*Cache=*/false);
  EXPECT_NE(Plain.Err.find("3 parse(s) for 3 file(s), facts settled"), std::string::npos) << Plain.Err;
  EXPECT_EQ(Plain.Out, Cold.Out);
}

TEST_F(CacheCli, AFileRecoveredFromAHeaderNotFoundSettlesOnceWithTheFilesThatReadIt) {
  // loop.cc's call of step() is seen only once a declaration of Options is
  // made up (its first parse drops the call, whose argument has no type);
  // step.cc's sync is per step only through that call. step.cc waits, with its AST, until loop.cc's recovery ends, and
  // is summarized again in memory: parsed once, in one round.
  write("src/step.cc", std::string(Prelude) + "void step(void *k, int n) {\n  cuLaunchKernel(k);\n"
                                              "  cudaDeviceSynchronize();\n}\n");
  write("src/loop.cc", std::string(Prelude) + "#include \"gone.h\"\nvoid step(void *k, int n);\n"
                                              "void train(void *k, Options &o) {\n"
                                              "  for (int i = 0; i < 10; ++i)\n    step(k, o.batch);\n}\n");
  for (const std::vector<std::string> &Order :
       {std::vector<std::string>{"loop.cc", "step.cc"}, std::vector<std::string>{"step.cc", "loop.cc"}})
    for (const char *Jobs : {"-j1", "-j2"}) {
      std::vector<std::string> Args = {
          "--no-cache", "--no-preamble", "--format=json", "--verbose", Jobs, "--checks=-*,mlperf-sync-in-loop"};
      Args.insert(Args.end(), Order.begin(), Order.end());
      std::filesystem::remove_all(Root + "/xdg");
      ProcessResult R = lint(Args, /*Cache=*/false);
      SCOPED_TRACE(Order[0] + " first, " + Jobs);
      ASSERT_EQ(R.Exit, 1) << R.Err;
      EXPECT_NE(R.Err.find("3 parse(s) for 2 file(s) (1 parsed again within its lint"), std::string::npos) << R.Err;
      EXPECT_EQ(R.Err.find("rounds"), std::string::npos) << R.Err;
      nlohmann::json Found = nlohmann::json::parse(R.Out)["diagnostics"];
      ASSERT_EQ(Found.size(), 1u) << R.Out;
      EXPECT_EQ(Found[0]["line"], 5) << R.Out;
      EXPECT_NE(Found[0]["file"].get<std::string>().find("step.cc"), std::string::npos) << R.Out;
    }
}

TEST_F(CacheCli, ARecoveryFromAHeaderNotFoundIsRecalledAfterAnEditAndSearchedAgainWhenItNoLongerFits) {
  const std::string Loop = std::string(Prelude) + "#include \"gone.h\"\nvoid train(void *k, Options &o) {\n"
                                                  "  for (int i = 0; i < 10; ++i) {\n    cuLaunchKernel(k);\n"
                                                  "    cudaDeviceSynchronize();\n    log_step(o.steps);\n  }\n}\n";
  write("src/loop.cc", Loop);
  std::vector<std::string> Args = {"--verbose", "--format=json", "--checks=-*,mlperf-sync-in-loop", "loop.cc"};
  ProcessResult Cold = lint(Args);
  ASSERT_EQ(Cold.Exit, 1) << Cold.Err;
  // The file as its command says, then two rounds of made-up declarations
  // (the names, then the member of Options).
  EXPECT_NE(Cold.Err.find("3 parse(s) for 1 file(s) (1 parsed again"), std::string::npos) << Cold.Err;
  const std::string Declared = "permissive declarations made up for 2 names they would declare (Options, log_step)";
  EXPECT_NE(Cold.Err.find(Declared), std::string::npos) << Cold.Err;
  // An edit: the result is not replayed, and the file starts from the
  // recovery the last run found (one parse, the same report).
  write("src/loop.cc", Loop + "// edited\n");
  ProcessResult Edited = lint(Args);
  EXPECT_NE(Edited.Err.find("1 parse(s) for 1 file(s)"), std::string::npos) << Edited.Err;
  EXPECT_NE(Edited.Err.find(Declared), std::string::npos) << Edited.Err;
  EXPECT_EQ(Edited.Out, Cold.Out);
  // An edit that uses another name the header would declare: the recalled
  // recovery gives more errors, so the file searches again and declares it.
  std::string Uses = Loop;
  Uses.replace(Uses.find("log_step(o.steps);"), 18, "log_step(o.steps);\n    flush_logs(o);");
  write("src/loop.cc", Uses);
  ProcessResult Searched = lint(Args);
  ASSERT_EQ(Searched.Exit, 1) << Searched.Err;
  EXPECT_NE(Searched.Err.find("4 parse(s) for 1 file(s)"), std::string::npos) << Searched.Err;
  EXPECT_NE(Searched.Err.find("3 names they would declare (Options, flush_logs, log_step)"), std::string::npos)
      << Searched.Err;
  EXPECT_EQ(nlohmann::json::parse(Searched.Out)["diagnostics"].size(), 1u) << Searched.Out;
  // And that search is what the next run recalls.
  write("src/loop.cc", Uses + "// edited\n");
  ProcessResult Again = lint(Args);
  EXPECT_NE(Again.Err.find("1 parse(s) for 1 file(s)"), std::string::npos) << Again.Err;
  // Without the cache nothing is recalled from an earlier run.
  ProcessResult Plain = lint({"--no-cache", "--verbose", "--format=json", "--checks=-*,mlperf-sync-in-loop", "loop.cc"},
                             /*Cache=*/false);
  EXPECT_NE(Plain.Err.find("3 parse(s) for 1 file(s)"), std::string::npos) << Plain.Err;
}

/// Every finding of a run, by file (relative to src/): check, line, column,
/// message and notes.
std::map<std::string, std::vector<std::string>> findingsByFile(const ProcessResult &R, const std::string &Src) {
  std::map<std::string, std::vector<std::string>> Out;
  const nlohmann::json J = nlohmann::json::parse(R.Out);
  for (const auto &D : J["diagnostics"]) {
    std::string File = D["file"].get<std::string>();
    if (llvm::StringRef(File).starts_with(Src + "/"))
      File = File.substr(Src.size() + 1);
    Out[File].push_back(D.dump());
  }
  return Out;
}

TEST_F(CacheCli, AFileGivesTheSameFindingsAloneInItsDirectoryOrInTheTree) {
  // app/main.cc's loop calls step() (lib/step.cc), which launches a kernel
  // (a step by itself) and calls sync_all() (lib/sync.cc): a per-step sync
  // two calls and two files below the loop, in another directory; and one
  // in the loop itself.
  write("src/app/main.cc", std::string(Prelude) + "void step(void *k);\nint main() {\n  void *k = nullptr;\n"
                                                  "  for (int i = 0; i < 10; ++i) {\n    step(k);\n"
                                                  "    cudaDeviceSynchronize();\n  }\n}\n");
  write("src/lib/step.cc",
        std::string(Prelude) + "void sync_all();\nvoid step(void *k) {\n  cuLaunchKernel(k);\n  sync_all();\n}\n");
  write("src/lib/sync.cc", std::string(Prelude) + "void sync_all() { cudaDeviceSynchronize(); }\n");
  write("src/CMakeLists.txt", "project(t CXX)\n"); // the project's root: one set of summaries for every run
  const std::string Src = Root + "/src";
  std::vector<std::string> Common = {"--verbose", "--format=json", "--checks=-*,mlperf-sync-in-loop"};
  auto Run = [&](std::vector<std::string> Inputs) {
    // The findings are computed again (no result replayed), with the
    // summaries the runs before stored.
    fs::remove_directories(Root + "/cache/v1");
    std::vector<std::string> Args = Common;
    Args.insert(Args.end(), Inputs.begin(), Inputs.end());
    return lint(Args);
  };
  ProcessResult Tree = Run({"app", "lib"});
  ASSERT_EQ(Tree.Exit, 1) << Tree.Err;
  EXPECT_NE(Tree.Err.find("3 parse(s) for 3 file(s)"), std::string::npos) << "one parse per file\n" << Tree.Err;
  EXPECT_EQ(Tree.Err.find("rounds"), std::string::npos) << Tree.Err;
  auto All = findingsByFile(Tree, Src);
  ASSERT_EQ(All["lib/sync.cc"].size(), 1u) << Tree.Out;
  EXPECT_NE(All["lib/sync.cc"][0].find("called here from step, on every step"), std::string::npos)
      << "the call that makes it per step, in a note: " << All["lib/sync.cc"][0];
  ASSERT_EQ(All["app/main.cc"].size(), 1u) << Tree.Out;
  EXPECT_EQ(All.count("lib/step.cc"), 0u) << Tree.Out;

  for (const std::string File : {"app/main.cc", "lib/step.cc", "lib/sync.cc"}) {
    ProcessResult Alone = Run({File});
    EXPECT_NE(Alone.Err.find("1 parse(s) for 1 file(s)"), std::string::npos) << File << "\n" << Alone.Err;
    auto Found = findingsByFile(Alone, Src);
    EXPECT_EQ(Found[File], All[File]) << File << " alone";
  }
  for (const std::string Dir : {"app", "lib"}) {
    auto Found = findingsByFile(Run({Dir}), Src);
    for (const auto &[File, Findings] : All)
      if (llvm::StringRef(File).starts_with(Dir + "/"))
        EXPECT_EQ(Found[File], Findings) << File << " with its directory";
  }
}

TEST_F(CacheCli, FilesThatACompileDatabaseNamesRelativelySettleTogether) {
  // The database spells each file relative to its directory; the run names
  // them by their paths: the settling knows each file by the run's name.
  write("src/loop.cc", std::string(Prelude) + "void step(void *k);\nvoid train(void *k) {\n"
                                              "  for (int i = 0; i < 10; ++i) {\n    step(k);\n"
                                              "    cudaDeviceSynchronize();\n  }\n}\n");
  write("src/step.cc", std::string(Prelude) + "void step(void *k) { cuLaunchKernel(k); }\n");
  std::string Db = "[";
  for (const char *F : {"loop.cc", "step.cc"})
    Db += std::string(Db.size() > 1 ? "," : "") + "{\"directory\": \"" + Root + "/src\", \"file\": \"" + F +
          "\", \"arguments\": [\"c++\", \"-std=c++17\", \"-c\", \"" + F + "\"]}";
  write("src/compile_commands.json", Db + "]");
  ProcessResult R = runProcess(MLPERF_LINT_BINARY,
                               {"--cache-dir=" + Root + "/cache", "--verbose", "--format=json",
                                "--checks=-*,mlperf-sync-in-loop", "-p", Root + "/src", "loop.cc", "step.cc"},
                               Root + "/src", {{"XDG_CACHE_HOME", Root + "/xdg"}});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_NE(R.Err.find("2 parse(s) for 2 file(s), facts settled in memory in"), std::string::npos) << R.Err;
  EXPECT_EQ(nlohmann::json::parse(R.Out)["diagnostics"].size(), 1u) << R.Out;
}

TEST_F(CacheCli, AVirtualCallInOneFileRunsTheOverrideInAnother) {
  // train.cc's loop calls Model::step through a reference; impl.cc defines
  // the override, which syncs after each step it launches.
  write("src/model.h", std::string(Prelude) + "struct Model {\n  virtual ~Model() = default;\n"
                                              "  virtual void step(void *k) = 0;\n};\n");
  write("src/train.cc", "#include \"model.h\"\nvoid train(Model &m, void *k) {\n"
                        "  for (int i = 0; i < 10; ++i) {\n    m.step(k);\n  }\n}\n");
  write("src/impl.cc", "#include \"model.h\"\nstruct Impl : Model {\n  void step(void *k) override;\n};\n"
                       "void Impl::step(void *k) {\n  cuLaunchKernel(k);\n  cudaDeviceSynchronize();\n}\n");
  ProcessResult R = lint({"--format=json", "--checks=-*,mlperf-sync-in-loop", "train.cc", "impl.cc"});
  ASSERT_EQ(R.Exit, 1) << R.Err << R.Out;
  auto Found = findingsByFile(R, Root + "/src");
  ASSERT_EQ(Found["impl.cc"].size(), 1u) << R.Out;
  EXPECT_NE(Found["impl.cc"][0].find("train.cc"), std::string::npos) << "the call through the base, in a note";
}

TEST_F(CacheCli, ShardsPartitionTheTreeAndMergeIntoOneReport) {
  writeTree();
  write("src/d.cc",
        std::string(Prelude) + "void f(void *k) { for (;;) { cuLaunchKernel(k); cudaDeviceSynchronize(); } }\n");
  write("src/e.cc",
        std::string(Prelude) + "void g(void *k) { while (true) { cuLaunchKernel(k); cudaDeviceSynchronize(); } }\n");
  ProcessResult All = lint({"--format=sarif", "-o", "all.sarif", "."});
  ASSERT_EQ(All.Exit, 1) << All.Err;
  std::vector<std::string> Parts;
  for (int K = 1; K <= 3; ++K) {
    std::string Out = "part" + std::to_string(K) + ".sarif";
    ProcessResult P = lint({"--shard=" + std::to_string(K) + "/3", "--format=sarif", "-o", Out, "."});
    EXPECT_NE(P.Exit, 2) << P.Err;
    Parts.push_back(Out);
  }
  std::vector<std::string> Args = {"merge-sarif"};
  Args.insert(Args.end(), Parts.begin(), Parts.end());
  Args.insert(Args.end(), {"-o", "merged.sarif"});
  ProcessResult Merge = runProcess(MLPERF_LINT_BINARY, Args, Root + "/src");
  ASSERT_EQ(Merge.Exit, 0) << Merge.Err;

  auto Whole = nlohmann::json::parse(readFile(Root + "/src/all.sarif"));
  auto Merged = nlohmann::json::parse(readFile(Root + "/src/merged.sarif"));
  ASSERT_EQ(Merged["runs"].size(), 1u);
  const auto &Run = Merged["runs"][0];
  auto Located = [](const nlohmann::json &R) {
    std::multiset<std::string> Out;
    for (const auto &Res : R["results"]) {
      const auto &Loc = Res["locations"][0]["physicalLocation"];
      if (Loc["artifactLocation"].contains("index")) {
        size_t Index = Loc["artifactLocation"]["index"];
        EXPECT_EQ(R["artifacts"][Index]["location"]["uri"], Loc["artifactLocation"]["uri"]) << "index renumbered";
      }
      if (Res.contains("ruleIndex"))
        EXPECT_EQ(R["tool"]["driver"]["rules"][Res["ruleIndex"].get<size_t>()]["id"], Res["ruleId"]);
      Out.insert(Loc["artifactLocation"]["uri"].get<std::string>() + ":" +
                 std::to_string(Loc["region"]["startLine"].get<int>()));
    }
    return Out;
  };
  EXPECT_EQ(Located(Run), Located(Whole["runs"][0]));
  EXPECT_EQ(Run["results"].size(), 5u);

  ProcessResult Mixed = runProcess(MLPERF_LINT_BINARY, {"merge-sarif", "all.sarif", "a.cc"}, Root + "/src");
  EXPECT_EQ(Mixed.Exit, 2);
  EXPECT_NE(Mixed.Err.find("a.cc: not a SARIF log"), std::string::npos) << Mixed.Err;
}

TEST(Preamble, PrefixIsTheLeadingSystemIncludes) {
  EXPECT_EQ(lint::includePrefix("// A file.\n#include <torch/torch.h>\n\n#include <vector>\n#include \"mine.h\"\n"
                                "#include <map>\n"),
            "#include <torch/torch.h>\n#include <vector>\n");
  EXPECT_EQ(lint::includePrefix("#define X 1\n#include <vector>\n"), "");
  EXPECT_EQ(lint::includePrefix("// continued \\\n#include <vector>\n"), "");
  EXPECT_EQ(lint::includePrefix("  #  include   <vector>  \nint x;\n#include <map>\n"), "#  include   <vector>\n");
  EXPECT_EQ(lint::includePrefix("/* block */\n#include <vector>\n"), "");
}

TEST_F(CacheCli, SharedPreambleReportsExactlyWhatParsingAloneDoes) {
  std::string Head = "// heavy includes first\n#include <vector>\n#include <string>\n\n" + std::string(Prelude);
  for (const char *Name : {"a.cc", "b.cc", "c.cc"})
    write(std::string("src/") + Name,
          Head + "void train_" + Name[0] +
              "(void *k, std::vector<std::string> &log) {\n"
              "  for (int i = 0; i < 10; ++i) {\n    cuLaunchKernel(k);\n    cudaDeviceSynchronize();\n"
              "    log.push_back(std::to_string(i));\n  }\n}\n");
  ProcessResult Alone = lint({"--no-cache", "--format=json", "a.cc", "b.cc", "c.cc"});
  ASSERT_EQ(Alone.Exit, 1) << Alone.Err;
  ProcessResult Shared = lint({"--format=json", "a.cc", "b.cc", "c.cc"});
  EXPECT_EQ(Shared.Out, Alone.Out);
  EXPECT_EQ(Shared.Err, Alone.Err);
  std::vector<std::string> Pchs;
  std::error_code EC;
  for (fs::directory_iterator It(Root + "/cache/preamble", EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".pch"))
      Pchs.push_back(It->path());
  ASSERT_EQ(Pchs.size(), 1u) << "one preamble for the three files";

  // A damaged precompiled header is a compiler error; the file is parsed again without it.
  std::ofstream(Pchs[0], std::ios::binary) << "not a pch";
  ProcessResult Damaged = lint({"--format=json", "a.cc", "b.cc", "c.cc"});
  EXPECT_EQ(fromCache(Damaged), 3u);
  write("src/b.cc", readFile(Root + "/src/b.cc") + "// edited\n");
  ProcessResult Edited = lint({"--format=json", "a.cc", "b.cc", "c.cc"});
  EXPECT_EQ(fromCache(Edited), 2u) << Edited.Err;
  EXPECT_EQ(Edited.Out, Alone.Out);
  EXPECT_EQ(lint({"--no-preamble", "--no-cache", "--format=json", "a.cc", "b.cc", "c.cc"}).Out, Alone.Out);
}

TEST_F(CacheCli, AFileLintedAloneUsesAStoredPreamble) {
  std::string Head = "#include <vector>\n#include <string>\n" + std::string(Prelude);
  auto Source = [&](const std::string &Comment) {
    return Head + "// " + Comment +
           "\nvoid train(void *k, std::vector<std::string> &log) {\n"
           "  for (int i = 0; i < 10; ++i) {\n    cuLaunchKernel(k);\n    cudaDeviceSynchronize();\n"
           "    log.push_back(std::to_string(i));\n  }\n}\n";
  };
  write("src/a.cc", Source("first"));
  ProcessResult First = lint({"--format=json", "a.cc"});
  ASSERT_EQ(First.Exit, 1) << First.Err;
  std::vector<std::string> Metas;
  std::error_code EC;
  for (fs::directory_iterator It(Root + "/cache/preamble", EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".json"))
      Metas.push_back(It->path());
  ASSERT_EQ(Metas.size(), 1u) << "a run of one file precompiles its includes for the next one";

  // An edit below the includes: the next run of the file alone parses it
  // against that preamble (which marks it used) and reports the same.
  int FD;
  ASSERT_FALSE(fs::openFileForWrite(Metas[0], FD, fs::CD_OpenExisting, fs::OF_Append));
  ASSERT_FALSE(fs::setLastAccessAndModificationTime(FD, llvm::sys::TimePoint<>()));
  (void)llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  write("src/a.cc", Source("second"));
  ProcessResult Second = lint({"--format=json", "a.cc"});
  EXPECT_EQ(fromCache(Second), 0u) << "the file changed: " << Second.Err;
  fs::file_status Status;
  ASSERT_FALSE(fs::status(Metas[0], Status));
  EXPECT_GT(Status.getLastModificationTime(), llvm::sys::TimePoint<>()) << "the stored preamble was used";
  EXPECT_EQ(Second.Out, lint({"--no-preamble", "--no-cache", "--format=json", "a.cc"}, false).Out);
}

/// The cache entries under \p Root, as (path, content) pairs.
std::vector<std::pair<std::string, std::string>> cacheEntries(const std::string &Root) {
  std::vector<std::pair<std::string, std::string>> Out;
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Root + "/cache/v1", EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".json"))
      Out.emplace_back(It->path(), readFile(It->path()));
  return Out;
}

/// The stored preambles under \p Root.
size_t preambleCount(const std::string &Root) {
  size_t N = 0;
  std::error_code EC;
  for (fs::directory_iterator It(Root + "/cache/preamble", EC), End; It != End && !EC; It.increment(EC))
    N += llvm::StringRef(It->path()).ends_with(".pch");
  return N;
}

// `--quiet` (and the progress line, and the language server) turn clang's
// carets off; that changes no result, so it must not change the keys: the
// pre-commit hook (--quiet) replays the entries and reuses the preamble of the
// editor's or the command line's runs.
TEST_F(CacheCli, QuietRunsShareResultsAndPreamblesWithOtherRuns) {
  std::string Head = "#include <vector>\n#include <string>\n" + std::string(Prelude);
  write("src/a.cc", Head + "void train(void *k) {\n  for (int i = 0; i < 10; ++i) {\n"
                           "    cuLaunchKernel(k);\n    cudaDeviceSynchronize();\n  }\n}\n");
  ProcessResult Loud = lint({"--format=json", "a.cc"});
  ASSERT_EQ(Loud.Exit, 1) << Loud.Err;
  size_t Entries = cacheEntries(Root).size();
  ASSERT_EQ(preambleCount(Root), 1u) << Loud.Err;

  ProcessResult Quiet = lint({"--quiet", "--format=json", "a.cc"});
  EXPECT_EQ(Quiet.Exit, 1) << Quiet.Err;
  EXPECT_EQ(Quiet.Out, Loud.Out);
  EXPECT_EQ(cacheEntries(Root).size(), Entries) << "the quiet run was a cache hit";

  write("src/a.cc", readFile(Root + "/src/a.cc") + "// edited\n");
  ProcessResult Edited = lint({"--quiet", "--format=json", "a.cc"});
  EXPECT_EQ(Edited.Exit, 1) << Edited.Err;
  EXPECT_EQ(cacheEntries(Root).size(), Entries + 1) << "the edited file was parsed";
  EXPECT_EQ(preambleCount(Root), 1u) << "and parsed against the stored preamble, not a new one";
}

// Issue 26: a cached fix is replayed only when the entry is intact and the
// bytes each fix replaces are still in the file.
TEST_F(CacheCli, DamagedFixesInAnEntryAreDroppedWithOneWarning) {
  write("src/p.json", TransferProfile);
  std::string Src = TransferSource;
  std::string Path = write("src/fixme.cc", Src);
  ProcessResult Cold = lint({"--profile=p.json", "--format=json", "fixme.cc"});
  ASSERT_EQ(Cold.Exit, 1) << Cold.Err;
  auto Entries = cacheEntries(Root);
  ASSERT_EQ(Entries.size(), 1u);
  const auto [Entry, Stored] = Entries[0];
  // The replacement "w_on_device" for "w.upload()" at offset O: O changed by
  // one digit, a huge length, flipped bytes.
  size_t At = Stored.find(",\"w_on_device\"]");
  ASSERT_NE(At, std::string::npos) << Stored;
  size_t LengthAt = Stored.rfind(',', At - 1) + 1, OffsetAt = Stored.rfind(',', LengthAt - 2) + 1;
  std::string Shifted = Stored, Huge = Stored, Flipped = Stored;
  Shifted[OffsetAt] = Shifted[OffsetAt] == '9' ? '8' : Shifted[OffsetAt] + 1;
  Huge.replace(LengthAt, At - LengthAt, "4294967295");
  Flipped[Stored.size() / 2] ^= 0x20;
  // An entry rewritten whole, with a checksum that matches: its fix must
  // still match the bytes of the file.
  llvm::StringRef Body = llvm::StringRef(Shifted).split('\n').second;
  std::string Resummed = lint::hashText(Body) + "\n" + Body.str();
  for (const std::string *Damaged : {&Shifted, &Huge, &Flipped, &Resummed}) {
    std::ofstream(Entry, std::ios::binary) << *Damaged;
    ProcessResult Fix = lint({"--profile=p.json", "--fix", "fixme.cc"});
    EXPECT_EQ(fromCache(Fix), 0u) << Fix.Err;
    EXPECT_EQ(count(Fix.Err, "damaged cache entry"), 1u) << Fix.Err;
    EXPECT_NE(Fix.Err.find("mlperf-lint: warning: " + Entry + ": damaged cache entry ("), std::string::npos) << Fix.Err;
    EXPECT_NE(readFile(Path).find("  auto w_on_device = w.upload();\n  for (int i = 0; i < 10; ++i) {\n"
                                  "    e.run(w_on_device);\n"),
              std::string::npos)
        << readFile(Path);
    write("src/fixme.cc", Src);
    std::ofstream(Entry, std::ios::binary) << Stored;
  }
  ProcessResult Hit = lint({"--profile=p.json", "--format=json", "fixme.cc"});
  EXPECT_EQ(fromCache(Hit), 1u) << Hit.Err;
  EXPECT_EQ(Hit.Out, Cold.Out);
}

// Headers the file includes that are not found, and the errors that follow
// from them, are the file's, not the preamble's: the preamble is built
// without the one among its includes, the parse against it is kept with its
// recovery, and it reports what a parse without it does; --verbose counts
// clang's parses.
TEST_F(CacheCli, AParseAgainstThePreambleIsKeptWithAHeaderNotFound) {
  std::string Head =
      "#include <vector>\n#include <gone_lib.h>\n#include <string>\n" + std::string(Prelude) + "#include \"gone.h\"\n";
  for (const char *Name : {"a.cc", "b.cc"})
    write(std::string("src/") + Name,
          Head + "void train_" + Name[0] +
              "(void *k, std::vector<std::string> &log, Options &o) {\n"
              "  for (int i = 0; i < o.steps; ++i) {\n    cuLaunchKernel(k);\n"
              "    cudaDeviceSynchronize();\n    log.push_back(std::to_string(i));\n  }\n}\n");
  ProcessResult Plain = lint({"--no-preamble", "--no-cache", "--format=json", "--verbose", "a.cc", "b.cc"});
  ASSERT_EQ(Plain.Exit, 1) << Plain.Err;
  EXPECT_NE(Plain.Err.find("4 parse(s) for 2 file(s) (2 parsed again within its lint"), std::string::npos)
      << "each file once more with a declaration of Options made up:\n"
      << Plain.Err;
  ProcessResult Shared = lint({"--format=json", "--verbose", "a.cc", "b.cc"});
  EXPECT_EQ(Shared.Out, Plain.Out);
  EXPECT_EQ(preambleCount(Root), 1u) << Shared.Err;
  EXPECT_NE(Shared.Err.find("4 parse(s) for 2 file(s) (2 parsed again within its lint"), std::string::npos)
      << "against the preamble, not once more without it:\n"
      << Shared.Err;
  EXPECT_NE(
      Shared.Err.find("a.cc: 2 includes not found (gone_lib.h, gone.h); permissive declarations made up for 1 name"),
      std::string::npos)
      << Shared.Err;
}

TEST_F(CacheCli, APreambleBuiltWithoutAHeaderIsBuiltAgainOnceTheHeaderExists) {
  // cfg.h, first in the shared prefix, is not there when the preamble is
  // built; once it is, lib.h (after it in the prefix) declares fast_path().
  // A preamble kept from before would hold lib.h without it.
  write("src/inc/lib.h", "#pragma once\n#ifdef USE_FAST\nvoid fast_path(void *k);\n#endif\n");
  for (const char *Name : {"a.cc", "b.cc"})
    write(std::string("src/") + Name, "#include <cfg.h>\n#include <lib.h>\n" + std::string(Prelude) + "void train_" +
                                          Name[0] +
                                          "(void *k) {\n  for (int i = 0; i < 10; ++i) {\n    cuLaunchKernel(k);\n"
                                          "    fast_path(k);\n    cudaDeviceSynchronize();\n  }\n}\n");
  std::vector<std::string> Args = {"--format=json", "--extra-arg=-I" + Root + "/src/inc", "a.cc", "b.cc"};
  ProcessResult Before = lint(Args);
  ASSERT_EQ(Before.Exit, 1) << Before.Err;
  EXPECT_NE(Before.Err.find("a.cc: 1 include not found (cfg.h)"), std::string::npos) << Before.Err;
  EXPECT_EQ(preambleCount(Root), 1u) << Before.Err;
  write("src/inc/cfg.h", "#define USE_FAST\n");
  ProcessResult After = lint(Args);
  ASSERT_EQ(After.Exit, 1) << After.Err;
  EXPECT_EQ(After.Err.find("not found"), std::string::npos) << After.Err;
  EXPECT_EQ(After.Err.find("error"), std::string::npos) << After.Err;
  std::vector<std::string> Plain = Args;
  Plain.insert(Plain.begin(), {"--no-cache", "--no-preamble"});
  EXPECT_EQ(After.Out, lint(Plain, /*Cache=*/false).Out);
}

TEST_F(CacheCli, ADamagedPrecompiledPreambleIsRebuilt) {
  std::string Head = "#include <vector>\n#include <string>\n#include <map>\n" + std::string(Prelude);
  for (const char *Name : {"a.cc", "b.cc"})
    write(std::string("src/") + Name,
          Head + "void train_" + Name[0] +
              "(void *k, std::map<int, std::string> &log) {\n"
              "  for (int i = 0; i < 10; ++i) {\n    cuLaunchKernel(k);\n    cudaDeviceSynchronize();\n"
              "    log[i] = std::to_string(i);\n  }\n}\n");
  ProcessResult Cold = lint({"--format=json", "a.cc", "b.cc"});
  ASSERT_EQ(Cold.Exit, 1) << Cold.Err;
  std::string Pch;
  std::error_code EC;
  for (fs::directory_iterator It(Root + "/cache/preamble", EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".pch"))
      Pch = It->path();
  ASSERT_FALSE(Pch.empty());
  std::string Good = readFile(Pch);
  // One block in the middle flipped, as a bad disk or an interrupted copy leaves it.
  std::string Bad = Good;
  for (size_t I = Bad.size() / 2; I < Bad.size() / 2 + 4096 && I < Bad.size(); ++I)
    Bad[I] = static_cast<char>(~Bad[I]);
  std::ofstream(Pch, std::ios::binary) << Bad;
  fs::remove_directories(Root + "/cache/v1");
  ProcessResult Again = lint({"--format=json", "a.cc", "b.cc"});
  EXPECT_EQ(Again.Exit, 1) << Again.Err;
  EXPECT_EQ(Again.Out, Cold.Out);
  EXPECT_EQ(Again.Err.find("crash"), std::string::npos) << Again.Err;
  std::string Rebuilt = readFile(Pch);
  EXPECT_FALSE(Rebuilt.empty());
  EXPECT_NE(Rebuilt, Bad) << "the damaged preamble is rebuilt";
}

TEST_F(CacheCli, ExamplesGiveTheSameReportWithAndWithoutThePreamble) {
  if (!torchAvailable())
    GTEST_SKIP() << "libtorch's headers are not installed";
  std::vector<std::string> Args = {"--format=json",
                                   std::string(MLPERF_SOURCE_DIR) + "/examples/train_loop.cc",
                                   std::string(MLPERF_SOURCE_DIR) + "/examples/serve_and_eval.cc",
                                   "--",
                                   "-std=c++17",
                                   "-isystem",
                                   MLPERF_TORCH_INCLUDE};
  std::vector<std::string> Plain = Args;
  Plain.insert(Plain.begin(), {"--no-cache", "--no-preamble"});
  ProcessResult Alone = runProcess(MLPERF_LINT_BINARY, Plain, Root);
  ASSERT_EQ(Alone.Exit, 1) << Alone.Err;
  Args.insert(Args.begin(), {"--verbose", "--cache-dir=" + Root + "/cache"});
  ProcessResult Shared = runProcess(MLPERF_LINT_BINARY, Args, Root);
  EXPECT_EQ(Shared.Out, Alone.Out);
  EXPECT_NE(Shared.Err.find("2 parse(s) for 2 file(s)"), std::string::npos) << Shared.Err;
  std::error_code EC;
  EXPECT_TRUE(fs::exists(Root + "/cache/preamble")) << "both begin with <torch/torch.h>";
}

TEST(MergeReports, JsonReportsConcatenateWithoutDuplicates) {
  std::string A = R"({"tool": "mlperf-lint", "version": "1", "diagnostics": [{"file": "a.cc", "line": 1}]})";
  std::string B = R"({"tool": "mlperf-lint", "version": "1", "diagnostics": [{"file": "b.cc", "line": 2},
                     {"file": "a.cc", "line": 1}]})";
  auto Merged = lint::mergeReports({"a.json", "b.json"}, {A, B});
  ASSERT_TRUE(bool(Merged)) << llvm::toString(Merged.takeError());
  auto J = nlohmann::json::parse(*Merged);
  ASSERT_EQ(J["diagnostics"].size(), 2u) << *Merged;
  EXPECT_EQ(J["diagnostics"][1]["file"], "b.cc");
  auto Bad = lint::mergeReports({"a.json", "x.sarif"}, {A, R"({"runs": [{"tool": {}}]})"});
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(llvm::toString(Bad.takeError()).find("x.sarif: is SARIF but a.json is JSON"), std::string::npos);
  auto Broken = lint::mergeReports({"x.sarif"}, {R"({"version": "2.1.0", "runs": [{"tool": {}}]})"});
  ASSERT_FALSE(bool(Broken));
  EXPECT_NE(llvm::toString(Broken.takeError()).find("malformed report"), std::string::npos);
}

TEST(MergeReports, SarifLogsOfDifferentSourceRootsAreRefused) {
  auto Log = [](const std::string &Root, const std::string &Uri) {
    nlohmann::json Run = {
        {"tool", {{"driver", {{"name", "mlperf-lint"}, {"rules", nlohmann::json::array()}}}}},
        {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", Root}}}}},
        {"results",
         nlohmann::json::array(
             {{{"message", {{"text", "m"}}},
               {"locations",
                {{{"physicalLocation", {{"artifactLocation", {{"uri", Uri}, {"uriBaseId", "%SRCROOT%"}}}}}}}}}})}};
    return nlohmann::json{{"version", "2.1.0"}, {"runs", nlohmann::json::array({Run})}}.dump();
  };
  auto Same = lint::mergeReports({"a.sarif", "b.sarif"}, {Log("file:///src/", "a.cc"), Log("file:///src/", "b.cc")});
  ASSERT_TRUE(bool(Same)) << llvm::toString(Same.takeError());
  EXPECT_EQ(nlohmann::json::parse(*Same)["runs"][0]["results"].size(), 2u);
  auto Different =
      lint::mergeReports({"a.sarif", "b.sarif"}, {Log("file:///src/", "a.cc"), Log("file:///other/", "a.cc")});
  ASSERT_FALSE(bool(Different)) << "a.cc of two roots is two files; keeping one root would misplace one";
  EXPECT_EQ(llvm::toString(Different.takeError()),
            "merge-sarif: b.sarif has the source root 'file:///other/' but a.sarif has 'file:///src/'; lint every "
            "shard with the same --sarif-root");
}

} // namespace
} // namespace mlperf::test
