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

/// A small project: one sync per step (a.cc) and one loop-invariant upload
/// with a fix-it (b.cc, through a user profile).
class FindingsReportTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mlperf-html", Dir));
    Root = std::string(Dir);
    write("p.json", TransferProfile);
    write("src/a.cc", "extern \"C\" int cudaDeviceSynchronize();\nextern \"C\" int cuLaunchKernel(void *f);\n"
                      "void train(void *k) {\n  for (int i = 0; i < 10; ++i) {\n    cuLaunchKernel(k);\n"
                      "    cudaDeviceSynchronize();\n  }\n}\n");
    write("src/b.cc", "namespace fw { struct Dev {}; struct Host { Dev upload() const; };\n"
                      "struct Exec { void run(const Dev &); }; }\n"
                      "void train(fw::Exec &e, const fw::Host &w) {\n"
                      "  for (int i = 0; i < 10; ++i) {\n    e.run(w.upload());\n  }\n}\n");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  void write(const std::string &Rel, const std::string &Text) {
    std::string Path = Root + "/" + Rel;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::ofstream(Path, std::ios::binary) << Text;
  }
  void store(double Sync, double Transfer) {
    ValidationRun Run{"test machine",
                      "2026-12-01T09:00:00Z",
                      5,
                      {pair("mlperf-sync-in-loop", "sync-in-loop", Verdict::Confirmed, Sync, "syncs", 5),
                       pair("mlperf-loop-invariant-transfer", "loop-invariant-transfer", Verdict::Confirmed, Transfer,
                            "h2d_bytes", 5)}};
    Run.Results[0].Date = "2026-11-30T08:00:00Z";
    write("results.json", toJson(Run).dump(2));
  }
  /// Without estimates (--device=none): the order of the measured ratios
  /// (CostReportTest orders by the estimates).
  ProcessResult report(const std::string &Out = "report.html") {
    return runProcess(MLPERF_LINT_BINARY,
                      {"--format=html", "-o", Out, "--device=none", "--profile=p.json", "src/", "--", "-std=c++17"},
                      Root, {{"MLPERF_LINT_RESULTS", Root + "/results.json"}});
  }
  std::string Root;
};

