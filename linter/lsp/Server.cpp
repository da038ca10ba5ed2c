#include "lsp/Server.h"

#include "BuildInfo.h"
#include "lsp/Convert.h"
#include "lsp/Transport.h"
#include "project/Lint.h"

#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <map>

namespace mlperf::lint::lsp {

using nlohmann::json;

namespace {
enum ErrorCode { ParseError = -32700, InvalidParams = -32602, MethodNotFound = -32601 };

class Server {
public:
  Server(const LintRequest &Base, std::ostream &Out, llvm::raw_ostream &Log) : Base(Base), Out(Out), Log(Log) {}

  /// false once `exit` arrives.
  bool handle(const json &M) {
    std::string Method = M.value("method", "");
    json Params = M.contains("params") ? M["params"] : json::object();
    if (!M.contains("id")) {
      notification(Method, Params);
      return Method != "exit";
    }
    const json &Id = M["id"];
    if (Method == "initialize")
      return reply(Id, initializeResult());
    if (Method == "shutdown") {
      ShutDown = true;
      return reply(Id, nullptr);
    }
    if (Method == "textDocument/codeAction")
      return reply(Id, codeActions(Params));
    return fail(Id, MethodNotFound, "method not supported: " + Method);
  }

  void parseError(const std::string &Why) {
    writeMessage(Out, {{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", ParseError}, {"message", Why}}}});
  }
  void invalidParams(const json &Id, const std::string &Why) {
    writeMessage(Out, {{"jsonrpc", "2.0"}, {"id", Id}, {"error", {{"code", InvalidParams}, {"message", Why}}}});
  }
  bool shutDown() const { return ShutDown; }

private:
  json initializeResult() {
    return {{"capabilities",
             {{"textDocumentSync", {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
              {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}}}},
            {"serverInfo", {{"name", "mlperf-lint"}, {"version", MLPERF_VERSION}}}};
  }

  void notification(const std::string &Method, const json &Params) {
    if (!Params.contains("textDocument") || !Params["textDocument"].contains("uri"))
      return;
    std::string Uri = Params["textDocument"]["uri"];
    std::string Path = pathFromUri(Uri);
    if (Path.empty())
      return;
    if (Method == "textDocument/didOpen") {
      Open[Path] = {Uri, Params["textDocument"].value("text", "")};
      lint(Path);
    } else if (Method == "textDocument/didChange") {
      // Full-document sync: the last change holds the whole text.
      if (auto It = Open.find(Path);
          It != Open.end() && Params.contains("contentChanges") && !Params["contentChanges"].empty())
        It->second.Text = Params["contentChanges"].back().value("text", It->second.Text);
    } else if (Method == "textDocument/didSave") {
      if (auto It = Open.find(Path); It != Open.end()) {
        if (Params.contains("text"))
          It->second.Text = Params["text"];
        lint(Path);
      }
    } else if (Method == "textDocument/didClose") {
      Open.erase(Path);
      Findings.erase(Path);
      publish(Uri, json::array());
    }
  }

  struct Document {
    std::string Uri, Text;
  };

  void lint(const std::string &Path) {
    auto Start = std::chrono::steady_clock::now();
    LintRequest R = Base;
    R.Paths = {Path};
    R.Quiet = true;
    R.CompilerStats = false;
    R.Fix = false;
    R.ExportFixes.clear();
    R.Jobs = 1;
    R.Overlays = {{Path, Open[Path].Text}};
    LintOutcome Outcome = runLint(R);
    std::map<std::string, TextIndex> Texts;
    TextSource Text = [&](const std::string &P) -> const TextIndex & {
      auto [It, New] = Texts.try_emplace(P);
      if (New) {
        if (auto OpenIt = Open.find(P); OpenIt != Open.end())
          It->second = TextIndex(OpenIt->second.Text);
        else if (auto Buf = llvm::MemoryBuffer::getFile(P))
          It->second = TextIndex((*Buf)->getBuffer().str());
      }
      return It->second;
    };
    std::vector<Finding> &Found = Findings[Path] = findingsIn(Path, Outcome.Errors, Text);
    json Diagnostics = json::array();
    for (const Finding &F : Found)
      Diagnostics.push_back(F.Diagnostic);
    publish(Open[Path].Uri, Diagnostics);
    for (const std::string &P : Outcome.Problems)
      logMessage(1, P);
    auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - Start);
    Log << "mlperf-lint lsp: " << Path << ": " << Found.size() << " finding(s) in " << Ms.count() << " ms\n";
    Log.flush();
  }

  json codeActions(const json &Params) {
    json Actions = json::array();
    std::string Path = pathFromUri(Params["textDocument"].value("uri", ""));
    auto It = Findings.find(Path);
    if (It == Findings.end() || !Params.contains("range"))
      return Actions;
    unsigned From = Params["range"]["start"].value("line", 0u), To = Params["range"]["end"].value("line", 0u);
    for (const Finding &F : It->second) {
      const json &Range = F.Diagnostic["range"];
      if (F.FixTitle.empty() || Range["start"]["line"].get<unsigned>() > To ||
          Range["end"]["line"].get<unsigned>() < From)
        continue;
      Actions.push_back({{"title", F.FixTitle},
                         {"kind", "quickfix"},
                         {"isPreferred", true},
                         {"diagnostics", json::array({F.Diagnostic})},
                         {"edit", {{"changes", F.FixChanges}}}});
    }
    return Actions;
  }

  void publish(const std::string &Uri, const json &Diagnostics) {
    writeMessage(Out, {{"jsonrpc", "2.0"},
                       {"method", "textDocument/publishDiagnostics"},
                       {"params", {{"uri", Uri}, {"diagnostics", Diagnostics}}}});
  }
  void logMessage(int Type, const std::string &Text) {
    writeMessage(Out, {{"jsonrpc", "2.0"},
                       {"method", "window/logMessage"},
                       {"params", {{"type", Type}, {"message", "mlperf-lint: " + Text}}}});
  }
  bool reply(const json &Id, const json &Result) {
    writeMessage(Out, {{"jsonrpc", "2.0"}, {"id", Id}, {"result", Result}});
    return true;
  }
  bool fail(const json &Id, int Code, const std::string &Why) {
    writeMessage(Out, {{"jsonrpc", "2.0"}, {"id", Id}, {"error", {{"code", Code}, {"message", Why}}}});
    return true;
  }

  const LintRequest &Base;
  std::ostream &Out;
  llvm::raw_ostream &Log;
  std::map<std::string, Document> Open;
  std::map<std::string, std::vector<Finding>> Findings;
  bool ShutDown = false;
};
} // namespace

int runServer(const LintRequest &Base, std::istream &In, std::ostream &Out, llvm::raw_ostream &Log) {
  Server S(Base, Out, Log);
  std::string Error;
  while (std::optional<json> M = readMessage(In, Error)) {
    if (!Error.empty()) {
      S.parseError(Error);
      continue;
    }
    if (!M->is_object()) {
      S.parseError("a message must be a JSON object");
      continue;
    }
    try {
      if (!S.handle(*M))
        return S.shutDown() ? 0 : 1;
    } catch (const nlohmann::json::exception &E) {
      // A field of the wrong type: the request fails, the server goes on.
      if (M->contains("id"))
        S.invalidParams((*M)["id"], E.what());
      else
        Log << "mlperf-lint lsp: ignored a malformed notification: " << E.what() << "\n";
    }
  }
  return 1; // the client went away without `exit`
}

} // namespace mlperf::lint::lsp
