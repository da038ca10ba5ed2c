// `mlperf-lint lsp` end to end over stdio, driven as an editor drives it:
// messages sent one at a time while the server works, its answers awaited.
#include "IntegrationSupport.h"
#include "LspClient.h"

#include <nlohmann/json.hpp>

#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace mlperf::test {
namespace {

using nlohmann::json;
using std::chrono::seconds;

class LspTest : public ProjectTest {
protected:
  void SetUp() override {
    ProjectTest::SetUp();
    std::signal(SIGPIPE, SIG_IGN); // a server that ended: writes fail instead
  }
  void TearDown() override {
    Client.reset();
    if (Pid > 0)
      waitExit();
    ProjectTest::TearDown();
  }

  /// Starts the server with \p Args, stderr to lsp.err.
  LspClient &start(const std::vector<std::string> &Args) {
    std::vector<std::string> Argv = {MLPERF_LINT_BINARY, "lsp"}, Env;
    Argv.insert(Argv.end(), Args.begin(), Args.end());
    for (char **E = environ; *E; ++E)
      if (!llvm::StringRef(*E).starts_with("MLPERF_LINT_RESULTS="))
        Env.push_back(*E);
    Env.push_back("MLPERF_LINT_RESULTS=" + Root + "/validation.json");
    std::vector<char *> ArgP, EnvP;
    for (std::string &A : Argv)
      ArgP.push_back(A.data());
    for (std::string &E : Env)
      EnvP.push_back(E.data());
    ArgP.push_back(nullptr);
    EnvP.push_back(nullptr);
    int ToServer[2], FromServer[2];
    EXPECT_EQ(pipe2(ToServer, O_CLOEXEC), 0);
    EXPECT_EQ(pipe2(FromServer, O_CLOEXEC), 0);
    int Err = ::open((Root + "/lsp.err").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    Pid = fork();
    if (Pid == 0) {
      dup2(ToServer[0], 0);
      dup2(FromServer[1], 1);
      dup2(Err, 2);
      execve(ArgP[0], ArgP.data(), EnvP.data());
      _exit(127);
    }
    close(ToServer[0]);
    close(FromServer[1]);
    close(Err);
    Client = std::make_unique<LspClient>(ToServer[1], FromServer[0]);
    return *Client;
  }
  /// The server's exit status once its input is closed.
  int waitExit() {
    if (Client)
      Client->closeInput();
    int Status = 0;
    waitpid(Pid, &Status, 0);
    Pid = -1;
    StdErr = readFile(Root + "/lsp.err");
    return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
  }

  std::string uri(const std::string &Rel) { return "file://" + Root + "/" + Rel; }
  void initialize(LspClient &C, const json &Options = json::object()) {
    C.request(1, "initialize",
              {{"processId", nullptr},
               {"rootUri", "file://" + Root},
               {"capabilities", {{"workspace", {{"workspaceEdit", {{"documentChanges", true}}}}}}},
               {"initializationOptions", Options}});
    ASSERT_TRUE(C.response(1).contains("result"));
    C.notify("initialized", json::object());
  }
  void open(LspClient &C, const std::string &Rel, const std::string &Text, int Version = 1) {
    C.notify("textDocument/didOpen",
             {{"textDocument", {{"uri", uri(Rel)}, {"languageId", "cpp"}, {"version", Version}, {"text", Text}}}});
  }
  void change(LspClient &C, const std::string &Rel, const std::string &Text, int Version) {
    C.notify("textDocument/didChange", {{"textDocument", {{"uri", uri(Rel)}, {"version", Version}}},
                                        {"contentChanges", json::array({{{"text", Text}}})}});
  }
  void codeAction(LspClient &C, int Id, const std::string &Rel, unsigned Line) {
    json Range = {{"start", {{"line", Line}, {"character", 0}}}, {"end", {{"line", Line}, {"character", 0}}}};
    C.request(Id, "textDocument/codeAction",
              {{"textDocument", {{"uri", uri(Rel)}}}, {"range", Range}, {"context", {{"diagnostics", json::array()}}}});
  }
  std::vector<std::string> transferArgs() {
    write("p.json", TransferProfile);
    return {"--profile=" + Root + "/p.json", "--", "-std=c++17"};
  }

  std::unique_ptr<LspClient> Client;
  pid_t Pid = -1;
  std::string StdErr;
};

TEST_F(LspTest, DiagnosticsQuickFixAndShutdownOverStdio) {
  write("validation.json", R"({"schema": 2, "machine": "test", "results": [{"check": "mlperf-sync-in-loop",
      "verdict": "confirmed", "engine": "runtime", "backend": "reference", "metric": "syncs", "runs": 5,
      "ratio": {"median": 21.0, "min": 20.0, "max": 22.0}, "metric_description": "device syncs per step"}]})");
  // On disk the file is clean: the server must lint the editor's buffer.
  write("sync.cc", "void train() {}\n");
  write("fixme.cc", TransferSource);
  LspClient &C = start(transferArgs());
  initialize(C);
  open(C, "sync.cc", syncLoopSource());
  open(C, "fixme.cc", TransferSource);

  json Sync = C.published(uri("sync.cc"), 1);
  ASSERT_EQ(Sync.size(), 1u) << Sync.dump(2);
  const json &D = Sync[0];
  EXPECT_EQ(D["code"], "mlperf-sync-in-loop");
  EXPECT_EQ(D["source"], "mlperf-lint");
  EXPECT_EQ(D["severity"], 2);
  // The whole call `cudaDeviceSynchronize()`, not its name alone.
  EXPECT_EQ(D["range"], json::parse(R"({"start": {"line": 5, "character": 4}, "end": {"line": 5, "character": 27}})"));
  std::string Page = D["codeDescription"]["href"];
  EXPECT_TRUE(llvm::StringRef(Page).ends_with("/checks/sync-in-loop.md")) << Page;
  EXPECT_TRUE(llvm::sys::fs::exists(llvm::StringRef(Page).drop_front(7))) << Page;
  EXPECT_NE(D["message"].get<std::string>().find("blocks the host"), std::string::npos);
  EXPECT_NE(D["message"].get<std::string>().find("measured on the fixture: 21x device syncs per step"),
            std::string::npos)
      << D["message"];
  ASSERT_EQ(D["relatedInformation"].size(), 1u);
  EXPECT_EQ(D["relatedInformation"][0]["location"]["range"]["start"]["line"], 3);

  ASSERT_EQ(C.published(uri("fixme.cc"), 1).size(), 1u);
  codeAction(C, 2, "fixme.cc", 4);
  json Actions = C.response(2);
  ASSERT_EQ(Actions["result"].size(), 1u) << Actions.dump(2);
  const json &Action = Actions["result"][0];
  EXPECT_EQ(Action["kind"], "quickfix");
  EXPECT_EQ(Action["title"], "Hoist `w.upload()` out of the loop into `w_on_device`");
  EXPECT_EQ(Action["diagnostics"][0]["code"], "mlperf-loop-invariant-transfer");
  const json &Edit = Action["edit"]["documentChanges"];
  ASSERT_EQ(Edit.size(), 1u) << Action.dump(2);
  EXPECT_EQ(Edit[0]["textDocument"], json({{"uri", uri("fixme.cc")}, {"version", 1}}));
  std::string Fixed = applyEdits(TransferSource, Edit[0]["edits"]);
  EXPECT_NE(Fixed.find("  auto w_on_device = w.upload();\n  for (int i = 0; i < 10; ++i) {\n    e.run(w_on_device);"),
            std::string::npos)
      << Fixed;

  // The editor applies the edit and saves: the finding is gone.
  write("fixme.cc", Fixed);
  change(C, "fixme.cc", Fixed, 2);
  C.notify("textDocument/didSave", {{"textDocument", {{"uri", uri("fixme.cc")}}}});
  json Clean = C.published(uri("fixme.cc"), 2);
  EXPECT_TRUE(Clean.is_array() && Clean.empty()) << Clean.dump(2);
  C.request(3, "shutdown", nullptr);
  EXPECT_TRUE(C.response(3).contains("result"));
  C.notify("exit", nullptr);
  EXPECT_EQ(waitExit(), 0) << StdErr;
}

