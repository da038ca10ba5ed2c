#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "kernels.h"
#include "mlperf/rt/backend_interface.h"
#include "mlperf/rt/error.h"
#include "mlperf/rt/op_table.h"

namespace mlperf::rt {

namespace {

bool is_half(DType d) { return d == DType::F16 || d == DType::BF16; }

// Ops whose kernels move or convert storage elements themselves (16-bit floats not widened).
bool writes_storage_directly(OpKind k) {
  const OpInfo& op = op_info(k);
  return op.cls == OpClass::Layout || op.dtype_rule == DTypeRule::Convert || k == OpKind::Iota;
}

size_t storage_bytes(const NodeData& n) { return static_cast<size_t>(n.shape.numel()) * dtype_size(n.dtype); }

class ReferenceExecutable : public Executable {
 public:
  explicit ReferenceExecutable(const Graph& g) : nodes_(g.nodes()), params_(g.parameters()) {
    for (int o : g.outputs()) outputs_.push_back(o);
    for (const auto& a : g.assignments()) outputs_.push_back(a.node);
    live_.assign(nodes_.size(), false);
    last_use_.assign(nodes_.size(), -1);
    for (int o : outputs_) live_[static_cast<size_t>(o)] = true;
    for (size_t i = nodes_.size(); i-- > 0;) {
      if (!live_[i]) continue;
      for (int in : nodes_[i].inputs) {
        live_[static_cast<size_t>(in)] = true;
        int& lu = last_use_[static_cast<size_t>(in)];
        if (lu < static_cast<int>(i)) lu = static_cast<int>(i);
      }
    }
    constants_.resize(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const NodeData& n = nodes_[i];
      if (!live_[i]) continue;
      if (n.kind == OpKind::Constant) {
        constants_[i].resize(storage_bytes(n));
        convert_to_storage(n.dtype, constants_[i].data(), n.attrs.literal->data(), n.attrs.literal->size());
      } else if (n.kind != OpKind::Parameter) {
        ++kernels_;
      }
    }
    out_of_.assign(nodes_.size(), -1);
    for (size_t j = 0; j < outputs_.size(); ++j) {
      auto o = static_cast<size_t>(outputs_[j]);
      if (out_of_[o] < 0 && nodes_[o].kind != OpKind::Parameter && nodes_[o].kind != OpKind::Constant)
        out_of_[o] = static_cast<int>(j);
    }
    // The scratch run() holds at once: one buffer per computed node, freed after its last use.
    int64_t now = 0;
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const NodeData& nd = nodes_[i];
      if (!live_[i] || nd.kind == OpKind::Parameter || nd.kind == OpKind::Constant) continue;
      if (out_of_[i] < 0) now += static_cast<int64_t>(storage_bytes(nd));
      peak_scratch_ = std::max(peak_scratch_, now);
      for (int in : nd.inputs) {
        auto u = static_cast<size_t>(in);
        const NodeData& x = nodes_[u];
        if (last_use_[u] == static_cast<int>(i) && out_of_[u] < 0 && x.kind != OpKind::Parameter &&
            x.kind != OpKind::Constant)
          now -= static_cast<int64_t>(storage_bytes(x));
      }
    }
  }

  int64_t kernel_count() const override { return kernels_; }
  int64_t scratch_bytes() const override { return peak_scratch_; }

