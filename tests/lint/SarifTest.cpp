// SARIF for GitHub code scanning: the output validates against the SARIF
// 2.1.0 schema and carries what GitHub's ingestion needs.
#include "report/Sarif.h"
#include "IntegrationSupport.h"
#include "JsonSchema.h"

#include <nlohmann/json.hpp>

namespace mlperf::test {
namespace {

using nlohmann::json;

json sarifSchema() { return json::parse(readFile(MLPERF_SOURCE_DIR "/tests/lint/data/sarif-schema-2.1.0.json")); }

class SarifTest : public ProjectTest {
protected:
  json sarif(std::vector<std::string> Args, const std::string &Dir = "", int Exit = 1) {
    Args.insert(Args.begin(), {"--format=sarif", "-o", Root + "/out.sarif"});
    Args.insert(Args.end(), {"--", "-std=c++17"});
    ProcessResult R = lint(Args, Dir);
    EXPECT_EQ(R.Exit, Exit) << R.Err;
    json Doc = json::parse(readFile(Root + "/out.sarif"));
    std::vector<std::string> Errors = validateJson(Doc, sarifSchema());
    std::string All;
    for (const std::string &E : Errors)
      All += E + "\n";
    EXPECT_TRUE(Errors.empty()) << All;
    return Doc;
  }
};

TEST(SarifLineHash, MatchesGitHubsUploadAction) {
  // The expectations of codeql-action's own test of fingerprints.ts.
  using V = std::vector<std::string>;
  EXPECT_EQ(mlperf::lint::lineHashes(""), V{"c129715d7a2bc9a3:1"});
  EXPECT_EQ(mlperf::lint::lineHashes(" a\nb\n  \t\tc\n d"),
            (V{"271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1"}));
  V Greetings = {"e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1", "e20e36e16fcb0cc8:1",
                 "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", "c129715d7a2bc9a3:1"};
  EXPECT_EQ(mlperf::lint::lineHashes(" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n"), Greetings);
  EXPECT_EQ(mlperf::lint::lineHashes(" hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n"), Greetings);
  EXPECT_EQ(mlperf::lint::lineHashes(" hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n"), Greetings);
  std::string Lorem;
  for (int I = 0; I < 10; ++I)
    Lorem += "Lorem ipsum dolor sit amet.\n";
  EXPECT_EQ(mlperf::lint::lineHashes(Lorem),
            (V{"a7f2ff13bc495cf2:1", "a7f2ff13bc495cf2:2", "a7f2ff13bc495cf2:3", "a7f2ff13bc495cf2:4",
               "a7f2ff13bc495cf2:5", "a7f2ff13bc495cf2:6", "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1",
               "55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1"}));
}

TEST(SarifSchema, ValidatorRejectsBrokenDocuments) {
  json Schema = sarifSchema();
  json Good = {{"version", "2.1.0"}, {"runs", json::array({{{"tool", {{"driver", {{"name", "x"}}}}}}})}};
  EXPECT_TRUE(validateJson(Good, Schema).empty());
  json NoDriverName = Good;
  NoDriverName["runs"][0]["tool"]["driver"].erase("name");
  EXPECT_FALSE(validateJson(NoDriverName, Schema).empty());
  json BadLevel = Good;
  BadLevel["runs"][0]["results"] = json::array({{{"message", {{"text", "m"}}}, {"level", "fatal"}}});
  EXPECT_FALSE(validateJson(BadLevel, Schema).empty());
  json BadLine = Good;
  BadLine["runs"][0]["results"] =
      json::array({{{"message", {{"text", "m"}}},
                    {"locations", json::array({{{"physicalLocation", {{"region", {{"startLine", 0}}}}}}})}}});
  EXPECT_FALSE(validateJson(BadLine, Schema).empty());
  json Extra = Good;
  Extra["runs"][0]["toolz"] = 1;
  EXPECT_FALSE(validateJson(Extra, Schema).empty());
}

TEST_F(SarifTest, GitHubFieldsAndRepoRelativeUris) {
  std::string Source = write("src/sync.cc", syncLoopSource());
  json Doc = sarif({"--sarif-root=" + Root, "src/sync.cc"});
  const json &Run = Doc["runs"][0];
  EXPECT_EQ(Run["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file://" + Root + "/");

  ASSERT_EQ(Run["results"].size(), 1u) << Run.dump(2);
  const json &R = Run["results"][0];
  EXPECT_EQ(R["ruleId"], "mlperf-sync-in-loop");
  const json &Rule = Run["tool"]["driver"]["rules"][R["ruleIndex"].get<size_t>()];
  EXPECT_EQ(Rule["id"], "mlperf-sync-in-loop");
  EXPECT_EQ(Rule["name"], "SyncInLoop") << "SARIF's rule names are PascalCase identifiers";
  EXPECT_EQ(Run["tool"]["driver"]["informationUri"], "file://" MLPERF_SOURCE_DIR "/README.md")
      << "a build tree's binary points at the source tree's documentation";
  EXPECT_EQ(Rule["shortDescription"]["text"], "explicit device synchronization on every step");
  EXPECT_NE(Rule["fullDescription"]["text"].get<std::string>().find("Flags an explicit device synchronization"),
            std::string::npos);
  EXPECT_EQ(Rule["help"]["markdown"], readFile(MLPERF_SOURCE_DIR "/docs/checks/sync-in-loop.md"));
  EXPECT_FALSE(Rule["help"]["text"].get<std::string>().empty());
  EXPECT_EQ(Rule["helpUri"], "file://" MLPERF_SOURCE_DIR "/docs/checks/sync-in-loop.md");
  EXPECT_EQ(Rule["properties"]["precision"], "high");
  EXPECT_EQ(Rule["properties"]["problem.severity"], "warning");

  const json &Loc = R["locations"][0]["physicalLocation"];
  EXPECT_EQ(Loc["artifactLocation"]["uri"], "src/sync.cc");
  EXPECT_EQ(Loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
  EXPECT_EQ(Loc["region"]["startLine"], 6);
  EXPECT_EQ(Loc["region"]["startColumn"], 5);
  EXPECT_EQ(R["partialFingerprints"]["primaryLocationLineHash"], mlperf::lint::lineHashes(syncLoopSource())[5]);

  ASSERT_EQ(R["relatedLocations"].size(), 1u);
  const json &Note = R["relatedLocations"][0];
  EXPECT_EQ(Note["physicalLocation"]["region"]["startLine"], 4);
  EXPECT_NE(Note["message"]["text"].get<std::string>().find("this loop runs a model step"), std::string::npos);
  const json &Flow = R["codeFlows"][0]["threadFlows"][0]["locations"];
  ASSERT_EQ(Flow.size(), 2u);
  EXPECT_EQ(Flow[1]["location"]["physicalLocation"]["region"]["startLine"], 6);
  EXPECT_EQ(Run["invocations"][0]["executionSuccessful"], true);
}

TEST_F(SarifTest, RootDefaultsToTheGitTopLevel) {
  llvm::sys::fs::create_directories(Root + "/.git");
  write("lib/model/sync.cc", syncLoopSource());
  json Doc = sarif({"sync.cc"}, "lib/model");
  const json &Loc = Doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
  EXPECT_EQ(Loc["artifactLocation"]["uri"], "lib/model/sync.cc");
  EXPECT_EQ(Doc["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file://" + Root + "/");
}

TEST_F(SarifTest, CompileErrorsAreNotificationsNotResults) {
  write("sync.cc", syncLoopSource());
  write("broken.cc", "void f() { undeclared_call(); }\n");
  json Doc = sarif({"--sarif-root=" + Root, "sync.cc", "broken.cc"}, "", 2);
  const json &Run = Doc["runs"][0];
  ASSERT_EQ(Run["results"].size(), 1u) << Run.dump(2);
  EXPECT_EQ(Run["results"][0]["ruleId"], "mlperf-sync-in-loop");
  const json &Inv = Run["invocations"][0];
  EXPECT_EQ(Inv["executionSuccessful"], false);
  ASSERT_EQ(Inv["toolExecutionNotifications"].size(), 1u) << Inv.dump(2);
  const json &N = Inv["toolExecutionNotifications"][0];
  EXPECT_EQ(N["level"], "error");
  EXPECT_NE(N["message"]["text"].get<std::string>().find("undeclared_call"), std::string::npos);
  EXPECT_EQ(N["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "broken.cc");
  for (const json &Rule : Run["tool"]["driver"]["rules"])
    EXPECT_NE(Rule["id"], "clang-diagnostic-error");
}

TEST_F(SarifTest, MissingInputIsANotification) {
  json Doc = sarif({"--sarif-root=" + Root, "absent.cc"}, "", 2);
  const json &Inv = Doc["runs"][0]["invocations"][0];
  ASSERT_EQ(Inv["toolExecutionNotifications"].size(), 1u);
  EXPECT_NE(Inv["toolExecutionNotifications"][0]["message"]["text"].get<std::string>().find("absent.cc"),
            std::string::npos);
  EXPECT_TRUE(Doc["runs"][0]["results"].empty());
}

} // namespace
} // namespace mlperf::test
