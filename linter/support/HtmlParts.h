// Pieces shared by the two HTML pages (`validate --html` and the findings
// report): escaping, a ratio chart on a log axis centred on 1x, code panes
// with marked lines, and the checks' documentation rendered from Markdown.
// The markup is well-formed XML (every element closed, no named entities but
// XML's), so a strict parser reads it and so do browsers.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace mlperf::html {

std::string escape(llvm::StringRef S);
std::string number(double V, const char *Spec = "%.3g");

/// <!DOCTYPE html> ... <body>, with the shared style sheet plus \p ExtraCss.
std::string pageStart(llvm::StringRef Title, llvm::StringRef ExtraCss = "");

enum class BarStyle { Filled, Hollow, Failed };

struct ChartRow {
  std::string Label, Href; // the row's label and where it links
  std::string Value;       // the text right of the bar ("3.1x", "–  1 run")
  std::string Tooltip;
  BarStyle Style = BarStyle::Filled;
  bool HasRatio = true; // false: no bar length is drawn, only a mark at 1x
  double Median = 1, Min = 1, Max = 1;
};

/// Horizontal bars from 1x on a logarithmic axis symmetric around 1x (2x
/// better and 2x worse are equally far from the line), with a tick per
/// decade, whiskers min..max, one <rect class="bar ..."> per row in order.
std::string ratioChart(const std::vector<ChartRow> &Rows, double LabelWidth, llvm::StringRef Id);

/// A source file without the fixture-test annotations (`// CHECK-MESSAGES:`,
/// `// CHECK-NOTES:`, `// CHECK-FIXES:`, `// CHECK-OPTIONS:`,
/// `// RUN-CHECKS:`), with the lines the CHECK-MESSAGES point to.
struct Source {
  std::vector<std::pair<unsigned, std::string>> Lines; // original line number, text
  std::set<unsigned> Findings;                         // original line numbers
};
Source stripAnnotations(llvm::StringRef Text);
/// Every line of \p Text, numbered from 1.
Source plainSource(llvm::StringRef Text);

/// A <pre> of \p Src's lines First..Last (original numbers, 0 = no bound),
/// lines in \p Marked highlighted.
std::string codePane(const Source &Src, const std::set<unsigned> &Marked, unsigned First = 0, unsigned Last = 0);

/// Markdown as the check pages use it: headings, paragraphs, lists, fenced
/// code, `code`, **bold**; links to other pages become in-page links.
std::string markdown(llvm::StringRef Md);
/// The id of a check's documentation section: "doc-mlperf-sync-in-loop".
std::string docId(llvm::StringRef Check);
/// A <section> per check (that has a page) with its rendered documentation.
std::string checkDocs(const std::set<std::string> &Checks);

} // namespace mlperf::html
