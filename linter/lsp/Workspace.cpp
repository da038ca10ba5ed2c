#include "lsp/Workspace.h"

#include "lsp/Transport.h"

#include <algorithm>

namespace mlperf::lint::lsp {

using nlohmann::json;

void Channel::send(const json &Message) {
  std::lock_guard<std::mutex> G(Lock);
  if (!Closed)
    writeMessage(Out, Message);
}

void Channel::log(const std::string &Line) {
  std::lock_guard<std::mutex> G(Lock);
  Log << "mlperf-lint lsp: " << Line << "\n";
  Log.flush();
}

void Channel::close() {
  std::lock_guard<std::mutex> G(Lock);
  Closed = true;
}

Workspace::Workspace(Linter L, std::chrono::milliseconds D, Channel &C)
    : Lint(std::move(L)), Debounce(D), Client(C), Worker([this] { work(); }) {}

void Workspace::setDebounce(std::chrono::milliseconds D) {
  std::lock_guard<std::mutex> G(M);
  Debounce = D;
}

void Workspace::open(const std::string &Path, const std::string &Uri, std::string Text, const json &Version) {
  std::lock_guard<std::mutex> G(M);
  Open[Path] = {Uri, std::move(Text), Version, ++Generations};
  Due[Path] = Clock::now();
  Wake.notify_all();
}

void Workspace::change(const std::string &Path, std::string Text, const json &Version) {
  std::lock_guard<std::mutex> G(M);
  auto It = Open.find(Path);
  if (It == Open.end())
    return;
  It->second.Text = std::move(Text);
  It->second.Version = Version;
  It->second.Generation = ++Generations;
  cancelLintOf(Path);
  Due[Path] = Clock::now() + Debounce;
  Wake.notify_all();
}

void Workspace::cancelLintOf(const std::string &Path) {
  if (Linting == Path)
    CancelLint = true;
}

void Workspace::save(const std::string &Path, std::optional<std::string> Text) {
  std::lock_guard<std::mutex> G(M);
  auto It = Open.find(Path);
  if (It == Open.end())
    return;
  Document &D = It->second;
  if (Text && *Text != D.Text) {
    D.Text = std::move(*Text);
    D.Generation = ++Generations;
    cancelLintOf(Path);
  }
  auto Done = Results.find(Path);
  if ((Done != Results.end() && Done->second.Read.Generation == D.Generation) ||
      (Linting == Path && LintingGeneration == D.Generation))
    return;
  Due[Path] = Clock::now();
  Wake.notify_all();
}

void Workspace::close(const std::string &Path) {
  std::lock_guard<std::mutex> G(M);
  Open.erase(Path);
  Results.erase(Path);
  Due.erase(Path);
  cancelLintOf(Path);
}

std::string Workspace::text(const std::string &Path) {
  std::lock_guard<std::mutex> G(M);
  auto It = Open.find(Path);
  return It == Open.end() ? "" : It->second.Text;
}

void Workspace::stop() {
  {
    std::lock_guard<std::mutex> G(M);
    Stopping = true;
    Due.clear();
    CancelLint = true;
    Wake.notify_all();
  }
  if (Worker.joinable())
    Worker.join();
}

Workspace::Snapshot Workspace::snapshot(const std::string &Path) const {
  Snapshot S;
  S.Generation = Open.at(Path).Generation;
  for (const auto &[P, D] : Open) {
    S.Buffers[P] = D.Text;
    S.Generations[P] = D.Generation;
    S.Versions[P] = D.Version;
  }
  return S;
}

void Workspace::work() {
  std::unique_lock<std::mutex> L(M);
  while (!Stopping) {
    auto Next =
        std::min_element(Due.begin(), Due.end(), [](const auto &A, const auto &B) { return A.second < B.second; });
    if (Next == Due.end()) {
      Wake.wait(L);
      continue;
    }
    if (Next->second > Clock::now()) {
      Wake.wait_until(L, Next->second);
      continue;
    }
    std::string Path = Next->first;
    Due.erase(Next);
    Snapshot Read = snapshot(Path);
    Linting = Path;
    LintingGeneration = Read.Generation;
    CancelLint = false;
    L.unlock();
    auto Start = Clock::now();
    LintedBuffer Result;
    try {
      Result = Lint(Path, Read.Buffers, [this] { return CancelLint.load(); });
    } catch (const std::exception &E) {
      Result.Problems.push_back(Path + ": the lint failed: " + E.what());
    }
    auto Took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - Start);
    L.lock();
    Linting.clear();
    finish(Path, std::move(Read), std::move(Result), Took);
  }
}

