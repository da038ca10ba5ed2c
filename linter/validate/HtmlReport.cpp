#include "validate/HtmlReport.h"

#include "support/HtmlParts.h"
#include "validate/ResultStore.h"

#include "llvm/Support/MemoryBuffer.h"

#include <map>

namespace mlperf::validate {

using html::escape;

namespace {
std::string verdictClass(Verdict V) {
  return V == Verdict::Confirmed ? "confirmed" : V == Verdict::Failed ? "failed" : "flat";
}

html::ChartRow chartRow(const PairResult &R, std::string Label, std::string Href) {
  html::ChartRow Row;
  Row.Label = std::move(Label);
  Row.Href = std::move(Href);
  Row.Style = R.Outcome == Verdict::Confirmed ? html::BarStyle::Filled
              : R.Outcome == Verdict::Failed  ? html::BarStyle::Failed
                                              : html::BarStyle::Hollow;
  Row.HasRatio = R.Outcome != Verdict::Failed && R.ratioIsEvidence();
  Row.Median = R.Ratio.Median;
  Row.Min = R.Ratio.Min;
  Row.Max = R.Ratio.Max;
  if (R.Outcome == Verdict::Failed)
    Row.Value = "failed";
  else if (R.Runs == 0)
    Row.Value = "\u2013  not run here";
  else if (!R.ratioIsEvidence())
    Row.Value = "\u2013  " + std::to_string(R.Runs) + (R.Runs == 1 ? " run" : " runs") + ", no ratio";
  else
    Row.Value = html::number(R.Ratio.Median) + "x " + R.MetricDescription;
  Row.Tooltip = R.Check + " (" + R.Engine + ", " + R.Backend + "): " + verdictName(R.Outcome).str();
  if (Row.HasRatio)
    Row.Tooltip += "; median " + html::number(R.Ratio.Median) + "x, min " + html::number(R.Ratio.Min) + "x, max " +
                   html::number(R.Ratio.Max) + "x";
  return Row;
}

std::string readText(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : "(missing: " + Path + ")";
}

std::string counterTable(const PairResult &R) {
  if (!R.Bad || !R.Good)
    return "";
  // The measured metric first, in bold, then the counters that explain it.
  std::string T = "<table><tr><th>median per run</th><th>anti-pattern</th><th>fix</th></tr><tr><td><b>" +
                  escape(R.MetricDescription) + "</b></td><td><b>" + escape(formatCounter(R.Metric, R.Bad->Metric)) +
                  "</b></td><td><b>" + escape(formatCounter(R.Metric, R.Good->Metric)) + "</b></td></tr>";
  for (const auto &[Id, V] : R.Bad->Counters)
    if (Id != R.Metric) {
      double G = R.Good->Counters.count(Id) ? R.Good->Counters.at(Id) : 0;
      T += "<tr><td>" + escape(describeMetric(Id, R.Engine)) + "</td><td>" + escape(formatCounter(Id, V)) +
           "</td><td>" + escape(formatCounter(Id, G)) + "</td></tr>";
    }
  return T + "</table>";
}

std::string pairSection(const PairResult &R) {
  std::string V = verdictName(R.Outcome).str();
  std::string H = "<h3>" + escape(R.Engine + " engine, " + R.Backend + " backend") + " &#8212; <span class=\"verdict " +
                  verdictClass(R.Outcome) + "\">" + escape(V) + "</span>";
  if (R.Outcome != Verdict::Failed)
    H += R.ratioIsEvidence() ? ": " + escape(html::number(R.Ratio.Median) + "x " + R.MetricDescription)
                             : ": \u2013 (" + escape(R.noRatioReason()) + ")";
  H += "</h3><p>" + escape(R.Workload) + "<br/>Metric: " + escape(R.MetricDescription);
  if (!R.Note.empty() && R.ratioIsEvidence())
    H += " (" + escape(R.Note) + ")";
  if (!R.Explain.empty() && R.ratioIsEvidence() && R.Metric == "step_time")
    H += "<br/>Explained by: " + escape(R.Explain);
  if (R.Runs == 0)
    H += "<br/>Not run here, " + escape(R.Date) + "</p>";
  else
    H += "<br/>Measured " + escape(R.Date) + ", " + std::to_string(R.Runs) + (R.Runs == 1 ? " run" : " runs") +
         " per side</p>";
  if (!R.Problem.empty())
    H += "<div class=\"problem\">" + escape(R.Problem) + "</div>";
  if (R.Fix)
    H += "<p>Fix-it verified by execution: " + escape(R.Fix->Summary) + "</p>";
  H += counterTable(R);
  if (R.BadFile.empty())
    return H; // a pair without programs: what it needs is all there is
  // Both panes open at the lines the check reports (the two files have the
  // same layout); the whole files are one click away.
  html::Source Bad = html::stripAnnotations(readText(R.BadPath));
  html::Source Good = html::stripAnnotations(readText(R.GoodPath));
  unsigned First = 0, Last = 0;
  if (!Bad.Findings.empty()) {
    First = *Bad.Findings.begin() > 12 ? *Bad.Findings.begin() - 12 : 1;
    Last = *Bad.Findings.rbegin() + 12;
  }
  auto Pane = [&](const char *Side, const std::string &File, const html::Source &Src) {
    return "<div><b>" + std::string(Side) + ": " + escape(File) + "</b>" +
           html::codePane(Src, Src.Findings, First, Last) + "<details><summary>whole file</summary>" +
           html::codePane(Src, Src.Findings) + "</details></div>";
  };
  H += "<p class=\"meta\">Marked: the lines " + escape(R.Check) + " reports in the anti-pattern.</p>";
  H += "<div class=\"code\">" + Pane("anti-pattern", R.BadFile, Bad) + Pane("fix", R.GoodFile, Good) + "</div>";
  return H;
}
} // namespace

std::string renderHtml(const ValidationRun &Run) {
  std::vector<PairResult> Sorted = Run.Results;
  sortForReport(Sorted);
  std::map<std::string, std::vector<const PairResult *>> ByCheck;
  std::vector<std::string> Order;
  for (const PairResult &R : Sorted) {
    if (!ByCheck.count(R.Check))
      Order.push_back(R.Check);
    ByCheck[R.Check].push_back(&R);
  }
  std::string H = html::pageStart("mlperf-lint validation",
                                  ".code{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px}\n");
  H +=
      "<h1>mlperf-lint: measured cost of each check</h1><p class=\"meta\">" + escape(Run.Machine) + "<br/>" +
      escape(Run.Date) + " &#183; " +
      (Run.Repeat > 1 ? std::to_string(Run.Repeat) + " interleaved runs per side after a warm-up"
                      : std::string("1 run per side (--quick)")) +
      "; ratios are anti-pattern / fix (median, whiskers min..max) on a logarithmic axis centred on 1x; "
      "confirmed rows by measured impact, then not measurable, then failed. A time from fewer than 3 runs gets no "
      "ratio (\u2013).</p><p class=\"meta\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"14\" height=\"12\"><rect "
      "width=\"14\" height=\"12\" class=\"bar ok\"/></svg> confirmed &#160; <svg xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"14\" height=\"12\"><rect x=\"1\" y=\"1\" width=\"12\" height=\"10\" class=\"bar hollow\"/></svg> not "
      "measurable here &#160; <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"14\" height=\"12\"><rect width=\"14\" "
      "height=\"12\" class=\"bar bad\"/></svg> failed</p>\n";
  std::vector<html::ChartRow> All;
  for (const PairResult &R : Sorted)
    All.push_back(chartRow(R, R.Check + " (" + R.Backend + ")", "#" + R.Check));
  H += html::ratioChart(All, 330, "summary");
  std::set<std::string> Checks;
  for (const std::string &Check : Order) {
    Checks.insert(Check);
    const auto &Rows = ByCheck[Check];
    H += "<section class=\"check\" id=\"" + escape(Check) + "\"><h2>" + escape(Check) +
         " <a class=\"docref\" href=\"#" + escape(html::docId(Check)) + "\">(what it flags and why)</a></h2>";
    std::vector<html::ChartRow> Own;
    for (const PairResult *R : Rows)
      Own.push_back(chartRow(*R, R->Engine + " / " + R->Backend, ""));
    H += html::ratioChart(Own, 150, "chart-" + Check);
    for (const PairResult *R : Rows)
      H += pairSection(*R);
    H += "</section>\n";
  }
  H += "<h2>The checks</h2>" + html::checkDocs(Checks);
  return H + "</body></html>\n";
}

} // namespace mlperf::validate
