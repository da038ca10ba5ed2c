#include "mlperf/rt/exec.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "device.h"
#include "mlperf/rt/error.h"
#include "options.h"

namespace mlperf::rt {

struct Exec::Entry {
  std::unique_ptr<Executable> exe;
  std::vector<std::pair<Shape, DType>> outputs;  // user outputs, then assignments
  size_t num_user_outputs = 0;
  std::vector<std::string> variables;
  std::vector<std::string> assignments;
  Context* ctx = nullptr;
  std::weak_ptr<const void> ctx_alive;
};

namespace {

[[noreturn]] void rethrow_with_prefix(const std::string& prefix) {
  try {
    throw;
  } catch (const ShapeError& e) {
    throw ShapeError(prefix + e.what());
  } catch (const DTypeError& e) {
    throw DTypeError(prefix + e.what());
  } catch (const ArgumentError& e) {
    throw ArgumentError(prefix + e.what());
  } catch (const FinalizedTensorError& e) {
    throw FinalizedTensorError(prefix + e.what());
  }
}

}  // namespace

Exec::Exec(std::shared_ptr<Backend> backend, ModelFn fn, int num_inputs)
    : backend_(std::move(backend)), fn_(std::move(fn)), num_inputs_(num_inputs) {
  if (!backend_) throw ArgumentError("Exec: null backend");
  if (!fn_) throw ArgumentError("Exec: empty model function");
}

Exec::Exec(std::shared_ptr<Backend> backend, Context& ctx, ContextModelFn fn, int num_inputs)
    : backend_(std::move(backend)), ctx_(&ctx), num_inputs_(num_inputs) {
  if (!backend_) throw ArgumentError("Exec: null backend");
  if (!fn) throw ArgumentError("Exec: empty model function");
  if (ctx.backend() != backend_) throw ArgumentError("Exec: the Context lives on another backend");
  ctx_alive_ = ctx.lifetime();
  Context* c = &ctx;
  fn_ = [c, fn = std::move(fn)](Graph& g, const std::vector<Node>& in) { return fn(*c, g, in); };
}

Exec::~Exec() = default;

void Exec::check_context_alive(const char* where) const {
  if (ctx_ && ctx_alive_.expired())
    throw ArgumentError(std::string(where) +
                        ": the Context this Exec was built with has been destroyed; a Context must outlive the "
                        "Execs that use it");
}

Exec::Key Exec::signature(const std::vector<Tensor>& args) const {
  Key k;
  for (const Tensor& t : args) k.sig.emplace_back(t.dtype(), t.shape().dims);
  return k;
}

std::string Exec::describe(const Key& key) const {
  std::string s = "(";
  for (size_t i = 0; i < key.sig.size(); ++i)
    s += (i ? ", " : "") + std::string(dtype_name(key.sig[i].first)) + Shape(key.sig[i].second).to_string();
  return s + ")";
}

std::unique_ptr<Graph> Exec::build(const std::vector<Tensor>& args) {
  check_context_alive("Exec");
  auto g = std::make_unique<Graph>();
  std::vector<Node> inputs;
  for (size_t i = 0; i < args.size(); ++i)
    inputs.push_back(g->parameter(args[i].shape(), args[i].dtype(), "arg" + std::to_string(i)));
  std::vector<Node> outs;
  const std::string prefix = "Exec: building the graph for arguments " + describe(signature(args)) + ": ";
  try {
    BuildScope scope(*g);
    outs = fn_(*g, inputs);
    g->set_outputs(outs);
  } catch (const Error&) {
    rethrow_with_prefix(prefix);
  }
  // Every parameter is a model argument or a Context variable.
  size_t declared = args.size() + g->variables().size();
  if (g->parameters().size() != declared) {
    const NodeData& p = g->node(g->parameters()[args.size()]);
    throw ArgumentError(prefix + "the model function declared its own input g.parameter(" + p.shape.to_string() +
                        (p.attrs.name.empty() ? "" : ", \"" + p.attrs.name + "\"") +
                        "), which run() has no tensor for; take it as an argument of the model function "
                        "(and pass the tensor to run()) or read it as a Context variable");
  }
  if (ctx_ && g->context() && g->context() != ctx_)
    throw ArgumentError("Exec: the model function read variables of a Context other than the Exec's");
  return g;
}

std::string Exec::graph_text(const std::vector<Tensor>& args) { return build(args)->to_string(); }

void Exec::evict_to(size_t capacity, bool on_miss) {
  Counters& c = backend_->device().counters();
  while (cache_.size() > capacity && !lru_.empty()) {
    Key victim = lru_.back();
    lru_.pop_back();
    cache_.erase(victim);
    ++evictions_;
    c.cache_evictions++;
    if (on_miss && !thrash_logged_) {
      thrash_logged_ = true;
      std::cerr << "mlperf-rt: Exec cache is thrashing: " << max_cache_
                << " compiled shapes are cached and a new input signature evicted the least recently used one "
                << describe(victim)
                << ". Each new shape recompiles the graph; pad inputs to fixed shapes (with a mask) "
                   "or raise Exec::set_max_cache(). This is logged once."
                << std::endl;
    }
  }
}

void Exec::set_max_cache(int n) {
  std::lock_guard<std::mutex> lk(mu_);
  max_cache_ = n;
  if (n > 0) evict_to(static_cast<size_t>(n), false);
}

size_t Exec::cache_size() const { return cache_.size(); }

std::shared_ptr<Exec::Entry> Exec::lookup_or_compile(const Key& key, const std::vector<Tensor>& args) {
  Counters& c = backend_->device().counters();
  auto it = cache_.find(key);
  if (it != cache_.end()) {
    ++hits_;
    c.cache_hits++;
    lru_.splice(lru_.begin(), lru_, it->second.second);
    return it->second.first;
  }
  c.cache_misses++;
  std::unique_ptr<Graph> g = build(args);
  if (options::dump_enabled("graph"))
    std::cerr << "mlperf-rt: compiling for arguments " << describe(key) << "\n" << g->to_string();
  auto entry = std::make_shared<Entry>();
  auto t0 = std::chrono::steady_clock::now();
  entry->exe = backend_->impl().compile(*g);
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
  ++compilations_;
  c.compilations++;
  c.compile_ns += ns;
  for (int o : g->outputs()) entry->outputs.emplace_back(g->node(o).shape, g->node(o).dtype);
  entry->num_user_outputs = g->outputs().size();
  for (const auto& a : g->assignments()) {
    entry->outputs.emplace_back(g->node(a.node).shape, g->node(a.node).dtype);
    entry->assignments.push_back(a.name);
  }
  for (const auto& v : g->variables()) entry->variables.push_back(v.name);
  entry->ctx = g->context();
  if (entry->ctx) entry->ctx_alive = entry->ctx->lifetime();

  lru_.push_front(key);
  cache_[key] = {entry, lru_.begin()};
  if (max_cache_ > 0) evict_to(static_cast<size_t>(max_cache_), true);
  return entry;
}

std::vector<Tensor> Exec::run(const std::vector<Tensor>& args) {
  std::lock_guard<std::mutex> lk(mu_);
  check_context_alive("Exec::run");
  if (num_inputs_ >= 0 && args.size() != static_cast<size_t>(num_inputs_))
    throw ArgumentError("Exec::run: the model function takes " + std::to_string(num_inputs_) + " tensor argument" +
                        (num_inputs_ == 1 ? "" : "s") + ", got " + std::to_string(args.size()));
  std::vector<std::shared_ptr<Buffer>> reads;
  for (size_t i = 0; i < args.size(); ++i) {
    const Tensor& t = args[i];
    std::string where = "Exec::run: argument " + std::to_string(i) + ": ";
    try {
      reads.push_back(t.buffer());
    } catch (const FinalizedTensorError& e) {
      throw FinalizedTensorError(where + e.what());
    }
    if (t.backend() != backend_) throw ArgumentError(where + "tensor lives on another backend");
    if (i < input_dtypes_.size() && t.dtype() != input_dtypes_[i])
      throw DTypeError(where + "dtype " + dtype_name(t.dtype()) + t.shape().to_string() + ", expected " +
                       dtype_name(input_dtypes_[i]));
  }
  Key key = signature(args);
  std::shared_ptr<Entry> entry = lookup_or_compile(key, args);
  if (entry->ctx && entry->ctx_alive.expired())
    throw ArgumentError(
        "Exec::run: the Context whose variables the model function reads has been destroyed; a "
        "Context must outlive the Execs that use it");

  for (const std::string& name : entry->variables) {
    try {
      reads.push_back(entry->ctx->get(name).buffer());
    } catch (const Error& e) {
      throw FinalizedTensorError("Exec::run: variable '" + name + "': " + e.what());
    }
  }
  // The in-flight bound, then the outputs and the scratch as one request: an execution that does
  // not fit throws here, before anything is queued, so the variables keep their values.
  Stream& stream = backend_->stream();
  stream.begin_execution();
  std::vector<std::shared_ptr<Buffer>> writes;
  std::shared_ptr<ScratchReservation> scratch;
  try {
    std::vector<size_t> sizes;
    for (const auto& [shape, dtype] : entry->outputs)
      sizes.push_back(static_cast<size_t>(shape.numel()) * dtype_size(dtype));
    scratch = reserve_execution(*backend_, sizes, entry->exe->scratch_bytes(), writes);
  } catch (...) {
    stream.cancel_execution();
    throw;
  }

  Counters& c = backend_->device().counters();
  c.executions++;
  c.kernel_launches += entry->exe->kernel_count();

  std::vector<const void*> in_ptrs;
  for (const auto& b : reads) in_ptrs.push_back(b->ptr);
  std::vector<void*> out_ptrs;
  for (const auto& b : writes) out_ptrs.push_back(b->ptr);
  std::shared_ptr<Device> dev = backend_->device_ptr();
  StreamTask task;
  task.fn = [entry, dev, scratch, in_ptrs = std::move(in_ptrs), out_ptrs = std::move(out_ptrs)] {
    LaunchArgs la;
    la.inputs = in_ptrs;
    la.outputs = out_ptrs;
    la.scratch = scratch.get();
    dev->impl().launch(*entry->exe, la);
  };
  task.reads = reads;
  task.writes = writes;
  task.what = "execution of " + describe(key);
  task.execution = true;
  backend_->enqueue(std::move(task));

  std::vector<Tensor> result;
  for (size_t j = 0; j < entry->outputs.size(); ++j) {
    Tensor t(backend_, writes[j], entry->outputs[j].first, entry->outputs[j].second);
    if (j < entry->num_user_outputs) {
      result.push_back(std::move(t));
    } else {
      entry->ctx->set(entry->assignments[j - entry->num_user_outputs], std::move(t));
    }
  }
  return result;
}

}  // namespace mlperf::rt
