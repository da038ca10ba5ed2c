// The typed validation results (PairResult and its JSON), the metric table,
// and the HTML building blocks, without running any fixture.
#include "HtmlTestSupport.h"

#include "report/HtmlFindings.h"
#include "support/HtmlParts.h"
#include "validate/Manifest.h"
#include "validate/Measure.h"
#include "validate/Results.h"

#include <gtest/gtest.h>

namespace mlperf::test {
namespace {

using namespace ::mlperf::validate;

PairResult sample() {
  PairResult R;
  R.Check = "mlperf-sync-in-loop";
  R.Engine = "runtime";
  R.Backend = "cpu";
  R.Metric = "syncs";
  R.MetricDescription = "device syncs per step";
  R.Workload = "MLP";
  R.BadFile = "bad.cc";
  R.GoodFile = "good.cc";
  R.BadPath = "/f/bad.cc";
  R.GoodPath = "/f/good.cc";
  R.Date = "2026-12-01T09:00:00Z";
  R.Runs = 5;
  R.Outcome = Verdict::Confirmed;
  R.Ratio = {21, 20, 22};
  R.Explain = "1.05 vs 0.05";
  R.Bad = SideResult{1.05, 3.5, {{"syncs", 1.05}, {"h2d_bytes", 4096}}};
  R.Good = SideResult{0.05, 3.5, {{"syncs", 0.05}, {"h2d_bytes", 4096}}};
  R.Fix = FixCheck{"/b/fixed/bad.cc", true, true, 20.5, "ran"};
  return R;
}

TEST(ResultsTest, PairResultRoundTripsThroughJson) {
  nlohmann::json J = toJson(sample());
  auto Back = pairFromJson(J, "r");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(toJson(*Back), J);
  EXPECT_EQ(Back->Outcome, Verdict::Confirmed);
  EXPECT_EQ(Back->Bad->Counters.at("h2d_bytes"), 4096);
  EXPECT_EQ(*Back->Fix->Ratio, 20.5);

  ValidationRun Run{"machine", "2026-12-01T09:00:00Z", 5, {sample(), sample()}};
  Run.Results[1].Outcome = Verdict::Failed;
  Run.Results[1].Problem = "crashed";
  Run.Results[1].Bad.reset();
  auto RunBack = runFromJson(toJson(Run));
  ASSERT_TRUE(bool(RunBack)) << llvm::toString(RunBack.takeError());
  EXPECT_EQ(toJson(*RunBack), toJson(Run));
}

std::string problem(nlohmann::json J) {
  auto R = runFromJson(J);
  return R ? std::string("accepted") : llvm::toString(R.takeError());
}

TEST(ResultsTest, DamagedResultsNameTheField) {
  nlohmann::json Good = toJson(ValidationRun{"m", "d", 1, {sample()}});
  EXPECT_EQ(problem(Good), "accepted");
  nlohmann::json J = Good;
  J["results"][0]["engine"] = 5;
  EXPECT_EQ(problem(J), "results[0].engine: expected a string, found number");
  J = Good;
  J["results"][0]["verdict"] = "great";
  EXPECT_EQ(problem(J), "results[0].verdict: unknown verdict 'great'");
  J = Good;
  J["results"][0]["ratio"]["median"] = "21";
  EXPECT_EQ(problem(J), "results[0].ratio.median: expected a number, found string");
  J = Good;
  J["results"][0]["bad"]["counters"]["bytes copied"] = 1;
  EXPECT_EQ(problem(J), "results[0].bad.counters.bytes copied: not a known counter");
  J = Good;
  J["results"][0].erase("ratio");
  EXPECT_EQ(problem(J), "results[0].ratio: missing");
  J = Good;
  J["results"][0]["metric"] = "speed";
  EXPECT_EQ(problem(J), "results[0].metric: unknown metric 'speed'");
  J = Good;
  J["results"] = 3;
  EXPECT_EQ(problem(J), "results: expected an array");
  J = Good;
  J.erase("schema");
  EXPECT_NE(problem(J).find("older mlperf-lint"), std::string::npos) << problem(J);
  EXPECT_NE(problem(nlohmann::json::array()).find("expected an object"), std::string::npos);
}

TEST(ResultsTest, ReportOrderIsConfirmedByImpactThenNotMeasurableThenFailed) {
  auto Make = [](const char *Check, Verdict V, double Median, const char *Metric, unsigned Runs) {
    PairResult R = sample();
    R.Check = Check;
    R.Outcome = V;
    R.Ratio = {Median, Median, Median};
    R.Metric = Metric;
    R.Runs = Runs;
    return R;
  };
  std::vector<PairResult> Rs = {
      Make("noisy-time", Verdict::NotMeasurable, 68.3, "step_time", 1), Make("failed", Verdict::Failed, 1, "syncs", 1),
      Make("small", Verdict::Confirmed, 1.2, "syncs", 1), Make("flat", Verdict::NotMeasurable, 1.01, "syncs", 1),
      Make("big", Verdict::Confirmed, 600, "syncs", 1)};
  sortForReport(Rs);
  std::vector<std::string> Order;
  for (const PairResult &R : Rs)
    Order.push_back(R.Check);
  EXPECT_EQ(Order, (std::vector<std::string>{"big", "small", "flat", "noisy-time", "failed"}));
  EXPECT_FALSE(Rs[3].ratioIsEvidence());
  EXPECT_NE(Rs[3].noRatioReason().find("1 run"), std::string::npos);
  Rs[3].Runs = 3;
  EXPECT_TRUE(Rs[3].ratioIsEvidence());
}

TEST(ResultsTest, CountersAreFormattedByTheirUnit) {
  EXPECT_EQ(formatCounter("h2d_bytes", 1.5e6), "1.5 MB");
  EXPECT_EQ(formatCounter("peak_memory", 512), "512 B");
  EXPECT_EQ(formatCounter("syncs", 1.5e6), "1.5e+06") << "a count is not bytes however large";
  EXPECT_EQ(formatCounter("step_time", 12.34), "12.3 ms");
  EXPECT_EQ(formatCounter("compile_seconds", 0.25), "0.25 s");
  // The libtorch description of a byte counter names no "bytes" word in the
  // unit's place; the unit comes from the table, not from the text.
  EXPECT_EQ(describeMetric("peak_memory", "libtorch"), "peak host memory (RSS)");
  EXPECT_EQ(describeMetric("syncs", "libtorch"), "host reads of tensor values per step");
}

TEST(ResultsTest, MetricTableReadsTheProgramsReport) {
  nlohmann::json R = nlohmann::json::parse(
      R"({"checksum": 1, "steps": 10, "step_ms": [3, 1, 2], "total_ms": 100,
          "stats": {"waits": 20, "h2d_bytes": 4000, "compilations": 3, "compile_seconds": 0.5, "peak_bytes": 1e6}})");
  EXPECT_EQ(*metricOf(R, "syncs"), 2) << "per step";
  EXPECT_EQ(*metricOf(R, "compilations"), 3) << "a total";
  EXPECT_EQ(*metricOf(R, "step_time"), 2) << "median of the per-step times";
  R.erase("step_ms");
  EXPECT_EQ(*metricOf(R, "step_time"), 10) << "total over steps";
  EXPECT_FALSE(metricOf(R, "d2h_bytes")) << "not reported is not zero";
  EXPECT_FALSE(metricOf(R, "speed"));
  auto C = countersOf(R);
  EXPECT_EQ(C.size(), 5u);
  EXPECT_EQ(C.at("h2d_bytes"), 400);
  EXPECT_EQ(C.count("step_time"), 0u);
  for (const MetricInfo &M : metricTable()) {
    EXPECT_TRUE(*M.Runtime && *M.Libtorch) << M.Id;
    EXPECT_EQ(isKnownMetric(M.Id), M.Selectable) << M.Id;
  }
  EXPECT_FALSE(isKnownMetric("compile_seconds"));
}

TEST(HtmlPartsTest, AnnotationsAreStrippedAndTheirLinesMarked) {
  html::Source S = html::stripAnnotations("int a;\n"
                                          "  sync(); // keep me\n"
                                          "    // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: x [c]\n"
                                          "    // CHECK-NOTES: :[[@LINE-2]]:3: note: y\n"
                                          "    // CHECK-FIXES: z\n"
                                          "int b;\n"
                                          "// CHECK-MESSAGES: :[[@LINE+1]]:1: warning: w [c]\n"
                                          "int c;\n");
  std::vector<unsigned> Numbers;
  for (const auto &[N, Text] : S.Lines) {
    Numbers.push_back(N);
    EXPECT_EQ(Text.find("CHECK-"), std::string::npos) << Text;
  }
  EXPECT_EQ(Numbers, (std::vector<unsigned>{1, 2, 6, 8}));
  EXPECT_EQ(S.Findings, (std::set<unsigned>{2, 8}));
  std::string Pane = html::codePane(S, S.Findings);
  HtmlDoc D("<div>" + Pane + "</div>");
  ASSERT_EQ(D.errors(), "");
  EXPECT_EQ(D.attrs("//span[contains(@class,'hit')]", "data-line"), (std::vector<std::string>{"2", "8"}));
}

TEST(HtmlPartsTest, MarkdownOfTheCheckPages) {
  std::string H = html::markdown("# title\nSome `a<b>` and **bold**\ntext.\n\n## Fix\n- one\n  continued\n- two\n\n"
                                 "See [other](sync-in-loop.md).\n```cpp\nx < y && z;\n```\n1. first\n2. second\n");
  HtmlDoc D("<div>" + H + "</div>");
  ASSERT_EQ(D.errors(), "") << H;
  EXPECT_EQ(D.texts("//h3"), (std::vector<std::string>{"title"}));
  EXPECT_EQ(D.texts("//h4"), (std::vector<std::string>{"Fix"}));
  EXPECT_EQ(D.texts("//ul/li"), (std::vector<std::string>{"one continued", "two"}));
  EXPECT_EQ(D.texts("//ol/li"), (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(D.texts("//p/code"), (std::vector<std::string>{"a<b>"}));
  EXPECT_EQ(D.texts("//strong"), (std::vector<std::string>{"bold"}));
  EXPECT_EQ(D.texts("//pre/code"), (std::vector<std::string>{"x < y && z;\n"}));
  EXPECT_EQ(D.attrs("//a", "href"), (std::vector<std::string>{"#doc-mlperf-sync-in-loop"}));
  // Every check has a page, and its section carries the id rows link to.
  HtmlDoc Docs("<div>" + html::checkDocs({"mlperf-sync-in-loop", "mlperf-no-such-check"}) + "</div>");
  ASSERT_EQ(Docs.errors(), "");
  EXPECT_EQ(Docs.attrs("//section", "id"), (std::vector<std::string>{"doc-mlperf-sync-in-loop"}));
  EXPECT_EQ(Docs.texts("//section/h3"), (std::vector<std::string>{"mlperf-sync-in-loop"}));
}

double attr(const HtmlDoc &D, const std::string &XPath, const char *A) {
  auto V = D.attrs(XPath, A);
  return V.empty() ? -1 : std::stod(V.front());
}

TEST(HtmlPartsTest, RatioAxisIsLogarithmicAndCentredOnOne) {
  std::vector<html::ChartRow> Rows(4);
  Rows[0].Median = Rows[0].Min = Rows[0].Max = 2;
  Rows[1].Median = Rows[1].Min = Rows[1].Max = 0.5;
  Rows[2].Median = Rows[2].Min = Rows[2].Max = 600;
  Rows[3].HasRatio = false;
  Rows[3].Style = html::BarStyle::Hollow;
  HtmlDoc D(html::ratioChart(Rows, 100, "c"));
  ASSERT_EQ(D.errors(), "");
  EXPECT_EQ(D.texts("//*[local-name()='text'][@class='axis']"),
            (std::vector<std::string>{"0.001x", "0.01x", "0.1x", "1x", "10x", "100x", "1000x"}));
  double One = attr(D, "//*[local-name()='line'][@class='one']", "x1");
  EXPECT_NEAR(One, 100 + 480 / 2.0, 0.1) << "1x in the middle of the plot";
  auto Bar = [&](int Row, const char *A) {
    return attr(D, "//*[local-name()='rect'][@data-row='" + std::to_string(Row) + "']", A);
  };
  EXPECT_NEAR(Bar(0, "x"), One, 0.1) << "2x starts at 1x";
  EXPECT_NEAR(Bar(1, "x") + Bar(1, "width"), One, 0.1) << "0.5x ends at 1x";
  EXPECT_NEAR(Bar(0, "width"), Bar(1, "width"), 0.2) << "2x and 0.5x equally far from 1x";
  EXPECT_GT(Bar(2, "width"), 3 * Bar(0, "width"));
  EXPECT_LE(Bar(3, "width"), 2) << "no ratio, no bar length";
  EXPECT_EQ(D.attrs("//*[local-name()='rect']", "class"),
            (std::vector<std::string>{"bar ok", "bar ok", "bar ok", "bar hollow"}));
}

TEST(HtmlPartsTest, FixItsBecomeUnifiedDiffs) {
  std::string Old = "a\nb\nc\nfor {\n  run(up(w));\n}\nd\ne\nf\n";
  std::string New = "a\nb\nc\nauto w_on = up(w);\nfor {\n  run(w_on);\n}\nd\ne\nf\n";
  EXPECT_EQ(lint::lineDiff(Old, New), "@@ -2,6 +2,7 @@\n b\n c\n+auto w_on = up(w);\n for {\n-  run(up(w));\n"
                                      "+  run(w_on);\n }\n d\n");
  EXPECT_EQ(lint::lineDiff(Old, Old), "");
}

} // namespace
} // namespace mlperf::test
