#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>

#include "mlperf/rt/backend.h"
#include "mlperf/rt/error.h"

namespace mlperf::rt {

namespace {
struct Entry {
  int priority;
  BackendFactory factory;
};
struct Registry {
  std::mutex mu;
  std::map<std::string, Entry> entries;
  std::map<std::string, std::string> unavailable;  // name -> why it cannot run here
};
Registry& registry() {
  static Registry r;
  return r;
}
}  // namespace

void register_backend(std::string name, int priority, BackendFactory factory) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lk(r.mu);
  r.entries[std::move(name)] = Entry{priority, std::move(factory)};
}

void register_unavailable_backend(std::string name, std::string reason) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lk(r.mu);
  r.unavailable[std::move(name)] = std::move(reason);
}

std::vector<std::string> registered_backends() {
  register_builtin_backends();
  Registry& r = registry();
  std::lock_guard<std::mutex> lk(r.mu);
  std::vector<std::pair<int, std::string>> v;
  for (const auto& [name, e] : r.entries) v.emplace_back(-e.priority, name);
  std::sort(v.begin(), v.end());
  std::vector<std::string> out;
  for (auto& p : v) out.push_back(p.second);
  return out;
}

std::shared_ptr<Backend> Backend::create(std::string name) {
  std::vector<std::string> names = registered_backends();
  if (name.empty()) {
    if (const char* env = std::getenv("MLPERF_BACKEND"); env && *env) name = env;
  }
  if (name.empty()) {
    if (names.empty()) throw BackendError("no backend is registered");
    name = names.front();
  }
  BackendFactory factory;
  std::string unavailable;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lk(r.mu);
    auto it = r.entries.find(name);
    if (it != r.entries.end()) factory = it->second.factory;
    if (auto u = r.unavailable.find(name); u != r.unavailable.end()) unavailable = u->second;
  }
  if (!factory && !unavailable.empty()) throw BackendError("backend '" + name + "': " + unavailable);
  if (!factory) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw BackendError("unknown backend '" + name + "'; registered backends: " + list);
  }
  return std::make_shared<Backend>(factory());
}

}  // namespace mlperf::rt