/// An editor's buffer is parsed against the shared preamble of its leading
/// system includes, as a command-line run of the file is: the first lint
/// precompiles it (from the buffer's includes, not the file's), the next
/// lints reuse it, and the findings are the same.
TEST_F(LspTest, BuffersAreParsedAgainstTheSharedPreamble) {
  auto Pchs = [&] {
    std::error_code EC;
    size_t N = 0;
    for (llvm::sys::fs::directory_iterator It(Root + "/cache/preamble", EC), End; It != End && !EC; It.increment(EC))
      N += llvm::StringRef(It->path()).ends_with(".pch");
    return N;
  };
  write("sync.cc", "void train() {}\n");
  LspClient &C = start({"--cache-dir=" + Root + "/cache", "--", "-std=c++17"});
  initialize(C);
  std::string Text = "#include <vector>\n" + syncLoopSource();
  open(C, "sync.cc", Text);
  json First = C.published(uri("sync.cc"), 1);
  ASSERT_EQ(First.size(), 1u) << First.dump(2);
  EXPECT_EQ(First[0]["range"]["start"]["line"], 6);
  EXPECT_EQ(Pchs(), 1u) << "no preamble for the buffer's <vector>";
  change(C, "sync.cc", "// edited\n" + Text, 2);
  json Second = C.published(uri("sync.cc"), 2);
  ASSERT_EQ(Second.size(), 1u) << Second.dump(2);
  EXPECT_EQ(Second[0]["range"]["start"]["line"], 7);
  EXPECT_EQ(Pchs(), 1u) << "the second lint built another preamble";
  C.request(2, "shutdown", nullptr);
  EXPECT_TRUE(C.response(2).contains("result"));
  C.notify("exit", nullptr);
  EXPECT_EQ(waitExit(), 0) << StdErr;
}