TEST_F(FindingsReportTest, SummaryOrderedByMeasuredCost) {
  store(21, 3);
  ProcessResult R = report();
  ASSERT_EQ(R.Exit, 1) << R.Out << R.Err;
  std::string Page = readFile(Root + "/report.html");
  HtmlDoc D(Page);
  ASSERT_EQ(D.errors(), "");
  auto Labels = [&](const HtmlDoc &Doc) {
    return Doc.texts("//*[@id='summary']//*[local-name()='text'][@class='label']");
  };
  EXPECT_EQ(Labels(D), (std::vector<std::string>{"mlperf-sync-in-loop", "mlperf-loop-invariant-transfer"}));
  EXPECT_EQ(D.count("//*[@id='summary']/*[local-name()='rect']"), 2u);
  EXPECT_EQ(D.texts("//table[@id='by-check']//tr/td[1]"),
            (std::vector<std::string>{"mlperf-sync-in-loop", "mlperf-loop-invariant-transfer"}));
  EXPECT_EQ(D.texts("//table[@id='by-file']//tr/td[1]"), (std::vector<std::string>{"a.cc", "b.cc"}));
  std::string Title = D.texts("//h1").front();
  EXPECT_NE(Title.find("2 findings in 2 files under "), std::string::npos) << Title;
  EXPECT_TRUE(llvm::StringRef(Title).ends_with("src")) << Title;
  // The findings follow the same order, each with its code, the line marked.
  std::vector<std::string> Checks = D.attrs("//section[@class='finding']", "data-check");
  EXPECT_EQ(Checks, (std::vector<std::string>{"mlperf-sync-in-loop", "mlperf-loop-invariant-transfer"}));
  EXPECT_EQ(D.attrs("//section[@data-check='mlperf-sync-in-loop']/pre/span[contains(@class,'hit')]", "data-line"),
            (std::vector<std::string>{"6"}));
  EXPECT_EQ(D.count("//section[@data-check='mlperf-sync-in-loop']/pre/span[@data-line]"), 6u)
      << "3 lines before, the 2 after it that the file has";
  // The note naming the loop, with its own line.
  std::vector<std::string> Notes = D.texts("//section[@data-check='mlperf-sync-in-loop']/ul/li/span[@class='msg']");
  ASSERT_FALSE(Notes.empty());
  EXPECT_EQ(Notes[0], "this loop runs a model step on every iteration");
  for (const std::string &N : Notes)
    EXPECT_EQ(N.find("measured on the fixture"), std::string::npos) << "the measurement is shown once, with its date";
  // The measured figure with engine and date.
  std::vector<std::string> Measured = D.texts("//section[@data-check='mlperf-sync-in-loop']/p[@class='measured']");
  ASSERT_EQ(Measured.size(), 1u);
  EXPECT_NE(Measured[0].find("21x device syncs per step"), std::string::npos) << Measured[0];
  EXPECT_NE(Measured[0].find("cpu backend, 2026-11-30T08:00:00Z"), std::string::npos) << Measured[0];
  // The fix-it as a diff.
  std::vector<std::string> Diff =
      D.texts("//section[@data-check='mlperf-loop-invariant-transfer']//pre[@class='diff']");
  ASSERT_EQ(Diff.size(), 1u);
  EXPECT_NE(Diff[0].find("+  auto w_on_device = w.upload();"), std::string::npos) << Diff[0];
  EXPECT_NE(Diff[0].find("-    e.run(w.upload());"), std::string::npos) << Diff[0];
  EXPECT_NE(Diff[0].find("+    e.run(w_on_device);"), std::string::npos) << Diff[0];
  // Filters: hidden until the script shows them; links to the check pages.
  EXPECT_EQ(D.attrs("//div[@id='filters']", "hidden"), (std::vector<std::string>{"hidden"}));
  EXPECT_EQ(D.count("//select[@id='f-check']/option"), 3u);
  EXPECT_EQ(D.count("//select[@id='f-file']/option"), 3u);
  EXPECT_EQ(D.count("//section[@id='doc-mlperf-sync-in-loop']"), 1u);
  EXPECT_EQ(D.count("//section[@id='doc-mlperf-loop-invariant-transfer']"), 1u);
  EXPECT_EQ(D.count("//*[@src]"), 0u) << "self-contained";

  // Another measurement, another order.
  store(2, 100);
  ASSERT_EQ(report().Exit, 1);
  HtmlDoc Swapped(readFile(Root + "/report.html"));
  EXPECT_EQ(Labels(Swapped), (std::vector<std::string>{"mlperf-loop-invariant-transfer", "mlperf-sync-in-loop"}));
  // A time from one run is no evidence: no bar length, and it ranks after a measured effect.
  ValidationRun Noisy{
      "m",
      "d",
      1,
      {pair("mlperf-sync-in-loop", "sync-in-loop", Verdict::NotMeasurable, 50, "step_time", 1),
       pair("mlperf-loop-invariant-transfer", "loop-invariant-transfer", Verdict::Confirmed, 1.5, "h2d_bytes", 1)}};
  write("results.json", toJson(Noisy).dump());
  ASSERT_EQ(report().Exit, 1);
  HtmlDoc Quick(readFile(Root + "/report.html"));
  EXPECT_EQ(Labels(Quick), (std::vector<std::string>{"mlperf-loop-invariant-transfer", "mlperf-sync-in-loop"}));
  EXPECT_LE(std::stod(Quick.attrs("//*[@id='summary']/*[local-name()='rect'][@data-row='1']", "width").at(0)), 2.0);
  // Never validated: both listed, as not measured.
  llvm::sys::fs::remove(Root + "/results.json");
  ASSERT_EQ(report().Exit, 1);
  HtmlDoc None(readFile(Root + "/report.html"));
  ASSERT_EQ(None.errors(), "");
  EXPECT_EQ(None.count("//*[@id='summary']"), 0u) << "no chart without a measurement";
  EXPECT_EQ(
      None.texts("//table[@id='by-check']//tr/td[3]"),
      (std::vector<std::string>{"not measured (run mlperf-lint validate)", "not measured (run mlperf-lint validate)"}));
  EXPECT_EQ(None.count("//p[@class='measured']"), 0u);
}

