// A language client for the tests: it sends framed messages down a pipe and
// collects what comes back on a thread, so a test can wait for one message
// while the server is still busy with another.
#pragma once

#include "lsp/Transport.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <istream>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

namespace mlperf::test {

/// A streambuf reading a file descriptor (a pipe's read end).
class FdInBuf : public std::streambuf {
public:
  explicit FdInBuf(int Fd) : Fd(Fd) {}

protected:
  int_type underflow() override;

private:
  int Fd;
  char Buffer[1 << 16];
};

/// A streambuf writing a file descriptor (a pipe's write end), unbuffered.
class FdOutBuf : public std::streambuf {
public:
  explicit FdOutBuf(int Fd) : Fd(Fd) {}

protected:
  int_type overflow(int_type C) override;
  std::streamsize xsputn(const char *S, std::streamsize N) override;

private:
  int Fd;
};

struct Received {
  nlohmann::json Message;
  std::chrono::steady_clock::time_point At;
};

class LspClient {
public:
  /// Sends to \p ToServer and reads from \p FromServer (both owned: closed at the end).
  LspClient(int ToServer, int FromServer);
  ~LspClient();

  void send(const nlohmann::json &Message); // "jsonrpc" added
  void sendRaw(const std::string &Bytes);
  void notify(const std::string &Method, const nlohmann::json &Params);
  void request(int Id, const std::string &Method, const nlohmann::json &Params);
  /// Ends the server's input.
  void closeInput();
  /// The first message received (so far or within \p Timeout) that \p Match accepts; null otherwise.
  nlohmann::json waitFor(const std::function<bool(const nlohmann::json &)> &Match,
                         std::chrono::seconds Timeout = std::chrono::seconds(120));
  nlohmann::json response(int Id, std::chrono::seconds Timeout = std::chrono::seconds(120));
  /// The diagnostics published for \p Uri with \p Version (or with none,
  /// as a server that does not track versions publishes them).
  nlohmann::json published(const std::string &Uri, int Version,
                           std::chrono::seconds Timeout = std::chrono::seconds(120));
  /// Waits for the server to close its output; everything received, in order.
  std::vector<Received> drain();
  std::vector<Received> received();

private:
  int ToServer;
  FdInBuf InBuf;
  std::istream In;
  std::mutex Lock;
  std::condition_variable Arrived;
  std::vector<Received> Messages;
  bool Ended = false;
  std::thread Reader;
};

/// Applies LSP text edits (ASCII text, so characters are bytes).
std::string applyEdits(const std::string &Text, nlohmann::json Edits);

} // namespace mlperf::test