  void run(const LaunchArgs& args) {
    const size_t n = nodes_.size();
    std::vector<void*> val(n, nullptr);
    std::vector<bool> scratch(n, false);
    const std::vector<int>& out_of = out_of_;
    struct Guard {
      DeviceAllocator* alloc;
      std::vector<void*>& val;
      std::vector<bool>& scratch;
      const std::vector<NodeData>& nodes;
      ~Guard() {
        for (size_t i = 0; i < val.size(); ++i)
          if (scratch[i]) alloc->free(val[i], storage_bytes(nodes[i]));
      }
    } guard{args.scratch, val, scratch, nodes_};

    for (size_t i = 0; i < n; ++i) {
      if (!live_[i]) continue;
      const NodeData& nd = nodes_[i];
      if (nd.kind == OpKind::Parameter) {
        val[i] = const_cast<void*>(args.inputs.at(static_cast<size_t>(nd.attrs.index)));
        continue;
      }
      if (nd.kind == OpKind::Constant) {
        val[i] = constants_[i].data();
        continue;
      }
      if (out_of[i] >= 0) {
        val[i] = args.outputs[static_cast<size_t>(out_of[i])];
      } else {
        val[i] = args.scratch->allocate(storage_bytes(nd));
        scratch[i] = true;
      }
      execute(nd, val, val[i]);
      for (int in : nd.inputs) {
        auto u = static_cast<size_t>(in);
        if (last_use_[u] == static_cast<int>(i) && scratch[u]) {
          args.scratch->free(val[u], storage_bytes(nodes_[u]));
          scratch[u] = false;
        }
      }
    }
    for (size_t j = 0; j < outputs_.size(); ++j) {
      auto o = static_cast<size_t>(outputs_[j]);
      if (out_of[o] != static_cast<int>(j)) std::memcpy(args.outputs[j], val[o], storage_bytes(nodes_[o]));
    }
  }

 private:
  ref::Arr storage(int id, const std::vector<void*>& val) const {
    const NodeData& n = nodes_[static_cast<size_t>(id)];
    return ref::Arr{val[static_cast<size_t>(id)], n.shape, n.dtype};
  }

  // A compute view: 16-bit floats widened to f32 in `keep`.
  ref::Arr compute(int id, const std::vector<void*>& val, std::vector<std::vector<float>>& keep) const {
    ref::Arr a = storage(id, val);
    if (!is_half(a.dtype)) return a;
    keep.emplace_back(static_cast<size_t>(a.n()));
    std::vector<float>& f = keep.back();
    const auto* h = static_cast<const uint16_t*>(a.p);
    for (size_t i = 0; i < f.size(); ++i) f[i] = a.dtype == DType::F16 ? f16_to_float(h[i]) : bf16_to_float(h[i]);
    return ref::Arr{f.data(), a.shape, DType::F32};
  }

