#include "HtmlReport.h"
#include "Measure.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

namespace mlperf::validate {

namespace {
std::string escape(const std::string &S) {
  std::string Out;
  for (char C : S)
    switch (C) {
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '&': Out += "&amp;"; break;
    case '"': Out += "&quot;"; break;
    default: Out += C;
    }
  return Out;
}

std::string fmt(double V, const char *Spec = "%.3g") {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, Spec, V);
  return Buf;
}

std::string readText(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : "(missing: " + Path + ")";
}

/// Horizontal bars on a log scale from 0.5x, whiskers min..max; \p Left is
/// the width of the row labels, \p Label names a row.
std::string chart(const std::vector<const nlohmann::json *> &Rows, double Left,
                  const std::function<std::string(const nlohmann::json &)> &Label) {
  const double W = Left + 400, RowH = 34, Top = 20, ValueRoom = 56;
  double MaxRatio = 2;
  for (const auto *R : Rows)
    MaxRatio = std::max(MaxRatio, (*R)["ratio"].value("max", 1.0));
  double LogMax = std::log10(std::min(MaxRatio * 1.2, 1e6));
  auto X = [&](double Ratio) {
    double L = std::log10(std::max(Ratio, 0.5));
    return Left + (L - std::log10(0.5)) / (LogMax - std::log10(0.5)) * (W - Left - ValueRoom);
  };
  double H = Top + RowH * Rows.size() + 24;
  std::string S = "<svg viewBox=\"0 0 " + fmt(W, "%.0f") + " " + fmt(H, "%.0f") + "\" width=\"" + fmt(W, "%.0f") +
                  "\" height=\"" + fmt(H, "%.0f") + "\" role=\"img\">";
  S += "<line x1=\"" + fmt(X(1), "%.1f") + "\" y1=\"10\" x2=\"" + fmt(X(1), "%.1f") + "\" y2=\"" +
       fmt(H - 18, "%.1f") + "\" class=\"one\"/><text x=\"" + fmt(X(1), "%.1f") + "\" y=\"" + fmt(H - 4, "%.1f") +
       "\" class=\"axis\">1x</text>";
  for (size_t I = 0; I < Rows.size(); ++I) {
    const nlohmann::json &R = *Rows[I];
    double Y = Top + RowH * I;
    double Med = R["ratio"].value("median", 1.0), Lo = R["ratio"].value("min", Med), Hi = R["ratio"].value("max", Med);
    std::string Cls = R.value("verdict", "") == "confirmed" ? "bar ok" : R.value("verdict", "") == "failed" ? "bar bad"
                                                                                                          : "bar flat";
    S += "<a href=\"#" + escape(R.value("check", "")) + "\"><text x=\"0\" y=\"" + fmt(Y + 16, "%.1f") +
         "\" class=\"label\">" + escape(Label(R)) + "</text></a>";
    // A ratio below 1x (the fix was slower) draws to the left of the 1x line.
    S += "<rect x=\"" + fmt(std::min(X(1), X(Med)), "%.1f") + "\" y=\"" + fmt(Y + 4, "%.1f") + "\" width=\"" +
         fmt(std::max(1.0, std::fabs(X(Med) - X(1))), "%.1f") + "\" height=\"18\" class=\"" + Cls + "\"/>";
    S += "<line x1=\"" + fmt(X(Lo), "%.1f") + "\" y1=\"" + fmt(Y + 13, "%.1f") + "\" x2=\"" + fmt(X(Hi), "%.1f") +
         "\" y2=\"" + fmt(Y + 13, "%.1f") + "\" class=\"whisker\"/>";
    S += "<text x=\"" + fmt(X(std::max({Med, Hi, 1.0})) + 6, "%.1f") + "\" y=\"" + fmt(Y + 17, "%.1f") +
         "\" class=\"value\">" + fmt(Med) + "x</text>";
  }
  return S + "</svg>";
}
} // namespace

