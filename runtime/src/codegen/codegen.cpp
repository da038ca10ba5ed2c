#include "codegen/codegen.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>

#include "mlperf/rt/error.h"
#include "mlperf/rt/op_table.h"

namespace mlperf::rt::codegen {

namespace {

// Shared helpers, written once; RT_FN and the bit casts are target-specific.
const char* const kCommon = R"(typedef signed char i8;
typedef int i32;
typedef long long i64;
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
RT_FN u32 rt_bits(float f) { union { float f; u32 u; } x; x.f = f; return x.u; }
RT_FN float rt_float(u32 u) { union { float f; u32 u; } x; x.u = u; return x.f; }
RT_FN float rt_h2f(u16 h) {
  u32 sign = (u32)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0) { float v = (float)mant * 5.9604644775390625e-8f; return sign ? -v : v; }
  if (exp == 0x1f) return rt_float(sign | 0x7f800000u | (mant << 13));
  return rt_float(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}
RT_FN u16 rt_f2h(float f) {
  u32 x = rt_bits(f), sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, mant = x & 0x7fffffu;
  if (exp == 0xff) return (u16)(sign | 0x7c00u | (mant ? 0x200u : 0u));
  i32 e = (i32)exp - 127 + 15;
  if (e >= 0x1f) return (u16)(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return (u16)sign;
    mant |= 0x800000u;
    u32 shift = (u32)(14 - e), half = mant >> shift, rem = mant & ((1u << shift) - 1u), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return (u16)(sign | half);
  }
  u32 half = sign | ((u32)e << 10) | (mant >> 13), rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;
  return (u16)half;
}
RT_FN float rt_b2f(u16 h) { return rt_float((u32)h << 16); }
RT_FN u16 rt_f2b(float f) {
  u32 x = rt_bits(f);
  if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu)) return (u16)((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return (u16)(x >> 16);
}
RT_FN i32 rt_f2i32(double v) {
  return v != v ? 0 : v >= 2147483647.0 ? 2147483647 : v <= -2147483648.0 ? (-2147483647 - 1) : (i32)v;
}
RT_FN i64 rt_f2i64(double v) {
  return v != v ? 0
       : v >= 9223372036854775808.0 ? 9223372036854775807LL
       : v <= -9223372036854775808.0 ? (-9223372036854775807LL - 1) : (i64)v;
}
RT_FN float rt_rh(float f) { return rt_h2f(rt_f2h(f)); }
RT_FN float rt_rb(float f) { return rt_b2f(rt_f2b(f)); }
RT_FN u64 rt_mix(u64 x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
RT_FN float rt_rng(u64 seed, u64 i) { return (float)(rt_mix(rt_mix(seed) ^ i) >> 40) * (1.0f / 16777216.0f); }
RT_FN float rt_gelu(float x) {
  float cube = 0.044715f * x * x * x;
  float th = RT_TANH(0.7978845608028654f * (x + cube));
  return 0.5f * x * (1.0f + th);
}
)";

const char* const kCpuHead = R"(/* mlperf runtime: generated kernels (C, cpu) */
#define RT_FN static inline __attribute__((always_inline))
#define RT_EXP rt_expf
#define RT_LOG __builtin_logf
#define RT_SQRT __builtin_sqrtf
#define RT_TANH __builtin_tanhf
#define RT_POW __builtin_powf
#define RT_INF __builtin_inff()
#define RT_NAN __builtin_nanf("")
#define RT_RESTRICT restrict
#define RT_SMALL __attribute__((optnone, noinline))
)";

// CPU only: an exp the loop vectorizer can inline (Cephes-style range reduction + degree-6
// polynomial, <= 1 ulp for normal results; subnormal results to within 2^-149 absolute; inf/nan
// handled). libm/libmvec expf is an opaque call that kept exp-heavy chains compute-bound.
const char* const kCpuTail = R"(RT_FN float rt_expf(float x) {
  float c = x < -104.0f ? -104.0f : (x > 89.0f ? 89.0f : x);
  float n = __builtin_rintf(c * 1.44269504088896341f);
  float r = __builtin_fmaf(n, -0.693359375f, c);
  r = __builtin_fmaf(n, 2.12194440e-4f, r);
  float p = 1.9875691500e-4f;
  p = __builtin_fmaf(p, r, 1.3981999507e-3f);
  p = __builtin_fmaf(p, r, 8.3334519073e-3f);
  p = __builtin_fmaf(p, r, 4.1665795894e-2f);
  p = __builtin_fmaf(p, r, 1.6666665459e-1f);
  p = __builtin_fmaf(p, r, 5.0000001201e-1f);
  float y = __builtin_fmaf(p, r * r, r) + 1.0f;
  i32 k = (i32)n, k1 = k >> 1, k2 = k - k1;
  y = y * rt_float((u32)(k1 + 127) << 23) * rt_float((u32)(k2 + 127) << 23);
  return x != x ? x : y;
}
)";

