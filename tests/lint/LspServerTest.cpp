// The language server in-process, with a linter the test controls: a lint
// held until the test lets it finish shows what the server does meanwhile
// (answers, discards, cancels) without depending on how long a parse takes.
// Also the framing and the conversion of findings on their own.
#include "IntegrationSupport.h"
#include "LintTestSupport.h"
#include "LspClient.h"
#include "lsp/Convert.h"
#include "lsp/Server.h"
#include "lsp/Transport.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fcntl.h>
#include <sstream>
#include <unistd.h>

namespace mlperf::test {
namespace {

using nlohmann::json;
using std::chrono::seconds;
namespace lsp = lint::lsp;

/// Reports each "BAD" of a buffer as a finding whose fix makes it "GOOD";
/// while held, a lint waits until released or cancelled.
class HeldLinter {
public:
  lsp::LintedBuffer lint(const std::string &Path, const std::map<std::string, std::string> &Buffers,
                         const std::function<bool()> &Cancelled) {
    std::unique_lock<std::mutex> L(Lock);
    const std::string &Text = Buffers.at(Path);
    Texts.push_back(Text);
    Changed.notify_all();
    while (Held)
      if (Cancelled()) {
        ++CancelledLints;
        Changed.notify_all();
        return {};
      } else {
        Changed.wait_for(L, std::chrono::milliseconds(5));
      }
    std::vector<clang::tidy::ClangTidyError> Errors;
    for (size_t At = Text.find("BAD"); At != std::string::npos; At = Text.find("BAD", At + 1)) {
      clang::tidy::ClangTidyError E("mlperf-sync-in-loop", clang::tidy::ClangTidyError::Warning, "/", false);
      E.Message.Message = "bad";
      E.Message.FilePath = Path;
      E.Message.FileOffset = At;
      llvm::consumeError(E.Message.Fix[Path].add(clang::tooling::Replacement(Path, At, 3, "GOOD")));
      Errors.push_back(E);
    }
    lsp::TextIndex Index(Text);
    return {lsp::findingsIn(Path, Errors, [&](const std::string &) -> const lsp::TextIndex & { return Index; }), {}};
  }
  lsp::Linter linter() {
    return [this](const std::string &P, const std::map<std::string, std::string> &B,
                  const std::function<bool()> &Cancelled) { return lint(P, B, Cancelled); };
  }
  void hold(bool H) {
    std::lock_guard<std::mutex> G(Lock);
    Held = H;
    Changed.notify_all();
  }
  /// Waits until \p N lints have started.
  bool started(size_t N) {
    std::unique_lock<std::mutex> L(Lock);
    return Changed.wait_for(L, seconds(30), [&] { return Texts.size() >= N; });
  }
  std::vector<std::string> texts() {
    std::lock_guard<std::mutex> G(Lock);
    return Texts;
  }
  size_t cancelled() {
    std::lock_guard<std::mutex> G(Lock);
    return CancelledLints;
  }

private:
  std::mutex Lock;
  std::condition_variable Changed;
  bool Held = false;
  size_t CancelledLints = 0;
  std::vector<std::string> Texts;
};

/// lsp::serve on a thread, talking through pipes.
class InProcess {
public:
  InProcess(HeldLinter &L, std::chrono::milliseconds Debounce) {
    int ToServer[2], FromServer[2];
    EXPECT_EQ(pipe2(ToServer, O_CLOEXEC), 0);
    EXPECT_EQ(pipe2(FromServer, O_CLOEXEC), 0);
    Thread = std::thread([this, &L, Debounce, In = ToServer[0], Out = FromServer[1]] {
      FdInBuf InBuf(In);
      FdOutBuf OutBuf(Out);
      std::istream InStream(&InBuf);
      std::ostream OutStream(&OutBuf);
      lsp::ServerOptions O;
      O.Debounce = Debounce;
      Exit = lsp::serve(L.linter(), O, InStream, OutStream, LogStream);
      ::close(In);
      ::close(Out);
    });
    Client = std::make_unique<LspClient>(ToServer[1], FromServer[0]);
  }
  ~InProcess() { finish(); }
  int finish() {
    Client->closeInput();
    if (Thread.joinable())
      Thread.join();
    return Exit;
  }
  LspClient &client() { return *Client; }
  std::string log() { return Log; }

private:
  std::string Log;
  llvm::raw_string_ostream LogStream{Log};
  std::atomic<int> Exit{-1};
  std::thread Thread;
  std::unique_ptr<LspClient> Client;
};

const char *const Uri = "file:///work/a.cc";

void open(LspClient &C, const std::string &Text) {
  C.notify("textDocument/didOpen", {{"textDocument", {{"uri", Uri}, {"version", 1}, {"text", Text}}}});
}
void change(LspClient &C, const std::string &Text, int Version) {
  C.notify("textDocument/didChange",
           {{"textDocument", {{"uri", Uri}, {"version", Version}}}, {"contentChanges", {{{"text", Text}}}}});
}
json lines(unsigned From, unsigned To) {
  return {{"start", {{"line", From}, {"character", 0}}}, {"end", {{"line", To}, {"character", 0}}}};
}

TEST(LspServerTest, RequestsAreAnsweredWhileALintRuns) {
  HeldLinter L;
  L.hold(true);
  InProcess S(L, std::chrono::milliseconds(0));
  LspClient &C = S.client();
  C.request(1, "initialize", {{"capabilities", json::object()}});
  open(C, "BAD\n");
  ASSERT_TRUE(L.started(1));
  C.request(2, "textDocument/codeAction", {{"textDocument", {{"uri", Uri}}}, {"range", lines(0, 0)}});
  C.request(3, "textDocument/hover", {{"textDocument", {{"uri", Uri}}}});
  C.request(4, "shutdown", nullptr);
  // All answered while the lint is held: none waits for it.
  EXPECT_EQ(C.response(2, seconds(30))["result"], json::array());
  EXPECT_EQ(C.response(3, seconds(30))["error"]["code"], -32601);
  EXPECT_TRUE(C.response(4, seconds(30)).contains("result"));
  EXPECT_EQ(L.texts().size(), 1u);
  L.hold(false);
  C.notify("exit", nullptr);
  EXPECT_EQ(S.finish(), 0) << S.log();
}

TEST(LspServerTest, ALintOfAnOlderTextIsDiscarded) {
  HeldLinter L;
  L.hold(true);
  InProcess S(L, std::chrono::milliseconds(0));
  LspClient &C = S.client();
  open(C, "BAD\n");
  ASSERT_TRUE(L.started(1));
  change(C, "ok\nBAD\n", 2);
  C.request(2, "textDocument/codeAction", {{"textDocument", {{"uri", Uri}}}, {"range", lines(0, 1)}});
  EXPECT_EQ(C.response(2, seconds(30))["result"], json::array()) << "nothing is diagnosed yet";
  L.hold(false);
  json Now = C.published(Uri, 2, seconds(30));
  ASSERT_EQ(Now.size(), 1u) << Now.dump() << S.log();
  EXPECT_EQ(Now[0]["range"]["start"]["line"], 1);
  EXPECT_EQ(L.texts(), (std::vector<std::string>{"BAD\n", "ok\nBAD\n"}));
  C.request(3, "textDocument/codeAction", {{"textDocument", {{"uri", Uri}}}, {"range", lines(1, 1)}});
  json Actions = C.response(3, seconds(30))["result"];
  ASSERT_EQ(Actions.size(), 1u);
  EXPECT_EQ(Actions[0]["title"], "Replace `BAD` with `GOOD`");
  EXPECT_EQ(Actions[0]["edit"]["changes"][Uri][0]["range"],
            json::parse(R"({"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 3}})"));
  S.finish();
  for (const Received &R : C.received())
    EXPECT_NE(R.Message.value("params", json::object()).value("version", 0), 1) << "the first lint was published";
  EXPECT_NE(S.log().find("the lint of an older text discarded"), std::string::npos) << S.log();
}

// The running lint of an edited text is cancelled rather than waited for:
// the edited text's lint starts while the first is still held.
TEST(LspServerTest, ALintOfAnEditedTextIsCancelled) {
  HeldLinter L;
  L.hold(true);
  InProcess S(L, std::chrono::milliseconds(0));
  LspClient &C = S.client();
  open(C, "BAD\n");
  ASSERT_TRUE(L.started(1));
  change(C, "ok\nBAD\n", 2);
  ASSERT_TRUE(L.started(2)) << "the edited text waited for the outdated lint";
  EXPECT_EQ(L.cancelled(), 1u);
  L.hold(false);
  json Now = C.published(Uri, 2, seconds(30));
  ASSERT_EQ(Now.size(), 1u) << Now.dump() << S.log();
  EXPECT_EQ(Now[0]["range"]["start"]["line"], 1);
  S.finish();
  EXPECT_NE(S.log().find("the lint of an older text discarded"), std::string::npos) << S.log();
}

// What cancels a running lint: the parse stops at the next top-level
// declaration and the checks never see the file.
TEST(LspServerTest, ACancelledParseStopsBeforeTheChecks) {
  const std::string Source = syncLoopSource() + "int a;\nint b;\nint c;\n";
  const std::vector<std::string> Args = {"-std=c++17"};
  unsigned Asked = 0;
  auto Never = [&] { return ++Asked, false; };
  EXPECT_EQ(runChecks("/virtual/sync.cc", Source, "-*,mlperf-sync-in-loop", {}, Args, Never).size(), 1u);
  EXPECT_GE(Asked, 6u) << "asked at each of the file's top-level declarations";
  // Cancelled once train() is parsed: its loop is never checked.
  unsigned AskedThen = 0;
  auto AfterTrain = [&] { return ++AskedThen == 4; };
  EXPECT_TRUE(runChecks("/virtual/sync.cc", Source, "-*,mlperf-sync-in-loop", {}, Args, AfterTrain).empty());
  EXPECT_EQ(AskedThen, 4u) << "the parse went on after it was cancelled";
}

TEST(LspServerTest, EditsAreDebounced) {
  HeldLinter L;
  InProcess S(L, std::chrono::milliseconds(0));
  LspClient &C = S.client();
  C.request(1, "initialize", {{"capabilities", json::object()}, {"initializationOptions", {{"debounceMs", 1500}}}});
  open(C, "BAD\n");
  ASSERT_FALSE(C.published(Uri, 1, seconds(30)).is_null());
  change(C, "BAD BAD\n", 2);
  change(C, "BAD BAD BAD\n", 3);
  change(C, "ok\n", 4);
  EXPECT_EQ(C.published(Uri, 4, seconds(30)), json::array());
  EXPECT_EQ(L.texts(), (std::vector<std::string>{"BAD\n", "ok\n"})) << "one lint for three quick edits";
}

/// A client may send ranges although the server asks for whole texts:
/// they are applied at their UTF-16 positions.
TEST(LspServerTest, RangeChangesAreAppliedInUtf16) {
  HeldLinter L;
  InProcess S(L, std::chrono::milliseconds(0));
  LspClient &C = S.client();
  open(C, "// x\n\xC3\xA9\xF0\x9F\x98\x80"
          "BAD;\n"); // é (1 unit), 😀 (2 units)
  ASSERT_EQ(C.published(Uri, 1, seconds(30)).size(), 1u);
  json Edit = {{"range", {{"start", {{"line", 1}, {"character", 3}}}, {"end", {{"line", 1}, {"character", 6}}}}},
               {"text", "ok"}};
  C.notify("textDocument/didChange",
           {{"textDocument", {{"uri", Uri}, {"version", 2}}}, {"contentChanges", json::array({Edit})}});
  EXPECT_EQ(C.published(Uri, 2, seconds(30)), json::array());
  EXPECT_EQ(L.texts().back(), "// x\n\xC3\xA9\xF0\x9F\x98\x80"
                              "ok;\n");
}

/// An output that takes nothing until opened; an input that says when it
/// has been read to its end.
class GatedOutBuf : public std::streambuf {
public:
  void open() {
    std::lock_guard<std::mutex> G(Lock);
    Opened = true;
    Ready.notify_all();
  }
  std::string text() {
    std::lock_guard<std::mutex> G(Lock);
    return Text;
  }

protected:
  std::streamsize xsputn(const char *S, std::streamsize N) override {
    std::unique_lock<std::mutex> L(Lock);
    Ready.wait(L, [&] { return Opened; });
    Text.append(S, N);
    return N;
  }
  int_type overflow(int_type C) override {
    char Ch = traits_type::to_char_type(C);
    return traits_type::eq_int_type(C, traits_type::eof()) || xsputn(&Ch, 1) == 1 ? traits_type::not_eof(C) : C;
  }

private:
  std::mutex Lock;
  std::condition_variable Ready;
  bool Opened = false;
  std::string Text;
};

class WatchedInBuf : public std::stringbuf {
public:
  explicit WatchedInBuf(const std::string &S) : std::stringbuf(S) {}
  std::atomic<bool> AtEnd{false};

protected:
  int_type underflow() override {
    int_type C = std::stringbuf::underflow();
    if (traits_type::eq_int_type(C, traits_type::eof()))
      AtEnd = true;
    return C;
  }
};

TEST(LspServerTest, CancelledRequestIsAnsweredAsCancelled) {
  auto Message = [](json M) {
    M["jsonrpc"] = "2.0";
    return lsp::frame(M);
  };
  WatchedInBuf In(Message({{"id", 1}, {"method", "textDocument/hover"}}) +
                  Message({{"id", 2}, {"method", "textDocument/hover"}}) +
                  Message({{"method", "$/cancelRequest"}, {"params", {{"id", 2}}}}) +
                  Message({{"method", "$/cancelRequest"}, {"params", {{"id", 99}}}}) +
                  Message({{"id", 3}, {"method", "shutdown"}}));
  GatedOutBuf Out;
  HeldLinter L;
  std::string Log;
  llvm::raw_string_ostream LogStream(Log);
  int Exit = -1;
  std::thread Server([&] {
    std::istream InStream(&In);
    std::ostream OutStream(&Out);
    Exit = lsp::serve(L.linter(), lsp::ServerOptions(), InStream, OutStream, LogStream);
  });
  // The server blocks on its first answer while the reader reads on: the
  // cancellation arrives while request 2 waits.
  for (int I = 0; I < 3000 && !In.AtEnd; ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(In.AtEnd);
  Out.open();
  Server.join();
  EXPECT_EQ(Exit, 1) << "no exit: the input ended";
  std::istringstream Replies(Out.text());
  std::map<int, json> ById;
  for (lsp::Incoming M = lsp::readMessage(Replies); M.What == lsp::Incoming::Message; M = lsp::readMessage(Replies))
    ById[M.Body["id"].get<int>()] = M.Body;
  EXPECT_EQ(ById[1]["error"]["code"], -32601);
  EXPECT_EQ(ById[2]["error"]["code"], -32800);
  EXPECT_TRUE(ById[3].contains("result"));
  EXPECT_EQ(ById.count(99), 0u);
}

std::vector<lsp::Incoming> readAll(const std::string &Bytes) {
  std::istringstream In(Bytes);
  std::vector<lsp::Incoming> Out;
  for (;;) {
    Out.push_back(lsp::readMessage(In));
    if (Out.back().What == lsp::Incoming::End)
      return Out;
  }
}

TEST(LspTransportTest, FramesAndLimits) {
  std::string Big = "\"" + std::string(3 << 20, 'x') + "\"";
  auto M = readAll("\r\n\ncontent-length: 2\n\n{}Content-Length:  7 \r\nContent-Type: utf-8\r\n\r\n[1,2,3]"
                   "Content-Length: " +
                   std::to_string(Big.size()) + "\r\n\r\n" + Big);
  ASSERT_EQ(M.size(), 4u);
  EXPECT_EQ(M[0].Body, json::object());
  EXPECT_EQ(M[1].Body, json::parse("[1,2,3]"));
  EXPECT_EQ(M[2].Body.get<std::string>().size(), 3u << 20);
  EXPECT_TRUE(M[3].Why.empty());

  std::string Nested200 = std::string(200, '[') + std::string(200, ']');
  std::string Nested300 = std::string(300, '[') + std::string(300, ']');
  M = readAll("Content-Length: 400\r\n\r\n" + Nested200 + "Content-Length: 600\r\n\r\n" + Nested300 +
              "Content-Length: 3\r\n\r\n[1,");
  ASSERT_EQ(M.size(), 4u);
  EXPECT_EQ(M[0].What, lsp::Incoming::Message);
  EXPECT_EQ(M[1].What, lsp::Incoming::Error);
  EXPECT_NE(M[1].Why.find("nested more than 256 levels deep"), std::string::npos) << M[1].Why;
  EXPECT_EQ(M[2].What, lsp::Incoming::Error);
  EXPECT_EQ(M[2].Why, "message body is not JSON: [1,");

  // A lone "-" line (a YAML item) once looped forever in nestingDepth
  // (checks/analysis/InputFiles.cpp), found by fuzz_lsp; "--config-file" with
  // it hung the same way.
  M = readAll("Content-Length: 1\r\n\r\n-Content-Length: 5\r\n\r\nx\n- -");
  ASSERT_EQ(M.size(), 3u);
  EXPECT_EQ(M[0].Why, "message body is not JSON: -");
  EXPECT_EQ(M[1].Why, "message body is not JSON: x - -");

  M = readAll("Content-Length: 80000000\r\n\r\nabc");
  ASSERT_EQ(M.size(), 2u);
  EXPECT_EQ(M[0].Why, "a message of 80000000 bytes, over the limit of 67108864; skipped");
  M = readAll("Content-Length: 2\r\n");
  ASSERT_EQ(M.size(), 1u);
  EXPECT_EQ(M[0].Why, "the input ended inside a message's headers");
}

TEST(LspConvertTest, CallRanges) {
  auto Range = [](const std::string &Text, const std::string &At) {
    auto [Begin, End] = lsp::CallRanges(Text).at(Text.find(At));
    return Text.substr(Begin, End - Begin);
  };
  EXPECT_EQ(Range("  y = model.forward(x).to(device, \")\" /* ) */);\n", "to("),
            "model.forward(x).to(device, \")\" /* ) */)");
  EXPECT_EQ(Range("torch::cuda::synchronize();", "synchronize"), "torch::cuda::synchronize()");
  EXPECT_EQ(Range("a[i]->get<std::vector<int>>(\n  1, (2));", "get"), "a[i]->get<std::vector<int>>(\n  1, (2))");
  EXPECT_EQ(Range("if (a < b) f(x);", "b"), "b") << "a name not followed by a call";
  EXPECT_EQ(Range("f(x", "f"), "f") << "no closing parenthesis";
  EXPECT_EQ(Range("x = 1;", "= 1"), "") << "not a name";
}

TEST(LspConvertTest, FixTitlesSayWhatTheFixDoes) {
  std::map<std::string, lsp::TextIndex> Texts;
  Texts.emplace("/a.cc", lsp::TextIndex("  for (;;) {\n    run(x.to(dev));\n    auto t = make();\n  }\n"));
  lsp::TextSource Text = [&](const std::string &P) -> const lsp::TextIndex & { return Texts.at(P); };
  auto Title = [&](std::vector<clang::tooling::Replacement> Rs) {
    llvm::StringMap<clang::tooling::Replacements> Fix;
    for (const auto &R : Rs)
      llvm::consumeError(Fix["/a.cc"].add(R));
    return lsp::fixTitle(Fix, Text);
  };
  const std::string &T = Texts.at("/a.cc").text();
  unsigned Call = T.find("x.to(dev)"), Decl = T.find("auto t"), Loop = T.find("for");
  EXPECT_EQ(Title({{"/a.cc", Loop, 0, "auto x_on_device = x.to(dev);\n  "}, {"/a.cc", Call, 9, "x_on_device"}}),
            "Hoist `x.to(dev)` out of the loop into `x_on_device`");
  EXPECT_EQ(Title({{"/a.cc", Loop, 0, "auto t = make();\n  "}, {"/a.cc", Decl - 4, 21, ""}}),
            "Hoist `auto t = make();` out of the loop");
  EXPECT_EQ(Title({{"/a.cc", Call, 9, "x"}}), "Replace `x.to(dev)` with `x`");
  EXPECT_EQ(Title({{"/a.cc", Loop, 0, "torch::NoGradGuard no_grad;\n  "}}), "Insert `torch::NoGradGuard no_grad;`");
  EXPECT_EQ(Title({{"/a.cc", Decl, 17, ""}, {"/a.cc", Call, 1, "y"}}), "Replace `x` with `y` (and 1 more edit)");
}

TEST(LspConvertTest, CheckPagesAreFileUris) {
  std::string Page = lint::checkPageUri("mlperf-sync-in-loop");
  ASSERT_TRUE(llvm::StringRef(Page).starts_with("file:///")) << Page;
  EXPECT_TRUE(llvm::sys::fs::exists(lsp::pathFromUri(Page))) << Page;
  EXPECT_EQ(lint::checkPageUri("clang-diagnostic-unused-variable"), "");
  EXPECT_EQ(lint::checkPageUri("mlperf-no-such-check"), "");
  EXPECT_EQ(lint::checkPageUri("mlperf-../../README"), "");
}

} // namespace
} // namespace mlperf::test
