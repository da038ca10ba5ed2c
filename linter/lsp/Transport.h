// JSON-RPC 2.0 messages framed as the Language Server Protocol frames them:
// `Content-Length: N` headers, a blank line, N bytes of JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <istream>
#include <optional>
#include <ostream>
#include <string>

namespace mlperf::lint::lsp {

/// The next message; nullopt at the end of the input. A body that is not
/// JSON comes back as a string in \p Error with a null message.
std::optional<nlohmann::json> readMessage(std::istream &In, std::string &Error);
void writeMessage(std::ostream &Out, const nlohmann::json &Message);

} // namespace mlperf::lint::lsp
