#include "lsp/Server.h"

#include "BuildInfo.h"
#include "lsp/Transport.h"
#include "project/Lint.h"

#include "llvm/Support/MemoryBuffer.h"

#include <deque>
#include <set>

namespace mlperf::lint::lsp {

using nlohmann::json;

namespace {
enum ErrorCode { MethodNotFound = -32601, InvalidParams = -32602, RequestCancelled = -32800 };

bool isRequest(const json &M) { return M.is_object() && M.contains("id") && M.contains("method"); }
std::string method(const json &M) {
  auto It = M.is_object() ? M.find("method") : M.end();
  return It != M.end() && It->is_string() ? It->get<std::string>() : "";
}

/// Messages from the reader to the dispatcher. A `$/cancelRequest` is acted
/// on as it is read: a request still waiting here is answered as cancelled.
class Inbox {
public:
  void push(Incoming M) {
    std::lock_guard<std::mutex> G(Lock);
    if (M.What == Incoming::Message && isRequest(M.Body))
      Pending.insert(M.Body["id"].dump());
    Queue.push_back(std::move(M));
    Ready.notify_one();
  }
  /// The next message; \p Cancelled: it is a request the client cancelled.
  Incoming pop(bool &Cancelled) {
    std::unique_lock<std::mutex> L(Lock);
    Ready.wait(L, [&] { return !Queue.empty(); });
    Incoming M = std::move(Queue.front());
    Queue.pop_front();
    Cancelled = false;
    if (M.What == Incoming::Message && isRequest(M.Body)) {
      std::string Id = M.Body["id"].dump();
      Pending.erase(Id);
      Cancelled = CancelledIds.erase(Id) > 0;
    }
    return M;
  }
  void cancel(const json &Id) {
    std::lock_guard<std::mutex> G(Lock);
    if (Pending.count(Id.dump()))
      CancelledIds.insert(Id.dump());
  }

private:
  std::mutex Lock;
  std::condition_variable Ready;
  std::deque<Incoming> Queue;
  std::set<std::string> Pending, CancelledIds;
};

/// Reads until the end of the input or `exit`.
void readAll(std::istream &In, Inbox &Box) {
  for (;;) {
    Incoming M = readMessage(In);
    std::string Method = method(M.Body);
    if (Method == "$/cancelRequest") {
      const json &Body = M.Body;
      if (Body.contains("params") && Body["params"].is_object() && Body["params"].contains("id"))
        Box.cancel(Body["params"]["id"]);
      continue;
    }
    bool Last = M.What == Incoming::End || Method == "exit";
    Box.push(std::move(M));
    if (Last)
      return;
  }
}

/// The byte offset of an LSP position (0-based line, UTF-16 code units),
/// clamped to its line and the text.
size_t offsetOf(const std::string &Text, const json &Position) {
  unsigned Line = Position.at("line").get<unsigned>(), Units = Position.at("character").get<unsigned>();
  size_t At = 0;
  for (unsigned L = 0; L < Line && At < Text.size(); ++L) {
    size_t Break = Text.find('\n', At);
    At = Break == std::string::npos ? Text.size() : Break + 1;
  }
  while (Units > 0 && At < Text.size() && Text[At] != '\n') {
    auto Lead = static_cast<unsigned char>(Text[At]);
    size_t Bytes = Lead < 0x80 ? 1 : Lead < 0xE0 ? 2 : Lead < 0xF0 ? 3 : 4;
    Units -= std::min(Units, Bytes == 4 ? 2u : 1u);
    At = std::min(Text.size(), At + Bytes);
  }
  return At;
}

/// A didChange's content changes applied in order: whole texts, or ranges
/// (the server asks for whole texts; a client may still send ranges).
std::string applyChanges(std::string Text, const json &Changes) {
  for (const json &C : Changes) {
    std::string New = C.at("text").get<std::string>();
    if (!C.contains("range")) {
      Text = std::move(New);
      continue;
    }
    size_t Begin = offsetOf(Text, C["range"].at("start")), End = offsetOf(Text, C["range"].at("end"));
    Text.replace(Begin, std::max(Begin, End) - Begin, New);
  }
  return Text;
}

class Server {
public:
  Server(const Linter &Lint, const ServerOptions &Options, Channel &Out)
      : Out(Out), Docs(Lint, Options.Debounce, Out) {}

  /// false once `exit` arrives.
  bool handle(const json &M, bool Cancelled) {
    if (!M.is_object() || (M.contains("method") && !M["method"].is_string()))
      return fail(nullptr, InvalidRequest, "a message must be a JSON object with a string \"method\"");
    if (!M.contains("method")) {
      if (!M.contains("id"))
        return fail(nullptr, InvalidRequest, "a message without a method");
      return true; // a response: the server sends no requests
    }
    std::string Method = M["method"];
    json Params = M.contains("params") && M["params"].is_object() ? M["params"] : json::object();
    if (!M.contains("id")) {
      notification(Method, Params);
      return Method != "exit";
    }
    const json &Id = M["id"];
    if (!Id.is_number_integer() && !Id.is_string())
      return fail(nullptr, InvalidRequest, "a request id must be an integer or a string");
    if (Cancelled)
      return fail(Id, RequestCancelled, "cancelled by the client");
    if (ShutDown)
      return fail(Id, InvalidRequest, "the server is shut down; only exit is accepted");
    if (Method == "initialize")
      return reply(Id, initialize(Params));
    if (Method == "shutdown") {
      ShutDown = true;
      return reply(Id, nullptr);
    }
    if (Method == "textDocument/codeAction")
      return reply(Id, codeActions(Params));
    return fail(Id, MethodNotFound, "method not supported: " + Method);
  }

