#pragma once
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mlperf/rt/backend.h"
#include "mlperf/rt/context.h"
#include "mlperf/rt/graph.h"
#include "mlperf/rt/tensor.h"

namespace mlperf::rt {

using ModelFn = std::function<std::vector<Node>(Graph&, const std::vector<Node>&)>;
using ContextModelFn = std::function<std::vector<Node>(Context&, Graph&, const std::vector<Node>&)>;

namespace detail {
template <class T>
struct FnTraits : FnTraits<decltype(&T::operator())> {};
template <class C, class R, class... A>
struct FnTraits<R (C::*)(A...) const> {
  static constexpr size_t kArity = sizeof...(A);
};
template <class C, class R, class... A>
struct FnTraits<R (C::*)(A...)> {
  static constexpr size_t kArity = sizeof...(A);
};
template <class R, class... A>
struct FnTraits<R (*)(A...)> {
  static constexpr size_t kArity = sizeof...(A);
};
inline std::vector<Node> to_outputs(Node n) { return {n}; }
inline std::vector<Node> to_outputs(std::vector<Node> v) { return v; }
template <class F, size_t... I>
std::vector<Node> call_graph_fn(F& f, Graph& g, const std::vector<Node>& in, std::index_sequence<I...>) {
  return to_outputs(f(g, in[I]...));
}
template <class F, size_t... I>
std::vector<Node> call_ctx_fn(F& f, Context& c, Graph& g, const std::vector<Node>& in, std::index_sequence<I...>) {
  return to_outputs(f(c, g, in[I]...));
}
}  // namespace detail

// Compiles a model function once per input signature (dtypes and shapes) and
// runs it on the backend's stream. run() returns at once with output tensors
// whose buffers the queued work fills.
class Exec {
 public:
  static constexpr int kDefaultMaxCache = 32;

  Exec(std::shared_ptr<Backend> backend, ModelFn fn, int num_inputs = -1);
  Exec(std::shared_ptr<Backend> backend, Context& ctx, ContextModelFn fn, int num_inputs = -1);

  // f(Graph&, Node...) -> Node or std::vector<Node>
  template <class F>
    requires(!std::is_convertible_v<F, ModelFn>)
  Exec(std::shared_ptr<Backend> backend, F f)
      : Exec(std::move(backend), ModelFn([f](Graph& g, const std::vector<Node>& in) mutable {
               return detail::call_graph_fn(f, g, in, std::make_index_sequence<kArity<F> - 1>{});
             }),
             static_cast<int>(kArity<F> - 1)) {}

  // f(Context&, Graph&, Node...) -> Node or std::vector<Node>
  template <class F>
    requires(!std::is_convertible_v<F, ContextModelFn>)
  Exec(std::shared_ptr<Backend> backend, Context& ctx, F f)
      : Exec(std::move(backend), ctx, ContextModelFn([f](Context& c, Graph& g, const std::vector<Node>& in) mutable {
               return detail::call_ctx_fn(f, c, g, in, std::make_index_sequence<kArity<F> - 2>{});
             }),
             static_cast<int>(kArity<F> - 2)) {}

  ~Exec();
  Exec(const Exec&) = delete;
  Exec& operator=(const Exec&) = delete;

  std::vector<Tensor> run(const std::vector<Tensor>& args);
  template <class... Ts>
    requires(std::is_same_v<std::decay_t<Ts>, Tensor> && ...)
  std::vector<Tensor> run(const Ts&... args) {
    return run(std::vector<Tensor>{args...});
  }

  // n <= 0: unbounded. Shrinking evicts least recently used entries.
  void set_max_cache(int n);
  int max_cache() const { return max_cache_; }
  size_t cache_size() const;
  int64_t compilations() const { return compilations_; }
  int64_t cache_hits() const { return hits_; }
  int64_t evictions() const { return evictions_; }
  bool thrashing_reported() const { return thrash_logged_; }
  const std::shared_ptr<Backend>& backend() const { return backend_; }
  // Declares the expected argument dtypes: run() then rejects others up front.
  void set_input_dtypes(std::vector<DType> dtypes) { input_dtypes_ = std::move(dtypes); }
  // The graph built for these arguments' signature (builds it without compiling).
  std::string graph_text(const std::vector<Tensor>& args);

 private:
  template <class F>
  static constexpr size_t kArity = detail::FnTraits<std::decay_t<F>>::kArity;

  struct Entry;
  struct Key {
    std::vector<std::pair<DType, std::vector<int64_t>>> sig;
    bool operator<(const Key& o) const { return sig < o.sig; }
  };
  Key signature(const std::vector<Tensor>& args) const;
  void check_context_alive(const char* where) const;
  std::unique_ptr<Graph> build(const std::vector<Tensor>& args);
  std::shared_ptr<Entry> lookup_or_compile(const Key& key, const std::vector<Tensor>& args);
  void evict_to(size_t capacity, bool on_miss);
  std::string describe(const Key& key) const;

  std::shared_ptr<Backend> backend_;
  Context* ctx_ = nullptr;
  std::weak_ptr<const void> ctx_alive_;
  ModelFn fn_;
  int num_inputs_;
  std::vector<DType> input_dtypes_;
  int max_cache_ = kDefaultMaxCache;
  std::mutex mu_;
  std::list<Key> lru_;  // most recent first
  std::map<Key, std::pair<std::shared_ptr<Entry>, std::list<Key>::iterator>> cache_;
  int64_t compilations_ = 0, hits_ = 0, evictions_ = 0;
  bool thrash_logged_ = false;
};

}  // namespace mlperf::rt