/// ssd.libtorch's page counted 11 compiler errors in libstdc++ headers as
/// findings and listed clang-diagnostic-error as a check: the errors are
/// apart, after the findings, and the title counts what the CLI counts.
TEST_F(FindingsReportTest, CompilerErrorsAreNotFindings) {
  write("src/c.cc", "int broken() { return undeclared_name; }\n");
  ProcessResult R = report();
  ASSERT_EQ(R.Exit, 2) << "a file did not compile" << R.Out << R.Err;
  EXPECT_NE(R.Err.find("2 finding(s) in 3 file(s)"), std::string::npos) << R.Err;
  HtmlDoc D(readFile(Root + "/report.html"));
  ASSERT_EQ(D.errors(), "");
  EXPECT_NE(D.texts("//h1").front().find("2 findings in 2 files"), std::string::npos) << D.texts("//h1").front();
  std::vector<std::string> Checks = D.texts("//table[@id='by-check']//tr/td[1]");
  std::sort(Checks.begin(), Checks.end());
  EXPECT_EQ(Checks, (std::vector<std::string>{"mlperf-loop-invariant-transfer", "mlperf-sync-in-loop"}));
  EXPECT_EQ(D.count("//section[@class='finding']"), 2u);
  std::vector<std::string> Where = D.texts("//section[@id='compiler-errors']//tr/td[1]");
  ASSERT_EQ(Where.size(), 1u);
  EXPECT_TRUE(llvm::StringRef(Where[0]).ends_with("c.cc:1:23")) << Where[0];
  EXPECT_NE(D.texts("//section[@id='compiler-errors']//tr/td[2]").at(0).find("undeclared_name"), std::string::npos);
  EXPECT_EQ(D.attrs("//p[@class='meta']/a[@href='#compiler-errors']", "href").size(), 1u);
}

TEST_F(FindingsReportTest, SameInputSameBytes) {
  store(21, 3);
  ASSERT_EQ(report("one.html").Exit, 1);
  ASSERT_EQ(report("two.html").Exit, 1);
  std::string One = readFile(Root + "/one.html");
  EXPECT_FALSE(One.empty());
  EXPECT_EQ(One, readFile(Root + "/two.html"));
}

TEST_F(FindingsReportTest, RendersInChromium) {
  std::string Chromium = findChromium();
  if (Chromium.empty())
    GTEST_SKIP() << "chromium is not installed (scripts/setup.sh installs it): "
                    "the pages are not rendered";
  store(21, 3);
  ASSERT_EQ(report().Exit, 1);
  Rendered F = renderHeadless(Chromium, Root + "/report.html");
  ASSERT_TRUE(F.Ok) << F.Problem;
  EXPECT_EQ(F.Log.find("Uncaught"), std::string::npos) << F.Log;
  EXPECT_NE(F.Dom.find("<div id=\"filters\">"), std::string::npos) << "the script ran and showed the filters";
  EXPECT_NE(F.Dom.find("<span id=\"f-count\">2 shown</span>"), std::string::npos);
  EXPECT_LT(F.Dom.find(">mlperf-sync-in-loop</text>"), F.Dom.find(">mlperf-loop-invariant-transfer</text>"));

  std::string Page = Root + "/validate.html";
  std::ofstream(Page) << renderHtml(sampleRun());
  Rendered V = renderHeadless(Chromium, Page);
  ASSERT_TRUE(V.Ok) << V.Problem;
  EXPECT_EQ(V.Log.find("Uncaught"), std::string::npos) << V.Log;
  std::smatch M;
  std::string Dom = V.Dom;
  std::vector<std::string> Rows;
  std::regex Bar("<rect [^>]*class=\"(bar [a-z]+)\" data-row=\"(\\d+)\"");
  size_t Summary = Dom.find("id=\"summary\""), End = Dom.find("</svg>", Summary);
  ASSERT_NE(Summary, std::string::npos);
  std::string Chart = Dom.substr(Summary, End - Summary);
  for (auto It = std::sregex_iterator(Chart.begin(), Chart.end(), Bar); It != std::sregex_iterator(); ++It)
    Rows.push_back((*It)[2].str() + ":" + (*It)[1].str());
  EXPECT_EQ(Rows, (std::vector<std::string>{"0:bar ok", "1:bar ok", "2:bar hollow", "3:bar hollow", "4:bar bad"}));
  size_t Last = 0;
  for (const std::string &Check : SampleOrder) {
    size_t At = Chart.find(">" + Check + " (cpu)</text>");
    EXPECT_NE(At, std::string::npos) << Check;
    EXPECT_GT(At, Last) << Check << " in report order";
    Last = At;
  }
}

} // namespace
} // namespace mlperf::test
