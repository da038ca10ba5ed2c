#include "LspClient.h"

#include <algorithm>
#include <unistd.h>

namespace mlperf::test {

using nlohmann::json;

FdInBuf::int_type FdInBuf::underflow() {
  ssize_t N;
  do
    N = ::read(Fd, Buffer, sizeof(Buffer));
  while (N < 0 && errno == EINTR);
  if (N <= 0)
    return traits_type::eof();
  setg(Buffer, Buffer, Buffer + N);
  return traits_type::to_int_type(Buffer[0]);
}

std::streamsize FdOutBuf::xsputn(const char *S, std::streamsize N) {
  std::streamsize Done = 0;
  while (Done < N) {
    ssize_t W = ::write(Fd, S + Done, N - Done);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      break;
    Done += W;
  }
  return Done;
}

FdOutBuf::int_type FdOutBuf::overflow(int_type C) {
  if (traits_type::eq_int_type(C, traits_type::eof()))
    return traits_type::not_eof(C);
  char Ch = traits_type::to_char_type(C);
  return xsputn(&Ch, 1) == 1 ? C : traits_type::eof();
}

LspClient::LspClient(int To, int From) : ToServer(To), InBuf(From), In(&InBuf) {
  Reader = std::thread([this, From] {
    for (;;) {
      lint::lsp::Incoming M = lint::lsp::readMessage(In);
      if (M.What == lint::lsp::Incoming::End)
        break;
      std::lock_guard<std::mutex> G(Lock);
      Messages.push_back({M.What == lint::lsp::Incoming::Message ? M.Body : json{{"unreadable", M.Why}},
                          std::chrono::steady_clock::now()});
      Arrived.notify_all();
    }
    ::close(From);
    std::lock_guard<std::mutex> G(Lock);
    Ended = true;
    Arrived.notify_all();
  });
}

LspClient::~LspClient() {
  closeInput();
  if (Reader.joinable())
    Reader.join();
}

void LspClient::sendRaw(const std::string &Bytes) {
  size_t Done = 0;
  while (ToServer >= 0 && Done < Bytes.size()) {
    ssize_t W = ::write(ToServer, Bytes.data() + Done, Bytes.size() - Done);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      return;
    Done += W;
  }
}

void LspClient::send(const json &Message) {
  json M = Message;
  M["jsonrpc"] = "2.0";
  sendRaw(lint::lsp::frame(M));
}

void LspClient::notify(const std::string &Method, const json &Params) {
  send({{"method", Method}, {"params", Params}});
}

void LspClient::request(int Id, const std::string &Method, const json &Params) {
  send({{"id", Id}, {"method", Method}, {"params", Params}});
}

void LspClient::closeInput() {
  if (ToServer >= 0)
    ::close(ToServer);
  ToServer = -1;
}

json LspClient::waitFor(const std::function<bool(const json &)> &Match, std::chrono::seconds Timeout) {
  std::unique_lock<std::mutex> L(Lock);
  size_t Seen = 0;
  auto Deadline = std::chrono::steady_clock::now() + Timeout;
  for (;;) {
    for (; Seen < Messages.size(); ++Seen)
      if (Match(Messages[Seen].Message))
        return Messages[Seen].Message;
    if (Ended || Arrived.wait_until(L, Deadline) == std::cv_status::timeout)
      return nullptr;
  }
}

json LspClient::response(int Id, std::chrono::seconds Timeout) {
  return waitFor([&](const json &M) { return M.contains("id") && M["id"] == Id && !M.contains("method"); }, Timeout);
}

json LspClient::published(const std::string &Uri, int Version, std::chrono::seconds Timeout) {
  json M = waitFor(
      [&](const json &M) {
        return M.value("method", "") == "textDocument/publishDiagnostics" && M["params"]["uri"] == Uri &&
               M["params"].value("version", Version) == Version;
      },
      Timeout);
  return M.is_null() ? M : M["params"]["diagnostics"];
}

std::vector<Received> LspClient::drain() {
  std::unique_lock<std::mutex> L(Lock);
  Arrived.wait_for(L, std::chrono::seconds(300), [&] { return Ended; });
  return Messages;
}

std::vector<Received> LspClient::received() {
  std::lock_guard<std::mutex> G(Lock);
  return Messages;
}

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

} // namespace mlperf::test
