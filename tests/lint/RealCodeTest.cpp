// Real projects as they are: headers that are not installed, CUDA files,
// findings inside libraries, and functions defined in other files.
#include "LintTestSupport.h"
#include "engine/CudaInputs.h"
#include "engine/MissingNames.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>

namespace mlperf::test {
namespace {

const std::string Cases = MLPERF_SOURCE_DIR "/tests/lint/realcode/";

ProcessResult lint(std::vector<std::string> Args, const std::vector<std::string> &Flags = {"-std=c++17"}) {
  Args.push_back("--");
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  return runProcess(MLPERF_LINT_BINARY, Args, Cases);
}

/// "LINE check" for each diagnostic of a JSON report.
std::vector<std::string> findings(const std::string &Json) {
  std::vector<std::string> Out;
  auto J = nlohmann::json::parse(Json, nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded())
    return {"unparsable report: " + Json};
  for (const auto &D : J["diagnostics"])
    Out.push_back(std::to_string(D.value("line", 0)) + " " + D.value("check", std::string()));
  return Out;
}

TEST(RealCodeTest, MissingHeadersAreSkippedAndTheLoopIsStillAnalysed) {
  ProcessResult R = lint({"--format=json", "missing_includes.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R.Out), std::vector<std::string>{"12 mlperf-sync-in-loop"}) << R.Out;
  // OpenCV is replaced by the stand-in declarations; matplotlib has none.
  // matplotlib's names are made up, under the namespace its alias names.
  EXPECT_NE(R.Err.find("missing_includes.cc: 2 includes not found (matplotlibcpp.h, opencv2/opencv.hpp), 1 of them "
                       "replaced by declarations of its API that mlperf-lint ships (opencv2/opencv.hpp); "
                       "permissive declarations made up for 3 names they would declare (matplotlibcpp, "
                       "matplotlibcpp::plot, matplotlibcpp::show) and 1 member of their types; results may be "
                       "incomplete"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Err.find("error:"), std::string::npos) << R.Err;
}

TEST(RealCodeTest, StrictIncludesKeepClangsFatalError) {
  ProcessResult R = lint({"--strict-includes", "missing_includes.cc"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Out.find("'matplotlibcpp.h' file not found [clang-diagnostic-error]"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Err.find("includes not found"), std::string::npos) << R.Err;
}

TEST(RealCodeTest, StandardHeadersThatAFileUsesWithoutIncludingThemAreIncluded) {
  ProcessResult R = lint({"--format=json", "standard_headers.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R.Out), std::vector<std::string>{"17 mlperf-sync-in-loop"}) << R.Out;
  EXPECT_NE(R.Err.find("standard_headers.cc: included <fstream> (std::basic_ifstream), <iostream> (std::cout), "
                       "<iomanip> (std::setw), whose names the file uses without including them"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Err.find("error"), std::string::npos) << R.Err;
  EXPECT_EQ(R.Err.find("incomplete"), std::string::npos) << "nothing is missing any more: " << R.Err;
  // With --strict-includes the file is parsed as it is written.
  ProcessResult Strict = lint({"--strict-includes", "standard_headers.cc"});
  EXPECT_EQ(Strict.Exit, 2) << Strict.Err;
  EXPECT_NE(Strict.Out.find("std::basic_ifstream"), std::string::npos) << Strict.Out;
}

TEST(RealCodeTest, AFindingKeepsItsCheckNameAcrossTheStandardHeaderRounds) {
  ProcessResult R = lint({"--format=json", "standard_header_rounds.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R.Out), (std::vector<std::string>{"15 mlperf-sync-in-loop", "22 mlperf-alloc-in-loop"})) << R.Out;
  ProcessResult Text = lint({"standard_header_rounds.cc"});
  EXPECT_EQ(Text.Out.find("] ["), std::string::npos) << "one check name per finding: " << Text.Out;
}

TEST(RealCodeTest, RolesNeverDependOnUnresolvedTypes) {
  ProcessResult R = lint({"--format=json", "unresolved_types.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  // The loop that needs nothing from the missing header, the one whose
  // allocation only takes its size from it, and the one whose C function's
  // call is that function whatever its argument; not the copy whose direction
  // comes from it. (The header's type is a template of a value, `Frame<3>`,
  // which no made-up declaration fits, so it stays unresolved.)
  EXPECT_EQ(findings(R.Out),
            (std::vector<std::string>{"16 mlperf-sync-in-loop", "32 mlperf-sync-in-loop", "43 mlperf-alloc-in-loop"}))
      << R.Out;
  EXPECT_NE(R.Err.find("unresolved_types.cc: 1 include not found (vision/frame.h); permissive declarations made up "
                       "for 2 names they would declare (vision, vision::Frame) and 3 members of their types; 3 "
                       "compiler errors set aside as "
                       "following from it (the first: unresolved_types.cc:13:35: template argument for template "
                       "type parameter must be a type); results may be incomplete"),
            std::string::npos)
      << R.Err;
}

TEST(RealCodeTest, WithTheHeaderTheSameLoopsHaveRoles) {
  ProcessResult R = lint({"--format=json", "unresolved_types.cc"}, {"-std=c++17", "-I" + Cases + "complete"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R.Out), (std::vector<std::string>{"16 mlperf-sync-in-loop", "24 mlperf-loop-invariant-transfer",
                                                       "32 mlperf-sync-in-loop", "43 mlperf-alloc-in-loop"}))
      << R.Out;
  EXPECT_EQ(R.Err.find("not found"), std::string::npos) << R.Err;
}

TEST(RealCodeTest, StandInsReplaceAnSdkThatIsNotInstalled) {
  ProcessResult R = lint({"--format=json", "tensorrt_without_sdk.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R.Out), (std::vector<std::string>{"17 mlperf-compile-in-loop", "18 mlperf-compile-in-loop"}))
      << R.Out;
  EXPECT_NE(R.Err.find("tensorrt_without_sdk.cc: 1 include not found (NvInfer.h), 1 of them replaced by "
                       "declarations of its API that mlperf-lint ships (NvInfer.h); 1 compiler error set aside as "
                       "following from it (tensorrt_without_sdk.cc:20:14: no member named 'reportToProfiler' in "
                       "'nvinfer1::IExecutionContext'); results may be incomplete"),
            std::string::npos)
      << R.Err;
  // With strict includes there are no stand-ins: the missing SDK is fatal.
  R = lint({"--strict-includes", "tensorrt_without_sdk.cc"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Out.find("'NvInfer.h' file not found"), std::string::npos) << R.Out;
}

TEST(RealCodeTest, TheSamplesBuffersOfTensorRtAreStandIns) {
  ProcessResult R = lint({"--format=json", "tensorrt_buffers.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R.Out), std::vector<std::string>{"23 mlperf-loop-invariant-transfer"}) << R.Out;
  EXPECT_NE(R.Out.find("'enc.hostBuffer' is copied to the device on every step"), std::string::npos) << R.Out;
  EXPECT_NE(R.Err.find("tensorrt_buffers.cc: 2 includes not found (NvInfer.h, buffers.h), 2 of them replaced by "
                       "declarations of their API that mlperf-lint ships (NvInfer.h, buffers.h)"),
            std::string::npos)
      << R.Err;
}

TEST(RealCodeTest, GgmlStandInsReplaceAMissingCheckout) {
  ProcessResult R = lint({"--format=json", "ggml_without_headers.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  // The allocator made and freed per step; not the one made before the loop.
  EXPECT_EQ(findings(R.Out), std::vector<std::string>{"23 mlperf-alloc-in-loop"}) << R.Out;
  EXPECT_NE(R.Err.find("ggml_without_headers.cc: 3 includes not found (ggml-alloc.h, ggml-backend.h, ggml.h), 3 of "
                       "them replaced by declarations of their API that mlperf-lint ships (ggml-alloc.h, "
                       "ggml-backend.h, ggml.h); results may be incomplete"),
            std::string::npos)
      << R.Err;
  R = lint({"--strict-includes", "ggml_without_headers.cc"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Out.find("'ggml-alloc.h' file not found"), std::string::npos) << R.Out;
}

TEST(RealCodeTest, AHandlerHandedToAnUnresolvedServerRunsPerRequest) {
  ProcessResult R = lint({"--format=json", "server_without_headers.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  // With the names of the missing headers made up, the context that common.h's
  // helper configures is built on every request too.
  EXPECT_EQ(findings(R.Out), (std::vector<std::string>{"19 mlperf-compile-in-loop", "20 mlperf-missing-finalize"}))
      << R.Out;
  EXPECT_NE(R.Out.find("handed here to 'post', outside the project, which calls it back: each call is one request"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(
      R.Err.find("permissive declarations made up for 8 names they would declare (common_context_params_to_llama, "
                 "common_params, http, http::response, http::router, http::status, "
                 "http::status::internal_error, http::status::ok) and 3 members of their types; results may be "
                 "incomplete"),
      std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("server_without_headers.cc: 4 includes not found (http_server.hpp, common.h, llama-cpp.h, "
                       "llama.h), 2 of them replaced by declarations of their API that mlperf-lint ships "
                       "(llama-cpp.h, llama.h)"),
            std::string::npos)
      << R.Err;
}

TEST(RealCodeTest, LoggingStandInsKeepTheStatementsThatLog) {
  const std::vector<std::string> Flags{"-std=c++17", "-I" MLPERF_SOURCE_DIR "/tests/lint/data/analysis"};
  // g3log, not installed: both the stream and the printf-style call read on every step.
  ProcessResult R = lint({"--format=json", "--checks=-*,mlperf-materialize-in-loop", "g3log_training.cc"}, Flags);
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R.Out),
            (std::vector<std::string>{"15 mlperf-materialize-in-loop", "16 mlperf-materialize-in-loop"}))
      << R.Out;
  EXPECT_NE(R.Err.find("g3log_training.cc: 2 includes not found (g3log/g3log.hpp, g3log/logworker.hpp), 2 of them "
                       "replaced by declarations of their API that mlperf-lint ships"),
            std::string::npos)
      << R.Err;
}

/// Every stand-in header parses on its own, and with the others, as a program
/// that uses the common calls of each would.
TEST(RealCodeTest, EveryStandInParses) {
  std::string Source;
  std::error_code EC;
  const std::string Dir = MLPERF_SOURCE_DIR "/profiles/include/";
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (It->type() != llvm::sys::fs::file_type::directory_file)
      Source += "#include \"" + It->path().substr(Dir.size()) + "\"\n";
  ASSERT_NE(Source.find("opencv2/core/cuda.hpp"), std::string::npos) << Source;
  Source += R"(
int main() {
  cv::Mat image = cv::imread("a.png"), rgb;
  cv::cvtColor(image, rgb, cv::COLOR_BGR2RGB);
  cv::resize(rgb, rgb, cv::Size(224, 224));
  rgb.convertTo(rgb, CV_32FC3, 1.0 / 255);
  std::vector<cv::Mat> channels;
  cv::split(rgb, channels);
  cv::rectangle(image, cv::Rect(0, 0, 8, 8), cv::Scalar(255, 0, 0), 2);
  cv::cuda::GpuMat gpu(image.rows, image.cols, CV_8UC3), resized;
  gpu.upload(image);
  cv::cuda::resize(gpu, resized, cv::Size(64, 64));
  cv::cuda::divide(resized, cv::Scalar(255, 255, 255), resized, 1, -1);
  nvinfer1::IRuntime *runtime = nullptr;
  nvinfer1::ICudaEngine *engine = runtime->deserializeCudaEngine(nullptr, 0);
  nvinfer1::IExecutionContext *context = engine->createExecutionContext();
  void *bindings[2] = {nullptr, nullptr};
  context->enqueueV2(bindings, nullptr, nullptr);
  samplesCommon::ManagedBuffer managed;
  managed.hostBuffer.resize(nvinfer1::Dims2(1, 8));
  const void *host_data = managed.hostBuffer.data();
  size_t host_bytes = managed.hostBuffer.nbBytes();
  Ort::Env env(ORT_LOGGING_LEVEL_WARNING, "test");
  Ort::SessionOptions options;
  Ort::Session session(env, "model.onnx", options);
  Ort::AllocatorWithDefaultOptions allocator;
  auto name = session.GetInputNameAllocated(0, allocator);
  std::vector<int64_t> shape = session.GetInputTypeInfo(0).GetTensorTypeAndShapeInfo().GetShape();
  llama_context_ptr llama(llama_init_from_model(nullptr, llama_context_default_params()));
  ggml_init_params gparams = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), nullptr, true};
  ggml_context *gctx = ggml_init(gparams);
  ggml_tensor *a = ggml_new_tensor_2d(gctx, GGML_TYPE_F32, 4, 4), *b = ggml_new_tensor_1d(gctx, GGML_TYPE_F32, 4);
  ggml_set_name(a, "a");
  ggml_tensor *y = ggml_add(gctx, ggml_mul_mat(gctx, a, b), ggml_scale(gctx, b, 0.5f));
  ggml_cgraph *gf = ggml_new_graph_custom(gctx, GGML_DEFAULT_GRAPH_SIZE, false);
  ggml_build_forward_expand(gf, y);
  ggml_backend_t cpu = ggml_backend_cpu_init();
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(cpu));
  ggml_gallocr_alloc_graph(galloc, gf);
  float host[4] = {0, 0, 0, 0};
  ggml_backend_tensor_set(b, host, 0, ggml_nbytes(b));
  ggml_backend_graph_compute(cpu, gf);
  ggml_backend_tensor_get(y, host, 0, sizeof(host));
  ggml_gallocr_free(galloc);
  ggml_backend_free(cpu);
  ggml_free(gctx);
  gguf_init_params uparams = {true, nullptr};
  gguf_context *gguf = gguf_init_from_file("model.gguf", uparams);
  int64_t key = gguf_find_key(gguf, "general.name");
  const char *model_name = key < 0 ? "" : gguf_get_val_str(gguf, key);
  gguf_free(gguf);
  llama_backend_init();
  llama_model *model = llama_model_load_from_file("model.gguf", llama_model_default_params());
  llama_context *lctx = llama_init_from_model(model, llama_context_default_params());
  const llama_vocab *vocab = llama_model_get_vocab(model);
  std::vector<llama_token> tokens(16);
  int n = llama_tokenize(vocab, "hi", 2, tokens.data(), 16, true, false);
  llama_decode(lctx, llama_batch_get_one(tokens.data(), n));
  llama_batch batch = llama_batch_init(8, 0, 1);
  batch.logits[batch.n_tokens - 1] = true;
  llama_sampler *smpl = llama_sampler_chain_init(llama_sampler_chain_default_params());
  llama_sampler_chain_add(smpl, llama_sampler_init_greedy());
  llama_token next = llama_sampler_sample(smpl, lctx, -1);
  char piece[32];
  llama_token_to_piece(vocab, next, piece, sizeof(piece), 0, false);
  const float *logits = llama_get_logits_ith(lctx, -1);
  llama_sampler_free(smpl);
  llama_batch_free(batch);
  llama_free(lctx);
  llama_model_free(model);
  auto log_worker = g3::LogWorker::createLogWorker();
  g3::initializeLogging(log_worker.get());
  LOG(INFO) << model_name << n;
  LOGF(WARNING, "%d", n);
  return image.empty() + static_cast<int>(shape.size()) + (name ? 0 : 1) + (logits ? 0 : 1) + model_name[0] +
         (host_data ? 0 : 1) + static_cast<int>(host_bytes);
}
)";
  EXPECT_EQ(compileErrors(Cases + "stand_ins.cc", Source, {"-std=c++17", "-I" + Dir}), "");
}

TEST(RealCodeTest, AnOpenCvStandInKeepsADatasetClassValid) {
  ProcessResult R = lint({"--format=json", "--checks=-*,mlperf-materialize-in-loop", "opencv_dataset.cc"},
                         {"-std=c++17", "-isystem/usr/include/torch/csrc/api/include"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R.Out), std::vector<std::string>{"36 mlperf-materialize-in-loop"}) << R.Out;
  EXPECT_NE(R.Err.find("opencv_dataset.cc: 1 include not found (opencv2/opencv.hpp), 1 of them replaced"),
            std::string::npos)
      << R.Err;
}

TEST(RealCodeTest, NamesOfAMissingHeaderAreDeclaredAndTheLoopThatUsesThemIsKept) {
  ProcessResult R = lint({"--format=json", "--no-cache", "--checks=-*,mlperf-materialize-in-loop", "missing_names.cc"},
                         {"-std=c++17", "-isystem/usr/include/torch/csrc/api/include"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R.Out), std::vector<std::string>{"28 mlperf-materialize-in-loop"}) << R.Out;
  EXPECT_NE(R.Err.find("missing_names.cc: 1 include not found (cxxopts.hpp); permissive declarations made up for 4 "
                       "names they would declare (Options, cxxopts, cxxopts::ParseResult, value) and 17 members of "
                       "their types; 1 compiler error set aside as following from it "
                       "(missing_names.cc:39:11: call to constructor of 'Trainer' is ambiguous)"),
            std::string::npos)
      << R.Err;
}

/// The errors \p Messages name at the first occurrence of each needle in \p Source (a file /p/a.cc).
std::vector<clang::tooling::DiagnosticMessage>
errorsAt(const std::string &Source, const std::vector<std::pair<std::string, std::string>> &Messages) {
  std::vector<clang::tooling::DiagnosticMessage> Out;
  for (const auto &[Needle, Message] : Messages) {
    clang::tooling::DiagnosticMessage M;
    M.Message = Message;
    M.FilePath = "/p/a.cc";
    M.FileOffset = Source.find(Needle);
    Out.push_back(M);
  }
  return Out;
}

// A namespace alias is read for what it names (the first alias of that
// exact name), and a name the file declares as a variable, whose declaration
// clang rejected, is not made up; both read the whole file for each error.
TEST(MissingNames, AliasesAndRejectedLocalsAreReadAsTheFileWritesThem) {
  const std::string Source = R"(namespace pltx = other;
namespace plt = ::matplotlibcpp ;
void f() { plt::plot(1); }
void g(Frame<3> frame) { use(frame); }
int h() { return helper(1); }
)";
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  FS->addFile("/p/a.cc", 0, llvm::MemoryBuffer::getMemBufferCopy(Source));
  lint::MissingNames Names;
  Names.learn({},
              errorsAt(Source, {{"matplotlibcpp", "expected namespace name"},
                                {"plt::plot", "use of undeclared identifier 'plt'"},
                                {"frame);", "use of undeclared identifier 'frame'"},
                                {"helper", "use of undeclared identifier 'helper'"}}),
              *FS);
  EXPECT_EQ(Names.names(), (std::vector<std::string>{"helper", "matplotlibcpp", "matplotlibcpp::plot"}));
}

TEST(MissingNames, EachNameIsDeclaredAsItsUseShows) {
  const std::string Source = "cxxopts::ParseResult r;\n"
                             "void f() { spdlog::info(\"x {}\", 1); }\n"
                             "auto v = cxxopts::value<std::string>()->default_value(\"a\");\n"
                             "namespace fs = po;\n"
                             "void g() { LOG(INFO) << 1; std::format(\"x\"); }\n"
                             "cv::Mat m = cv::imread(\"a.png\");\n"
                             "int b = r[\"batch\"].as<int>() + r.count;\n";
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  FS->addFile("/p/a.cc", 0, llvm::MemoryBuffer::getMemBufferCopy(Source));
  lint::MissingNames Names;
  EXPECT_EQ(Names.learn({},
                        errorsAt(Source, {{"cxxopts::ParseResult", "use of undeclared identifier 'cxxopts'"},
                                          {"spdlog", "use of undeclared identifier 'spdlog'"},
                                          {"value<", "no member named 'value' in namespace 'cxxopts'"},
                                          {"po;", "expected namespace name"},
                                          {"LOG", "use of undeclared identifier 'LOG'"},
                                          {"INFO", "use of undeclared identifier 'INFO'"},
                                          {"format", "no member named 'format' in namespace 'std'"},
                                          {"Mat", "no type named 'Mat' in namespace 'cv'"},
                                          {"imread", "no member named 'imread' in namespace 'cv'"}}),
                        *FS),
            10u);
  EXPECT_EQ(Names.names(),
            (std::vector<std::string>{"INFO", "LOG", "cv", "cv::Mat", "cv::imread", "cxxopts", "cxxopts::ParseResult",
                                      "cxxopts::value", "po", "spdlog", "spdlog::info"}));
  // Members: every name the files of those errors access, as a call or a field (not counted)...
  EXPECT_EQ(Names.members(), (std::vector<std::string>{"as", "count", "default_value"}));
  // ... and those a later parse reports of a made-up type, in another file (one a real class lacks is
  // not learnt from its error).
  const std::string Other = "int n = r.size() + t.numel();\n";
  FS->addFile("/p/b.h", 0, llvm::MemoryBuffer::getMemBufferCopy(Other));
  std::vector<clang::tooling::DiagnosticMessage> Later =
      errorsAt(Other, {{"size", "no member named 'size' in 'cxxopts::ParseResult'"},
                       {"numel", "no member named 'numel' in 'torch::Tensor'"}});
  for (auto &M : Later)
    M.FilePath = "/p/b.h";
  EXPECT_EQ(Names.learn({}, Later, *FS), 1u);
  EXPECT_EQ(Names.members(), (std::vector<std::string>{"as", "count", "default_value", "numel", "size"}));
  EXPECT_EQ(Names.learn({}, Later, *FS), 0u);
  std::string Header = Names.header();
  for (const char *Declared :
       {"namespace po {\n}", "struct ParseResult : ::__mlperf_any {",
        "template <class... T, class... A> ::__mlperf_any &info(A &&...);", "extern ::__mlperf_any INFO;",
        "template <class... T, class... A> ::__mlperf_any &LOG(", "struct Mat : ::__mlperf_any {",
        "__mlperf_any &as(A &&...) const;", "static __mlperf_any count;"})
    EXPECT_NE(Header.find(Declared), std::string::npos) << Declared << "\n" << Header;
  // What the file does with them compiles against the declarations.
  const std::string Uses = "#include <iostream>\n#include <string>\n" + Header +
                           "namespace fs = po;\n"
                           "cxxopts::ParseResult r;\n"
                           "int main() {\n"
                           "  spdlog::info(\"x {}\", 1);\n"
                           "  std::string v = cxxopts::value<std::string>()->default_value(\"a\");\n"
                           "  LOG(INFO) << 1 << \"step\";\n"
                           "  cv::Mat m = cv::imread(\"a.png\");\n"
                           "  double d = 0;\n"
                           "  d += r[\"lr\"].as<double>() * 2;\n"
                           "  float *p = m;\n"
                           "  std::cout << r.count << std::endl;\n"
                           "  return r[\"batch\"].as<int>() + (p != nullptr) + (d > 1);\n"
                           "}\n";
  EXPECT_TRUE(clang::tooling::runToolOnCodeWithArgs(std::make_unique<clang::SyntaxOnlyAction>(), Uses, {"-std=c++17"}))
      << Uses;
}

TEST(RealCodeTest, ALibtorchProgramInCxx20Parses) {
  ProcessResult R =
      lint({"--format=json", "--no-cache", "--checks=-*,mlperf-materialize-in-loop", "cxx20_sequential.cc"},
           {"-std=c++20", "-isystem/usr/include/torch/csrc/api/include"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(findings(R.Out), std::vector<std::string>{"20 mlperf-materialize-in-loop"}) << R.Out;
  EXPECT_EQ(R.Err.find("error"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("cxx20_sequential.cc: parsed as C++17: clang cannot compile"), std::string::npos) << R.Err;
  // A file whose errors are its own is not parsed again.
  R = lint({"--format=json", "--no-cache", "tensorrt_without_sdk.cc"},
           {"-std=c++20", "-I" MLPERF_SOURCE_DIR "/fixtures/common", "-I" MLPERF_SOURCE_DIR "/profiles/include"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_EQ(R.Err.find("parsed as C++17"), std::string::npos) << R.Err;
}

TEST(RealCodeTest, AnInstalledSdkWinsOverTheStandIns) {
  // The declarations on the include path, as an installed SDK: nothing is
  // missing or replaced, so the call they do not declare is a compiler error.
  ProcessResult R =
      lint({"--format=json", "tensorrt_without_sdk.cc"},
           {"-std=c++17", "-I" MLPERF_SOURCE_DIR "/fixtures/common", "-I" MLPERF_SOURCE_DIR "/profiles/include"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_EQ(R.Err.find("not found"), std::string::npos) << R.Err;
  EXPECT_EQ(findings(R.Out), (std::vector<std::string>{"17 mlperf-compile-in-loop", "18 mlperf-compile-in-loop",
                                                       "20 clang-diagnostic-error"}))
      << R.Out;
}

TEST(RealCodeTest, ALoopClangDroppedIsNoProofOfInference) {
  const std::vector<std::string> Torch = {"-std=c++17", "-isystem/usr/include/torch/csrc/api/include"};
  ProcessResult R = lint({"--format=json", "--checks=-*,mlperf-no-grad-inference", "dropped_loop.cc"}, Torch);
  EXPECT_EQ(R.Exit, 1) << R.Err;
  // The evaluation loop only: the epoch loop's training loop was dropped.
  EXPECT_EQ(findings(R.Out), std::vector<std::string>{"44 mlperf-no-grad-inference"}) << R.Out;
  EXPECT_NE(R.Err.find("dropped_loop.cc: 1 include not found (vision/frame.h); 2 compiler errors set aside as "
                       "following from it (the first: dropped_loop.cc:20:3: use of undeclared identifier "
                       "'vision'); results may be incomplete"),
            std::string::npos)
      << R.Err;
  std::vector<std::string> WithHeader = Torch;
  WithHeader.push_back("-I" + Cases + "complete");
  R = lint({"--format=json", "--checks=-*,mlperf-no-grad-inference", "dropped_loop.cc"}, WithHeader);
  EXPECT_EQ(findings(R.Out), std::vector<std::string>{"44 mlperf-no-grad-inference"}) << R.Out;
}

bool cudaHeadersInstalled() { return llvm::sys::fs::exists("/usr/local/cuda/include/cuda_runtime.h"); }

TEST(RealCodeTest, CudaFilesLintHostOnly) {
  if (!cudaHeadersInstalled())
    GTEST_SKIP() << "no CUDA toolkit in /usr/local/cuda (pass --cuda-path to mlperf-lint to use another)";
  ProcessResult R = lint({"--format=json", "kernel_loop.cu"});
  EXPECT_EQ(R.Exit, 1) << R.Err << R.Out;
  EXPECT_EQ(findings(R.Out), (std::vector<std::string>{"16 mlperf-loop-invariant-transfer", "18 mlperf-sync-in-loop"}))
      << R.Out;
  EXPECT_EQ(R.Err.find("not found"), std::string::npos) << R.Err;
  auto J = nlohmann::json::parse(R.Out);
  ASSERT_FALSE(J["diagnostics"].empty());
  EXPECT_EQ(J["diagnostics"][1]["notes"][0]["message"], "this loop runs a model step on every iteration");
  EXPECT_EQ(J["diagnostics"][1]["notes"][0]["line"], 15);
}

TEST(RealCodeTest, SpacedLaunchBracketsParseAsLaunches) {
  using lint::normalizeLaunchBrackets;
  EXPECT_EQ(normalizeLaunchBrackets("k << <g, b >> > (x);"), "k <<< g, b >>>  (x);");
  EXPECT_EQ(normalizeLaunchBrackets("k<<<g, b >> >(x);"), "k<<<g, b >>> (x);");
  EXPECT_EQ(normalizeLaunchBrackets("k << <dim3(1, 2), 256, 0, s>>>(x);"), "k <<< dim3(1, 2), 256, 0, s>>>(x);");
  // A template's `>> >`, and a shift, are not launches.
  const std::string Plain = "std::vector<std::vector<std::vector<int>> > v; int a = 1 << 2; f(a >> 1);";
  EXPECT_EQ(normalizeLaunchBrackets(Plain), Plain);
  if (!cudaHeadersInstalled())
    GTEST_SKIP() << "no CUDA toolkit in /usr/local/cuda (pass --cuda-path to mlperf-lint to use another)";
  // kernel_loop.cu as Visual Studio formats it: the same findings, at the same places.
  std::string Source;
  {
    std::ifstream In(Cases + "kernel_loop.cu");
    Source.assign(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
  }
  size_t Open = Source.find("<<<"), Close = Source.find(">>>(");
  ASSERT_TRUE(Open != std::string::npos && Close != std::string::npos);
  Source.replace(Close, 4, ">> > (");
  Source.replace(Open, 3, "<< <");
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mlperf-spaced", Dir));
  std::string Spaced = std::string(Dir) + "/kernel_loop.cu";
  std::ofstream(Spaced) << Source;
  ProcessResult R = lint({"--format=json", "--no-cache", Spaced});
  llvm::sys::fs::remove_directories(Dir);
  EXPECT_EQ(R.Exit, 1) << R.Err << R.Out;
  EXPECT_EQ(findings(R.Out), (std::vector<std::string>{"16 mlperf-loop-invariant-transfer", "18 mlperf-sync-in-loop"}))
      << R.Out;
  auto J = nlohmann::json::parse(R.Out, nullptr, false);
  ASSERT_FALSE(J.is_discarded() || J["diagnostics"].empty());
  EXPECT_EQ(J["diagnostics"][1]["column"], 5);
}

TEST(RealCodeTest, CudaLoopThatOnlyLaunchesIsClean) {
  if (!cudaHeadersInstalled())
    GTEST_SKIP() << "no CUDA toolkit in /usr/local/cuda (pass --cuda-path to mlperf-lint to use another)";
  ProcessResult R = lint({"kernel_loop_clean.cu"});
  EXPECT_EQ(R.Exit, 0) << R.Err << R.Out;
  EXPECT_EQ(R.Out, "");
}

TEST(RealCodeTest, ThrustHeadersOfCuda13AreFound) {
  if (!llvm::sys::fs::exists("/usr/local/cuda/include/cccl/thrust/version.h"))
    GTEST_SKIP() << "no CUDA 13 toolkit (thrust in /usr/local/cuda/include/cccl)";
  ProcessResult R = lint({"--no-cache", "thrust_reduce.cu"});
  EXPECT_EQ(R.Err.find("not found"), std::string::npos) << R.Err;
}

// The thrust profile: a reduction is a device read when its first
// parameter is device memory or a CUDA policy, also inside a template
// argument (a device_vector's iterator), and nothing over host memory.
TEST(RealCodeTest, ThrustReductionsOverDeviceMemoryAreReadsOnTheHost) {
  if (!llvm::sys::fs::exists("/usr/local/cuda/include/cccl/thrust/version.h"))
    GTEST_SKIP() << "no CUDA 13 toolkit (thrust in /usr/local/cuda/include/cccl)";
  ProcessResult R = lint({"--no-cache", "--format=json", "--checks=-*,mlperf-materialize-in-loop", "thrust_loop.cu"});
  EXPECT_EQ(findings(R.Out), (std::vector<std::string>{"29 mlperf-materialize-in-loop", "30 mlperf-materialize-in-loop",
                                                       "31 mlperf-materialize-in-loop"}))
      << R.Out << R.Err;
}

TEST(RealCodeTest, CudaPathThatHasNoToolkitIsAnError) {
  ProcessResult R = lint({"--cuda-path=/nonexistent/cuda", "kernel_loop_clean.cu"});
  EXPECT_EQ(R.Exit, 2) << R.Err << R.Out;
  EXPECT_NE((R.Out + R.Err).find("/nonexistent/cuda"), std::string::npos) << R.Out << R.Err;
}

/// The project/ cases, copied into a repository of their own (so that a test
/// may change a file) and linted with a private cache directory.
class WholeProjectTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mlperf-project", Dir));
    Temp = std::string(Dir);
    Repo = Temp + "/repo/";
    Cache = Temp + "/cache";
    llvm::sys::fs::create_directories(Repo + ".git");
    copy(Cases + "cuda_decls.h", Repo + "cuda_decls.h");
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(Cases + "project", EC), End; It != End && !EC; It.increment(EC))
      if (It->type() != llvm::sys::fs::file_type::directory_file)
        copy(It->path(), Repo + "project/" + llvm::StringRef(It->path()).substr(Cases.size() + 8).str());
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Temp); }
  static void copy(const std::string &From, const std::string &To) {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(To));
    std::ofstream(To, std::ios::binary) << readFile(From);
  }
  ProcessResult lintProject(std::vector<std::string> Args) {
    Args.insert(Args.begin(), "--format=json");
    Args.insert(Args.end(), {"--", "-std=c++17"});
    return runProcess(MLPERF_LINT_BINARY, Args, Repo + "project", {{"XDG_CACHE_HOME", Cache}});
  }
  /// "file:LINE check" for each diagnostic of a JSON report, the file by its
  /// name, sorted.
  static std::vector<std::string> placed(const std::string &Json) {
    std::vector<std::string> Out;
    auto J = nlohmann::json::parse(Json, nullptr, /*allow_exceptions=*/false);
    if (J.is_discarded())
      return {"unparsable report: " + Json};
    for (const auto &D : J["diagnostics"])
      Out.push_back(llvm::sys::path::filename(D.value("file", std::string())).str() + ":" +
                    std::to_string(D.value("line", 0)) + " " + D.value("check", std::string()));
    std::sort(Out.begin(), Out.end());
    return Out;
  }
  /// Copies \p Files of the case directory \p Name into the repository; the
  /// directory they are in there.
  std::string copyCase(const std::string &Name, std::initializer_list<const char *> Files) {
    const std::string Dir = Repo + Name + "/";
    for (const char *File : Files)
      copy(Cases + Name + "/" + File, Dir + File);
    return Dir;
  }
  /// mlperf-lint's JSON report of \p Path, run in \p Dir with \p Include as a
  /// system include directory.
  ProcessResult lintIn(const std::string &Dir, const std::string &Path, const std::string &Include) {
    return runProcess(MLPERF_LINT_BINARY, {"--format=json", Path, "--", "-std=c++17", "-isystem" + Include}, Dir,
                      {{"XDG_CACHE_HOME", Cache}});
  }
  std::string Temp, Repo, Cache;
};

const std::string MiniTorch = MLPERF_SOURCE_DIR "/tests/lint/data/analysis";

TEST_F(WholeProjectTest, FunctionsOfOtherFilesAndHeadersAreSeen) {
  ProcessResult R = lintProject({"."});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  // step.cc's train_step makes train.cc's loop a step loop; metrics.cc's
  // report() runs on every step of it; staging.h is reported once for its two
  // includers; the vendored fastlog::flush is reported where train.cc calls it.
  EXPECT_EQ(placed(R.Out),
            (std::vector<std::string>{"metrics.cc:4 mlperf-sync-in-loop", "staging.h:8 mlperf-sync-in-loop",
                                      "train.cc:10 mlperf-sync-in-loop", "train.cc:8 mlperf-sync-in-loop"}))
      << R.Out << R.Err;
  auto J = nlohmann::json::parse(R.Out, nullptr, false);
  for (const auto &D : J["diagnostics"]) {
    const std::string &File = D["file"].get_ref<const std::string &>();
    if (llvm::StringRef(File).ends_with("metrics.cc")) {
      ASSERT_EQ(D["notes"].size(), 3u) << D.dump();
      EXPECT_EQ(D["notes"][0]["message"], "this loop runs a model step on every iteration");
      EXPECT_EQ(D["notes"][0]["line"], 6);
      EXPECT_EQ(D["notes"][1]["message"], "called here from train, on every step");
      EXPECT_EQ(D["notes"][1]["line"], 9);
      EXPECT_TRUE(llvm::StringRef(D["notes"][1]["file"].get<std::string>()).ends_with("train.cc"));
      // The estimate: the steps of another file's loop are not counted here.
      EXPECT_NE(D["notes"][2]["message"].get<std::string>().find(
                    "1 sync (20 µs); the number of steps depends on 'the calls of the function"),
                std::string::npos)
          << D.dump();
    }
    if (llvm::StringRef(File).ends_with("train.cc") && D["line"] == 10)
      EXPECT_NE(D["message"].get<std::string>().find("'flush' waits for the device on every call"), std::string::npos)
          << D.dump();
  }
}

TEST_F(WholeProjectTest, ASubsetStillSeesTheRestThroughTheCache) {
  ASSERT_EQ(lintProject({"."}).Exit, 1);
  // Alone, metrics.cc has no loop; the stored summaries say that train.cc
  // calls report() on every step.
  ProcessResult R = lintProject({"metrics.cc"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{"metrics.cc:4 mlperf-sync-in-loop"}) << R.Out;
  EXPECT_EQ(R.Err.find("stale"), std::string::npos) << R.Err;

  std::ofstream(Repo + "project/train.cc", std::ios::app) << "// changed\n";
  R = lintProject({"metrics.cc"});
  EXPECT_NE(R.Err.find("summaries of 1 file(s) not linted now are stale (changed since they were summarized): " + Repo +
                       "project/train.cc"),
            std::string::npos)
      << R.Err;
}

TEST_F(WholeProjectTest, WithoutSummariesAFileIsAnalysedAlone) {
  ProcessResult R = lintProject({"metrics.cc"});
  EXPECT_EQ(R.Exit, 0) << R.Err << R.Out;
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{});
}

/// A checkout without .git (a release tarball, a copied tree): the project is
/// the outermost directory with a build file, so its include/ next to src/ is
/// the project's.
TEST_F(WholeProjectTest, WithoutGitTheBuildFileMarksTheProject) {
  llvm::sys::fs::remove_directories(Repo + ".git");
  copy(Cases + "project/staging.h", Repo + "include/staging.h");
  llvm::sys::fs::create_directories(Repo + "src");
  std::ofstream(Repo + "src/main.cc") << "#include \"staging.h\"\nint main() { stage(nullptr); }\n";
  auto Lint = [&] {
    return runProcess(MLPERF_LINT_BINARY,
                      {"--format=json", "--no-cache", "src/main.cc", "--", "-std=c++17", "-Iinclude"}, Repo,
                      {{"XDG_CACHE_HOME", Cache}});
  };
  ProcessResult R = Lint();
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{}) << R.Out << R.Err;
  std::ofstream(Repo + "CMakeLists.txt") << "project(p)\n";
  R = Lint();
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{"staging.h:8 mlperf-sync-in-loop"}) << R.Out << R.Err;
}

/// Grad mode is inherited across files: a function that runs the model per
/// image is not reported when every call of it, in every file of the project,
/// holds a no-grad guard (gradoff/: the framework is described by its own profile).
TEST_F(WholeProjectTest, ANoGradGuardHeldInAnotherFileCovers) {
  for (const char *Name : {"fw.h", "profile.json", "detector.cc", "main.cc", ".mlperf-lint"})
    copy(Cases + "gradoff/" + Name, Repo + "gradoff/" + Name);
  auto Lint = [&](const std::string &Path) {
    return runProcess(MLPERF_LINT_BINARY, {"--format=json", "--no-cache", Path, "--", "-std=c++17"}, Repo + "gradoff",
                      {{"XDG_CACHE_HOME", Cache}});
  };
  EXPECT_EQ(placed(Lint("detector.cc").Out), std::vector<std::string>{"detector.cc:6 mlperf-no-grad-inference"});
  ProcessResult R = Lint(".");
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{}) << R.Out << R.Err;
  // One call without the guard, in a third file: gradients are on there.
  std::ofstream(Repo + "gradoff/bench.cc")
      << "#include \"fw.h\"\nvoid bench(const fw::Model &m) { detect_all(m, 3); }\n";
  R = Lint(".");
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{"detector.cc:6 mlperf-no-grad-inference"}) << R.Out << R.Err;
}

/// A helper in one file copies a parameter to the device; the loop in another
/// file passes the same host buffer on every step. A second caller that
/// passes a buffer it fills in each iteration makes the argument vary.
TEST_F(WholeProjectTest, AnArgumentTheLoopNeverChangesIsAnInvariantCopy) {
  for (const char *Name : {"api.h", "upload.cc", "train.cc"})
    copy(Cases + "invariantarg/" + Name, Repo + "invariantarg/" + Name);
  auto Lint = [&] {
    return runProcess(MLPERF_LINT_BINARY, {"--format=json", "--no-cache", ".", "--", "-std=c++17"},
                      Repo + "invariantarg", {{"XDG_CACHE_HOME", Cache}});
  };
  ProcessResult R = Lint();
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{"upload.cc:4 mlperf-loop-invariant-transfer"}) << R.Out << R.Err;
  std::ofstream(Repo + "invariantarg/stream.cc")
      << "#include \"api.h\"\nvoid stream(void *k, float *dev, float *buf) {\n"
         "  for (int i = 0; i < 10; ++i) {\n    buf[0] = i;\n    cuLaunchKernel(k);\n    upload_table(dev, buf, 1);\n  "
         "}\n}\n";
  R = Lint();
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{}) << R.Out << R.Err;
}

/// A model whose forward, defined in another file, differentiates its output
/// needs gradients to evaluate: its evaluation loop is not an inference loop.
TEST_F(WholeProjectTest, AForwardThatDifferentiatesNeedsGradients) {
  for (const char *Name : {"fw.h", "profile.json", "models.cc", "eval.cc", ".mlperf-lint"})
    copy(Cases + "needsgrad/" + Name, Repo + "needsgrad/" + Name);
  auto Lint = [&](const std::string &Path) {
    return runProcess(MLPERF_LINT_BINARY, {"--format=json", "--no-cache", Path, "--", "-std=c++17"}, Repo + "needsgrad",
                      {{"XDG_CACHE_HOME", Cache}});
  };
  EXPECT_EQ(placed(Lint("eval.cc").Out),
            (std::vector<std::string>{"eval.cc:11 mlperf-no-grad-inference", "eval.cc:6 mlperf-no-grad-inference"}));
  ProcessResult R = Lint(".");
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{"eval.cc:11 mlperf-no-grad-inference"}) << R.Out << R.Err;
}

/// A program that probes for an accelerator and then sets the CPU anyway
/// gives its training function (another file) a CPU device: its reads are
/// host reads. A program that keeps the probe's choice may train on the
/// accelerator. Either way the file alone, with the stored summaries of the
/// rest, gives what the tree gives.
TEST_F(WholeProjectTest, ADeviceParameterHoldsWhatEveryCallPasses) {
  for (const char *Name : {"fw.h", "profile.json", "train.cc", "main.cc", ".mlperf-lint"})
    copy(Cases + "cpudevice/" + Name, Repo + "cpudevice/" + Name);
  auto Lint = [&](const std::string &Path) {
    return runProcess(MLPERF_LINT_BINARY, {"--format=json", Path, "--", "-std=c++17"}, Repo + "cpudevice",
                      {{"XDG_CACHE_HOME", Cache}});
  };
  ProcessResult R = Lint(".");
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{}) << R.Out << R.Err;
  EXPECT_EQ(placed(Lint("train.cc").Out), std::vector<std::string>{});
  std::string Main = readFile(Repo + "cpudevice/main.cc");
  std::ofstream(Repo + "cpudevice/main.cc") << Main.replace(Main.find("  device = fw::kCPU;\n"), 21, "");
  const std::vector<std::string> Read = {"train.cc:9 mlperf-materialize-in-loop"};
  R = Lint(".");
  EXPECT_EQ(placed(R.Out), Read) << R.Out << R.Err;
  EXPECT_EQ(placed(Lint("train.cc").Out), Read);
}

/// A helper in one file builds its loader on every call and runs the model in
/// its own loop; main.cc's epoch loop calls it on every iteration: the loader
/// is built once per epoch. A helper called once, before the loop, is not.
TEST_F(WholeProjectTest, AHelperCalledFromAnotherFilesLoopBuildsPerIteration) {
  for (const char *Name : {"fw.h", "profile.json", "train.cc", "main.cc", ".mlperf-lint"})
    copy(Cases + "loophelper/" + Name, Repo + "loophelper/" + Name);
  auto Lint = [&](const std::string &Path) {
    return runProcess(MLPERF_LINT_BINARY, {"--format=json", "--no-cache", Path, "--", "-std=c++17"},
                      Repo + "loophelper", {{"XDG_CACHE_HOME", Cache}});
  };
  EXPECT_EQ(placed(Lint("train.cc").Out), std::vector<std::string>{});
  ProcessResult R = Lint(".");
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{"train.cc:5 mlperf-compile-in-loop"}) << R.Out << R.Err;
  auto J = nlohmann::json::parse(R.Out, nullptr, false);
  ASSERT_EQ(J["diagnostics"].size(), 1u) << R.Out;
  const auto &Notes = J["diagnostics"][0]["notes"];
  ASSERT_GE(Notes.size(), 2u) << R.Out;
  EXPECT_EQ(Notes[0]["message"], "this loop runs the model on every iteration");
  EXPECT_EQ(Notes[0]["line"], 7);
  EXPECT_EQ(Notes[1]["message"], "called here from main, on every iteration");
  EXPECT_EQ(Notes[1]["line"], 8);
  EXPECT_TRUE(llvm::StringRef(Notes[1]["file"].get<std::string>()).ends_with("main.cc"));
}

/// A batch loop in one file hands each loss to a std::function; another file
/// passes a lambda that runs the backward pass and reads the loss. The
/// lambda runs on every step of that loop, and its backward makes the loop a
/// training loop, which alone looks like inference.
TEST_F(WholeProjectTest, ACallbackPassedFromAnotherFileRunsInItsLoop) {
  for (const char *Name : {"fw.h", "profile.json", "loop.cc", "train.cc", ".mlperf-lint"})
    copy(Cases + "callback/" + Name, Repo + "callback/" + Name);
  auto Lint = [&](const std::string &Path) {
    return runProcess(MLPERF_LINT_BINARY, {"--format=json", "--no-cache", Path, "--", "-std=c++17"}, Repo + "callback",
                      {{"XDG_CACHE_HOME", Cache}});
  };
  EXPECT_EQ(placed(Lint("loop.cc").Out), std::vector<std::string>{"loop.cc:5 mlperf-no-grad-inference"});
  ProcessResult R = Lint(".");
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{"train.cc:9 mlperf-materialize-in-loop"}) << R.Out << R.Err;
  auto J = nlohmann::json::parse(R.Out, nullptr, false);
  ASSERT_EQ(J["diagnostics"].size(), 1u) << R.Out;
  const auto &Notes = J["diagnostics"][0]["notes"];
  ASSERT_GE(Notes.size(), 2u) << R.Out;
  EXPECT_EQ(Notes[0]["message"], "this loop runs a model step on every iteration");
  EXPECT_EQ(Notes[0]["line"], 4);
  EXPECT_EQ(Notes[1]["message"], "called here from each_batch, on every step");
  EXPECT_EQ(Notes[1]["line"], 5);
  EXPECT_TRUE(llvm::StringRef(Notes[1]["file"].get<std::string>()).ends_with("loop.cc"));
}

/// LibTorchFramework's trainer: the batch loop is a member template of the
/// base class that no linted file instantiates, and it calls the virtual
/// ProcessBatch with a batch of the loader's type; the subclass of another
/// file reads the loss on every training step in its override.
TEST_F(WholeProjectTest, AVirtualCallOfAnUninstantiatedTemplatesLoopReachesOverrides) {
  // The framework and the configuration are those of callback/.
  for (const char *Name : {"fw.h", "profile.json", ".mlperf-lint"})
    copy(Cases + "callback/" + Name, Repo + "virtualloop/" + Name);
  for (const char *Name : {"runner.h", "runner.cc", "trainer.cc"})
    copy(Cases + "virtualloop/" + Name, Repo + "virtualloop/" + Name);
  ProcessResult R = runProcess(MLPERF_LINT_BINARY, {"--format=json", "--no-cache", ".", "--", "-std=c++17"},
                               Repo + "virtualloop", {{"XDG_CACHE_HOME", Cache}});
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{"trainer.cc:11 mlperf-materialize-in-loop"}) << R.Out << R.Err;
  auto J = nlohmann::json::parse(R.Out, nullptr, false);
  ASSERT_EQ(J["diagnostics"].size(), 1u) << R.Out;
  const auto &Notes = J["diagnostics"][0]["notes"];
  ASSERT_GE(Notes.size(), 2u) << R.Out;
  EXPECT_EQ(Notes[0]["message"], "this loop runs a model step on every iteration");
  EXPECT_EQ(Notes[0]["line"], 16);
  EXPECT_TRUE(llvm::StringRef(Notes[0]["file"].get<std::string>()).ends_with("runner.h"));
}

/// build-your-own-llm's evaluation: a helper of one file builds the model; a
/// loop of another file builds one per checkpoint path and loads that
/// checkpoint into it: one model per checkpoint, not one rebuilt. A loop
/// that loads the same path every round builds the same model again.
TEST_F(WholeProjectTest, AModelLoadedFromEachIterationsCheckpointIsNotRebuilt) {
  for (const char *Name : {"fw.h", "profile.json", ".mlperf-lint", "model.cc", "compare.cc"})
    copy(Cases + "checkpoints/" + Name, Repo + "checkpoints/" + Name);
  auto Lint = [&] {
    return runProcess(MLPERF_LINT_BINARY, {"--format=json", "--no-cache", ".", "--", "-std=c++17"},
                      Repo + "checkpoints", {{"XDG_CACHE_HOME", Cache}});
  };
  ProcessResult R = Lint();
  EXPECT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{}) << R.Out << R.Err;
  copy(Cases + "checkpoints/rounds.cc", Repo + "checkpoints/rounds.cc");
  R = Lint();
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{"model.cc:5 mlperf-compile-in-loop"}) << R.Out << R.Err;
}

/// A public field counts as constant while no file of the project changes it
/// after construction; through the cache too, as files come and go.
TEST_F(WholeProjectTest, APublicFieldNoFileChangesIsAConstant) {
  const std::string Dir = Repo + "publicfield/";
  for (const char *Name : {"loss.h", "train.cc", ".mlperf-lint"})
    copy(Cases + "publicfield/" + Name, Dir + Name);
  copy(MLPERF_SOURCE_DIR "/tests/lint/data/analysis/mini_torch.h", Dir + "mini_torch.h");
  auto Lint = [&] {
    return runProcess(MLPERF_LINT_BINARY, {"--format=json", ".", "--", "-std=c++17"}, Dir, {{"XDG_CACHE_HOME", Cache}});
  };
  const std::vector<std::string> Copied{"loss.h:8 mlperf-loop-invariant-transfer"};
  ProcessResult R = Lint();
  EXPECT_EQ(R.Exit, 1) << "findings" << R.Err;
  EXPECT_EQ(placed(R.Out), Copied) << R.Out << R.Err;
  copy(Cases + "publicfield/retune.cc", Dir + "retune.cc");
  R = Lint();
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{}) << "retune.cc assigns it" << R.Out << R.Err;
  llvm::sys::fs::remove(Dir + "retune.cc");
  R = Lint();
  EXPECT_EQ(placed(R.Out), Copied) << "a deleted file's summary is dropped" << R.Out << R.Err;
  EXPECT_EQ(R.Err.find("stale"), std::string::npos) << R.Err;
}

/// A data class in data.cc returns each batch as a struct of tensors sliced
/// from host tensors; train.cc reads a label of it with item() on every step:
/// a host read, known only from data.cc's summary (FunctionFacts::ReturnsHost).
/// When next() moves the labels to the device, the read is reported again.
TEST_F(WholeProjectTest, ABatchAnotherFileReturnsOnTheHostIsReadOnTheHost) {
  const std::string Dir = copyCase("hostbatch", {"data.h", "data.cc", "train.cc", ".mlperf-lint"});
  auto Lint = [&](const std::string &Path) { return lintIn(Dir, Path, MiniTorch); };
  const std::vector<std::string> Read{"train.cc:6 mlperf-materialize-in-loop"};
  ProcessResult R = Lint(".");
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{}) << R.Out << R.Err;
  std::string Data = readFile(Dir + "data.cc");
  size_t At = Data.find("return {x, y};");
  ASSERT_NE(At, std::string::npos);
  std::ofstream(Dir + "data.cc") << Data.replace(At, 14, "return {x, y.to(torch::kCUDA)};");
  R = Lint(".");
  EXPECT_EQ(placed(R.Out), Read) << "the labels are on the device now" << R.Out << R.Err;
}

/// detect.cc returns boxes copied to the host, main.cc hands one to draw.cc's
/// helper on every frame: the helper's reads are host reads, linted with the
/// project or alone. Without the copy they read the device.
TEST_F(WholeProjectTest, ATensorEveryOtherFilePassesFromTheHostIsReadOnTheHost) {
  const std::string Dir = copyCase("hostargs", {"detect.h", "detect.cc", "draw.cc", "main.cc", ".mlperf-lint"});
  auto Lint = [&](const std::string &Path) { return lintIn(Dir, Path, MiniTorch); };
  ProcessResult R = Lint(".");
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{}) << R.Out << R.Err;
  EXPECT_EQ(placed(Lint("draw.cc").Out), std::vector<std::string>{});
  std::string Detect = readFile(Dir + "detect.cc");
  size_t At = Detect.find("out.cpu()");
  ASSERT_NE(At, std::string::npos);
  std::ofstream(Dir + "detect.cc") << Detect.replace(At, 9, "out");
  const std::vector<std::string> Read{"draw.cc:6 mlperf-per-element-read"};
  R = Lint(".");
  EXPECT_EQ(placed(R.Out), Read) << "the boxes stay on the device now" << R.Out << R.Err;
  EXPECT_EQ(placed(Lint("draw.cc").Out), Read);
}

/// detector.cc's private prediction runs the model; its only caller there is
/// predictImage, which main.cc calls on every frame: inference with autograd
/// on. Called once, before any loop, it is a smoke test.
TEST_F(WholeProjectTest, APredictionAnotherFilesLoopReachesThroughACallerIsInference) {
  const std::string Dir = copyCase("predictloop", {"detector.h", "detector.cc", "main.cc", ".mlperf-lint"});
  auto Lint = [&](const std::string &Path) { return lintIn(Dir, Path, MiniTorch); };
  const std::vector<std::string> Inference{"detector.cc:3 mlperf-no-grad-inference"};
  ProcessResult R = Lint(".");
  EXPECT_EQ(placed(R.Out), Inference) << R.Out << R.Err;
  EXPECT_EQ(placed(Lint("detector.cc").Out), Inference);
  std::string Main = readFile(Dir + "main.cc");
  const std::string Loop = "  for (long f = 0; f < 100; ++f)\n  ";
  size_t At = Main.find(Loop);
  ASSERT_NE(At, std::string::npos);
  std::ofstream(Dir + "main.cc") << Main.replace(At, Loop.size(), "  ");
  R = Lint(".");
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{}) << "one call before any loop" << R.Out << R.Err;
}

/// runner.cc's run ends with a stream wait; main.cc calls it in two loops,
/// each time between two clock reads: both calls need the wait, with the
/// project or runner.cc alone (main.cc's summary says so). Once the second
/// loop copies the output next instead of reading the clock (the blocking copy
/// waits by itself), the wait is a cost.
TEST_F(WholeProjectTest, AWaitEveryCallerOfAnotherFileNeedsIsNoCost) {
  const std::string Dir = copyCase("waitafter", {"runner.h", "runner.cc", "main.cc", ".mlperf-lint"});
  auto Lint = [&](const std::string &Path) { return lintIn(Dir, Path, MLPERF_SOURCE_DIR "/fixtures/common"); };
  ProcessResult R = Lint(".");
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{}) << R.Out << R.Err;
  EXPECT_EQ(placed(Lint("runner.cc").Out), std::vector<std::string>{});
  std::string Main = readFile(Dir + "main.cc");
  const std::string Clock =
      "    last = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();\n";
  size_t At = Main.find(Clock);
  ASSERT_NE(At, std::string::npos);
  std::ofstream(Dir + "main.cc") << Main.replace(At, Clock.size(), "");
  const std::vector<std::string> Wait{"runner.cc:14 mlperf-sync-in-loop"};
  R = Lint(".");
  EXPECT_EQ(placed(R.Out), Wait) << "the second loop copies the output next" << R.Out << R.Err;
  EXPECT_EQ(placed(Lint("runner.cc").Out), Wait);
}

/// parser.cc's parse_request fills every field of the struct its caller
/// passes, the prompt a malloc'd copy: called only from main.c (a C file,
/// compiled as C), whose request loop makes a fresh struct each time and
/// frees the prompt, it is an out-parameter, not state the next call
/// overwrites. generate() replaces one field of the one state main.c keeps
/// for all requests: that leaks, linted with the project or alone.
TEST_F(WholeProjectTest, AStructAFunctionFillsWholeIsItsCallersOutParameter) {
  const std::string Dir = copyCase("outparams", {"parser.h", "parser.cc", "main.c", ".mlperf-lint"});
  auto Lint = [&](const std::string &Path) {
    return runProcess(MLPERF_LINT_BINARY,
                      {"--format=json", Path, "--", "-isystem" MLPERF_SOURCE_DIR "/fixtures/common"}, Dir,
                      {{"XDG_CACHE_HOME", Cache}});
  };
  const std::vector<std::string> Overwritten{"parser.cc:21 mlperf-missing-finalize"};
  ProcessResult R = Lint(".");
  EXPECT_EQ(placed(R.Out), Overwritten) << R.Out << R.Err;
  EXPECT_EQ(R.Err.find("error"), std::string::npos) << R.Err;
  EXPECT_EQ(placed(Lint("parser.cc").Out), Overwritten);
}

/// detector.h declares detectVideo and no file defines it: it never runs, so
/// the constructor's new[] is all the output buffer holds, a pageable target
/// of every frame's copy. Once video.cc defines it, the field holds what the
/// program's files store there: nothing more when it stores only null, and
/// page-locked memory too once it allocates the buffer with cudaMallocHost.
TEST_F(WholeProjectTest, AMethodNoFileDefinesStoresNothingInAField) {
  const std::string Dir = copyCase("undefinedmethod", {"detector.h", "detector.cc", "main.cc", ".mlperf-lint"});
  auto Lint = [&](const std::string &Path) { return lintIn(Dir, Path, MLPERF_SOURCE_DIR "/fixtures/common"); };
  const std::vector<std::string> Pageable{"detector.cc:9 mlperf-pageable-async-copy"};
  ProcessResult R = Lint(".");
  EXPECT_EQ(placed(R.Out), Pageable) << R.Out << R.Err;
  EXPECT_EQ(placed(Lint("detector.cc").Out), Pageable);
  std::ofstream(Dir + "video.cc") << "#include \"detector.h\"\n\n"
                                     "void Detector::detectVideo(const std::string &path) { host_out_ = nullptr; }\n";
  R = Lint(".");
  EXPECT_EQ(placed(R.Out), Pageable) << "video.cc stores no memory" << R.Out << R.Err;
  std::ofstream(Dir + "video.cc")
      << "#include \"detector.h\"\n\n"
         "void Detector::detectVideo(const std::string &path) {\n"
         "  cudaMallocHost(reinterpret_cast<void **>(&host_out_), n_ * sizeof(float));\n}\n";
  R = Lint(".");
  EXPECT_EQ(placed(R.Out), std::vector<std::string>{}) << "video.cc pins it" << R.Out << R.Err;
  EXPECT_EQ(placed(Lint("detector.cc").Out), std::vector<std::string>{});
}

} // namespace
} // namespace mlperf::test
