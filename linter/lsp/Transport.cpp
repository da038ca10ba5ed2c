#include "lsp/Transport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlperf::lint::lsp {

std::optional<nlohmann::json> readMessage(std::istream &In, std::string &Error) {
  Error.clear();
  std::optional<size_t> Length;
  std::string Line;
  while (std::getline(In, Line)) {
    llvm::StringRef L = llvm::StringRef(Line).rtrim("\r");
    if (L.empty()) {
      if (!Length)
        continue; // blank lines between messages
      std::string Body(*Length, '\0');
      if (!In.read(Body.data(), *Length))
        return std::nullopt;
      nlohmann::json Message = nlohmann::json::parse(Body, nullptr, /*allow_exceptions=*/false);
      if (Message.is_discarded()) {
        Error = "message body is not JSON: " + Body.substr(0, 80);
        return nlohmann::json();
      }
      return Message;
    }
    auto [Name, Value] = L.split(':');
    size_t N;
    if (Name.trim().equals_insensitive("content-length") && !Value.trim().getAsInteger(10, N))
      Length = N;
  }
  return std::nullopt;
}

void writeMessage(std::ostream &Out, const nlohmann::json &Message) {
  std::string Body = Message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  Out << "Content-Length: " << Body.size() << "\r\n\r\n" << Body;
  Out.flush();
}

} // namespace mlperf::lint::lsp