const char* const kCudaHead = R"(/* mlperf runtime: generated kernels (CUDA C++, nvrtc) */
#define RT_FN static __device__ __forceinline__
#define RT_EXP expf
#define RT_LOG logf
#define RT_SQRT sqrtf
#define RT_TANH tanhf
#define RT_POW powf
#define RT_INF __int_as_float(0x7f800000)
#define RT_NAN __int_as_float(0x7fffffff)
#define RT_RESTRICT __restrict__
)";

bool is_half(DType d) { return d == DType::F16 || d == DType::BF16; }

const char* ctype(DType d) {
  switch (d) {
    case DType::F32:
    case DType::F16:
    case DType::BF16:
      return "float";
    case DType::I32:
      return "i32";
    case DType::I64:
      return "i64";
    case DType::Bool:
      return "u8";
  }
  return "float";
}
const char* stype(DType d) {
  switch (d) {
    case DType::F32:
      return "float";
    case DType::F16:
    case DType::BF16:
      return "u16";
    case DType::I32:
      return "i32";
    case DType::I64:
      return "i64";
    case DType::Bool:
      return "u8";
  }
  return "float";
}

std::string float_lit(float f) {
  if (std::isnan(f)) return "RT_NAN";
  if (std::isinf(f)) return f > 0 ? "RT_INF" : "(-RT_INF)";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%af", static_cast<double>(f));
  return buf;
}
std::string int_lit(int64_t v) {
  if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";
  return "(" + std::to_string(v) + "LL)";
}

// Integer arithmetic wraps as in the reference backend: the operand in the unsigned type of
// its width, where C defines overflow; floats as they are.
std::string wrapped(DType d, const std::string& v) {
  if (d == DType::I64) return "(u64)(" + v + ")";
  if (d == DType::I32 || d == DType::Bool) return "(u32)(" + v + ")";
  return v;
}

