#pragma once
// The op table: one OpInfo per OpKind, built from ops.def. Passes and backends ask it what an
// op is instead of listing ops in switch statements of their own.
#include <cstdint>
#include <span>

#include "mlperf/rt/graph.h"

namespace mlperf::rt {

enum class OpClass : uint8_t { Leaf, Unary, Binary, Ternary, Layout, Reduction, Contraction };

// The operand dtypes an op accepts and the dtype it produces.
enum class DTypeRule : uint8_t {
  Given,      // leaves: the caller's
  Float,      // float operand, same dtype out
  Numeric,    // not Bool, same dtype out
  Bool,       // Bool in, Bool out
  Any,        // any, same dtype out
  Convert,    // any in, the requested dtype out
  Arith,      // equal numeric dtypes, same dtype out
  FloatOnly,  // equal float dtypes, same dtype out
  Compare,    // equal dtypes, Bool out
  Logical,    // Bool operands, Bool out
  Select,     // Bool condition, equal dtypes, their dtype out
  Same,       // the operand's dtype
};

enum class ShapeRule : uint8_t {
  Given,      // leaves: the caller's
  Broadcast,  // numpy broadcast of the operands (the builder inserts BroadcastTo nodes)
  Builder,    // computed by the op's builder in ops_*.cpp from its attributes
};

// How the fused backends treat an op.
enum class FusionClass : uint8_t {
  Leaf,     // a buffer (parameter, non-scalar constant) or an index function (iota, rng, scalar)
  Inline,   // elementwise: its code template is inlined into the consumer's loop
  Remap,    // a cheap index remapping, inlined (reshape, transpose, broadcast, slice)
  Select,   // an index remapping that selects between sources or a fill value (concat, pad)
  Reduce,   // a kernel of its own with a reduction loop
  ArgMax,   // a kernel of its own with an arg-max loop
  Library,  // a library call (matmul: BLAS, cuBLAS)
};

struct OpInfo {
  OpKind kind;
  const char* name;
  int arity;  // -1: variable
  OpClass cls;
  DTypeRule dtype_rule;
  ShapeRule shape_rule;
  FusionClass fusion;
  const char* reference;   // the reference kernel: a scalar expression (elementwise) or a kernel name
  const char* gradient;    // the gradient rule as written in ops.def
  bool differentiable;     // false: NOT_DIFFERENTIABLE
  const char* code_float;  // elementwise: the C template for float operands; nullptr: not defined for floats
  const char* code_int;    // elementwise: the C template for integer/Bool operands; nullptr: not defined
};

std::span<const OpInfo> op_table();  // indexed by OpKind
const OpInfo& op_info(OpKind k);

}  // namespace mlperf::rt