std::string renderHtml(const nlohmann::json &Run) {
  std::map<std::string, std::vector<const nlohmann::json *>> ByCheck;
  std::vector<std::string> Order;
  for (const auto &R : Run["results"]) {
    std::string C = R.value("check", "");
    if (!ByCheck.count(C))
      Order.push_back(C);
    ByCheck[C].push_back(&R);
  }
  std::string H = R"(<!doctype html><html><head><meta charset="utf-8"><title>mlperf-lint validation</title><style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:22px}h2{font-size:18px;margin-top:2em;border-bottom:1px solid #ddd}
.meta{color:#666}.verdict{font-weight:600}.confirmed{color:#1a7f37}.flat{color:#8a6d00}.failed{color:#c62828}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}
th:first-child,td:first-child{text-align:left}
.code{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px}.code pre{background:#f6f8fa;padding:8px;overflow:auto;
max-height:420px;font-size:12px}.bar.ok{fill:#2da44e}.bar.flat{fill:#d4a72c}.bar.bad{fill:#cf222e}
.whisker{stroke:#333;stroke-width:1.5}.one{stroke:#999;stroke-dasharray:3 3}.label,.value,.axis{font-size:12px}
.problem{white-space:pre-wrap;background:#fff0f0;padding:8px}
</style></head><body>)";
  H += "<h1>mlperf-lint: measured cost of each check</h1><p class=\"meta\">" + escape(Run.value("machine", "")) +
       "<br>" + escape(Run.value("date", "")) + " &middot; " + std::to_string(Run.value("repeat", 0)) +
       " interleaved runs per side after a warm-up; ratios are anti-pattern / fix (median, whiskers min..max); "
       "sorted by measured impact. <span class=\"confirmed\">&#9632; confirmed</span> "
       "<span class=\"flat\">&#9632; not measurable here</span> <span class=\"failed\">&#9632; failed</span></p>";
  std::vector<const nlohmann::json *> All;
  for (const auto &R : Run["results"])
    All.push_back(&R);
  H += chart(All, 330, [](const nlohmann::json &R) {
    return R.value("check", "") + " (" + R.value("backend", "") + ")";
  });
  for (const std::string &Check : Order) {
    const auto &Rows = ByCheck[Check];
    H += "<h2 id=\"" + escape(Check) + "\">" + escape(Check) + "</h2>";
    H += chart(Rows, 150, [](const nlohmann::json &R) { return R.value("engine", "") + " / " + R.value("backend", ""); });
    for (const auto *R : Rows) {
      std::string V = R->value("verdict", "");
      std::string Cls = V == "confirmed" ? "confirmed" : V == "failed" ? "failed" : "flat";
      H += "<h3>" + escape(R->value("engine", "") + " engine, " + R->value("backend", "") + " backend") +
           " &mdash; <span class=\"verdict " + Cls + "\">" + escape(V) + "</span></h3><p>" +
           escape(R->value("workload", "")) + "<br>Metric: " + escape(R->value("metric_description", "")) +
           (R->contains("note") ? " (" + escape(R->value("note", "")) + ")" : "") + "</p>";
      if (R->contains("problem") && !(*R)["problem"].get<std::string>().empty())
        H += "<div class=\"problem\">" + escape((*R)["problem"].get<std::string>()) + "</div>";
      if (R->contains("fix_check"))
        H += "<p>Fix-it verified by execution: " + escape((*R)["fix_check"].value("summary", "")) + "</p>";
      if (R->contains("bad") && (*R)["bad"].contains("counters")) {
        // The measured metric first, in bold, then the counters that explain it.
        std::string Metric = R->value("metric_description", "");
        H += "<table><tr><th>median per run</th><th>anti-pattern</th><th>fix</th></tr><tr><td><b>" + escape(Metric) +
             (R->value("metric", "") == "step_time" ? " (ms)" : "") + "</b></td><td><b>" +
             formatCounter(Metric, (*R)["bad"].value("metric", 0.0)) + "</b></td><td><b>" +
             formatCounter(Metric, (*R)["good"].value("metric", 0.0)) + "</b></td></tr>";
        for (auto It = (*R)["bad"]["counters"].begin(); It != (*R)["bad"]["counters"].end(); ++It)
          if (It.key() != Metric)
            H += "<tr><td>" + escape(It.key()) + "</td><td>" + formatCounter(It.key(), It.value().get<double>()) +
                 "</td><td>" + formatCounter(It.key(), (*R)["good"]["counters"].value(It.key(), 0.0)) + "</td></tr>";
        H += "</table>";
      }
      H += "<div class=\"code\"><div><b>anti-pattern: " + escape(R->value("bad_file", "")) + "</b><pre>" +
           escape(readText(R->value("bad_path", ""))) + "</pre></div><div><b>fix: " +
           escape(R->value("good_file", "")) + "</b><pre>" + escape(readText(R->value("good_path", ""))) +
           "</pre></div></div>";
    }
  }
  return H + "</body></html>\n";
}

} // namespace mlperf::validate