// A literal of dtype d holding v (converted as convert_to_storage would).
std::string literal(DType d, double v) {
  switch (d) {
    case DType::F32:
      return float_lit(static_cast<float>(v));
    case DType::F16:
      return float_lit(f16_to_float(float_to_f16(static_cast<float>(v))));
    case DType::BF16:
      return float_lit(bf16_to_float(float_to_bf16(static_cast<float>(v))));
    case DType::I32:
      return "((i32)" + std::to_string(float_to_i32(v)) + ")";
    case DType::I64:
      return "((i64)" + int_lit(float_to_i64(v)) + ")";
    case DType::Bool:
      return v != 0.0 ? "((u8)1)" : "((u8)0)";
  }
  return "0";
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

struct Idx {
  bool flat = true;
  std::string f;                // flat (row-major) index over the node's shape
  std::vector<std::string> ax;  // per-axis indices
  static Idx flat_index(std::string e) { return Idx{true, std::move(e), {}}; }
  static Idx axes_index(std::vector<std::string> a) { return Idx{false, "", std::move(a)}; }
  std::string key() const {
    if (flat) return "F:" + f;
    std::string k = "A:";
    for (const auto& a : ax) k += a + ",";
    return k;
  }
};

class Gen {
 public:
  Gen(const fusion::Program& p, const fusion::KernelDesc& k, Target t) : program_(p), kernel_(k), target_(t) {
    for (int b : kernel_.loads) param_of_[b] = static_cast<int>(param_of_.size());
    for (int b : kernel_.stores) param_of_[b] = static_cast<int>(param_of_.size());
  }

  Kernel run() {
    Kernel out;
    for (int b : kernel_.loads) out.params.push_back(b);
    for (int b : kernel_.stores) out.params.push_back(b);
    out.num_loads = kernel_.loads.size();
    std::string sig;
    if (target_ == Target::CPU) {
      sig = "void @NAME@(void* const* b, i64 begin, i64 end) {\n";
      for (size_t j = 0; j < out.params.size(); ++j) {
        const fusion::Buffer& buf = program_.buffers[static_cast<size_t>(out.params[j])];
        bool ld = j < out.num_loads;
        sig += std::string("  ") + (ld ? "const " : "") + stype(buf.dtype) + "* RT_RESTRICT p" + std::to_string(j) +
               " = (" + (ld ? "const " : "") + stype(buf.dtype) + "*)b[" + std::to_string(j) + "];\n";
      }
    } else {
      sig = "extern \"C\" __global__ void @NAME@(";
      for (size_t j = 0; j < out.params.size(); ++j) {
        const fusion::Buffer& buf = program_.buffers[static_cast<size_t>(out.params[j])];
        bool ld = j < out.num_loads;
        sig += std::string(ld ? "const " : "") + stype(buf.dtype) + "* RT_RESTRICT p" + std::to_string(j) + ", ";
      }
      sig += "i64 begin, i64 end) {\n";
    }
    std::string loop = target_ == Target::CPU ? "  for (i64 i = begin; i < end; ++i) {\n"
                                              : "  for (i64 i = begin + (i64)blockIdx.x * blockDim.x + threadIdx.x; i "
                                                "< end; i += (i64)gridDim.x * blockDim.x) {\n";
    indent_ = "    ";
    const NodeData& r0 = node(kernel_.roots[0]);
    if (kernel_.kind == fusion::KernelDesc::Kind::Elementwise) {
      for (int r : kernel_.roots) {
        Idx idx = Idx::flat_index("i");
        std::string v = compute(r, idx);
        memo_[key(r, idx)] = v;
        store(r, "i", v);
      }
    } else if (kernel_.kind == fusion::KernelDesc::Kind::Reduce && target_ == Target::CPU && leading_reduce(r0)) {
      loop = "  for (i64 ob = begin; ob < end; ob += " + std::to_string(kBlock) + ") {\n";
      reduce_body_leading(r0);
    } else if (kernel_.kind == fusion::KernelDesc::Kind::Reduce) {
      reduce_body(r0);
    } else {
      argmax_body(r0);
    }
    std::string src = sig + loop + body_ + "  }\n}\n";
    if (target_ == Target::CPU && kernel_.iterations() * std::max<int64_t>(1, kernel_.reduce_count) < kSmallWork) {
      src = "RT_SMALL " + src;
      out.optimized = false;
    }
    std::string name = "k_" + hex(fnv1a(src + (target_ == Target::CPU ? "cpu" : "cuda")));
    size_t pos;
    while ((pos = src.find("@NAME@")) != std::string::npos) src.replace(pos, 6, name);
    out.name = name;
    out.source = std::move(src);
    return out;
  }

 private:
  static std::string hex(uint64_t h) {
    char b[32];
    std::snprintf(b, sizeof b, "%016" PRIx64, h);
    return b;
  }
  // CPU: a kernel with less work than this is compiled without optimization (RT_SMALL). At this
  // size it runs in microseconds either way, and the -O3 pipeline and instruction selection for
  // the many small kernels of a training step (loss, softmax, scalars, biases) were half of its
  // compile time.
  static constexpr int64_t kSmallWork = 4096;
  const NodeData& node(int id) const { return program_.nodes[static_cast<size_t>(id)]; }
  std::string key(int n, const Idx& i) const { return std::to_string(n) + "@" + i.key(); }

  std::string let(const std::string& type, const std::string& expr) {
    std::string k = type + "=" + expr;
    auto it = lets_.find(k);
    if (it != lets_.end()) return it->second;
    std::string v = "t" + std::to_string(tmp_++);
    body_ += indent_ + type + " " + v + " = " + expr + ";\n";
    lets_[k] = v;
    return v;
  }

  std::vector<std::string> axes_of(const Idx& idx, const Shape& s) {
    if (!idx.flat) return idx.ax;
    std::vector<std::string> ax(static_cast<size_t>(s.rank()));
    std::vector<int64_t> st = strides_of(s);
    // Leading dims of extent 1 and the first non-trivial axis need no modulo.
    bool first = true;
    for (int d = 0; d < s.rank(); ++d) {
      auto u = static_cast<size_t>(d);
      if (s[d] == 1) {
        ax[u] = "0";
        continue;
      }
      std::string e = st[u] == 1 ? idx.f : "(" + idx.f + ") / " + std::to_string(st[u]);
      if (!first) e = "(" + e + ") % " + std::to_string(s[d]);
      first = false;
      ax[u] = (e == idx.f) ? e : let("i64", e);
    }
    return ax;
  }
  std::string flat_of(const Idx& idx, const Shape& s) {
    if (idx.flat) return idx.f;
    std::vector<int64_t> st = strides_of(s);
    std::string e;
    for (int d = 0; d < s.rank(); ++d) {
      auto u = static_cast<size_t>(d);
      if (s[d] == 1 || idx.ax[u] == "0") continue;
      std::string term = st[u] == 1 ? idx.ax[u] : idx.ax[u] + " * " + std::to_string(st[u]);
      e = e.empty() ? term : e + " + " + term;
    }
    if (e.empty()) return "0";
    return e.find(' ') == std::string::npos ? e : let("i64", e);
  }

  std::string load(int n, const Idx& idx) {
    int b = program_.node_buffer[static_cast<size_t>(n)];
    auto it = param_of_.find(b);
    if (it == param_of_.end() || static_cast<size_t>(it->second) >= kernel_.loads.size())
      throw Error("codegen: node %" + std::to_string(n) + " read from a buffer the kernel does not load");
    const NodeData& d = node(n);
    std::string f = flat_of(idx, d.shape);
    std::string e = "p" + std::to_string(it->second) + "[" + f + "]";
    if (d.dtype == DType::F16) e = "rt_h2f(" + e + ")";
    if (d.dtype == DType::BF16) e = "rt_b2f(" + e + ")";
    return let(ctype(d.dtype), e);
  }

  void store(int n, const std::string& at, const std::string& v) {
    const NodeData& d = node(n);
    int b = program_.node_buffer[static_cast<size_t>(n)];
    std::string e = v;
    if (d.dtype == DType::F16) e = "rt_f2h(" + v + ")";
    if (d.dtype == DType::BF16) e = "rt_f2b(" + v + ")";
    body_ += indent_ + "p" + std::to_string(param_of_.at(b)) + "[" + at + "] = " + e + ";\n";
  }

  std::string val(int n, const Idx& idx) {
    std::string k = key(n, idx);
    auto it = memo_.find(k);
    if (it != memo_.end()) return it->second;
    std::string v = program_.node_buffer[static_cast<size_t>(n)] >= 0 ? load(n, idx) : compute(n, idx);
    memo_[k] = v;
    return v;
  }

  // One step of a sum or a NaN-propagating max into the accumulator `acc`.
  std::string accumulate(const std::string& acc, const std::string& acc_t, const std::string& v, bool sum) {
    if (sum && acc_t == "i64") return indent_ + acc + " = (i64)((u64)" + acc + " + (u64)(" + v + "));\n";  // wraps
    if (sum) return indent_ + acc + " += (" + acc_t + ")" + v + ";\n";
    return indent_ + "if (" + v + " > " + acc + " || " + v + " != " + v + ") " + acc + " = " + v + ";\n";
  }

  std::string round16(DType d, const std::string& e) {
    if (d == DType::F16) return "rt_rh(" + e + ")";
    if (d == DType::BF16) return "rt_rb(" + e + ")";
    return e;
  }

  std::string convert(DType from, DType to, const std::string& v) {
    if (to == DType::Bool) return "(u8)(" + v + " != 0)";
    if (is_float(to)) {
      std::string f = is_float(from) ? v : "(float)(double)" + v;
      return round16(to, f);
    }
    if (is_float(from)) return std::string(to == DType::I32 ? "rt_f2i32" : "rt_f2i64") + "((double)" + v + ")";
    return std::string("(") + ctype(to) + ")" + v;
  }

  // An elementwise node from its row of ops.def: the code template with its operands filled in.
  std::string elementwise(int n, const NodeData& d, const std::vector<std::string>& args) {
    const OpInfo& op = op_info(d.kind);
    const DType operand = node(d.inputs.back()).dtype;  // Where: the selected values' dtype
    const bool integral = !is_float(operand);
    const char* tpl = integral ? op.code_int : op.code_float;
    if (!tpl)
      throw Error(std::string("codegen: ") + op.name + " has no code template for " + dtype_name(operand) + " (node %" +
                  std::to_string(n) + ")");
    const std::string t = tpl;
    if (t == "@A") return args[0];
    const std::string ct = ctype(d.dtype);
    if (t == "@CONVERT") return let(ct, convert(operand, d.dtype, args[0]));
    std::string e;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] != '@') {
        e += t[i];
        continue;
      }
      bool wrap = t.compare(i + 1, 1, "W") == 0;
      size_t at = i + 1 + (wrap ? 1 : 0);
      char c = at < t.size() ? t[at] : '\0';
      if (c == 'T' && !wrap) {
        e += ct;
      } else if (c >= 'A' && c < 'A' + static_cast<char>(args.size())) {
        const std::string& v = args[static_cast<size_t>(c - 'A')];
        e += wrap ? wrapped(d.dtype, v) : v;
      } else {
        throw Error(std::string("codegen: bad placeholder in the template of ") + op.name + ": " + t);
      }
      i = at;
    }
    const bool rounds = op.dtype_rule != DTypeRule::Compare && op.cls != OpClass::Ternary;
    return let(ct, rounds ? round16(d.dtype, e) : e);
  }

  std::string compute(int n, const Idx& idx) {
    const NodeData& d = node(n);
    const std::string ct = ctype(d.dtype);
    auto in = [&](size_t j) { return d.inputs[j]; };
    auto same = [&](size_t j) { return val(in(j), idx); };
    OpKind k = d.kind;
    if (is_elementwise(k)) {
      std::vector<std::string> args;
      for (size_t j = 0; j < d.inputs.size(); ++j) args.push_back(same(j));
      return elementwise(n, d, args);
    }
    switch (k) {
      case OpKind::Constant: {
        if (d.shape.numel() != 1) throw Error("codegen: non-scalar constant not materialized");
        return literal(d.dtype, (*d.attrs.literal)[0]);
      }
      case OpKind::Iota: {
        auto ax = axes_of(idx, d.shape);
        return let(ct, convert(DType::I64, d.dtype, "(i64)" + ax[static_cast<size_t>(d.attrs.axis)]));
      }
      case OpKind::RngUniform: {
        std::string seed = "(u64)" + std::to_string(d.attrs.seed) + "ull";
        if (!d.inputs.empty()) seed = "(" + seed + " ^ (u64)" + val(in(0), Idx::flat_index("0")) + ")";
        std::string f = flat_of(idx, d.shape);
        return let(ct, round16(d.dtype, "rt_rng(" + seed + ", (u64)(" + f + "))"));
      }
      case OpKind::Reshape: {
        std::string f = flat_of(idx, d.shape);
        return val(in(0), Idx::flat_index(f));
      }
      case OpKind::BroadcastTo: {
        const Shape& s = node(in(0)).shape;
        const Shape& out_shape = d.shape;
        if (s.numel() == 1) return val(in(0), Idx::flat_index("0"));
        if (s.numel() == out_shape.numel()) return val(in(0), Idx::flat_index(flat_of(idx, out_shape)));
        int lead = out_shape.rank() - s.rank();
        // s (without leading 1s) is a suffix of out_shape: index modulo; a prefix followed by 1s: divide.
        int first = 0;
        while (first < s.rank() && s[first] == 1) ++first;
        bool suffix = true;
        for (int j = first; j < s.rank(); ++j)
          if (s[j] != out_shape[lead + j]) suffix = false;
        if (idx.flat && suffix)
          return val(in(0), Idx::flat_index(let("i64", "(" + idx.f + ") % " + std::to_string(s.numel()))));
        int last = s.rank();
        while (last > 0 && s[last - 1] == 1) --last;
        bool prefix = true;
        for (int j = 0; j < last; ++j)
          if (s[j] != out_shape[lead + j] || (lead > 0 && out_shape[j] != 1)) prefix = false;
        if (idx.flat && prefix && lead == 0) {
          int64_t inner = 1;
          for (int j = last; j < out_shape.rank(); ++j) inner *= out_shape[j];
          return val(in(0), Idx::flat_index(let("i64", "(" + idx.f + ") / " + std::to_string(inner))));
        }
        auto ax = axes_of(idx, out_shape);
        std::vector<std::string> ia(static_cast<size_t>(s.rank()));
        for (int j = 0; j < s.rank(); ++j)
          ia[static_cast<size_t>(j)] = s[j] == 1 ? "0" : ax[static_cast<size_t>(lead + j)];
        return val(in(0), Idx::axes_index(ia));
      }
      case OpKind::Transpose: {
        auto ax = axes_of(idx, d.shape);
        std::vector<std::string> ia(ax.size());
        for (size_t j = 0; j < ax.size(); ++j) ia[static_cast<size_t>(d.attrs.perm[j])] = ax[j];
        return val(in(0), Idx::axes_index(ia));
      }
      case OpKind::Slice: {
        auto ax = axes_of(idx, d.shape);
        std::vector<std::string> ia(ax.size());
        for (size_t j = 0; j < ax.size(); ++j) {
          int64_t st = d.attrs.starts[j], sd = d.attrs.strides[j];
          std::string e = sd == 1 ? ax[j] : ax[j] + " * " + std::to_string(sd);
          if (st != 0) e = e + " + " + std::to_string(st);
          ia[j] = e == ax[j] ? e : let("i64", e);
        }
        return val(in(0), Idx::axes_index(ia));
      }
      case OpKind::Pad: {
        const Shape& s = node(in(0)).shape;
        std::string pv = literal(d.dtype, d.attrs.value);
        if (s.numel() == 0) return pv;
        auto ax = axes_of(idx, d.shape);
        std::vector<std::string> ia(ax.size());
        std::string valid;
        for (size_t j = 0; j < ax.size(); ++j) {
          int64_t lo = d.attrs.pad_lo[j], step = d.attrs.interior.empty() ? 1 : d.attrs.interior[j] + 1;
          std::string t = lo == 0 ? ax[j] : let("i64", ax[j] + " - (" + std::to_string(lo) + ")");
          std::string q = step == 1 ? t : let("i64", t + " / " + std::to_string(step));
          std::string ok = "(" + t + " >= 0 && " + q + " < " + std::to_string(s[static_cast<int>(j)]);
          if (step != 1) ok += " && " + t + " % " + std::to_string(step) + " == 0";
          ok += ")";
          std::string okv = let("u8", ok);
          valid = valid.empty() ? okv : let("u8", valid + " && " + okv);
          ia[j] = let("i64", okv + " ? " + q + " : 0");
        }
        std::string v = val(in(0), Idx::axes_index(ia));
        return let(ct, "(" + valid + " ? " + v + " : " + pv + ")");
      }
      case OpKind::Concat: {
        auto ax = axes_of(idx, d.shape);
        auto a = static_cast<size_t>(d.attrs.axis);
        std::string e;
        int64_t off = 0;
        std::vector<std::pair<int64_t, std::string>> parts;
        for (int x : d.inputs) {
          int64_t dim = node(x).shape[d.attrs.axis];
          if (dim == 0) continue;
          std::vector<std::string> ia = ax;
          std::string c = off == 0 ? ax[a] : ax[a] + " - " + std::to_string(off);
          ia[a] = let("i64", "(" + ax[a] + " >= " + std::to_string(off) + " && " + ax[a] + " < " +
                                 std::to_string(off + dim) + ") ? " + c + " : 0");
          parts.push_back({off + dim, val(x, Idx::axes_index(ia))});
          off += dim;
        }
        if (parts.empty()) return literal(d.dtype, 0);
        e = parts.back().second;
        for (size_t j = parts.size() - 1; j-- > 0;)
          e = "(" + ax[a] + " < " + std::to_string(parts[j].first) + " ? " + parts[j].second + " : " + e + ")";
        return let(ct, e);
      }
      default:
        break;
    }
    throw Error(std::string("codegen: cannot inline op ") + op_name(k) + " (node %" + std::to_string(n) + ")");
  }

  // Input axes of a reduction from the output index o and the reduced index r.
  Idx reduce_input_index(const Shape& in, const std::vector<bool>& red, const std::vector<std::string>& oax,
                         const std::string& r, const Shape& out) {
    int rank = in.rank();
    bool trailing = true, leading = true;
    int nred = 0;
    for (int d = 0; d < rank; ++d) nred += red[static_cast<size_t>(d)];
    for (int d = 0; d < rank; ++d) {
      if (red[static_cast<size_t>(d)] != (d >= rank - nred)) trailing = false;
      if (red[static_cast<size_t>(d)] != (d < nred)) leading = false;
    }
    int64_t reduce_size = 1;
    for (int d = 0; d < rank; ++d)
      if (red[static_cast<size_t>(d)]) reduce_size *= in[d];
    if (reduce_size == 0) return Idx::flat_index("0");  // the loop body never runs
    if (trailing) return Idx::flat_index(let("i64", "o * " + std::to_string(reduce_size) + " + " + r));
    if (leading) return Idx::flat_index(let("i64", r + " * " + std::to_string(out.numel()) + " + o"));
    std::vector<std::string> ia(static_cast<size_t>(rank));
    int64_t stride = reduce_size;
    size_t j = 0;
    for (int d = 0; d < rank; ++d) {
      auto u = static_cast<size_t>(d);
      if (red[u]) {
        stride /= in[d];
        std::string e = stride == 1 ? r : "(" + r + " / " + std::to_string(stride) + ")";
        if (stride * in[d] != reduce_size) e = "(" + e + " % " + std::to_string(in[d]) + ")";
        ia[u] = let("i64", e);
      } else {
        ia[u] = oax[j++];
      }
    }
    return Idx::axes_index(ia);
  }

  // The input axes a reduction folds away.
  std::vector<bool> reduced_axes(const NodeData& d) const {
    const NodeData& x = node(d.inputs[0]);
    std::vector<bool> red(static_cast<size_t>(x.shape.rank()), false);
    for (int64_t a : d.attrs.axes) red[static_cast<size_t>(a)] = true;
    return red;
  }

  // A reduction's accumulator: its C type and starting value (a sum in double
  // or i64, a max in the input's type from its lowest value).
  static std::pair<std::string, std::string> accumulator(const NodeData& x, bool sum) {
    std::string acc_t = sum ? (is_float(x.dtype) ? "double" : "i64") : ctype(x.dtype);
    std::string init = sum                     ? "0"
                       : is_float(x.dtype)     ? "(-RT_INF)"
                       : x.dtype == DType::I32 ? "(i32)(-2147483647 - 1)"
                                               : "(-9223372036854775807LL - 1)";
    return {acc_t, init};
  }

  void reduce_body(const NodeData& d) {
    // the loop variable is i; name it o for readability
    body_ += indent_ + "i64 o = i;\n";
    const NodeData& x = node(d.inputs[0]);
    std::vector<bool> red = reduced_axes(d);
    std::vector<std::string> oax = axes_of(Idx::flat_index("o"), d.shape);
    bool sum = d.kind == OpKind::ReduceSum;
    auto [acc_t, init] = accumulator(x, sum);
    body_ += indent_ + acc_t + " acc = " + init + ";\n";
    body_ += indent_ + "for (i64 r = 0; r < " + std::to_string(kernel_.reduce_count) + "; ++r) {\n";
    auto saved_memo = memo_;
    auto saved_lets = lets_;
    std::string saved_indent = indent_;
    indent_ += "  ";
    Idx ii = reduce_input_index(x.shape, red, oax, "r", d.shape);
    std::string v = val(d.inputs[0], ii);
    body_ += accumulate("acc", acc_t, v, sum);
    indent_ = saved_indent;
    memo_ = saved_memo;
    lets_ = saved_lets;
    body_ += indent_ + "}\n";
    std::string res = std::string("(") + ctype(d.dtype) + ")acc";
    store(kernel_.roots[0], "o", is_half(d.dtype) ? round16(d.dtype, res) : res);
  }

  // CPU: a reduction over leading axes (e.g. the bias gradient, axis 0 of [128, N]) has outputs
  // that are contiguous in the input. Instead of one strided scalar loop per output, a block of
  // kBlock outputs keeps its accumulators in a local array and every row r updates the block
  // with a unit-stride, vectorizable inner loop. Each output still sums r = 0, 1, ... in order.
  static constexpr int kBlock = 64;
  bool leading_reduce(const NodeData& d) const {
    int rank = node(d.inputs[0]).shape.rank();
    std::vector<bool> red = reduced_axes(d);
    int k = 0;
    while (k < rank && red[static_cast<size_t>(k)]) ++k;
    if (k == 0 || k == rank) return false;
    for (int a = k; a < rank; ++a)
      if (red[static_cast<size_t>(a)]) return false;
    return kernel_.iterations() >= 16;
  }

  void reduce_body_leading(const NodeData& d) {
    const NodeData& x = node(d.inputs[0]);
    std::vector<bool> red = reduced_axes(d);
    bool sum = d.kind == OpKind::ReduceSum;
    auto [acc_t, init] = accumulator(x, sum);
    std::string block = std::to_string(kBlock);
    body_ += indent_ + "i64 on = end - ob < " + block + " ? end - ob : " + block + ";\n";
    body_ += indent_ + acc_t + " accs[" + block + "];\n";
    body_ += indent_ + "for (i64 q = 0; q < on; ++q) accs[q] = " + init + ";\n";
    body_ += indent_ + "for (i64 r = 0; r < " + std::to_string(kernel_.reduce_count) + "; ++r) {\n";
    body_ += indent_ + "  for (i64 q = 0; q < on; ++q) {\n";
    auto saved_memo = memo_;
    auto saved_lets = lets_;
    std::string saved_indent = indent_;
    indent_ += "    ";
    body_ += indent_ + "i64 o = ob + q;\n";
    std::vector<std::string> oax = axes_of(Idx::flat_index("o"), d.shape);  // emitted after o exists
    Idx ii = reduce_input_index(x.shape, red, oax, "r", d.shape);
    std::string v = val(d.inputs[0], ii);
    body_ += accumulate("accs[q]", acc_t, v, sum);
    indent_ = saved_indent;
    memo_ = saved_memo;
    lets_ = saved_lets;
    body_ += indent_ + "  }\n" + indent_ + "}\n";
    body_ += indent_ + "for (i64 q = 0; q < on; ++q) {\n";
    saved_indent = indent_;
    indent_ += "  ";
    body_ += indent_ + "i64 o = ob + q;\n";
    std::string res = std::string("(") + ctype(d.dtype) + ")accs[q]";
    store(kernel_.roots[0], "o", is_half(d.dtype) ? round16(d.dtype, res) : res);
    indent_ = saved_indent;
    body_ += indent_ + "}\n";
  }

  void argmax_body(const NodeData& d) {
    body_ += indent_ + "i64 o = i;\n";
    const NodeData& x = node(d.inputs[0]);
    int axis = d.attrs.axis;
    std::vector<std::string> oax = axes_of(Idx::flat_index("o"), d.shape);
    body_ += indent_ + "i64 best = 0;\n" + indent_ + ctype(x.dtype) + " bv = 0;\n";
    body_ += indent_ + "for (i64 j = 0; j < " + std::to_string(kernel_.reduce_count) + "; ++j) {\n";
    auto saved_memo = memo_;
    auto saved_lets = lets_;
    std::string saved_indent = indent_;
    indent_ += "  ";
    std::vector<std::string> ia;
    size_t q = 0;
    for (int a = 0; a < x.shape.rank(); ++a) ia.push_back(a == axis ? "j" : oax[q++]);
    std::string v = val(d.inputs[0], Idx::axes_index(ia));
    body_ += indent_ + "if (j == 0 || " + v + " > bv) { bv = " + v + "; best = j; }\n";
    indent_ = saved_indent;
    memo_ = saved_memo;
    lets_ = saved_lets;
    body_ += indent_ + "}\n";
    store(kernel_.roots[0], "o", "best");
  }

  const fusion::Program& program_;
  const fusion::KernelDesc& kernel_;
  Target target_;
  std::map<int, int> param_of_;
  std::map<std::string, std::string> memo_, lets_;
  std::string body_, indent_;
  int tmp_ = 0;
};

}  // namespace

