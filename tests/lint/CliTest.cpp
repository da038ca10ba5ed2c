// End-to-end tests of the mlperf-lint command line: exit codes, formats,
// configuration, NOLINT, --fix, directory walking and bad input.
#include "LintTestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace mlperf::test {
namespace {

// A handle-style API (the CUDA profile) keeps these files quick to parse.
const char *Prelude = "extern \"C\" int cudaDeviceSynchronize();\n"
                      "extern \"C\" int cuLaunchKernel(void *f);\n";

std::string syncLoop() {
  return std::string(Prelude) + "void train(void *k) {\n"
                                "  for (int i = 0; i < 10; ++i) {\n"
                                "    cuLaunchKernel(k);\n"
                                "    cudaDeviceSynchronize();\n"
                                "  }\n"
                                "}\n";
}

std::string cleanLoop() {
  return std::string(Prelude) + "void train(void *k) {\n"
                                "  for (int i = 0; i < 10; ++i)\n"
                                "    cuLaunchKernel(k);\n"
                                "  cudaDeviceSynchronize();\n"
                                "}\n";
}

class CliTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mlperf-cli", Dir));
    Root = std::string(Dir);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

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
  std::string Root;
};

TEST_F(CliTest, ExitStatusZeroWithoutFindings) {
  write("clean.cc", cleanLoop());
  ProcessResult R = lint({"clean.cc"});
  EXPECT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(R.Out, "");
}

