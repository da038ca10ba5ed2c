// The public C API of ggml (ggml.h) that applications call: the context, the
// tensor with its commonly read fields, the graph, the element types and the
// operations. Declarations only: the fixtures parse against them, and
// mlperf-lint uses them in place of a header the machine does not have. Both
// the current API and the older one that applications still vendor (a
// complete ggml_cgraph, ggml_cplan, scratch buffers, gguf in ggml.h) are here.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GGML_API
#define GGML_FILE_MAGIC 0x67676d6c
#define GGML_FILE_VERSION 2
#define GGML_QNT_VERSION 2
#define GGML_QNT_VERSION_FACTOR 1000
#define GGML_MAX_DIMS 4
#define GGML_MAX_PARAMS 2048
#define GGML_MAX_SRC 10
#define GGML_MAX_NAME 64
#define GGML_MAX_OP_PARAMS 64
#define GGML_MAX_CONTEXTS 64
#define GGML_DEFAULT_N_THREADS 4
#define GGML_DEFAULT_GRAPH_SIZE 2048
#define GGML_MEM_ALIGN 16
#define GGML_EXIT_SUCCESS 0
#define GGML_EXIT_ABORTED 1
#define GGML_MAX_NODES 4096
#define GGML_OBJECT_SIZE sizeof(struct ggml_object)
#define GGML_TENSOR_SIZE sizeof(struct ggml_tensor)
#define GGML_PAD(x, n) (((x) + (n) - 1) & ~((n) - 1))
#define GGML_UNUSED(x) (void)(x)
#define GGML_ABORT(...) ggml_abort(__FILE__, __LINE__, __VA_ARGS__)
#define GGML_ASSERT(x)                                                                                                 \
  if (!(x))                                                                                                            \
  GGML_ABORT("GGML_ASSERT(%s) failed", #x)

#ifdef __cplusplus
extern "C" {
#endif

typedef uint16_t ggml_fp16_t;
typedef struct {
  uint16_t bits;
} ggml_bf16_t;

enum ggml_object_type { GGML_OBJECT_TYPE_TENSOR, GGML_OBJECT_TYPE_GRAPH, GGML_OBJECT_TYPE_WORK_BUFFER };

// An entry of a context's arena; complete because older applications size
// their contexts with sizeof (GGML_OBJECT_SIZE).
struct ggml_object {
  size_t offs;
  size_t size;
  struct ggml_object *next;
  enum ggml_object_type type;
  char padding[4];
};
struct ggml_context;
struct ggml_backend_buffer;
struct ggml_threadpool;
typedef struct ggml_threadpool *ggml_threadpool_t;

enum ggml_status {
  GGML_STATUS_ALLOC_FAILED = -2,
  GGML_STATUS_FAILED = -1,
  GGML_STATUS_SUCCESS = 0,
  GGML_STATUS_ABORTED = 1,
};

enum ggml_type {
  GGML_TYPE_F32 = 0,
  GGML_TYPE_F16 = 1,
  GGML_TYPE_Q4_0 = 2,
  GGML_TYPE_Q4_1 = 3,
  GGML_TYPE_Q5_0 = 6,
  GGML_TYPE_Q5_1 = 7,
  GGML_TYPE_Q8_0 = 8,
  GGML_TYPE_Q8_1 = 9,
  GGML_TYPE_Q2_K = 10,
  GGML_TYPE_Q3_K = 11,
  GGML_TYPE_Q4_K = 12,
  GGML_TYPE_Q5_K = 13,
  GGML_TYPE_Q6_K = 14,
  GGML_TYPE_Q8_K = 15,
  GGML_TYPE_IQ2_XXS = 16,
  GGML_TYPE_IQ2_XS = 17,
  GGML_TYPE_IQ3_XXS = 18,
  GGML_TYPE_IQ1_S = 19,
  GGML_TYPE_IQ4_NL = 20,
  GGML_TYPE_IQ3_S = 21,
  GGML_TYPE_IQ2_S = 22,
  GGML_TYPE_IQ4_XS = 23,
  GGML_TYPE_I8 = 24,
  GGML_TYPE_I16 = 25,
  GGML_TYPE_I32 = 26,
  GGML_TYPE_I64 = 27,
  GGML_TYPE_F64 = 28,
  GGML_TYPE_IQ1_M = 29,
  GGML_TYPE_BF16 = 30,
  GGML_TYPE_COUNT = 39,
};

enum ggml_prec { GGML_PREC_DEFAULT = 0, GGML_PREC_F32 = 10 };

enum ggml_backend_type { GGML_BACKEND_TYPE_CPU = 0, GGML_BACKEND_TYPE_GPU = 10, GGML_BACKEND_TYPE_GPU_SPLIT = 20 };

enum ggml_ftype {
  GGML_FTYPE_UNKNOWN = -1,
  GGML_FTYPE_ALL_F32 = 0,
  GGML_FTYPE_MOSTLY_F16 = 1,
  GGML_FTYPE_MOSTLY_Q4_0 = 2,
  GGML_FTYPE_MOSTLY_Q4_1 = 3,
  GGML_FTYPE_MOSTLY_Q8_0 = 7,
  GGML_FTYPE_MOSTLY_Q5_0 = 8,
  GGML_FTYPE_MOSTLY_Q5_1 = 9,
};

// The operations' codes; applications compare a tensor's op with a few of them.
enum ggml_op {
  GGML_OP_NONE = 0,
  GGML_OP_DUP,
  GGML_OP_ADD,
  GGML_OP_SUB,
  GGML_OP_MUL,
  GGML_OP_DIV,
  GGML_OP_SQR,
  GGML_OP_SQRT,
  GGML_OP_SUM,
  GGML_OP_MEAN,
  GGML_OP_NORM,
  GGML_OP_RMS_NORM,
  GGML_OP_MUL_MAT,
  GGML_OP_SCALE,
  GGML_OP_CPY,
  GGML_OP_CONT,
  GGML_OP_RESHAPE,
  GGML_OP_VIEW,
  GGML_OP_PERMUTE,
  GGML_OP_TRANSPOSE,
  GGML_OP_GET_ROWS,
  GGML_OP_SOFT_MAX,
  GGML_OP_ROPE,
  GGML_OP_CONV_2D,
  GGML_OP_CONCAT,
  GGML_OP_COUNT,
};

enum ggml_unary_op {
  GGML_UNARY_OP_ABS,
  GGML_UNARY_OP_SGN,
  GGML_UNARY_OP_NEG,
  GGML_UNARY_OP_STEP,
  GGML_UNARY_OP_TANH,
  GGML_UNARY_OP_ELU,
  GGML_UNARY_OP_RELU,
  GGML_UNARY_OP_SIGMOID,
  GGML_UNARY_OP_GELU,
  GGML_UNARY_OP_GELU_QUICK,
  GGML_UNARY_OP_SILU,
  GGML_UNARY_OP_COUNT,
};

enum ggml_log_level {
  GGML_LOG_LEVEL_NONE = 0,
  GGML_LOG_LEVEL_DEBUG = 1,
  GGML_LOG_LEVEL_INFO = 2,
  GGML_LOG_LEVEL_WARN = 3,
  GGML_LOG_LEVEL_ERROR = 4,
  GGML_LOG_LEVEL_CONT = 5,
};

enum ggml_tensor_flag {
  GGML_TENSOR_FLAG_INPUT = 1,
  GGML_TENSOR_FLAG_OUTPUT = 2,
  GGML_TENSOR_FLAG_PARAM = 4,
  GGML_TENSOR_FLAG_LOSS = 8,
};

enum ggml_numa_strategy {
  GGML_NUMA_STRATEGY_DISABLED = 0,
  GGML_NUMA_STRATEGY_DISTRIBUTE = 1,
  GGML_NUMA_STRATEGY_ISOLATE = 2,
  GGML_NUMA_STRATEGY_NUMACTL = 3,
  GGML_NUMA_STRATEGY_MIRROR = 4,
  GGML_NUMA_STRATEGY_COUNT
};

enum ggml_sort_order { GGML_SORT_ORDER_ASC, GGML_SORT_ORDER_DESC };

typedef void (*ggml_log_callback)(enum ggml_log_level level, const char *text, void *user_data);
typedef bool (*ggml_abort_callback)(void *data);

// A tensor: its type, shape (ne: elements, nb: bytes per step, per dimension),
// data (host memory, or a backend buffer's) and name. n_dims and backend are
// the older API's fields.
struct ggml_tensor {
  enum ggml_type type;
  enum ggml_backend_type backend;
  struct ggml_backend_buffer *buffer;
  int n_dims;
  int64_t ne[GGML_MAX_DIMS];
  size_t nb[GGML_MAX_DIMS];
  enum ggml_op op;
  int32_t op_params[GGML_MAX_OP_PARAMS / sizeof(int32_t)];
  int32_t flags;
  struct ggml_tensor *grad;
  struct ggml_tensor *src[GGML_MAX_SRC];
  struct ggml_tensor *view_src;
  size_t view_offs;
  void *data;
  char name[GGML_MAX_NAME];
  void *extra;
  char padding[8];
};

// Complete as in the older API, whose applications declare a graph by value
// (`struct ggml_cgraph gf = {};`); the current API only hands out pointers.
struct ggml_cgraph {
  int size;
  int n_nodes;
  int n_leafs;
  struct ggml_tensor **nodes;
  struct ggml_tensor **grads;
  struct ggml_tensor **leafs;
};

struct ggml_init_params {
  size_t mem_size;  // bytes
  void *mem_buffer; // if NULL, memory will be allocated internally
  bool no_alloc;    // don't allocate memory for the tensor data
};

// The older API's scratch buffer and compute plan.
struct ggml_scratch {
  size_t offs;
  size_t size;
  void *data;
};

struct ggml_cplan {
  size_t work_size;
  uint8_t *work_data;
  int n_threads;
  struct ggml_threadpool *threadpool;
  ggml_abort_callback abort_callback;
  void *abort_callback_data;
};

GGML_API void ggml_abort(const char *file, int line, const char *fmt, ...);

GGML_API float ggml_fp16_to_fp32(ggml_fp16_t);
GGML_API ggml_fp16_t ggml_fp32_to_fp16(float);
GGML_API void ggml_fp16_to_fp32_row(const ggml_fp16_t *, float *, int64_t);
GGML_API void ggml_fp32_to_fp16_row(const float *, ggml_fp16_t *, int64_t);

GGML_API void ggml_time_init(void);
GGML_API int64_t ggml_time_ms(void);
GGML_API int64_t ggml_time_us(void);
GGML_API int64_t ggml_cycles(void);
GGML_API int64_t ggml_cycles_per_ms(void);

GGML_API void ggml_print_object(const struct ggml_object *obj);
GGML_API void ggml_print_objects(const struct ggml_context *ctx);

GGML_API int64_t ggml_nelements(const struct ggml_tensor *tensor);
GGML_API int64_t ggml_nrows(const struct ggml_tensor *tensor);
GGML_API size_t ggml_nbytes(const struct ggml_tensor *tensor);
GGML_API size_t ggml_nbytes_pad(const struct ggml_tensor *tensor);
GGML_API int64_t ggml_blck_size(enum ggml_type type);
GGML_API size_t ggml_type_size(enum ggml_type type);
GGML_API size_t ggml_row_size(enum ggml_type type, int64_t ne);
GGML_API float ggml_type_sizef(enum ggml_type type);
GGML_API const char *ggml_type_name(enum ggml_type type);
GGML_API const char *ggml_op_name(enum ggml_op op);
GGML_API const char *ggml_op_desc(const struct ggml_tensor *t);
GGML_API size_t ggml_element_size(const struct ggml_tensor *tensor);
GGML_API bool ggml_is_quantized(enum ggml_type type);
GGML_API enum ggml_type ggml_ftype_to_ggml_type(enum ggml_ftype ftype);
GGML_API bool ggml_is_transposed(const struct ggml_tensor *tensor);
GGML_API bool ggml_is_contiguous(const struct ggml_tensor *tensor);
GGML_API bool ggml_is_permuted(const struct ggml_tensor *tensor);
GGML_API bool ggml_is_empty(const struct ggml_tensor *tensor);
GGML_API bool ggml_is_scalar(const struct ggml_tensor *tensor);
GGML_API bool ggml_is_vector(const struct ggml_tensor *tensor);
GGML_API bool ggml_is_matrix(const struct ggml_tensor *tensor);
GGML_API int ggml_n_dims(const struct ggml_tensor *tensor);
GGML_API bool ggml_are_same_shape(const struct ggml_tensor *t0, const struct ggml_tensor *t1);
GGML_API size_t ggml_tensor_overhead(void);
GGML_API bool ggml_validate_row_data(enum ggml_type type, const void *data, size_t nbytes);

// The context: an arena that holds tensors' metadata and, unless no_alloc, their data.
GGML_API struct ggml_context *ggml_init(struct ggml_init_params params);
GGML_API void ggml_reset(struct ggml_context *ctx);
GGML_API void ggml_free(struct ggml_context *ctx);
GGML_API size_t ggml_used_mem(const struct ggml_context *ctx);
GGML_API size_t ggml_set_scratch(struct ggml_context *ctx, struct ggml_scratch scratch);
GGML_API bool ggml_get_no_alloc(struct ggml_context *ctx);
GGML_API void ggml_set_no_alloc(struct ggml_context *ctx, bool no_alloc);
GGML_API void *ggml_get_mem_buffer(const struct ggml_context *ctx);
GGML_API size_t ggml_get_mem_size(const struct ggml_context *ctx);
GGML_API size_t ggml_get_max_tensor_size(const struct ggml_context *ctx);

GGML_API struct ggml_tensor *ggml_new_tensor(struct ggml_context *ctx, enum ggml_type type, int n_dims,
                                             const int64_t *ne);
GGML_API struct ggml_tensor *ggml_new_tensor_1d(struct ggml_context *ctx, enum ggml_type type, int64_t ne0);
GGML_API struct ggml_tensor *ggml_new_tensor_2d(struct ggml_context *ctx, enum ggml_type type, int64_t ne0,
                                                int64_t ne1);
GGML_API struct ggml_tensor *ggml_new_tensor_3d(struct ggml_context *ctx, enum ggml_type type, int64_t ne0, int64_t ne1,
                                                int64_t ne2);
GGML_API struct ggml_tensor *ggml_new_tensor_4d(struct ggml_context *ctx, enum ggml_type type, int64_t ne0, int64_t ne1,
                                                int64_t ne2, int64_t ne3);
GGML_API struct ggml_tensor *ggml_new_i32(struct ggml_context *ctx, int32_t value);
GGML_API struct ggml_tensor *ggml_new_f32(struct ggml_context *ctx, float value);
GGML_API void *ggml_new_buffer(struct ggml_context *ctx, size_t nbytes);
GGML_API struct ggml_tensor *ggml_dup_tensor(struct ggml_context *ctx, const struct ggml_tensor *src);
GGML_API struct ggml_tensor *ggml_view_tensor(struct ggml_context *ctx, struct ggml_tensor *src);
GGML_API struct ggml_tensor *ggml_get_first_tensor(const struct ggml_context *ctx);
GGML_API struct ggml_tensor *ggml_get_next_tensor(const struct ggml_context *ctx, struct ggml_tensor *tensor);
GGML_API struct ggml_tensor *ggml_get_tensor(struct ggml_context *ctx, const char *name);

GGML_API struct ggml_tensor *ggml_set_zero(struct ggml_tensor *tensor);
GGML_API struct ggml_tensor *ggml_set_i32(struct ggml_tensor *tensor, int32_t value);
GGML_API struct ggml_tensor *ggml_set_f32(struct ggml_tensor *tensor, float value);
GGML_API int32_t ggml_get_i32_1d(const struct ggml_tensor *tensor, int i);
GGML_API void ggml_set_i32_1d(const struct ggml_tensor *tensor, int i, int32_t value);
GGML_API float ggml_get_f32_1d(const struct ggml_tensor *tensor, int i);
GGML_API void ggml_set_f32_1d(const struct ggml_tensor *tensor, int i, float value);
GGML_API void *ggml_get_data(const struct ggml_tensor *tensor);
GGML_API float *ggml_get_data_f32(const struct ggml_tensor *tensor);
GGML_API enum ggml_unary_op ggml_get_unary_op(const struct ggml_tensor *tensor);
GGML_API const char *ggml_get_name(const struct ggml_tensor *tensor);
GGML_API struct ggml_tensor *ggml_set_name(struct ggml_tensor *tensor, const char *name);
GGML_API struct ggml_tensor *ggml_format_name(struct ggml_tensor *tensor, const char *fmt, ...);
GGML_API void ggml_set_input(struct ggml_tensor *tensor);
GGML_API void ggml_set_output(struct ggml_tensor *tensor);
GGML_API void ggml_set_param(struct ggml_tensor *tensor);
GGML_API void ggml_set_loss(struct ggml_tensor *tensor);

// Operations: each adds a node to the context's graph; nothing is computed
// until the graph is.
GGML_API struct ggml_tensor *ggml_dup(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_add(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_add_inplace(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_add1(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_acc(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b,
                                      size_t nb1, size_t nb2, size_t nb3, size_t offset);
GGML_API struct ggml_tensor *ggml_sub(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_mul(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_mul_inplace(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_div(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_sqr(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_sqrt(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_log(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_exp(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_sin(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_cos(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_sum(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_sum_rows(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_mean(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_argmax(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_repeat(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_concat(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b,
                                         int dim);
GGML_API struct ggml_tensor *ggml_abs(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_neg(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_tanh(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_elu(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_relu(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_relu_inplace(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_sigmoid(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_gelu(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_gelu_inplace(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_gelu_quick(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_gelu_quick_inplace(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_silu(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_silu_inplace(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_norm(struct ggml_context *ctx, struct ggml_tensor *a, float eps);
GGML_API struct ggml_tensor *ggml_norm_inplace(struct ggml_context *ctx, struct ggml_tensor *a, float eps);
GGML_API struct ggml_tensor *ggml_rms_norm(struct ggml_context *ctx, struct ggml_tensor *a, float eps);
GGML_API struct ggml_tensor *ggml_group_norm(struct ggml_context *ctx, struct ggml_tensor *a, int n_groups, float eps);
GGML_API struct ggml_tensor *ggml_mul_mat(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API void ggml_mul_mat_set_prec(struct ggml_tensor *a, enum ggml_prec prec);
GGML_API struct ggml_tensor *ggml_out_prod(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_scale(struct ggml_context *ctx, struct ggml_tensor *a, float s);
GGML_API struct ggml_tensor *ggml_scale_inplace(struct ggml_context *ctx, struct ggml_tensor *a, float s);
GGML_API struct ggml_tensor *ggml_clamp(struct ggml_context *ctx, struct ggml_tensor *a, float min, float max);
GGML_API struct ggml_tensor *ggml_cpy(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_cast(struct ggml_context *ctx, struct ggml_tensor *a, enum ggml_type type);
GGML_API struct ggml_tensor *ggml_cont(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_cont_2d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0, int64_t ne1);
GGML_API struct ggml_tensor *ggml_cont_3d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0, int64_t ne1,
                                          int64_t ne2);
GGML_API struct ggml_tensor *ggml_cont_4d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0, int64_t ne1,
                                          int64_t ne2, int64_t ne3);
GGML_API struct ggml_tensor *ggml_reshape(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_reshape_1d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0);
GGML_API struct ggml_tensor *ggml_reshape_2d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0, int64_t ne1);
GGML_API struct ggml_tensor *ggml_reshape_3d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0, int64_t ne1,
                                             int64_t ne2);
GGML_API struct ggml_tensor *ggml_reshape_4d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0, int64_t ne1,
                                             int64_t ne2, int64_t ne3);
GGML_API struct ggml_tensor *ggml_view_1d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0, size_t offset);
GGML_API struct ggml_tensor *ggml_view_2d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0, int64_t ne1,
                                          size_t nb1, size_t offset);
GGML_API struct ggml_tensor *ggml_view_3d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0, int64_t ne1,
                                          int64_t ne2, size_t nb1, size_t nb2, size_t offset);
GGML_API struct ggml_tensor *ggml_view_4d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0, int64_t ne1,
                                          int64_t ne2, int64_t ne3, size_t nb1, size_t nb2, size_t nb3, size_t offset);
GGML_API struct ggml_tensor *ggml_permute(struct ggml_context *ctx, struct ggml_tensor *a, int axis0, int axis1,
                                          int axis2, int axis3);
GGML_API struct ggml_tensor *ggml_transpose(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_get_rows(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
GGML_API struct ggml_tensor *ggml_diag_mask_inf(struct ggml_context *ctx, struct ggml_tensor *a, int n_past);
GGML_API struct ggml_tensor *ggml_diag_mask_inf_inplace(struct ggml_context *ctx, struct ggml_tensor *a, int n_past);
GGML_API struct ggml_tensor *ggml_soft_max(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_soft_max_inplace(struct ggml_context *ctx, struct ggml_tensor *a);
GGML_API struct ggml_tensor *ggml_soft_max_ext(struct ggml_context *ctx, struct ggml_tensor *a,
                                               struct ggml_tensor *mask, float scale, float max_bias);
GGML_API struct ggml_tensor *ggml_rope(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b,
                                       int n_dims, int mode);
GGML_API struct ggml_tensor *ggml_rope_ext(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b,
                                           struct ggml_tensor *c, int n_dims, int mode, int n_ctx_orig, float freq_base,
                                           float freq_scale, float ext_factor, float attn_factor, float beta_fast,
                                           float beta_slow);
GGML_API struct ggml_tensor *ggml_im2col(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b, int s0,
                                         int s1, int p0, int p1, int d0, int d1, bool is_2D, enum ggml_type dst_type);
GGML_API struct ggml_tensor *ggml_conv_1d(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b,
                                          int s0, int p0, int d0);
GGML_API struct ggml_tensor *ggml_conv_2d(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b,
                                          int s0, int s1, int p0, int p1, int d0, int d1);
GGML_API struct ggml_tensor *ggml_conv_2d_dw(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b,
                                             int s0, int s1, int p0, int p1, int d0, int d1);
GGML_API struct ggml_tensor *ggml_conv_2d_dw_direct(struct ggml_context *ctx, struct ggml_tensor *a,
                                                    struct ggml_tensor *b, int stride0, int stride1, int pad0, int pad1,
                                                    int dilation0, int dilation1);
GGML_API struct ggml_tensor *ggml_conv_transpose_1d(struct ggml_context *ctx, struct ggml_tensor *a,
                                                    struct ggml_tensor *b, int s0, int p0, int d0);
GGML_API struct ggml_tensor *ggml_pool_1d(struct ggml_context *ctx, struct ggml_tensor *a, int op, int k0, int s0,
                                          int p0);
GGML_API struct ggml_tensor *ggml_upscale(struct ggml_context *ctx, struct ggml_tensor *a, int scale_factor);
GGML_API struct ggml_tensor *ggml_pad(struct ggml_context *ctx, struct ggml_tensor *a, int p0, int p1, int p2, int p3);
GGML_API struct ggml_tensor *ggml_pad_ext(struct ggml_context *ctx, struct ggml_tensor *a, int lp0, int rp0, int lp1,
                                          int rp1, int lp2, int rp2, int lp3, int rp3);
GGML_API struct ggml_tensor *ggml_arange(struct ggml_context *ctx, float start, float stop, float step);
GGML_API struct ggml_tensor *ggml_argsort(struct ggml_context *ctx, struct ggml_tensor *a, enum ggml_sort_order order);
GGML_API struct ggml_tensor *ggml_top_k(struct ggml_context *ctx, struct ggml_tensor *a, int k);
GGML_API struct ggml_tensor *ggml_flash_attn_ext(struct ggml_context *ctx, struct ggml_tensor *q, struct ggml_tensor *k,
                                                 struct ggml_tensor *v, struct ggml_tensor *mask, float scale,
                                                 float max_bias, float logit_softcap);

// Graphs: built from a result tensor, computed by a backend (or, in the older
// API, by ggml_graph_compute with a plan).
GGML_API struct ggml_cgraph *ggml_new_graph(struct ggml_context *ctx);
GGML_API struct ggml_cgraph *ggml_new_graph_custom(struct ggml_context *ctx, size_t size, bool grads);
GGML_API struct ggml_cgraph *ggml_graph_dup(struct ggml_context *ctx, struct ggml_cgraph *cgraph);
GGML_API void ggml_graph_cpy(struct ggml_cgraph *src, struct ggml_cgraph *dst);
GGML_API void ggml_graph_reset(struct ggml_cgraph *cgraph);
GGML_API void ggml_graph_clear(struct ggml_cgraph *cgraph);
GGML_API int ggml_graph_size(struct ggml_cgraph *cgraph);
GGML_API struct ggml_tensor *ggml_graph_node(struct ggml_cgraph *cgraph, int i);
GGML_API struct ggml_tensor **ggml_graph_nodes(struct ggml_cgraph *cgraph);
GGML_API int ggml_graph_n_nodes(struct ggml_cgraph *cgraph);
GGML_API void ggml_graph_add_node(struct ggml_cgraph *cgraph, struct ggml_tensor *tensor);
GGML_API size_t ggml_graph_overhead(void);
GGML_API size_t ggml_graph_overhead_custom(size_t size, bool grads);
GGML_API struct ggml_tensor *ggml_graph_get_tensor(const struct ggml_cgraph *cgraph, const char *name);
GGML_API void ggml_graph_print(const struct ggml_cgraph *cgraph);
GGML_API void ggml_build_forward_expand(struct ggml_cgraph *cgraph, struct ggml_tensor *tensor);
GGML_API void ggml_build_backward_expand(struct ggml_context *ctx, struct ggml_cgraph *cgraph,
                                         struct ggml_tensor **grad_accs);
GGML_API struct ggml_cplan ggml_graph_plan(const struct ggml_cgraph *cgraph, int n_threads);
GGML_API enum ggml_status ggml_graph_compute(struct ggml_cgraph *cgraph, struct ggml_cplan *cplan);
GGML_API enum ggml_status ggml_graph_compute_with_ctx(struct ggml_context *ctx, struct ggml_cgraph *cgraph,
                                                      int n_threads);

GGML_API size_t ggml_quantize_chunk(enum ggml_type type, const float *src, void *dst, int64_t start, int64_t nrows,
                                    int64_t n_per_row, const float *imatrix);
GGML_API bool ggml_quantize_requires_imatrix(enum ggml_type type);
// The older per-type quantizers (src, dst, n, k, hist).
GGML_API size_t ggml_quantize_q4_0(const float *src, void *dst, int n, int k, int64_t *hist);
GGML_API size_t ggml_quantize_q4_1(const float *src, void *dst, int n, int k, int64_t *hist);
GGML_API size_t ggml_quantize_q5_0(const float *src, void *dst, int n, int k, int64_t *hist);
GGML_API size_t ggml_quantize_q5_1(const float *src, void *dst, int n, int k, int64_t *hist);
GGML_API size_t ggml_quantize_q8_0(const float *src, void *dst, int n, int k, int64_t *hist);

GGML_API void ggml_log_set(ggml_log_callback log_callback, void *user_data);
GGML_API void ggml_set_loss_scale(struct ggml_tensor *tensor, float scale);

#ifdef __cplusplus
}

// The older API scaled by a one-element tensor.
struct ggml_tensor *ggml_scale_inplace(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
struct ggml_tensor *ggml_scale(struct ggml_context *ctx, struct ggml_tensor *a, struct ggml_tensor *b);
// The current API plans on a thread pool.
struct ggml_cplan ggml_graph_plan(const struct ggml_cgraph *cgraph, int n_threads, struct ggml_threadpool *threadpool);
#endif

// ggml.h declared the GGUF API until it moved to gguf.h.
#include "gguf.h"
