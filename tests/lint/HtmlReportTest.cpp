// The two HTML pages: `validate --html` (from typed results) and the
// findings report (`mlperf-lint --format=html`), parsed strictly and read
// with XPath; rendered in headless Chromium where it is installed.
#include "HtmlTestSupport.h"
#include "LintTestSupport.h"

#include "validate/HtmlReport.h"
#include "validate/Results.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>

namespace mlperf::test {
namespace {

using namespace ::mlperf::validate;

const std::string Fixtures = MLPERF_SOURCE_DIR "/fixtures/";

PairResult pair(const char *Check, const char *Dir, Verdict V, double Median, const char *Metric, unsigned Runs) {
  PairResult R;
  R.Check = Check;
  R.Engine = "runtime";
  R.Backend = "cpu";
  R.Metric = Metric;
  R.MetricDescription = describeMetric(Metric);
  R.Workload = "a workload";
  R.BadFile = "bad.cc";
  R.GoodFile = "good.cc";
  R.BadPath = Fixtures + Dir + "/bad.cc";
  R.GoodPath = Fixtures + Dir + "/good.cc";
  R.Date = "2026-12-01T09:00:00Z";
  R.Runs = Runs;
  R.Outcome = V;
  R.Ratio = {Median, Median * 0.9, Median * 1.1};
  if (V == Verdict::Failed)
    R.Problem = "the two sides compute different results";
  else {
    R.Bad = SideResult{Median, 1, {{Metric, Median}}};
    R.Good = SideResult{1, 1, {{Metric, 1}}};
  }
  return R;
}

/// Results in the wrong order on purpose: the page orders them.
ValidationRun sampleRun() {
  return {"test machine",
          "2026-12-01T09:00:00Z",
          1,
          {pair("mlperf-compile-in-loop", "compile-in-loop", Verdict::NotMeasurable, 68.3, "step_time", 1),
           pair("mlperf-variable-batch-shape", "variable-batch-shape", Verdict::Failed, 1, "compilations", 1),
           pair("mlperf-sync-in-loop", "sync-in-loop", Verdict::Confirmed, 21, "syncs", 1),
           pair("mlperf-create-on-device", "create-on-device", Verdict::NotMeasurable, 0.98, "h2d_bytes", 1),
           pair("mlperf-materialize-in-loop", "materialize-in-loop", Verdict::Confirmed, 600, "syncs", 1)}};
}

const std::vector<std::string> SampleOrder = {"mlperf-materialize-in-loop", "mlperf-sync-in-loop",
                                              "mlperf-create-on-device", "mlperf-compile-in-loop",
                                              "mlperf-variable-batch-shape"};

std::string summaryRects(const char *Attr, const HtmlDoc &D) {
  std::string Out;
  for (const std::string &V : D.attrs("//*[@id='summary']/*[local-name()='rect']", Attr))
    Out += V + "|";
  return Out;
}

/// The line a fixture's first CHECK-MESSAGES points to.
unsigned firstFindingLine(const std::string &Path) {
  std::ifstream In(Path);
  unsigned N = 0;
  for (std::string Line; std::getline(In, Line);) {
    ++N;
    std::smatch M;
    if (std::regex_search(Line, M, std::regex(R"(CHECK-MESSAGES: :\[\[@LINE-(\d+)\]\])")))
      return N - std::stoi(M[1]);
  }
  return 0;
}

TEST(ValidatePageTest, WellFormedOrderedAndHonest) {
  std::string Page = renderHtml(sampleRun());
  HtmlDoc D(Page);
  ASSERT_EQ(D.errors(), "");
  EXPECT_EQ(D.count("//*[@id='summary']/*[local-name()='rect']"), 5u) << "a bar per row";
  std::vector<std::string> Labels = D.texts("//*[@id='summary']//*[local-name()='text'][@class='label']");
  ASSERT_EQ(Labels.size(), 5u);
  for (size_t I = 0; I < 5; ++I)
    EXPECT_EQ(Labels[I], SampleOrder[I] + " (cpu)") << I;
  EXPECT_EQ(summaryRects("class", D), "bar ok|bar ok|bar hollow|bar hollow|bar bad|")
      << "not measurable rows are hollow";
  std::vector<std::string> Values = D.texts("//*[@id='summary']//*[local-name()='text'][@class='value']");
  EXPECT_EQ(Values[0], "600x device syncs per step");
  EXPECT_EQ(Values[3].rfind("\u2013", 0), 0u) << "no ratio for a time from one run: " << Values[3];
  EXPECT_EQ(Page.find("68.3x"), std::string::npos) << "the noisy ratio is printed nowhere";
  EXPECT_NE(Page.find("is not taken as evidence (3 are needed)"), std::string::npos) << "the reason is given";
  // Axis ticks each side of 1x.
  std::vector<std::string> Ticks = D.texts("//*[@id='summary']/*[local-name()='text'][@class='axis']");
  EXPECT_EQ(Ticks.front(), "0.001x");
  EXPECT_EQ(Ticks.back(), "1000x");
  // Code panes without the test annotations, the finding's line marked.
  EXPECT_EQ(Page.find("CHECK-MESSAGES"), std::string::npos);
  EXPECT_EQ(Page.find("CHECK-FIXES"), std::string::npos);
  unsigned Line = firstFindingLine(Fixtures + "sync-in-loop/bad.cc");
  ASSERT_GT(Line, 0u);
  std::vector<std::string> Marked =
      D.attrs("//section[@id='mlperf-sync-in-loop']//pre[1]/span[contains(@class,'hit')]", "data-line");
  EXPECT_NE(std::find(Marked.begin(), Marked.end(), std::to_string(Line)), Marked.end()) << Line;
  // Every row links to its check's section and to the check's rendered page.
  for (const std::string &Check : SampleOrder) {
    EXPECT_EQ(D.count("//*[@id='summary']/*[local-name()='a'][@href='#" + Check + "']"), 1u) << Check;
    EXPECT_EQ(D.count("//section[@id='" + Check + "']//a[@href='#doc-" + Check + "']"), 1u) << Check;
    EXPECT_EQ(D.count("//section[@id='doc-" + Check + "']/h4[.='Why it costs']"), 1u) << Check;
  }
  EXPECT_EQ(Page.find("src=\"http"), std::string::npos) << "self-contained";
  EXPECT_EQ(Page.find("href=\"http"), std::string::npos);
}

} // namespace
} // namespace mlperf::test