/// A preamble whose includes do not compile alone is tried once per session,
/// not before every lint (each would parse the headers twice).
TEST_F(LspTest, APreambleThatFailsIsNotRebuiltForEachLint) {
  write("sys/first.h", "Undeclared before_anything;\n");
  write("sync.cc", "void train() {}\n");
  LspClient &C = start({"--cache-dir=" + Root + "/cache", "--", "-std=c++17", "-isystem" + Root + "/sys"});
  initialize(C);
  std::string Text = "#include <first.h>\n" + syncLoopSource();
  open(C, "sync.cc", Text);
  C.published(uri("sync.cc"), 1);
  auto HeaderId = [&] {
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Root + "/cache/preamble", EC), End; It != End && !EC; It.increment(EC))
      if (llvm::StringRef(It->path()).ends_with(".h")) {
        llvm::sys::fs::UniqueID Id;
        EXPECT_FALSE(llvm::sys::fs::getUniqueID(It->path(), Id));
        return Id.getFile();
      }
    ADD_FAILURE() << "no preamble was tried";
    return uint64_t(0);
  };
  uint64_t Tried = HeaderId();
  change(C, "sync.cc", "// edited\n" + Text, 2);
  C.published(uri("sync.cc"), 2);
  EXPECT_EQ(HeaderId(), Tried) << "the failed preamble was written and built again";
  C.request(2, "shutdown", nullptr);
  EXPECT_TRUE(C.response(2).contains("result"));
  C.notify("exit", nullptr);
  EXPECT_EQ(waitExit(), 0) << StdErr;
}

