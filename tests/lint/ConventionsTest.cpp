// clang-tidy's conventions in the driver: --help, header filters, colors,
// `.clang-tidy` files, and the JSON report's documented shape.
#include "IntegrationSupport.h"

#include <nlohmann/json.hpp>

#include <regex>

namespace mlperf::test {
namespace {

/// A header whose only function has the sync loop; `#include`d by main.cc.
std::string loopHeader() { return "#pragma once\n" + syncLoopSource(); }

class ConventionsTest : public ProjectTest {
protected:
  ProcessResult run(std::vector<std::string> Args) {
    Args.insert(Args.end(), {"--", "-std=c++17"});
    return lint(Args);
  }
};

TEST_F(ConventionsTest, HelpListsOptionsSubcommandsCompilerArgumentsAndExitCodes) {
  ProcessResult R = lint({"--help"});
  EXPECT_EQ(R.Exit, 0);
  for (const char *Needle : {"--checks",
                             "--config-file",
                             "--config=",
                             "--dump-config",
                             "--list-checks",
                             "--explain",
                             "--warnings-as-errors",
                             "--header-filter",
                             "--exclude-header-filter",
                             "--system-headers",
                             "--use-color",
                             "--headers",
                             "--fix ",
                             "--export-fixes",
                             "--format",
                             "--sarif-root",
                             "--path-style",
                             "-o <file>",
                             "--profile",
                             "--extra-arg",
                             "--extra-arg-before",
                             "-j <uint>",
                             "--quiet",
                             "--line-filter",
                             "--diff",
                             "--baseline",
                             "--write-baseline",
                             "-p <",
                             "--cache-dir",
                             "--no-cache",
                             "--cache-size",
                             "--no-preamble",
                             "--shard",
                             "mlperf-lint lsp",
                             "mlperf-lint validate",
                             "mlperf-lint merge-sarif",
                             "[-- <compiler arguments>]",
                             "EXIT STATUS",
                             "0  no findings",
                             "1  findings",
                             "2  usage"})
    EXPECT_NE(R.Out.find(Needle), std::string::npos) << Needle;
}

TEST_F(ConventionsTest, ExcludeHeaderFilterAndSystemHeaders) {
  write("inc/a.h", loopHeader());
  write("gen/b.h", "#pragma once\n" + syncLoopSource().replace(syncLoopSource().find("train"), 5, "train_gen"));
  write("sys/c.h", "#pragma once\n" + syncLoopSource().replace(syncLoopSource().find("train"), 5, "train_sys"));
  write("main.cc", "#include \"inc/a.h\"\n#include \"gen/b.h\"\n#include <c.h>\n");
  auto Args = [&](std::vector<std::string> Extra) {
    Extra.insert(Extra.end(), {"main.cc", "--", "-std=c++17", "-isystem" + Root + "/sys"});
    return Extra;
  };
  ProcessResult All = lint(Args({"--header-filter=.*"}));
  EXPECT_NE(All.Out.find("inc/a.h:7:5"), std::string::npos) << All.Out;
  EXPECT_NE(All.Out.find("gen/b.h:7:5"), std::string::npos) << All.Out;
  EXPECT_EQ(All.Out.find("c.h:7:5"), std::string::npos) << "system headers only with --system-headers";
  ProcessResult Excluded = lint(Args({"--header-filter=.*", "--exclude-header-filter=gen/"}));
  EXPECT_NE(Excluded.Out.find("inc/a.h:7:5"), std::string::npos) << Excluded.Out;
  EXPECT_EQ(Excluded.Out.find("gen/b.h"), std::string::npos) << Excluded.Out;
  // The checks skip code in system headers (under clang-tidy too), so
  // --system-headers shows in the configuration rather than in findings.
  ProcessResult Dump = lint({"--dump-config", "--system-headers", "--exclude-header-filter=gen/", "main.cc"});
  EXPECT_NE(Dump.Out.find("SystemHeaders:   true"), std::string::npos) << Dump.Out;
  EXPECT_NE(Dump.Out.find("ExcludeHeaderFilterRegex: 'gen/'"), std::string::npos) << Dump.Out;
}

TEST_F(ConventionsTest, UseColor) {
  write("a.cc", syncLoopSource());
  EXPECT_EQ(run({"a.cc"}).Out.find("\x1b["), std::string::npos) << "no colors into a pipe by default";
  EXPECT_NE(run({"--use-color", "a.cc"}).Out.find("\x1b["), std::string::npos);
  EXPECT_EQ(run({"--use-color=false", "a.cc"}).Out.find("\x1b["), std::string::npos);
}

TEST_F(ConventionsTest, ClangTidyFilesMlperfSettingsApply) {
  write("p/src/a.cc", syncLoopSource());
  // The plugin's configuration: other modules' globs do not matter to the driver.
  write("p/.clang-tidy", "Checks: '-*,bugprone-*,-mlperf-sync-in-loop'\n");
  EXPECT_EQ(run({"p/src/a.cc"}).Exit, 0);
  write("p/.clang-tidy", "Checks: '-*,bugprone-*,mlperf-sync-in-loop'\n");
  EXPECT_EQ(run({"p/src/a.cc"}).Exit, 1);
  write("p/.clang-tidy", "Checks: '-*,bugprone-*'\nCheckOptions:\n  bugprone-x.Y: 1\n");
  EXPECT_EQ(run({"p/src/a.cc"}).Exit, 1) << "no mlperf glob: the driver's defaults";
  write("p/.clang-tidy", "Checks: 'mlperf-*'\nWarningsAsErrors: 'bugprone-*,mlperf-sync-in-loop'\n");
  ProcessResult AsError = run({"p/src/a.cc"});
  EXPECT_NE(AsError.Out.find("error: 'cudaDeviceSynchronize'"), std::string::npos) << AsError.Out;
  // In one directory `.mlperf-lint` wins; a nearer file wins over a farther one.
  write("p/.mlperf-lint", "Checks: '-mlperf-sync-in-loop'\n");
  EXPECT_EQ(run({"p/src/a.cc"}).Exit, 0);
  write("p/src/.clang-tidy", "Checks: 'mlperf-sync-in-loop'\n");
  EXPECT_EQ(run({"p/src/a.cc"}).Exit, 1);
}

TEST_F(ConventionsTest, JsonHasVersionPathStyleAndItsDocumentedKeys) {
  write("src/a.cc", syncLoopSource());
  auto J = nlohmann::json::parse(run({"--format=json", "src/a.cc"}).Out);
  EXPECT_EQ(J["version"], MLPERF_VERSION);
  EXPECT_EQ(J["diagnostics"][0]["file"], Root + "/src/a.cc");
  auto Rel = nlohmann::json::parse(run({"--format=json", "--path-style=relative", "src/a.cc"}).Out);
  EXPECT_EQ(Rel["diagnostics"][0]["file"], "src/a.cc");
  EXPECT_EQ(Rel["diagnostics"][0]["notes"][0]["file"], "src/a.cc");
  EXPECT_EQ(run({"--path-style=odd", "src/a.cc"}).Exit, 2);

  std::string Doc = readFile(MLPERF_SOURCE_DIR "/docs/json-output.md");
  std::function<void(const nlohmann::json &)> Documented = [&](const nlohmann::json &V) {
    if (V.is_array())
      for (const auto &E : V)
        Documented(E);
    if (V.is_object())
      for (const auto &[K, E] : V.items()) {
        EXPECT_NE(Doc.find("`" + K + "`"), std::string::npos) << "key '" << K << "' of the JSON is not documented";
        Documented(E);
      }
  };
  Documented(J);
}

} // namespace
} // namespace mlperf::test
