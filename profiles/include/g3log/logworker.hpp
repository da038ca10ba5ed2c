// g3log's log worker (g3log/logworker.hpp): see g3log.hpp. Declarations only.
#pragma once

#include "g3log.hpp"

#include <memory>
#include <string>

namespace g3 {
class FileSinkHandle {
 public:
  ~FileSinkHandle();
};
class LogWorker {
 public:
  static std::unique_ptr<LogWorker> createLogWorker();
  std::unique_ptr<FileSinkHandle> addDefaultLogger(const std::string &log_prefix, const std::string &log_directory,
                                                   const std::string &default_id = "g3log");
  template <class T, class DefaultLogCall>
  std::unique_ptr<int> addSink(std::unique_ptr<T> real_sink, DefaultLogCall call);
  ~LogWorker();
};
}  // namespace g3
