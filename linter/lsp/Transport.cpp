#include "lsp/Transport.h"

#include "support/SafeIO.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>

namespace mlperf::lint::lsp {

namespace {
Incoming error(std::string Why) { return {Incoming::Error, nullptr, std::move(Why)}; }
Incoming end(std::string Why = "") { return {Incoming::End, nullptr, std::move(Why)}; }

/// The start of \p Text for a log line: control characters become spaces.
std::string oneLine(llvm::StringRef Text) {
  std::string Out = Text.substr(0, 60).str();
  for (char &C : Out)
    if (static_cast<unsigned char>(C) < 0x20)
      C = ' ';
  return Out;
}

/// One header line without its line break (and "\r"); false at the end of
/// the input. Bytes past MaxHeaderLine are read and dropped; \p Long says so.
bool readLine(std::istream &In, std::string &Line, bool &Long) {
  Line.clear();
  Long = false;
  std::streambuf *Buf = In.rdbuf();
  for (;;) {
    int C = Buf->sbumpc();
    if (C == std::char_traits<char>::eof()) {
      In.setstate(std::ios::eofbit);
      return !Line.empty() || Long;
    }
    if (C == '\n')
      break;
    if (Line.size() < MaxHeaderLine)
      Line += static_cast<char>(C);
    else
      Long = true;
  }
  if (!Line.empty() && Line.back() == '\r')
    Line.pop_back();
  return true;
}

struct Headers {
  std::optional<uint64_t> Length;
  std::string Problem; // the first malformed header
};

/// The headers up to the blank line that ends them; nullopt at the end of
/// the input (\p Partial: it ended inside them).
std::optional<Headers> readHeaders(std::istream &In, bool &Partial) {
  Headers H;
  bool Any = false, Long = false;
  std::string Line;
  while (readLine(In, Line, Long)) {
    if (Line.empty() && !Long) {
      if (Any)
        return H;
      continue; // blank lines between messages
    }
    Any = true;
    auto [Name, Value] = llvm::StringRef(Line).split(':');
    uint64_t N;
    if (Long || Line.find(':') == std::string::npos) {
      if (H.Problem.empty())
        H.Problem = Long ? "a header line longer than " + std::to_string(MaxHeaderLine) + " bytes"
                         : "a header line without a colon: \"" + oneLine(Line) + "\"";
    } else if (Name.trim().equals_insensitive("content-length")) {
      if (Value.trim().getAsInteger(10, N)) {
        if (H.Problem.empty())
          H.Problem = "Content-Length is not a byte count: \"" + oneLine(Value.trim()) + "\"";
      } else {
        H.Length = N;
      }
    }
  }
  Partial = Any;
  return std::nullopt;
}

/// Up to \p Length bytes, read in pieces so that a length the input never
/// delivers costs no more memory than the input does.
bool readBody(std::istream &In, uint64_t Length, std::string &Body) {
  constexpr size_t Piece = 1 << 20;
  Body.clear();
  while (Body.size() < Length) {
    size_t Want = std::min<uint64_t>(Piece, Length - Body.size()), Had = Body.size();
    Body.resize(Had + Want);
    In.read(Body.data() + Had, Want);
    Body.resize(Had + In.gcount());
    if (static_cast<size_t>(In.gcount()) < Want)
      return false;
  }
  return true;
}
} // namespace

Incoming readMessage(std::istream &In) {
  bool Partial = false;
  std::optional<Headers> H = readHeaders(In, Partial);
  if (!H)
    return end(Partial ? "the input ended inside a message's headers" : "");
  if (!H->Length)
    return error(H->Problem.empty() ? "a message without a Content-Length header" : H->Problem);
  if (*H->Length > MaxMessageBytes) {
    In.ignore(
        static_cast<std::streamsize>(std::min<uint64_t>(*H->Length, std::numeric_limits<std::streamsize>::max())));
    return error("a message of " + std::to_string(*H->Length) + " bytes, over the limit of " +
                 std::to_string(MaxMessageBytes) + "; skipped");
  }
  std::string Body;
  if (!readBody(In, *H->Length, Body))
    return end("the input ended " + std::to_string(Body.size()) + " bytes into a message of " +
               std::to_string(*H->Length));
  if (!H->Problem.empty())
    return error(H->Problem);
  if (llvm::Error E = checkNesting(Body, "message body"))
    return error(llvm::toString(std::move(E)));
  nlohmann::json Message = nlohmann::json::parse(Body, nullptr, /*allow_exceptions=*/false);
  if (Message.is_discarded())
    return error("message body is not JSON: " + oneLine(Body));
  return {Incoming::Message, std::move(Message), ""};
}

std::string frame(const nlohmann::json &Message) {
  std::string Body = Message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
}

void writeMessage(std::ostream &Out, const nlohmann::json &Message) {
  Out << frame(Message);
  Out.flush();
}

} // namespace mlperf::lint::lsp