/// A fix offered for the text that was linted, applied to a buffer edited
/// since, would land at the old offsets: it is not offered until the edited
/// text is linted, and then for that text.
TEST_F(LspTest, CodeActionForAnEditedBufferIsRefused) {
  write("fixme.cc", TransferSource);
  LspClient &C = start(transferArgs());
  initialize(C, {{"debounceMs", 600000}}); // the edit is not linted until saved
  open(C, "fixme.cc", TransferSource);
  ASSERT_EQ(C.published(uri("fixme.cc"), 1).size(), 1u) << StdErr;
  std::string Edited = std::string("// two lines\n// added, not saved\n") + TransferSource;
  change(C, "fixme.cc", Edited, 2);
  codeAction(C, 2, "fixme.cc", 4); // where the finding was
  codeAction(C, 3, "fixme.cc", 6); // where it is now
  EXPECT_EQ(C.response(2)["result"], json::array()) << "a fix at the old offsets would damage the buffer";
  EXPECT_EQ(C.response(3)["result"], json::array());

  C.notify("textDocument/didSave", {{"textDocument", {{"uri", uri("fixme.cc")}}}});
  json Now = C.published(uri("fixme.cc"), 2);
  ASSERT_EQ(Now.size(), 1u) << Now.dump(2);
  EXPECT_EQ(Now[0]["range"]["start"]["line"], 6);
  codeAction(C, 4, "fixme.cc", 6);
  json Actions = C.response(4)["result"];
  ASSERT_EQ(Actions.size(), 1u) << Actions.dump(2);
  const json &Edit = Actions[0]["edit"]["documentChanges"][0];
  EXPECT_EQ(Edit["textDocument"]["version"], 2);
  std::string Fixed = applyEdits(Edited, Edit["edits"]);
  EXPECT_NE(Fixed.find("// added, not saved\nnamespace fw"), std::string::npos) << Fixed;
  EXPECT_NE(Fixed.find("  auto w_on_device = w.upload();\n  for"), std::string::npos) << Fixed;
}

/// A code action and an unknown request sent while a slow file is linted
/// are answered before that lint publishes (a server that lints on the
/// thread that reads answers them only after).
TEST_F(LspTest, RequestsAreAnsweredBeforeASlowLintPublishes) {
  std::string Slow = TransferSource;
  for (int I = 0; I < 3000; ++I)
    Slow += "template <int N> struct S" + std::to_string(I) + " { int f(fw::Exec &e, const fw::Host &w) { " +
            "for (int i = 0; i < N; ++i) e.run(w.upload()); return N; } };\nint g" + std::to_string(I) +
            "(fw::Exec &e, const fw::Host &w) { return S" + std::to_string(I) + "<3>().f(e, w); }\n";
  write("slow.cc", Slow);
  LspClient &C = start(transferArgs());
  initialize(C);
  open(C, "slow.cc", Slow);
  auto Sent = std::chrono::steady_clock::now();
  codeAction(C, 2, "slow.cc", 4);
  C.request(3, "textDocument/hover", {{"textDocument", {{"uri", uri("slow.cc")}}}});
  ASSERT_FALSE(C.published(uri("slow.cc"), 1, seconds(300)).is_null()) << StdErr;
  std::vector<Received> All = C.received();
  auto Index = [&](const std::function<bool(const json &)> &Match) {
    return std::find_if(All.begin(), All.end(), [&](const Received &R) { return Match(R.Message); }) - All.begin();
  };
  auto Action = Index([](const json &M) { return M.value("id", json()) == 2; });
  auto Hover = Index([](const json &M) { return M.value("id", json()) == 3; });
  auto Published = Index([](const json &M) { return M.value("method", "") == "textDocument/publishDiagnostics"; });
  ASSERT_LT(Action, static_cast<long>(All.size()));
  EXPECT_LT(Action, Published) << "the code action waited for the lint";
  EXPECT_LT(Hover, Published);
  EXPECT_EQ(All[Hover].Message["error"]["code"], -32601);
  auto Ms = [&](auto At) { return std::chrono::duration_cast<std::chrono::milliseconds>(At - Sent).count(); };
  std::cout << "code action answered after " << Ms(All[Action].At) << " ms, the lint published after "
            << Ms(All[Published].At) << " ms\n";
}

