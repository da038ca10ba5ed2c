// --line-filter's JSON (clang-tidy's format, nested at most 256 deep): any
// text is a filter or one error that names the option, never a crash; the
// filter then applies to findings anywhere in a file and past its end.
#include "FilterInputs.h"
#include "findings/Filters.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  mlperf::lint::FilterRequest R;
  R.LineFilter.assign(reinterpret_cast<const char *>(Data), Size);
  if (R.LineFilter.empty())
    return 0; // no filter
  auto Filter = mlperf::lint::FindingFilter::create(R);
  if (!Filter) {
    if (llvm::toString(Filter.takeError()).find("--line-filter") == std::string::npos)
      __builtin_trap(); // every error names the option
    return 0;
  }
  clang::tidy::ClangTidyStats Stats;
  std::vector<clang::tidy::ClangTidyError> All = mlperf::fuzz::sampleFindings();
  size_t Total = All.size();
  std::vector<clang::tidy::ClangTidyError> Kept = Filter->applyLines(std::move(All), Stats);
  if (Kept.size() + Stats.ErrorsIgnoredLineFilter != Total)
    __builtin_trap(); // each finding is kept or counted as filtered out
  return 0;
}