  bool fail(const json &Id, int Code, const std::string &Why) {
    Out.send({{"jsonrpc", "2.0"}, {"id", Id}, {"error", {{"code", Code}, {"message", Why}}}});
    return true;
  }
  bool shutDown() const { return ShutDown; }
  void stop() { Docs.stop(); }

private:
  json initialize(const json &Params) {
    json Edit = Params.value("/capabilities/workspace/workspaceEdit"_json_pointer, json::object());
    DocumentChanges = Edit.is_object() && Edit.value("documentChanges", false);
    json Options = Params.value("initializationOptions", json::object());
    if (Options.is_object() && Options.contains("debounceMs") && Options["debounceMs"].is_number())
      Docs.setDebounce(std::chrono::milliseconds(std::clamp<int64_t>(Options["debounceMs"].get<int64_t>(), 0, 60000)));
    return {{"capabilities",
             {{"textDocumentSync", {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
              {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}}}},
            {"serverInfo", {{"name", "mlperf-lint"}, {"version", MLPERF_VERSION}}}};
  }

  void notification(const std::string &Method, const json &Params) {
    if (!Params.contains("textDocument") || !Params["textDocument"].contains("uri"))
      return;
    const json &Doc = Params["textDocument"];
    std::string Uri = Doc["uri"];
    std::string Path = pathFromUri(Uri);
    if (Path.empty())
      return;
    json Version = Doc.value("version", json());
    if (Method == "textDocument/didOpen")
      Docs.open(Path, Uri, Doc.value("text", ""), Version);
    else if (Method == "textDocument/didChange")
      Docs.change(Path, applyChanges(Docs.text(Path), Params.at("contentChanges")), Version);
    else if (Method == "textDocument/didSave")
      Docs.save(Path, Params.contains("text") ? std::optional<std::string>(Params["text"]) : std::nullopt);
    else if (Method == "textDocument/didClose") {
      Docs.close(Path);
      Out.send({{"jsonrpc", "2.0"},
                {"method", "textDocument/publishDiagnostics"},
                {"params", {{"uri", Uri}, {"diagnostics", json::array()}}}});
    }
  }

  json codeActions(const json &Params) {
    std::string Path = pathFromUri(Params.at("textDocument").at("uri").get<std::string>());
    const json &Range = Params.at("range");
    return Docs.codeActions(Path, Range.at("start").at("line").get<unsigned>(),
                            Range.at("end").at("line").get<unsigned>(), DocumentChanges);
  }

  bool reply(const json &Id, const json &Result) {
    Out.send({{"jsonrpc", "2.0"}, {"id", Id}, {"result", Result}});
    return true;
  }

  Channel &Out;
  Workspace Docs;
  bool ShutDown = false;
  bool DocumentChanges = false;
};
} // namespace

Linter projectLinter(const LintRequest &Base) {
  return [Base](const std::string &Path, const std::map<std::string, std::string> &Buffers,
                const std::function<bool()> &Cancelled) {
    LintRequest R = Base;
    R.Paths = {Path};
    R.Quiet = true;
    R.CompilerStats = false;
    R.Fix = false;
    R.ExportFixes.clear();
    R.WriteBaseline.clear();
    R.OutputPath.clear();
    R.Jobs = 1;
    R.Overlays = Buffers;
    R.Parse.Cancelled = Cancelled;
    LintOutcome Outcome = runLint(R);
    std::map<std::string, TextIndex> Texts;
    TextSource Text = [&](const std::string &P) -> const TextIndex & {
      auto [It, New] = Texts.try_emplace(P);
      if (New) {
        if (auto Open = Buffers.find(P); Open != Buffers.end())
          It->second = TextIndex(Open->second);
        else if (auto Buf = llvm::MemoryBuffer::getFile(P))
          It->second = TextIndex((*Buf)->getBuffer().str());
      }
      return It->second;
    };
    return LintedBuffer{findingsIn(Path, Outcome.Errors, Text), Outcome.Problems};
  };
}

int serve(const Linter &Lint, const ServerOptions &Options, std::istream &In, std::ostream &Out,
          llvm::raw_ostream &Log) {
  Channel Client(Out, Log);
  Inbox Box;
  Server S(Lint, Options, Client);
  llvm::thread Reader([&] { readAll(In, Box); });
  bool Exited = false;
  for (;;) {
    bool Cancelled;
    Incoming M = Box.pop(Cancelled);
    if (M.What == Incoming::End) {
      if (!M.Why.empty())
        Client.log(M.Why);
      break;
    }
    if (M.What == Incoming::Error) {
      Client.log("dropped a message: " + M.Why);
      S.fail(nullptr, ParseError, M.Why);
      continue;
    }
    try {
      if (!S.handle(M.Body, Cancelled)) {
        Exited = true;
        break;
      }
    } catch (const nlohmann::json::exception &E) {
      // A field of the wrong type: the request fails, the server goes on.
      if (isRequest(M.Body) && (M.Body["id"].is_number_integer() || M.Body["id"].is_string()))
        S.fail(M.Body["id"], InvalidParams, E.what());
      else
        Client.log(std::string("ignored a malformed notification: ") + E.what());
    }
  }
  S.stop();
  Client.close();
  Reader.join();
  return Exited && S.shutDown() ? 0 : 1;
}

int runServer(const LintRequest &Base, std::istream &In, std::ostream &Out, llvm::raw_ostream &Log) {
  return serve(projectLinter(Base), ServerOptions(), In, Out, Log);
}

} // namespace mlperf::lint::lsp
