// JSON-RPC 2.0 messages framed as the Language Server Protocol frames them:
// `Content-Length: N` headers, a blank line, N bytes of JSON. Reading is
// bounded: a body over MaxMessageBytes is skipped unread, a header line is at
// most MaxHeaderLine bytes, and JSON nested deeper than the limit every
// structured input has (MaxNesting, checks/analysis/InputFiles.h) is refused
// before it is parsed.
#pragma once

#include <nlohmann/json.hpp>

#include <istream>
#include <ostream>
#include <string>

namespace mlperf::lint::lsp {

/// The largest message body read (64 MiB); a larger one is skipped.
inline constexpr size_t MaxMessageBytes = size_t(64) << 20;
/// The longest header line kept; the rest of a longer one is skipped.
inline constexpr size_t MaxHeaderLine = 4096;

/// JSON-RPC's error codes for what the transport refuses.
enum RpcError : int {
  ParseError = -32700,     // not a framed JSON text
  InvalidRequest = -32600, // JSON, but not a request or notification
};

struct Incoming {
  enum Kind { Message, Error, End } What = End;
  nlohmann::json Body; // Message: a JSON value (not yet known to be an object)
  std::string Why;     // Error, or End inside a message: one line
};

/// The next message, a framing or parse error (the stream stays usable: the
/// next call reads on), or the end of the input.
Incoming readMessage(std::istream &In);
/// \p Message framed; invalid UTF-8 in its strings is replaced.
std::string frame(const nlohmann::json &Message);
void writeMessage(std::ostream &Out, const nlohmann::json &Message);

} // namespace mlperf::lint::lsp