const std::string& prelude(Target t) {
  static const std::string kCpuPrelude = std::string(kCpuHead) + kCommon + kCpuTail;
  static const std::string kCudaPrelude = std::string(kCudaHead) + kCommon;
  return t == Target::CPU ? kCpuPrelude : kCudaPrelude;
}

namespace {
struct Recorder {
  std::mutex mu;
  bool on = false;
  std::map<std::string, Kernel> kernels;  // by source
};
Recorder& recorder() {
  static Recorder r;
  return r;
}
}  // namespace

Kernel generate(const fusion::Program& p, int kernel_index, Target t) {
  Gen g(p, p.kernels.at(static_cast<size_t>(kernel_index)), t);
  Kernel k = g.run();
  Recorder& r = recorder();
  if (t == Target::CPU) {
    std::lock_guard<std::mutex> lk(r.mu);
    if (r.on) {
      Gen twin(p, p.kernels.at(static_cast<size_t>(kernel_index)), Target::CUDA);
      Kernel c = twin.run();
      r.kernels.emplace(c.source, std::move(c));
    }
  }
  return k;
}

void record_cuda_twins(bool enable) {
  std::lock_guard<std::mutex> lk(recorder().mu);
  recorder().on = enable;
}

std::vector<Kernel> recorded_cuda_twins() {
  std::lock_guard<std::mutex> lk(recorder().mu);
  std::vector<Kernel> v;
  for (auto& [src, k] : recorder().kernels) v.push_back(k);
  return v;
}

}  // namespace mlperf::rt::codegen