/// Frames and bodies an editor never sends: each is answered with a
/// JSON-RPC error and the server goes on.
TEST_F(LspTest, BadFramesAndBodiesGetErrors) {
  LspClient &C = start({});
  C.sendRaw("Content-Length: -5\r\n\r\n");
  C.sendRaw("Content-Length: 12abc\r\n\r\n");
  C.sendRaw("Content-Type: application/vscode-jsonrpc\r\n\r\n");
  std::string Deep = R"({"jsonrpc": "2.0", "id": 5, "method": "textDocument/codeAction", "params": )" +
                     std::string(100000, '[') + std::string(100000, ']') + "}";
  C.sendRaw("Content-Length: " + std::to_string(Deep.size()) + "\r\n\r\n" + Deep);
  C.sendRaw("Content-Length: 5\r\n\r\n{oops");
  C.sendRaw("Content-Length: 2\r\n\r\n42");
  C.send({{"id", {{"not", "an id"}}}, {"method", "shutdown"}});
  C.request(6, "shutdown", nullptr);
  ASSERT_TRUE(C.response(6).contains("result")) << StdErr;
  C.notify("exit", nullptr);
  EXPECT_EQ(waitExit(), 0) << StdErr;
  std::map<int, int> Codes;
  for (const Received &R : C.received())
    if (R.Message.contains("error")) {
      ++Codes[R.Message["error"]["code"].get<int>()];
      EXPECT_TRUE(R.Message["id"].is_null()) << R.Message.dump();
    }
  EXPECT_EQ(Codes[-32700], 5) << StdErr;
  EXPECT_EQ(Codes[-32600], 2) << StdErr;
  EXPECT_NE(StdErr.find("nested more than 256 levels deep"), std::string::npos) << StdErr;
  EXPECT_NE(StdErr.find("Content-Length is not a byte count"), std::string::npos) << StdErr;
}

/// A length the input never delivers, or one over the limit, ends the
/// session (or skips the message) with a line on stderr, not an abort.
TEST_F(LspTest, TruncatedAndOversizedMessagesEndCleanly) {
  struct Case {
    std::string Input, Stderr;
  } Cases[] = {{"Content-Length: 100\r\n\r\n{\"jsonrpc\": ", "the input ended 12 bytes into a message of 100"},
               {"Content-Length: 9223372036854775807\r\n\r\n{}", "over the limit of 67108864; skipped"},
               {"Content-Length: 70000000\r\n\r\n", "over the limit of 67108864; skipped"},
               {"Content-Length: 99999999999999999999999\r\n\r\n", "Content-Length is not a byte count"},
               {"Content-Length: 2\r\nX-" + std::string(100000, 'a') + "\r\n\r\n{}", "a header line longer than"}};
  for (const Case &K : Cases) {
    LspClient &C = start({});
    C.sendRaw(K.Input);
    EXPECT_EQ(waitExit(), 1) << K.Input.substr(0, 60) << StdErr;
    EXPECT_NE(StdErr.find(K.Stderr), std::string::npos) << K.Input.substr(0, 60) << StdErr;
    Client.reset();
  }
}

TEST_F(LspTest, UnknownRequestsAndBadJsonGetErrors) {
  LspClient &C = start({});
  C.request(1, "textDocument/hover", json::object());
  C.sendRaw("Content-Length: 5\r\n\r\n{oops");
  C.request(4, "textDocument/codeAction", {{"textDocument", 42}});
  C.notify("textDocument/didOpen", {{"textDocument", {{"uri", 7}}}});
  C.request(2, "shutdown", nullptr);
  C.notify("exit", nullptr);
  EXPECT_EQ(waitExit(), 0) << StdErr;
  EXPECT_EQ(C.response(1)["error"]["code"], -32601);
  EXPECT_EQ(C.response(4)["error"]["code"], -32602) << "a field of the wrong type fails the request only";
  EXPECT_NE(StdErr.find("ignored a malformed notification"), std::string::npos) << StdErr;
  EXPECT_FALSE(C.waitFor([](const json &M) { return M.contains("error") && M["error"]["code"] == -32700; }, seconds(0))
                   .is_null());
}

} // namespace
} // namespace mlperf::test
