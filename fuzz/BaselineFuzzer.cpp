// A --baseline file (JSON: {"findings": [{"check", "file", "text", "count"}]}):
// any content is a baseline or one error naming the file, never a crash or an
// uncaught exception; the baseline then hides findings, each at most "count"
// times, and says which entries matched nothing.
#include "FilterInputs.h"
#include "findings/Filters.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  mlperf::lint::FilterRequest R;
  R.Baseline = mlperf::fuzz::writeFilterInput(Data, Size, "baseline.json");
  auto Filter = mlperf::lint::FindingFilter::create(R);
  if (!Filter) {
    if (llvm::toString(Filter.takeError()).find(R.Baseline) == std::string::npos)
      __builtin_trap(); // every error names the baseline
    return 0;
  }
  std::vector<clang::tidy::ClangTidyError> All = mlperf::fuzz::sampleFindings();
  size_t Total = All.size();
  std::vector<clang::tidy::ClangTidyError> Hidden;
  std::vector<clang::tidy::ClangTidyError> Shown = Filter->applyBaseline(std::move(All), Hidden);
  if (Shown.size() + Hidden.size() != Total)
    __builtin_trap(); // each finding is shown or hidden
  (void)Filter->staleEntries({mlperf::fuzz::filterDir() + "/s.cc"});
  return 0;
}
