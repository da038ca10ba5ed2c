// g3log's logging macros (g3log/g3log.hpp), for projects linted without g3log
// installed: without them every `LOG(INFO) << loss.item<float>()` is an
// undeclared name and clang drops the statement, with what it computes.
// Streams and printf-style calls as g3log's expand; declarations only.
#pragma once

#include <ostream>

struct LEVELS {
  int value;
  const char *text;
};
extern const LEVELS DEBUG, INFO, WARNING, FATAL;

namespace g3 {
class LogWorker;
void initializeLogging(LogWorker *logger);
bool logLevel(const LEVELS &level);
void internalLogf(const char *file, int line, const LEVELS &level, const char *format, ...);
}  // namespace g3

class LogCapture {
 public:
  LogCapture(const char *file, int line, const char *function, const LEVELS &level, const char *expression = "");
  ~LogCapture();
  std::ostream &stream();
};

#define LOG(level) LogCapture(__FILE__, __LINE__, __func__, level).stream()
#define LOG_IF(level, boolean_expression) \
  if (boolean_expression) LOG(level)
#define LOGF(level, ...) ::g3::internalLogf(__FILE__, __LINE__, level, __VA_ARGS__)
#define LOGF_IF(level, boolean_expression, ...) \
  if (boolean_expression) LOGF(level, __VA_ARGS__)
#define CHECK(boolean_expression) \
  if (!(boolean_expression)) LogCapture(__FILE__, __LINE__, __func__, FATAL, #boolean_expression).stream()
#define CHECKF(boolean_expression, ...) \
  if (!(boolean_expression)) ::g3::internalLogf(__FILE__, __LINE__, FATAL, __VA_ARGS__)
