// `mlperf-lint lsp` end to end over stdio: initialize, didOpen (the buffer,
// not the file on disk), publishDiagnostics with the finding's range, code
// and measured note, a quick fix applied, the fixed buffer saved and clean,
// shutdown and exit.
#include "IntegrationSupport.h"
#include "lsp/Transport.h"

#include "llvm/Support/Program.h"

#include <nlohmann/json.hpp>

#include <sstream>

extern char **environ;

namespace mlperf::test {
namespace {

using nlohmann::json;

class LspTest : public ProjectTest {
protected:
  void send(const json &Message) {
    json M = Message;
    M["jsonrpc"] = "2.0";
    lint::lsp::writeMessage(Input, M);
  }
  void notify(const std::string &Method, const json &Params) { send({{"method", Method}, {"params", Params}}); }
  void request(int Id, const std::string &Method, const json &Params) {
    send({{"id", Id}, {"method", Method}, {"params", Params}});
  }
  std::string uri(const std::string &Rel) { return "file://" + Root + "/" + Rel; }

  /// Runs the server on everything sent so far; its messages in order.
  std::vector<json> serve(const std::vector<std::string> &Args, int &Exit) {
    std::string In = write("lsp.in", Input.str()), Out = Root + "/lsp.out", Err = Root + "/lsp.err";
    std::vector<llvm::StringRef> Argv = {MLPERF_LINT_BINARY, "lsp"};
    Argv.insert(Argv.end(), Args.begin(), Args.end());
    std::vector<std::string> EnvStorage;
    for (char **E = environ; *E; ++E)
      if (!llvm::StringRef(*E).starts_with("MLPERF_LINT_RESULTS="))
        EnvStorage.push_back(*E);
    EnvStorage.push_back("MLPERF_LINT_RESULTS=" + Root + "/validation.json");
    std::vector<llvm::StringRef> Env(EnvStorage.begin(), EnvStorage.end());
    std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(In), llvm::StringRef(Out), llvm::StringRef(Err)};
    std::string Error;
    Exit = llvm::sys::ExecuteAndWait(MLPERF_LINT_BINARY, Argv, Env, Redirects, /*SecondsToWait=*/300, 0, &Error);
    EXPECT_TRUE(Error.empty()) << Error;
    StdErr = readFile(Err);
    std::istringstream Stream(readFile(Out));
    std::vector<json> Messages;
    std::string ParseError;
    while (std::optional<json> M = lint::lsp::readMessage(Stream, ParseError)) {
      EXPECT_TRUE(ParseError.empty()) << ParseError;
      Messages.push_back(*M);
    }
    return Messages;
  }

  static std::vector<json> published(const std::vector<json> &Messages, const std::string &Uri) {
    std::vector<json> Out;
    for (const json &M : Messages)
      if (M.value("method", "") == "textDocument/publishDiagnostics" && M["params"]["uri"] == Uri)
        Out.push_back(M["params"]["diagnostics"]);
    return Out;
  }
  static json response(const std::vector<json> &Messages, int Id) {
    for (const json &M : Messages)
      if (M.contains("id") && M["id"] == Id)
        return M;
    return nullptr;
  }