TEST_F(CliTest, TextOutputIsClangTidys) {
  write("sync.cc", syncLoop());
  ProcessResult R = lint({"sync.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_NE(R.Out.find("sync.cc:6:5: warning: 'cudaDeviceSynchronize' blocks the host"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("[mlperf-sync-in-loop]"), std::string::npos);
  EXPECT_NE(R.Out.find("    6 |     cudaDeviceSynchronize();\n      |     ^"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("sync.cc:4:3: note: this loop runs a model step on every iteration"), std::string::npos);
}

TEST_F(CliTest, OutputFileTakesTheTextReport) {
  write("sync.cc", syncLoop());
  ProcessResult R = lint({"-o", "report.txt", "sync.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(R.Out, "");
  std::string Report = readFile(Root + "/report.txt");
  EXPECT_NE(Report.find("sync.cc:6:5: warning: 'cudaDeviceSynchronize' blocks the host"), std::string::npos) << Report;
  EXPECT_NE(Report.find("note: this loop runs a model step on every iteration"), std::string::npos) << Report;
}

TEST_F(CliTest, JsonFormat) {
  write("sync.cc", syncLoop());
  ProcessResult R = lint({"--format=json", "sync.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  auto J = nlohmann::json::parse(R.Out);
  ASSERT_EQ(J["diagnostics"].size(), 1u) << R.Out;
  const auto &D = J["diagnostics"][0];
  EXPECT_EQ(D["check"], "mlperf-sync-in-loop");
  EXPECT_EQ(D["line"], 6);
  EXPECT_EQ(D["column"], 5);
  EXPECT_EQ(D["severity"], "warning");
  EXPECT_TRUE(llvm::StringRef(D["file"].get<std::string>()).ends_with("/sync.cc"));
  EXPECT_NE(D["message"].get<std::string>().find("blocks the host"), std::string::npos);
  ASSERT_EQ(D["notes"].size(), 2u);
  EXPECT_EQ(D["notes"][0]["line"], 4);
  // The estimate, at the finding itself (docs/cost-model.md).
  EXPECT_EQ(D["notes"][1]["line"], 6);
  EXPECT_EQ(D["notes"][1]["message"].get<std::string>().rfind("≈ 20 µs per step on ", 0), 0u) << D["notes"][1];
  EXPECT_TRUE(D["fixes"].is_array());
}

TEST_F(CliTest, SarifFormatHasRequiredFields) {
  write("sync.cc", syncLoop());
  ProcessResult R = lint({"--format=sarif", "-o", "report.sarif", "sync.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  auto J = nlohmann::json::parse(readFile(Root + "/report.sarif"));
  EXPECT_EQ(J["version"], "2.1.0");
  EXPECT_TRUE(J.contains("$schema"));
  ASSERT_EQ(J["runs"].size(), 1u);
  const auto &Run = J["runs"][0];
  EXPECT_EQ(Run["tool"]["driver"]["name"], "mlperf-lint");
  ASSERT_FALSE(Run["tool"]["driver"]["rules"].empty());
  EXPECT_EQ(Run["tool"]["driver"]["rules"][0]["id"], "mlperf-sync-in-loop");
  ASSERT_EQ(Run["results"].size(), 1u);
  const auto &Res = Run["results"][0];
  EXPECT_EQ(Res["ruleId"], "mlperf-sync-in-loop");
  EXPECT_EQ(Res["level"], "warning");
  EXPECT_TRUE(Res["message"].contains("text"));
  const auto &Loc = Res["locations"][0]["physicalLocation"];
  EXPECT_TRUE(llvm::StringRef(Loc["artifactLocation"]["uri"].get<std::string>()).ends_with("sync.cc"));
  EXPECT_EQ(Loc["region"]["startLine"], 6);
  EXPECT_EQ(Loc["region"]["startColumn"], 5);
}

TEST_F(CliTest, ChecksGlobAndUnknownCheck) {
  write("sync.cc", syncLoop());
  EXPECT_EQ(lint({"--checks=-*,mlperf-materialize-in-loop", "sync.cc"}).Exit, 0);
  ProcessResult R = lint({"--checks=-*,mlperf-no-such-check", "sync.cc"});
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("unknown check 'mlperf-no-such-check'"), std::string::npos) << R.Err;
}

TEST_F(CliTest, ConfigFileIsFoundUpward) {
  write("proj/.mlperf-lint", "Checks: '-mlperf-sync-in-loop'\n");
  write("proj/src/sync.cc", syncLoop());
  EXPECT_EQ(lint({"proj/src/sync.cc"}).Exit, 0);
  write("other/sync.cc", syncLoop());
  EXPECT_EQ(lint({"other/sync.cc"}).Exit, 1);
}

TEST_F(CliTest, WarningsAsErrorsFromConfig) {
  write(".mlperf-lint", "WarningsAsErrors: 'mlperf-*'\n");
  write("sync.cc", syncLoop());
  ProcessResult R = lint({"--format=json", "sync.cc"});
  EXPECT_EQ(R.Exit, 1);
  EXPECT_EQ(nlohmann::json::parse(R.Out)["diagnostics"][0]["severity"], "error");
}

TEST_F(CliTest, MalformedConfigIsOneLineError) {
  std::string Config = write(".mlperf-lint", "Checks: [unclosed\n");
  write("sync.cc", syncLoop());
  ProcessResult R = lint({"sync.cc"});
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find(Config + ": invalid configuration"), std::string::npos) << R.Err;
  EXPECT_EQ(R.Out, "");
}

TEST_F(CliTest, ConfigFileOptionAndDumpConfig) {
  write("cfg.yaml", "Checks: '-*,mlperf-sync-in-loop'\nCheckOptions:\n  mlperf-sync-in-loop.Profiles: ''\n");
  write("sync.cc", syncLoop());
  ProcessResult R = lint({"--config-file=cfg.yaml", "--dump-config", "sync.cc"}, false);
  EXPECT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("Checks:"), std::string::npos);
  EXPECT_NE(R.Out.find("mlperf-sync-in-loop"), std::string::npos);
  EXPECT_NE(lint({"--config-file=missing.yaml", "sync.cc"}).Err.find("missing.yaml: cannot read configuration"),
            std::string::npos);
}

TEST_F(CliTest, NolintForms) {
  std::string Body = std::string(Prelude) + "void train(void *k) {\n"
                                            "  for (int i = 0; i < 10; ++i) {\n"
                                            "    cuLaunchKernel(k);\n"
                                            "    cudaDeviceSynchronize(); // NOLINT(mlperf-sync-*)\n"
                                            "    // NOLINTNEXTLINE(mlperf-sync-in-loop)\n"
                                            "    cudaDeviceSynchronize();\n"
                                            "    // NOLINTBEGIN(mlperf-*)\n"
                                            "    cudaDeviceSynchronize();\n"
                                            "    // NOLINTEND(mlperf-*)\n"
                                            "    cudaDeviceSynchronize(); // NOLINT(mlperf-materialize-in-loop)\n"
                                            "  }\n"
                                            "}\n";
  write("n.cc", Body);
  ProcessResult R = lint({"--format=json", "n.cc"});
  EXPECT_EQ(R.Exit, 1);
  auto J = nlohmann::json::parse(R.Out);
  ASSERT_EQ(J["diagnostics"].size(), 1u) << R.Out;
  EXPECT_EQ(J["diagnostics"][0]["line"], 12);
}

TEST_F(CliTest, DirectoryWalkSkipsHiddenAndBuildDirectories) {
  write("src/a.cc", syncLoop());
  write("src/sub/b.cpp", syncLoop());
  write("src/.hidden/c.cc", syncLoop());
  write("src/build/d.cc", syncLoop());
  write("src/out/CMakeCache.txt", "");
  write("src/out/e.cc", syncLoop());
  write("src/notes.txt", "not c++");
  ProcessResult R = lint({"--format=json", "src"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  auto J = nlohmann::json::parse(R.Out);
  ASSERT_EQ(J["diagnostics"].size(), 2u) << R.Out;
  EXPECT_NE(R.Err.find("in 2 file(s)"), std::string::npos) << R.Err;
}

TEST_F(CliTest, BadInputs) {
  write("sync.cc", syncLoop());
  ProcessResult Missing = lint({"nope.cc", "sync.cc"});
  EXPECT_EQ(Missing.Exit, 2);
  EXPECT_NE(Missing.Err.find("nope.cc: no such file or directory"), std::string::npos) << Missing.Err;
  EXPECT_NE(Missing.Out.find("[mlperf-sync-in-loop]"), std::string::npos) << "other files are still linted";

  write("blob.cc", std::string("\x7f"
                               "ELF\0\0\0binary",
                               13));
  ProcessResult Binary = lint({"blob.cc"});
  EXPECT_EQ(Binary.Exit, 2);
  EXPECT_NE(Binary.Err.find("blob.cc: not a text file"), std::string::npos) << Binary.Err;

  ProcessResult Format = lint({"--format=xml", "sync.cc"});
  EXPECT_EQ(Format.Exit, 2);
  EXPECT_NE(Format.Err.find("unknown format 'xml'"), std::string::npos);

  ProcessResult Option = lint({"--no-such-option", "sync.cc"});
  EXPECT_EQ(Option.Exit, 2);
  EXPECT_EQ(Option.Err.find("Stack dump"), std::string::npos);

  write("bad.json", "{\"name\": \"x\", \"entries\": [{\"role\": \"teleport\", \"callee\": \"f\"}]}");
  ProcessResult Profile = lint({"--profile=bad.json", "sync.cc"});
  EXPECT_EQ(Profile.Exit, 2);
  EXPECT_NE(Profile.Err.find("bad.json: invalid API profile: entry 0 (role 'teleport', callee 'f'): 'role': unknown "
                             "role \"teleport\""),
            std::string::npos)
      << Profile.Err;
  write("notjson.json", "{not json");
  EXPECT_NE(lint({"--profile=notjson.json", "sync.cc"}).Err.find("notjson.json: invalid API profile: not valid JSON"),
            std::string::npos);
}

TEST_F(CliTest, FileThatDoesNotCompileIsReportedAndOthersLinted) {
  write("broken.cc", "int main() { return undeclared_thing; }\n");
  write("sync.cc", syncLoop());
  ProcessResult R = lint({"broken.cc", "sync.cc"});
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Out.find("broken.cc:1:21: error: use of undeclared identifier 'undeclared_thing'"), std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("[mlperf-sync-in-loop]"), std::string::npos);
}

TEST_F(CliTest, UserProfileTeachesNewApi) {
  write("myfw.json", R"({"name": "myfw", "device_context": "always", "entries": [
      {"role": "step", "kind": "exec", "callee": "myfw::Engine::run"},
      {"role": "materialize", "callee": "myfw::Buffer::read"}]})");
  write("use.cc", "namespace myfw { struct Buffer { float read() const; };\n"
                  "struct Engine { Buffer run(); }; }\n"
                  "float loop(myfw::Engine &e) {\n"
                  "  float s = 0;\n"
                  "  for (int i = 0; i < 10; ++i) s += e.run().read();\n"
                  "  return s;\n"
                  "}\n");
  EXPECT_EQ(lint({"use.cc"}).Exit, 0);
  ProcessResult R = lint({"--profile=myfw.json", "--format=json", "use.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  auto J = nlohmann::json::parse(R.Out);
  ASSERT_EQ(J["diagnostics"].size(), 1u);
  EXPECT_EQ(J["diagnostics"][0]["check"], "mlperf-materialize-in-loop");
}

TEST_F(CliTest, FallbackFlagsAreAnnounced) {
  write("clean.cc", cleanLoop());
  ProcessResult R = lint({"clean.cc"}, /*WithFlags=*/false);
  EXPECT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Err.find("no compilation database found; using fallback flags: -std=c++17"), std::string::npos);
}

TEST_F(CliTest, CompilationDatabaseIsFound) {
  write("proj/sync.cc", syncLoop());
  write("proj/build/compile_commands.json",
        "[{\"directory\": \"" + Root +
            "/proj\", \"file\": \"sync.cc\", \"command\": \"c++ -std=c++17 -DX=1 -c sync.cc\"}]");
  ProcessResult R = lint({"proj/sync.cc"}, false);
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(R.Err.find("fallback flags"), std::string::npos) << R.Err;
  // A file the database does not list gets the fallback flags, not a guess.
  write("proj/tools/other.cc", syncLoop());
  ProcessResult Unlisted = lint({"--format=json", "proj/tools/other.cc"}, false);
  EXPECT_EQ(Unlisted.Exit, 1) << Unlisted.Err;
  write("bad/compile_commands.json", "[{oops");
  write("bad/x.cc", cleanLoop());
  ProcessResult Bad = lint({"-p", "bad", "bad/x.cc"}, false);
  EXPECT_EQ(Bad.Exit, 2);
  EXPECT_NE(Bad.Err.find("bad/compile_commands.json: invalid compilation database"), std::string::npos) << Bad.Err;
}

TEST_F(CliTest, BuildPathAloneLintsEveryFileOfTheDatabase) {
  write("proj/sync.cc", syncLoop());
  write("proj/clean.cc", cleanLoop());
  write("proj/unlisted.cc", syncLoop());
  auto Entry = [&](const std::string &File) {
    return "{\"directory\": \"" + Root + "/proj\", \"file\": \"" + File + "\", \"command\": \"c++ -std=c++17 -c " +
           File + "\"}";
  };
  write("proj/build/compile_commands.json",
        "[" + Entry("sync.cc") + ", " + Entry("clean.cc") + ", " + Entry("gone.cc") + "]");
  ProcessResult R = lint({"-p", "proj/build"}, false);
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_NE(R.Out.find("sync.cc:"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("unlisted.cc"), std::string::npos) << "only the database's files: " << R.Out;
  EXPECT_NE(R.Err.find("in 2 file(s)"), std::string::npos) << "gone.cc does not exist: " << R.Err;

  write("empty/compile_commands.json", "[]");
  ProcessResult Empty = lint({"-p", "empty"}, false);
  EXPECT_EQ(Empty.Exit, 2);
  EXPECT_NE(Empty.Err.find("empty: the compilation database lists no file that exists"), std::string::npos)
      << Empty.Err;
  ProcessResult Nothing = lint({}, false);
  EXPECT_EQ(Nothing.Exit, 2) << "neither inputs nor -p";
}

TEST_F(CliTest, ClangTidysOtherOptionsHaveItsMeaning) {
  write("sync.cc", syncLoop());
  write(".mlperf-lint", "Checks: '-*,mlperf-sync-in-loop'\n");
  ProcessResult Explain = lint({"--explain-config", "sync.cc"});
  EXPECT_EQ(Explain.Exit, 0) << Explain.Err;
  EXPECT_NE(Explain.Out.find("'mlperf-sync-in-loop' is enabled in the " + Root + "/.mlperf-lint"), std::string::npos)
      << Explain.Out;
  EXPECT_EQ(Explain.Out.find("mlperf-materialize-in-loop"), std::string::npos) << "disabled checks are not listed";

  EXPECT_EQ(lint({"--checks=-*", "sync.cc"}).Exit, 2);
  ProcessResult None = lint({"--checks=-*", "--allow-no-checks", "sync.cc"});
  EXPECT_EQ(None.Exit, 0) << None.Err;
  EXPECT_EQ(None.Out, "");

  ProcessResult Profile = lint({"--enable-check-profile", "sync.cc"});
  EXPECT_EQ(Profile.Exit, 1);
  EXPECT_NE(Profile.Err.find("clang-tidy checks profiling"), std::string::npos) << Profile.Err;
  EXPECT_NE(Profile.Err.find("mlperf-sync-in-loop"), std::string::npos) << Profile.Err;
  ASSERT_EQ(lint({"--enable-check-profile", "--store-check-profile=" + Root + "/prof", "sync.cc"}).Exit, 1);
  std::error_code EC;
  llvm::sys::fs::directory_iterator Stored(Root + "/prof", EC);
  ASSERT_FALSE(EC) << "the profile is stored under the prefix";
  EXPECT_TRUE(llvm::StringRef(Stored->path()).ends_with(".json")) << Stored->path();
  EXPECT_EQ(lint({"--store-check-profile=" + Root + "/prof", "sync.cc"}).Exit, 2);

  // A header that exists only in the overlay.
  write("overlaid.cc", "#include \"generated/loop.h\"\n");
  write("real/loop_impl.h", syncLoop());
  write("overlay.yaml", "{'version': 0, 'roots': [{'name': '" + Root +
                            "/generated', 'type': 'directory', 'contents': [{'name': 'loop.h', 'type': 'file', "
                            "'external-contents': '" +
                            Root + "/real/loop_impl.h'}]}]}\n");
  ProcessResult Overlaid = lint({"--vfsoverlay=overlay.yaml", "--strict-includes", "overlaid.cc"});
  EXPECT_EQ(Overlaid.Exit, 1) << Overlaid.Err;
  EXPECT_NE(Overlaid.Out.find("warning:"), std::string::npos) << Overlaid.Out;
  EXPECT_EQ(lint({"--strict-includes", "overlaid.cc"}).Exit, 2) << "without the overlay the header is missing";
  write("bad.yaml", "{'version': 7}\n");
  ProcessResult Bad = lint({"--vfsoverlay=bad.yaml", "sync.cc"});
  EXPECT_EQ(Bad.Exit, 2);
  EXPECT_NE(Bad.Err.find("bad.yaml: invalid VFS overlay"), std::string::npos) << Bad.Err;

  EXPECT_EQ(lint({"--fix-notes", "sync.cc"}).Exit, 1) << "accepted";
}

TEST_F(CliTest, FormatStyleFormatsTheCodeAroundAFix) {
  write("p.json", TransferProfile);
  std::string Src = TransferSource;
  Src.replace(Src.find("e.run(w.upload());"), 18, "e.run(  w.upload()  );");
  std::string Path = write("fixme.cc", Src);
  ASSERT_EQ(lint({"--profile=p.json", "--fix", "fixme.cc"}).Exit, 1);
  EXPECT_NE(readFile(Path).find("e.run(  w_on_device  );"), std::string::npos) << "as written: " << readFile(Path);
  write("fixme.cc", Src);
  ProcessResult Styled = lint({"--profile=p.json", "--fix", "--format-style=llvm", "fixme.cc"});
  EXPECT_EQ(Styled.Exit, 1) << Styled.Err;
  EXPECT_NE(readFile(Path).find("    e.run(w_on_device);"), std::string::npos) << readFile(Path);
  EXPECT_EQ(lint({"--profile=p.json", "fixme.cc"}).Exit, 0) << "fixed";
  write("fixme.cc", Src);
  ProcessResult BadStyle = lint({"--profile=p.json", "--fix", "--format-style=nosuchstyle", "fixme.cc"});
  EXPECT_EQ(BadStyle.Exit, 2) << BadStyle.Err;
  EXPECT_EQ(readFile(Path), Src) << "an unknown style writes nothing";
}

TEST_F(CliTest, ListChecksAndExplain) {
  ProcessResult L = lint({"--list-checks"}, false);
  EXPECT_EQ(L.Exit, 0);
  for (const char *Name : {"mlperf-compile-in-loop", "mlperf-create-on-device", "mlperf-loop-invariant-transfer",
                           "mlperf-materialize-in-loop", "mlperf-sync-in-loop", "mlperf-alloc-in-loop",
                           "mlperf-pageable-async-copy", "mlperf-per-element-read", "mlperf-decode-batching"}) {
    EXPECT_NE(L.Out.find(Name), std::string::npos) << Name;
    ProcessResult E = lint({std::string("--explain=") + Name}, false);
    EXPECT_EQ(E.Exit, 0) << Name;
    EXPECT_NE(E.Out.find(Name), std::string::npos) << "documentation page of " << Name;
  }
  EXPECT_EQ(lint({"--explain=mlperf-nope"}, false).Exit, 2);
}

TEST_F(CliTest, FixIsAtomicAndExportFixesIsYaml) {
  // A loop-invariant copy through the CUDA profile has no fix; use a
  // user profile with a method-style transfer to exercise --fix.
  write("p.json", TransferProfile);
  std::string Src = TransferSource;
  std::string Path = write("fixme.cc", Src);
  ProcessResult Export = lint({"--profile=p.json", "--export-fixes=fixes.yaml", "fixme.cc"});
  EXPECT_EQ(Export.Exit, 1) << Export.Err;
  std::string Yaml = readFile(Root + "/fixes.yaml");
  EXPECT_NE(Yaml.find("MainSourceFile:"), std::string::npos) << Yaml;
  EXPECT_NE(Yaml.find("ReplacementText: w_on_device"), std::string::npos) << Yaml;
  EXPECT_EQ(readFile(Path), Src) << "--export-fixes must not touch the source";

  ProcessResult Fix = lint({"--profile=p.json", "--fix", "fixme.cc"});
  EXPECT_EQ(Fix.Exit, 1);
  std::string Fixed = readFile(Path);
  EXPECT_NE(Fixed.find("  auto w_on_device = w.upload();\n  for (int i = 0; i < 10; ++i) {\n    e.run(w_on_device);"),
            std::string::npos)
      << Fixed;
  EXPECT_EQ(lint({"--profile=p.json", "fixme.cc"}).Exit, 0) << "the fixed file has no finding left";
}

} // namespace
} // namespace mlperf::test