  void execute(const NodeData& nd, const std::vector<void*>& val, void* out_ptr) const {
    ref::Arr out{out_ptr, nd.shape, nd.dtype};
    if (out.n() == 0) return;
    auto in = [&](size_t j) { return storage(nd.inputs[j], val); };
    if (writes_storage_directly(nd.kind)) {
      switch (nd.kind) {
        case OpKind::Iota:
          ref::iota(nd.attrs.axis, out);
          break;
        case OpKind::Cast:
          ref::cast(in(0), out);
          break;
        case OpKind::Reshape:
          std::memcpy(out.p, in(0).p, storage_bytes(nd));
          break;
        case OpKind::Transpose:
          ref::transpose(in(0), nd.attrs.perm, out);
          break;
        case OpKind::BroadcastTo:
          ref::broadcast(in(0), out);
          break;
        case OpKind::Slice:
          ref::slice(in(0), nd.attrs, out);
          break;
        case OpKind::Pad:
          ref::pad(in(0), nd.attrs, out);
          break;
        case OpKind::Concat: {
          std::vector<ref::Arr> xs;
          for (size_t j = 0; j < nd.inputs.size(); ++j) xs.push_back(in(j));
          ref::concat(xs, nd.attrs.axis, out);
          break;
        }
        default:
          break;
      }
      return;
    }
    std::vector<std::vector<float>> keep;
    keep.reserve(4);
    std::vector<ref::Arr> xs;
    for (int id : nd.inputs) xs.push_back(compute(id, val, keep));
    ref::Arr o = out;
    if (is_half(nd.dtype)) {
      keep.emplace_back(static_cast<size_t>(out.n()));
      o = ref::Arr{keep.back().data(), nd.shape, DType::F32};
    }
    if (nd.kind == OpKind::Eq && nd.attrs.name == kClassIdsAttr) check_class_ids(xs[0]);
    if (is_unary_elementwise(nd.kind)) {
      ref::unary(nd.kind, xs[0], o);
    } else if (is_binary_elementwise(nd.kind)) {
      ref::binary(nd.kind, xs[0], xs[1], o);
    } else {
      switch (nd.kind) {
        case OpKind::Where:
          ref::where(xs[0], xs[1], xs[2], o);
          break;
        case OpKind::RngUniform: {
          uint64_t seed = nd.attrs.seed;
          if (!xs.empty()) seed ^= static_cast<uint64_t>(*xs[0].as<int64_t>());
          ref::rng_uniform(seed, o);
          break;
        }
        case OpKind::ReduceSum:
        case OpKind::ReduceMax:
          ref::reduce(nd.kind, xs[0], nd.attrs.axes, o);
          break;
        case OpKind::ArgMax:
          ref::argmax(xs[0], nd.attrs.axis, o);
          break;
        case OpKind::MatMul:
          ref::matmul(xs[0], xs[1], nd.attrs.transpose_a, nd.attrs.transpose_b, o);
          break;
        default:
          throw Error(std::string("reference backend: unsupported op ") + op_name(nd.kind));
      }
    }
    if (is_half(nd.dtype)) {
      const float* f = o.as<float>();
      auto* h = static_cast<uint16_t*>(out.p);
      for (int64_t i = 0; i < out.n(); ++i) h[i] = nd.dtype == DType::F16 ? float_to_f16(f[i]) : float_to_bf16(f[i]);
    }
  }

  // xs: the labels broadcast over [..., classes].
  static void check_class_ids(const ref::Arr& xs) {
    int64_t classes = xs.shape.dims.back();
    for (int64_t i = 0; i < xs.n(); i += classes) {
      int64_t id = xs.dtype == DType::I32 ? xs.as<int32_t>()[i] : xs.as<int64_t>()[i];
      if (id < 0 || id >= classes)
        throw ArgumentError("softmax_cross_entropy: label " + std::to_string(id) + " of example " +
                            std::to_string(i / classes) + " is not a class id in [0, " + std::to_string(classes) +
                            ") (checked by the reference backend; the fused backends do not check)");
    }
  }

  std::vector<NodeData> nodes_;
  std::vector<int> params_;
  std::vector<int> outputs_;
  std::vector<bool> live_;
  std::vector<int> last_use_;
  std::vector<int> out_of_;  // the output position a node is written to directly, or -1
  std::vector<std::vector<uint8_t>> constants_;
  int64_t kernels_ = 0, peak_scratch_ = 0;
};

class ReferenceBackend : public BackendImpl {
 public:
  std::string name() const override { return "reference"; }
  void* allocate(size_t bytes) override {
    void* p = std::malloc(bytes ? bytes : 1);
    if (!p) throw Error("reference backend: host allocation of " + std::to_string(bytes) + " bytes failed");
    return p;
  }
  void free(void* ptr, size_t) override { std::free(ptr); }
  void copy_host_to_device(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  void copy_device_to_host(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  std::unique_ptr<Executable> compile(const Graph& graph) override {
    return std::make_unique<ReferenceExecutable>(graph);
  }
  void launch(Executable& exe, const LaunchArgs& args) override { static_cast<ReferenceExecutable&>(exe).run(args); }
  nlohmann::json extra_stats() const override {
#ifdef MLPERF_RT_HAVE_BLAS
    return {{"matmul", "cblas_sgemm"}};
#else
    return {{"matmul", "loop"}};
#endif
  }
};

}  // namespace

void register_reference_backend() {
  register_backend("reference", 0, [] { return std::make_unique<ReferenceBackend>(); });
}

}  // namespace mlperf::rt