  std::ostringstream Input;
  std::string StdErr;
};

/// Applies LSP text edits (ASCII text, so characters are bytes).
std::string applyEdits(const std::string &Text, json Edits) {
  std::vector<size_t> LineStarts = {0};
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
  auto Offset = [&](const json &P) { return LineStarts[P["line"].get<size_t>()] + P["character"].get<size_t>(); };
  std::sort(Edits.begin(), Edits.end(),
            [&](const json &A, const json &B) { return Offset(A["range"]["start"]) > Offset(B["range"]["start"]); });
  std::string Out = Text;
  for (const json &E : Edits) {
    size_t Begin = Offset(E["range"]["start"]), End = Offset(E["range"]["end"]);
    Out.replace(Begin, End - Begin, E["newText"].get<std::string>());
  }
  return Out;
}

TEST_F(LspTest, DiagnosticsQuickFixAndShutdownOverStdio) {
  write("validation.json", R"({"schema": 2, "machine": "test", "results": [{"check": "mlperf-sync-in-loop",
      "verdict": "confirmed", "engine": "runtime", "backend": "reference", "metric": "syncs", "runs": 5,
      "ratio": {"median": 21.0, "min": 20.0, "max": 22.0}, "metric_description": "device syncs per step"}]})");
  write("p.json", TransferProfile);
  // On disk the file is clean: the server must lint the editor's buffer.
  write("sync.cc", "void train() {}\n");
  write("fixme.cc", TransferSource);

  request(1, "initialize", {{"processId", nullptr}, {"rootUri", "file://" + Root}, {"capabilities", json::object()}});
  notify("initialized", json::object());
  notify(
      "textDocument/didOpen",
      {{"textDocument", {{"uri", uri("sync.cc")}, {"languageId", "cpp"}, {"version", 1}, {"text", syncLoopSource()}}}});
  notify(
      "textDocument/didOpen",
      {{"textDocument", {{"uri", uri("fixme.cc")}, {"languageId", "cpp"}, {"version", 1}, {"text", TransferSource}}}});
  json Line4 = {{"start", {{"line", 4}, {"character", 0}}}, {"end", {{"line", 4}, {"character", 0}}}};
  request(
      2, "textDocument/codeAction",
      {{"textDocument", {{"uri", uri("fixme.cc")}}}, {"range", Line4}, {"context", {{"diagnostics", json::array()}}}});
  int Exit = -1;
  std::vector<json> First = serve({"--profile=" + Root + "/p.json", "--", "-std=c++17"}, Exit);
  EXPECT_EQ(Exit, 1) << "no exit yet: the input ended";

  json Init = response(First, 1);
  ASSERT_TRUE(Init.contains("result")) << Init.dump();
  EXPECT_EQ(Init["result"]["serverInfo"]["name"], "mlperf-lint");
  EXPECT_EQ(Init["result"]["capabilities"]["textDocumentSync"]["openClose"], true);
  EXPECT_TRUE(Init["result"]["capabilities"].contains("codeActionProvider"));

  std::vector<json> Sync = published(First, uri("sync.cc"));
  ASSERT_EQ(Sync.size(), 1u) << StdErr;
  ASSERT_EQ(Sync[0].size(), 1u) << Sync[0].dump(2);
  const json &D = Sync[0][0];
  EXPECT_EQ(D["code"], "mlperf-sync-in-loop");
  EXPECT_EQ(D["source"], "mlperf-lint");
  EXPECT_EQ(D["severity"], 2);
  EXPECT_EQ(D["range"], json::parse(R"({"start": {"line": 5, "character": 4}, "end": {"line": 5, "character": 25}})"));
  EXPECT_NE(D["message"].get<std::string>().find("blocks the host"), std::string::npos);
  EXPECT_NE(D["message"].get<std::string>().find("measured on the fixture: 21x device syncs per step"),
            std::string::npos)
      << D["message"];
  ASSERT_EQ(D["relatedInformation"].size(), 1u);
  EXPECT_EQ(D["relatedInformation"][0]["location"]["range"]["start"]["line"], 3);

  json Actions = response(First, 2);
  ASSERT_TRUE(Actions.contains("result")) << Actions.dump();
  ASSERT_EQ(Actions["result"].size(), 1u) << Actions.dump(2);
  const json &Action = Actions["result"][0];
  EXPECT_EQ(Action["kind"], "quickfix");
  EXPECT_EQ(Action["diagnostics"][0]["code"], "mlperf-loop-invariant-transfer");
  std::string Fixed = applyEdits(TransferSource, Action["edit"]["changes"][uri("fixme.cc")]);
  EXPECT_NE(Fixed.find("  auto w_on_device = w.upload();\n  for (int i = 0; i < 10; ++i) {\n    e.run(w_on_device);"),
            std::string::npos)
      << Fixed;

  // The editor applies the edit and saves: the finding is gone.
  write("fixme.cc", Fixed);
  notify("textDocument/didChange", {{"textDocument", {{"uri", uri("fixme.cc")}, {"version", 2}}},
                                    {"contentChanges", json::array({{{"text", Fixed}}})}});
  notify("textDocument/didSave", {{"textDocument", {{"uri", uri("fixme.cc")}}}});
  request(3, "shutdown", nullptr);
  notify("exit", nullptr);
  std::vector<json> Second = serve({"--profile=" + Root + "/p.json", "--", "-std=c++17"}, Exit);
  EXPECT_EQ(Exit, 0) << StdErr;
  std::vector<json> Fix = published(Second, uri("fixme.cc"));
  ASSERT_EQ(Fix.size(), 2u) << "on open and on save";
  EXPECT_EQ(Fix[0].size(), 1u);
  EXPECT_TRUE(Fix[1].empty()) << Fix[1].dump(2);
  EXPECT_TRUE(response(Second, 3).contains("result"));
}

TEST_F(LspTest, UnknownRequestsAndBadJsonGetErrors) {
  request(1, "textDocument/hover", json::object());
  Input << "Content-Length: 5\r\n\r\n{oops";
  request(4, "textDocument/codeAction", {{"textDocument", 42}});
  notify("textDocument/didOpen", {{"textDocument", {{"uri", 7}}}});
  request(2, "shutdown", nullptr);
  notify("exit", nullptr);
  int Exit = -1;
  std::vector<json> Messages = serve({}, Exit);
  EXPECT_EQ(Exit, 0) << StdErr;
  EXPECT_EQ(response(Messages, 1)["error"]["code"], -32601);
  EXPECT_EQ(response(Messages, 4)["error"]["code"], -32602) << "a field of the wrong type fails the request only";
  EXPECT_NE(StdErr.find("ignored a malformed notification"), std::string::npos) << StdErr;
  bool SawParseError = false;
  for (const json &M : Messages)
    SawParseError |= M.contains("error") && M["error"]["code"] == -32700;
  EXPECT_TRUE(SawParseError);
}

} // namespace
} // namespace mlperf::test