void Workspace::finish(const std::string &Path, Snapshot Read, LintedBuffer Result, std::chrono::milliseconds Took) {
  auto It = Open.find(Path);
  if (Stopping || It == Open.end() || It->second.Generation != Read.Generation) {
    Client.log(Path + ": the lint of an older text discarded after " + std::to_string(Took.count()) + " ms");
    return;
  }
  json Diagnostics = json::array();
  for (const Finding &F : Result.Findings)
    Diagnostics.push_back(F.Diagnostic);
  json Params = {{"uri", It->second.Uri}, {"diagnostics", Diagnostics}};
  if (It->second.Version.is_number_integer())
    Params["version"] = It->second.Version;
  Client.send({{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"}, {"params", Params}});
  for (const std::string &P : Result.Problems)
    Client.send({{"jsonrpc", "2.0"},
                 {"method", "window/logMessage"},
                 {"params", {{"type", 1}, {"message", "mlperf-lint: " + P}}}});
  Client.log(Path + ": " + std::to_string(Result.Findings.size()) + " finding(s) in " + std::to_string(Took.count()) +
             " ms");
  Results[Path] = {std::move(Read), std::move(Result.Findings)};
}

std::optional<json> Workspace::editOf(const Finding &F, const Snapshot &Read, bool DocumentChanges) const {
  json Changes = json::object(), Documents = json::array();
  for (const auto &[P, Edits] : F.FixEdits) {
    auto Now = Open.find(P);
    auto Then = Read.Generations.find(P);
    bool OpenNow = Now != Open.end(), OpenThen = Then != Read.Generations.end();
    if (OpenNow != OpenThen || (OpenNow && Now->second.Generation != Then->second))
      return std::nullopt; // that buffer is not the text the fix was made for
    std::string Uri = OpenNow ? Now->second.Uri : fileUri(P);
    json Version = OpenNow && Now->second.Version.is_number_integer() ? Now->second.Version : json(nullptr);
    Changes[Uri] = Edits;
    Documents.push_back({{"textDocument", {{"uri", Uri}, {"version", Version}}}, {"edits", Edits}});
  }
  if (DocumentChanges)
    return json{{"documentChanges", Documents}};
  return json{{"changes", Changes}};
}

json Workspace::codeActions(const std::string &Path, unsigned From, unsigned To, bool DocumentChanges) {
  std::lock_guard<std::mutex> G(M);
  json Actions = json::array();
  auto Doc = Open.find(Path);
  auto Done = Results.find(Path);
  if (Doc == Open.end() || Done == Results.end())
    return Actions;
  if (Done->second.Read.Generation != Doc->second.Generation) {
    Client.log(Path + ": no code actions: the buffer changed since its findings");
    return Actions;
  }
  for (const Finding &F : Done->second.Findings) {
    const json &Range = F.Diagnostic["range"];
    if (F.FixTitle.empty() || Range["start"]["line"].get<unsigned>() > To ||
        Range["end"]["line"].get<unsigned>() < From)
      continue;
    if (std::optional<json> Edit = editOf(F, Done->second.Read, DocumentChanges))
      Actions.push_back({{"title", F.FixTitle},
                         {"kind", "quickfix"},
                         {"isPreferred", true},
                         {"diagnostics", json::array({F.Diagnostic})},
                         {"edit", *Edit}});
  }
  return Actions;
}

} // namespace mlperf::lint::lsp
