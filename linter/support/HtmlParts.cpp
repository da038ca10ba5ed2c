#include "support/HtmlParts.h"

#include "Embedded.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace mlperf::html {

std::string escape(llvm::StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S)
    switch (C) {
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '&':
      Out += "&amp;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  return Out;
}

std::string number(double V, const char *Spec) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, Spec, V);
  return Buf;
}

std::string pageStart(llvm::StringRef Title, llvm::StringRef ExtraCss) {
  return R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width"/><title>)" +
         escape(Title) + R"(</title><style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:22px}h2{font-size:18px;margin-top:2em;border-bottom:1px solid #ddd}h3{font-size:15px}
a{color:#0b5cad}.meta{color:#555}.verdict{font-weight:600}.confirmed{color:#1a7f37}.flat{color:#8a6d00}
.failed{color:#c62828}table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ddd;padding:3px 8px;
text-align:right}th:first-child,td:first-child{text-align:left}
pre.src{background:#f6f8fa;padding:6px 0;overflow:auto;max-height:440px;font-size:12px;line-height:1.4}
pre.src span.l{display:block;padding:0 8px;white-space:pre}pre.src span.n{display:inline-block;width:3.5em;
color:#888;user-select:none}pre.src span.hit{background:#fff1c2;box-shadow:inset 3px 0 #d4a72c}
svg text{font-size:12px;fill:#222}.bar.ok{fill:#2da44e}.bar.bad{fill:#cf222e}
.bar.hollow{fill:#fff;stroke:#b08800;stroke-width:1.5}.whisker{stroke:#333;stroke-width:1.5}
.one{stroke:#555;stroke-width:1.2}.tick{stroke:#ddd}svg text.axis{fill:#666}
.problem{white-space:pre-wrap;background:#fff0f0;padding:8px}
.doc{border:1px solid #ddd;border-radius:4px;padding:0 1em;margin:1em 0}.doc pre{background:#f6f8fa;padding:8px}
code{background:#f3f3f3;padding:0 2px}
)" + ExtraCss.str() +
         "</style></head><body>\n";
}

std::string ratioChart(const std::vector<ChartRow> &Rows, double Left, llvm::StringRef Id) {
  const double Plot = 480, ValueRoom = 330, RowH = 30, Top = 8;
  double W = Left + Plot + ValueRoom, H = Top + RowH * Rows.size() + 30;
  // Decades each side of 1x: enough for every ratio drawn, at least one.
  int D = 1;
  for (const ChartRow &R : Rows)
    if (R.HasRatio)
      for (double V : {R.Median, R.Min, R.Max})
        if (V > 0)
          D = std::max(D, int(std::ceil(std::fabs(std::log10(V)) - 1e-9)));
  D = std::min(D, 6);
  auto X = [&](double Ratio) {
    double L = std::clamp(std::log10(std::max(Ratio, 1e-300)), double(-D), double(D));
    return Left + (L + D) / (2.0 * D) * Plot;
  };
  auto At = [](double V) { return number(V, "%.1f"); };
  std::string S = "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + escape(Id) + "\" class=\"chart\" viewBox=\"0 0 " +
                  At(W) + " " + At(H) + "\" width=\"" + At(W) + "\" height=\"" + At(H) + "\" role=\"img\">";
  double AxisY = H - 22;
  for (int K = -D; K <= D; ++K) {
    double Tx = X(std::pow(10.0, K));
    std::string Label = K < 0 ? number(std::pow(10.0, K), "%g") : number(std::pow(10.0, K), "%.0f");
    S += "<line x1=\"" + At(Tx) + "\" y1=\"" + At(Top - 4) + "\" x2=\"" + At(Tx) + "\" y2=\"" + At(AxisY) +
         "\" class=\"" + (K == 0 ? "one" : "tick") + "\"/><text x=\"" + At(Tx) + "\" y=\"" + At(AxisY + 14) +
         "\" text-anchor=\"middle\" class=\"axis\">" + Label + "x</text>";
  }
  for (size_t I = 0; I < Rows.size(); ++I) {
    const ChartRow &R = Rows[I];
    double Y = Top + RowH * I;
    std::string Cls = R.Style == BarStyle::Filled ? "bar ok" : R.Style == BarStyle::Hollow ? "bar hollow" : "bar bad";
    std::string Label = "<text x=\"0\" y=\"" + At(Y + 16) + "\" class=\"label\">" + escape(R.Label) + "</text>";
    S += R.Href.empty() ? Label : "<a href=\"" + escape(R.Href) + "\">" + Label + "</a>";
    double X0 = X(1), X1 = R.HasRatio ? X(R.Median) : X(1);
    double BarX = std::min(X0, X1), BarW = std::max(2.0, std::fabs(X1 - X0));
    S += "<rect x=\"" + At(R.HasRatio ? BarX : X0 - 1) + "\" y=\"" + At(Y + 4) + "\" width=\"" + At(BarW) +
         "\" height=\"18\" class=\"" + Cls + "\" data-row=\"" + std::to_string(I) + "\"><title>" + escape(R.Tooltip) +
         "</title></rect>";
    double Right = X0;
    if (R.HasRatio) {
      S += "<line x1=\"" + At(X(R.Min)) + "\" y1=\"" + At(Y + 13) + "\" x2=\"" + At(X(R.Max)) + "\" y2=\"" +
           At(Y + 13) + "\" class=\"whisker\"/>";
      Right = std::max({X0, X1, X(R.Max)});
    }
    S += "<text x=\"" + At(std::max(Right, Left + Plot) + 8) + "\" y=\"" + At(Y + 17) + "\" class=\"value\">" +
         escape(R.Value) + "</text>";
  }
  return S + "</svg>\n";
}

namespace {
bool isAnnotation(llvm::StringRef Line) {
  Line = Line.ltrim();
  if (!Line.consume_front("//"))
    return false;
  Line = Line.ltrim();
  return Line.starts_with("CHECK-MESSAGES:") || Line.starts_with("CHECK-NOTES:") || Line.starts_with("CHECK-FIXES:") ||
         Line.starts_with("CHECK-OPTIONS:") || Line.starts_with("RUN-CHECKS:");
}

/// The line a `// CHECK-MESSAGES: :[[@LINE-N]]:` on line \p At points to.
std::optional<unsigned> pointedLine(llvm::StringRef Line, unsigned At) {
  size_t P = Line.find("[[@LINE");
  if (!Line.ltrim().starts_with("//") || !Line.contains("CHECK-MESSAGES:") || P == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Rest = Line.substr(P + 7);
  int Offset = 0;
  if (Rest.starts_with("-") || Rest.starts_with("+")) {
    bool Minus = Rest.front() == '-';
    Rest = Rest.drop_front();
    if (Rest.consumeInteger(10, Offset))
      return std::nullopt;
    Offset = Minus ? -Offset : Offset;
  }
  if (int(At) + Offset < 1)
    return std::nullopt;
  return unsigned(int(At) + Offset);
}
} // namespace

Source stripAnnotations(llvm::StringRef Text) {
  Source S = plainSource(Text);
  std::vector<std::pair<unsigned, std::string>> Kept;
  for (auto &[N, Line] : S.Lines) {
    if (auto P = pointedLine(Line, N))
      S.Findings.insert(*P);
    if (!isAnnotation(Line))
      Kept.emplace_back(N, std::move(Line));
  }
  S.Lines = std::move(Kept);
  return S;
}

Source plainSource(llvm::StringRef Text) {
  Source S;
  unsigned N = 0;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    S.Lines.emplace_back(++N, Line.rtrim("\r").str());
    Text = Rest;
  }
  return S;
}

std::string codePane(const Source &Src, const std::set<unsigned> &Marked, unsigned First, unsigned Last) {
  std::string Out = "<pre class=\"src\">";
  for (const auto &[N, Line] : Src.Lines) {
    if ((First && N < First) || (Last && N > Last))
      continue;
    Out += std::string("<span class=\"l") + (Marked.count(N) ? " hit" : "") + "\" data-line=\"" + std::to_string(N) +
           "\"><span class=\"n\">" + std::to_string(N) + "</span>" + escape(Line) + "</span>";
  }
  return Out + "</pre>";
}

namespace {
/// `code`, **bold**, [text](page.md); the rest escaped.
std::string inlineMarkdown(llvm::StringRef T) {
  std::string Out;
  while (!T.empty()) {
    if (T.starts_with("`")) {
      size_t End = T.find('`', 1);
      if (End != llvm::StringRef::npos) {
        Out += "<code>" + escape(T.slice(1, End)) + "</code>";
        T = T.drop_front(End + 1);
        continue;
      }
    }
    if (T.starts_with("**")) {
      size_t End = T.find("**", 2);
      if (End != llvm::StringRef::npos) {
        Out += "<strong>" + inlineMarkdown(T.slice(2, End)) + "</strong>";
        T = T.drop_front(End + 2);
        continue;
      }
    }
    if (T.starts_with("[")) {
      size_t Close = T.find("](");
      size_t End = Close == llvm::StringRef::npos ? Close : T.find(')', Close);
      if (End != llvm::StringRef::npos) {
        llvm::StringRef Text = T.slice(1, Close), Target = T.slice(Close + 2, End);
        if (Target.consume_back(".md") && !Target.contains('/'))
          Out += "<a href=\"#" + escape(docId("mlperf-" + Target.str())) + "\">" + inlineMarkdown(Text) + "</a>";
        else
          Out += inlineMarkdown(Text) + " (" + escape(Target) + ")";
        T = T.drop_front(End + 1);
        continue;
      }
    }
    Out += escape(T.take_front(1));
    T = T.drop_front();
  }
  return Out;
}
} // namespace

namespace {
/// Markdown's block structure, one line at a time.
class MarkdownBlocks {
public:
  explicit MarkdownBlocks(llvm::StringRef Md) { Md.split(Lines, '\n'); }

  std::string render() {
    for (size_t I = 0; I < Lines.size(); ++I) {
      llvm::StringRef L = Lines[I].rtrim("\r"), T = L.trim();
      if (T.starts_with("```"))
        I = code(I);
      else if (T.empty())
        closeBlock();
      else if (T.starts_with("#"))
        heading(T);
      else if (!listItem(L, T))
        text(L, T);
    }
    closeList();
    return Out;
  }

private:
  void closeBlock() {
    if (!Para.empty())
      Out += (Item ? "" : "<p>") + inlineMarkdown(llvm::StringRef(Para).trim()) + (Item ? "</li>" : "</p>");
    else if (Item)
      Out += "</li>";
    Para.clear();
    Item = false;
  }
  void closeList() {
    closeBlock();
    if (!List.empty())
      Out += "</" + List + ">";
    List.clear();
  }
  /// A fenced block from line \p I; returns its closing line.
  size_t code(size_t I) {
    closeList();
    std::string Code;
    for (++I; I < Lines.size() && !Lines[I].trim().starts_with("```"); ++I)
      Code += Lines[I].rtrim("\r").str() + "\n";
    Out += "<pre><code>" + escape(Code) + "</code></pre>";
    return I;
  }
  void heading(llvm::StringRef T) {
    closeList();
    size_t Level = std::min<size_t>(T.find_first_not_of('#'), 4);
    std::string Tag = "h" + std::to_string(Level + 2);
    Out += "<" + Tag + ">" + inlineMarkdown(T.drop_while([](char C) { return C == '#'; }).trim()) + "</" + Tag + ">";
  }
  bool listItem(llvm::StringRef L, llvm::StringRef T) {
    size_t Digits = T.find_first_not_of("0123456789");
    bool Bullet = T.starts_with("- ") || T.starts_with("* ");
    bool Numbered = Digits && Digits != llvm::StringRef::npos && T.substr(Digits).starts_with(". ");
    if (!(Bullet || Numbered) || L.size() - L.ltrim().size() >= 2)
      return false;
    std::string Kind = Bullet ? "ul" : "ol";
    closeBlock();
    if (List != Kind) {
      closeList();
      Out += "<" + Kind + ">";
      List = Kind;
    }
    Out += "<li>";
    Item = true;
    Para = T.drop_front(Bullet ? 2 : Digits + 2).str();
    return true;
  }
  void text(llvm::StringRef L, llvm::StringRef T) {
    if (!Item && !List.empty() && L.size() == L.ltrim().size())
      closeList();
    Para += (Para.empty() ? "" : " ") + T.str();
  }

  llvm::SmallVector<llvm::StringRef, 64> Lines;
  std::string Out, Para;
  std::string List; // "ul", "ol" or "" when no list is open
  bool Item = false;
};
} // namespace

std::string markdown(llvm::StringRef Md) { return MarkdownBlocks(Md).render(); }

std::string docId(llvm::StringRef Check) { return "doc-" + Check.str(); }

std::string checkDocs(const std::set<std::string> &Checks) {
  std::string Out;
  for (const std::string &Check : Checks) {
    llvm::StringRef Short = Check;
    Short.consume_front("mlperf-");
    for (const clang::tidy::mlperf::EmbeddedFile &Doc : clang::tidy::mlperf::embeddedDocs())
      if (Doc.Name == Short.str() + ".md")
        Out += "<section class=\"doc\" id=\"" + escape(docId(Check)) + "\">" + markdown(Doc.Text) + "</section>\n";
  }
  return Out;
}

} // namespace mlperf::html
