#include "report/HtmlFindings.h"

#include "report/Diagnostics.h"
#include "support/HtmlParts.h"
#include "validate/Lookup.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>

namespace mlperf::lint {

using clang::tidy::ClangTidyError;
using html::escape;
namespace v = ::mlperf::validate;

namespace {
// Filters by check and file; without script every finding shows.
const char *FilterScript = R"JS(
(function () {
  var bar = document.getElementById('filters'), check = document.getElementById('f-check'),
      file = document.getElementById('f-file'), count = document.getElementById('f-count');
  bar.hidden = false;
  function apply() {
    var shown = 0;
    document.querySelectorAll('section.finding').forEach(function (s) {
      var show = (check.value === '' || s.dataset.check === check.value) ?
                 (file.value === '' || s.dataset.file === file.value) : false;
      s.hidden = !show;
      shown += show ? 1 : 0;
    });
    document.querySelectorAll('section.group').forEach(function (g) {
      g.hidden = g.querySelector('section.finding:not([hidden])') === null;
    });
    count.textContent = shown + ' shown';
  }
  check.onchange = apply;
  file.onchange = apply;
  apply();
})();
)JS";

struct Finding {
  const ClangTidyError *E;
  std::string File;
  unsigned Line = 0, Column = 0;
};

/// A check's place in the report: confirmed by measured ratio, then measured
/// without effect, then never measured.
struct Cost {
  const v::PairResult *Best = nullptr; // the strongest result, any engine
  double Estimated = 0;                // the run's findings' estimated cost, seconds
  double Order = 0;                    // the same with memory growth weighed in (CostEstimate::weight)
  size_t Growing = 0;                  // findings whose memory grows every step
  bool SomePerStep = false;            // some of it per step: the run's steps are not known
  std::string Device;                  // the device of that estimate
  int rank() const { return !Best ? 2 : Best->Outcome == v::Verdict::Confirmed ? 0 : 1; }
};

class Page {
public:
  Page(llvm::ArrayRef<ClangTidyError> Errors, const v::ValidationRun &Measured, const CostTable *Costs)
      : Measured(Measured), Costs(Costs) {
    for (const ClangTidyError &E : Errors) {
      Finding F{&E, E.Message.FilePath};
      if (!F.File.empty())
        std::tie(F.Line, F.Column) = Lines.lineColumn(F.File, E.Message.FileOffset);
      // A file that did not compile is not a finding: listed apart, after them.
      if (isCompilerError(E)) {
        CompilerErrors.push_back(F);
        continue;
      }
      Findings.push_back(F);
      Cost &C = Checks[E.DiagnosticName];
      if (const CostEstimate *Est = estimate(E)) {
        C.Estimated += Est->timeWeight();
        C.Order += Est->weight();
        C.Growing += Est->Memory.has_value();
        C.SomePerStep |= Est->PerStepFinding && !Est->perRun();
        C.Device = Est->Device;
      }
    }
    for (auto &[Check, C] : Checks)
      for (const v::PairResult &R : Measured.Results)
        if (R.Check == Check && R.Outcome != v::Verdict::Failed &&
            (!C.Best || std::make_pair(R.Outcome == v::Verdict::Confirmed, R.Ratio.Median) >
                            std::make_pair(C.Best->Outcome == v::Verdict::Confirmed, C.Best->Ratio.Median)))
          C.Best = &R;
    for (const auto &[Check, C] : Checks)
      CheckOrder.push_back(Check);
    // What the run's own findings cost comes first, the costliest check
    // first; measured ratios of the fixtures order the rest.
    std::stable_sort(CheckOrder.begin(), CheckOrder.end(), [&](const std::string &A, const std::string &B) {
      const Cost &CA = Checks[A], &CB = Checks[B];
      if (CA.Order != CB.Order)
        return CA.Order > CB.Order;
      if (CA.rank() != CB.rank())
        return CA.rank() < CB.rank();
      if (CA.rank() == 0 && CA.Best->Ratio.Median != CB.Best->Ratio.Median)
        return CA.Best->Ratio.Median > CB.Best->Ratio.Median;
      return count(A) > count(B);
    });
    for (size_t I = 0; I < CheckOrder.size(); ++I)
      Rank[CheckOrder[I]] = I;
    for (const Finding &F : Findings) {
      std::string Dir = llvm::sys::path::parent_path(F.File).str() + "/";
      if (&F == &Findings.front())
        Prefix = Dir;
      while (!llvm::StringRef(Dir).starts_with(Prefix) && !Prefix.empty())
        Prefix = (llvm::sys::path::parent_path(llvm::StringRef(Prefix).drop_back()) + "/").str();
    }
    if (Prefix == "/")
      Prefix.clear();
    std::stable_sort(Findings.begin(), Findings.end(), [&](const Finding &A, const Finding &B) {
      auto Weight = [&](const Finding &F) {
        const CostEstimate *C = estimate(*F.E);
        return C ? -C->weight() : 0.0;
      };
      return std::make_tuple(Rank[A.E->DiagnosticName], Weight(A), A.File, A.Line, A.Column, A.E->Message.Message) <
             std::make_tuple(Rank[B.E->DiagnosticName], Weight(B), B.File, B.Line, B.Column, B.E->Message.Message);
    });
  }

  std::string render();

private:
  size_t count(const std::string &Check) const {
    return std::count_if(Findings.begin(), Findings.end(),
                         [&](const Finding &F) { return F.E->DiagnosticName == Check; });
  }
  const html::Source &source(const std::string &File) {
    auto It = Sources.find(File);
    if (It == Sources.end()) {
      auto Buf = llvm::MemoryBuffer::getFile(File);
      It = Sources.emplace(File, html::plainSource(Buf ? (*Buf)->getBuffer() : "")).first;
    }
    return It->second;
  }
  const std::string &engine(const std::string &File) {
    auto [It, New] = Engines.try_emplace(File);
    if (New)
      It->second = v::engineOfSource(File);
    return It->second;
  }
  /// A path as the page shows it: relative to the directory of all findings.
  std::string shown(const std::string &Path) const {
    llvm::StringRef P = Path;
    return P.consume_front(Prefix) ? P.str() : Path;
  }
  std::string measuredText(const v::PairResult &R);
  std::string summary();
  std::string checkTable(std::vector<html::ChartRow> &Rows);
  std::string fileTable();
  std::string finding(const Finding &F);
  std::string compilerErrors();
  std::string fixDiff(const ClangTidyError &E);

  const CostEstimate *estimate(const ClangTidyError &E) const { return Costs ? Costs->find(E) : nullptr; }

  const v::ValidationRun &Measured;
  const CostTable *Costs;
  LineTable Lines;
  std::vector<Finding> Findings, CompilerErrors;
  std::map<std::string, Cost> Checks;
  std::vector<std::string> CheckOrder;
  std::map<std::string, size_t> Rank;
  std::map<std::string, html::Source> Sources;
  std::map<std::string, std::string> Engines;
  std::string Prefix; // the directory every finding is under, with a trailing '/'
};

std::string Page::measuredText(const v::PairResult &R) {
  std::string Where = v::whereMeasured(R) + ", " + R.Date;
  if (R.Outcome != v::Verdict::Confirmed)
    return "no measurable effect on " + R.MetricDescription + " (" + Where + ")";
  std::string T = html::number(R.Ratio.Median) + "x " + R.MetricDescription;
  if (!R.Explain.empty())
    T += ", " + R.Explain;
  return T + " (" + Where + ")";
}

/// The checks in their order, with a chart row each.
std::string Page::checkTable(std::vector<html::ChartRow> &Rows) {
  bool Estimates = Costs && !Costs->empty();
  std::string Table =
      "<table id=\"by-check\"><tr><th>check</th><th>findings</th>" +
      std::string(Estimates
                      ? "<th class=\"t\">a fix saves (estimate per run, or per step where the steps are not known)</th>"
                      : "") +
      "<th class=\"t\">measured on the fixture</th></tr>";
  for (const std::string &Check : CheckOrder) {
    const Cost &C = Checks[Check];
    html::ChartRow Row;
    Row.Label = Check;
    Row.Href = "#group-" + Check;
    size_t N = count(Check);
    std::string Findings = std::to_string(N) + (N == 1 ? " finding" : " findings");
    // A time from fewer than 3 runs draws no bar length (PairResult::ratioIsEvidence()).
    Row.HasRatio = C.rank() == 0 || (C.rank() == 1 && C.Best->ratioIsEvidence());
    Row.Style = C.rank() == 0 ? html::BarStyle::Filled : html::BarStyle::Hollow;
    if (C.Best) {
      Row.Median = C.Best->Ratio.Median;
      Row.Min = C.Best->Ratio.Min;
      Row.Max = C.Best->Ratio.Max;
    }
    Row.Value = Findings + (C.rank() == 0   ? " \u00b7 " + html::number(Row.Median) + "x"
                            : C.rank() == 1 ? " \u00b7 no measurable effect"
                                            : " \u00b7 not measured");
    Row.Tooltip = Check + ": " + (C.Best ? measuredText(*C.Best) : "never validated on this machine");
    Rows.push_back(Row);
    std::string Estimate = C.Estimated > 0 ? "\u2248 " + formatDuration(C.Estimated) +
                                                 (C.SomePerStep ? " per step" : "") + " on " + C.Device
                                           : std::string(C.Growing ? "" : "no estimate");
    if (C.Growing)
      Estimate += (Estimate.empty() ? "" : "; ") + std::string("memory that grows every step (") +
                  std::to_string(C.Growing) + (C.Growing == 1 ? " finding)" : " findings)");
    Table += "<tr><td><a href=\"#group-" + escape(Check) + "\">" + escape(Check) + "</a></td><td>" + std::to_string(N) +
             "</td>" + (Estimates ? "<td class=\"t\">" + escape(Estimate) + "</td>" : "") + "<td class=\"t\">" +
             escape(C.Best ? measuredText(*C.Best) : "not measured (run mlperf-lint validate)") + "</td></tr>";
  }
  return Table + "</table>";
}

/// Files by their costliest finding, then by how many they have.
std::string Page::fileTable() {
  std::map<std::string, std::map<std::string, size_t>> PerFile;
  for (const Finding &F : Findings)
    ++PerFile[F.File][F.E->DiagnosticName];
  std::vector<std::string> Files;
  for (const auto &[File, ByCheck] : PerFile)
    Files.push_back(File);
  auto Key = [&](const std::string &File) {
    size_t Best = CheckOrder.size(), Total = 0;
    for (const auto &[Check, N] : PerFile[File]) {
      Best = std::min(Best, Rank[Check]);
      Total += N;
    }
    return std::make_pair(Best, -long(Total));
  };
  std::stable_sort(Files.begin(), Files.end(),
                   [&](const std::string &A, const std::string &B) { return Key(A) < Key(B); });
  std::string FileTable = "<table id=\"by-file\"><tr><th>file</th><th>findings</th><th class=\"t\">checks</th></tr>";
  for (const std::string &File : Files) {
    std::string List;
    size_t Total = 0;
    for (const std::string &Check : CheckOrder)
      if (size_t N = PerFile[File].count(Check) ? PerFile[File][Check] : 0) {
        List += (List.empty() ? "" : ", ") + Check + (N > 1 ? " \u00d7" + std::to_string(N) : "");
        Total += N;
      }
    FileTable += "<tr><td>" + escape(File.empty() ? "(no file)" : shown(File)) + "</td><td>" + std::to_string(Total) +
                 "</td><td class=\"t\">" + escape(List) + "</td></tr>";
  }
  return FileTable + "</table>";
}

std::string Page::summary() {
  std::vector<html::ChartRow> Rows;
  std::string Table = checkTable(Rows);
  std::string FileTable = fileTable();
  bool AnyMeasured = llvm::any_of(CheckOrder, [&](const std::string &C) { return Checks[C].Best != nullptr; });
  std::string Order = Costs && !Costs->empty() ? "Checks ordered by the estimated cost of their findings in this "
                                                 "run (what a fix saves; docs/cost-model.md), then by what"
                                               : "Checks ordered by what";
  return "<h2>Summary</h2><p class=\"meta\">" + Order +
         " their anti-pattern measurably costs on this "
         "machine (median ratio anti-pattern / fix on the check's fixture, logarithmic axis centred on 1x); checks "
         "without a measurement last.</p>" +
         (AnyMeasured ? html::ratioChart(Rows, 300, "summary") : "") + Table + "<h3>Per file</h3>" + FileTable;
}

std::string Page::fixDiff(const ClangTidyError &E) {
  std::vector<std::string> Files;
  for (const auto &Entry : E.Message.Fix)
    Files.push_back(Entry.getKey().str());
  std::sort(Files.begin(), Files.end());
  std::string Out;
  for (const std::string &File : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      continue;
    auto Fixed = clang::tooling::applyAllReplacements((*Buf)->getBuffer(), E.Message.Fix.lookup(File));
    if (!Fixed) {
      llvm::consumeError(Fixed.takeError());
      continue;
    }
    std::string Diff = lineDiff((*Buf)->getBuffer(), *Fixed);
    if (Diff.empty())
      continue;
    std::string Lines;
    llvm::SmallVector<llvm::StringRef, 32> Split;
    llvm::StringRef(Diff).split(Split, '\n', -1, false);
    for (llvm::StringRef L : Split) {
      std::string Cls = L.starts_with("+") ? "add" : L.starts_with("-") ? "del" : L.starts_with("@") ? "hunk" : "ctx";
      Lines += "<span class=\"" + Cls + "\">" + escape(L) + "</span>";
    }
    Out += "<div class=\"fix\"><b>fix-it</b> (<code>mlperf-lint --fix</code> applies it)<pre class=\"diff\">" +
           escape("--- " + File + "\n+++ " + File + " (fixed)\n") + Lines + "</pre></div>";
  }
  return Out;
}

std::string Page::finding(const Finding &F) {
  const ClangTidyError &E = *F.E;
  std::string Check = E.DiagnosticName;
  std::string H = "<section class=\"finding\" data-check=\"" + escape(Check) + "\" data-file=\"" +
                  escape(shown(F.File)) + "\"><h3><span class=\"loc\">" + escape(shown(F.File)) + ":" +
                  std::to_string(F.Line) + ":" + std::to_string(F.Column) + "</span> <span class=\"sev " +
                  severityOf(E).str() + "\">" + severityOf(E).str() + "</span></h3><p class=\"msg\">" +
                  escape(E.Message.Message) + " [<a href=\"#" + escape(html::docId(Check)) + "\">" + escape(Check) +
                  "</a>]</p>";
  if (!F.File.empty())
    H += html::codePane(source(F.File), {F.Line}, F.Line > 3 ? F.Line - 3 : 1, F.Line + 3);
  const v::PairResult *M = v::measuredResult(Measured, Check, engine(F.File));
  std::optional<std::string> MeasuredNote = v::measuredNote(Measured, Check, engine(F.File));
  std::string Notes;
  for (const auto &N : E.Notes) {
    if (MeasuredNote && N.Message == *MeasuredNote)
      continue; // shown below with its engine and date
    Notes += "<li><span class=\"msg\">" + escape(N.Message) + "</span>";
    if (!N.FilePath.empty()) {
      auto [Line, Col] = Lines.lineColumn(N.FilePath, N.FileOffset);
      Notes += " <span class=\"loc\">" + escape(shown(N.FilePath)) + ":" + std::to_string(Line) + ":" +
               std::to_string(Col) + "</span>" + html::codePane(source(N.FilePath), {Line}, Line, Line);
    }
    Notes += "</li>";
  }
  if (!Notes.empty())
    H += "<ul class=\"notes\">" + Notes + "</ul>";
  if (M)
    H += "<p class=\"measured\"><b>Measured on the fixture:</b> " + escape(measuredText(*M)) + "</p>";
  H += fixDiff(E);
  return H + "</section>\n";
}

/// The compiler's errors, by file: where findings may be missing.
std::string Page::compilerErrors() {
  if (CompilerErrors.empty())
    return "";
  constexpr size_t Shown = 50;
  std::string H = "<section id=\"compiler-errors\"><h2>Compiler errors</h2><p class=\"meta\">What did not "
                  "compile is not analysed: findings in it, and in the files that include it, may be missing.</p>"
                  "<table><tr><th class=\"t\">where</th><th class=\"t\">error</th></tr>";
  for (size_t I = 0; I < CompilerErrors.size() && I < Shown; ++I) {
    const Finding &F = CompilerErrors[I];
    H += "<tr><td class=\"t loc\">" + escape(F.File.empty() ? "(no file)" : shown(F.File)) +
         (F.File.empty() ? "" : ":" + std::to_string(F.Line) + ":" + std::to_string(F.Column)) +
         "</td><td class=\"t\">" + escape(F.E->Message.Message) + "</td></tr>";
  }
  H += "</table>";
  if (CompilerErrors.size() > Shown)
    H += "<p class=\"meta\">and " + std::to_string(CompilerErrors.size() - Shown) + " more</p>";
  return H + "</section>\n";
}

std::string Page::render() {
  std::set<std::string> Files;
  for (const Finding &F : Findings)
    Files.insert(F.File);
  std::string H = html::pageStart("mlperf-lint findings",
                                  "pre.diff{background:#f6f8fa;padding:6px 8px;font-size:12px}pre.diff span{display:"
                                  "block}.add{background:#e6ffec}.del{background:#ffebe9}.hunk{color:#6639ba}"
                                  ".finding{border-top:1px solid #eee;margin-top:1em}.loc{font-family:monospace}"
                                  ".sev.warning{color:#8a6d00}.sev.error{color:#c62828}.notes pre.src{margin:2px 0}"
                                  ".notes pre.src span.hit{background:#eaf2ff;box-shadow:inset 3px 0 #6a9fd8}"
                                  "td.t,th.t{text-align:left}"
                                  "#filters{background:#f6f8fa;padding:6px 10px;position:sticky;top:0}\n");
  H += "<h1>mlperf-lint: " + std::to_string(Findings.size()) + (Findings.size() == 1 ? " finding" : " findings") +
       " in " + std::to_string(Files.size()) + (Files.size() == 1 ? " file" : " files") +
       (Prefix.empty() ? "" : " under " + escape(llvm::StringRef(Prefix).drop_back())) + "</h1><p class=\"meta\">";
  H += Measured.Results.empty()
           ? std::string("No stored validation results: run <code>mlperf-lint validate</code> "
                         "to measure what each check costs on this machine.")
           : "Measured costs from <code>mlperf-lint validate</code> on " + escape(Measured.Machine) + ".";
  if (!CompilerErrors.empty())
    H += " <a href=\"#compiler-errors\">" + std::to_string(CompilerErrors.size()) +
         (CompilerErrors.size() == 1 ? " compiler error" : " compiler errors") +
         "</a>: findings in code that did not compile may be missing.";
  H +=
      "</p>\n<div id=\"filters\" hidden=\"hidden\"><label>check <select id=\"f-check\"><option value=\"\">all</option>";
  for (const std::string &Check : CheckOrder)
    H += "<option value=\"" + escape(Check) + "\">" + escape(Check) + "</option>";
  H += "</select></label> <label>file <select id=\"f-file\"><option value=\"\">all</option>";
  for (const std::string &File : Files)
    H += "<option value=\"" + escape(shown(File)) + "\">" + escape(shown(File)) + "</option>";
  H += "</select></label> <span id=\"f-count\"></span></div>\n";
  H += summary();
  std::string Group;
  for (const Finding &F : Findings) {
    if (F.E->DiagnosticName != Group) {
      if (!Group.empty())
        H += "</section>\n";
      Group = F.E->DiagnosticName;
      H += "<section class=\"group\" id=\"group-" + escape(Group) + "\"><h2>" + escape(Group) + " <a href=\"#" +
           escape(html::docId(Group)) + "\">(what it flags and why)</a></h2>";
    }
    H += finding(F);
  }
  if (!Group.empty())
    H += "</section>\n";
  H += compilerErrors();
  std::set<std::string> Checks(CheckOrder.begin(), CheckOrder.end());
  H += "<h2>The checks</h2>" + html::checkDocs(Checks);
  return H + "<script>" + FilterScript + "</script>\n</body></html>\n";
}
} // namespace

namespace {
using Lines = llvm::SmallVector<llvm::StringRef, 64>;

/// The edit script that turns A[Pre, Pre+N) into B[Pre, Pre+M): ' ' keep,
/// '-' delete, '+' insert. A longest common subsequence when it is small,
/// else all of it replaced.
std::vector<char> editScript(const Lines &A, const Lines &B, size_t Pre, size_t N, size_t M) {
  std::vector<char> Ops;
  if (N * M > 250000) {
    Ops.assign(N, '-');
    Ops.insert(Ops.end(), M, '+');
    return Ops;
  }
  std::vector<std::vector<unsigned>> L(N + 1, std::vector<unsigned>(M + 1, 0));
  for (size_t I = N; I-- > 0;)
    for (size_t J = M; J-- > 0;)
      L[I][J] = A[Pre + I] == B[Pre + J] ? L[I + 1][J + 1] + 1 : std::max(L[I + 1][J], L[I][J + 1]);
  size_t I = 0, J = 0;
  while (I < N || J < M) {
    if (I < N && J < M && A[Pre + I] == B[Pre + J]) {
      Ops.push_back(' '), ++I, ++J;
    } else if (J < M && (I == N || L[I][J + 1] > L[I + 1][J])) {
      Ops.push_back('+'), ++J;
    } else {
      Ops.push_back('-'), ++I;
    }
  }
  return Ops;
}

struct DiffLine {
  char Op;
  size_t OldNo, NewNo;
  llvm::StringRef Text;
};

/// The script's lines with their numbers, and 2 kept lines on either side.
std::vector<DiffLine> numberedLines(const Lines &A, const Lines &B, size_t Pre, llvm::ArrayRef<char> Ops) {
  std::vector<DiffLine> All;
  for (size_t I = Pre >= 2 ? Pre - 2 : 0; I < Pre; ++I)
    All.push_back({' ', I + 1, I + 1, A[I]});
  size_t I = Pre, J = Pre;
  for (char Op : Ops) {
    if (Op == ' ')
      All.push_back({' ', ++I, ++J, A[I - 1]});
    else if (Op == '-')
      All.push_back({'-', ++I, J, A[I - 1]});
    else
      All.push_back({'+', I, ++J, B[J - 1]});
  }
  for (size_t K = 0; K < 2 && I < A.size(); ++K)
    All.push_back({' ', ++I, ++J, A[I - 1]});
  return All;
}

/// Hunks of the lines around the changes; a run of more than 4 kept lines
/// splits hunks.
std::string hunks(const std::vector<DiffLine> &All) {
  std::vector<bool> Keep(All.size(), false);
  for (size_t K = 0; K < All.size(); ++K)
    if (All[K].Op != ' ')
      for (size_t D = K >= 2 ? K - 2 : 0; D < std::min(All.size(), K + 3); ++D)
        Keep[D] = true;
  std::string Out;
  for (size_t K = 0; K < All.size();) {
    if (!Keep[K]) {
      ++K;
      continue;
    }
    size_t End = K;
    while (End < All.size() && Keep[End])
      ++End;
    size_t OldStart = 0, NewStart = 0, OldCount = 0, NewCount = 0;
    std::string Body;
    for (size_t X = K; X < End; ++X) {
      const DiffLine &L = All[X];
      if (L.Op != '+' && !OldCount++)
        OldStart = L.OldNo;
      if (L.Op != '-' && !NewCount++)
        NewStart = L.NewNo;
      Body += std::string(1, L.Op) + L.Text.str() + "\n";
    }
    Out += "@@ -" + std::to_string(OldCount ? OldStart : All[K].OldNo) + "," + std::to_string(OldCount) + " +" +
           std::to_string(NewCount ? NewStart : All[K].NewNo) + "," + std::to_string(NewCount) + " @@\n" + Body;
    K = End;
  }
  return Out;
}
} // namespace

std::string lineDiff(llvm::StringRef Old, llvm::StringRef New) {
  Lines A, B;
  Old.split(A, '\n');
  New.split(B, '\n');
  size_t Pre = 0;
  while (Pre < A.size() && Pre < B.size() && A[Pre] == B[Pre])
    ++Pre;
  size_t Suf = 0;
  while (Suf < A.size() - Pre && Suf < B.size() - Pre && A[A.size() - 1 - Suf] == B[B.size() - 1 - Suf])
    ++Suf;
  size_t N = A.size() - Pre - Suf, M = B.size() - Pre - Suf;
  if (!N && !M)
    return "";
  return hunks(numberedLines(A, B, Pre, editScript(A, B, Pre, N, M)));
}

void writeHtmlFindings(llvm::ArrayRef<ClangTidyError> Errors, const v::ValidationRun &Measured, llvm::raw_ostream &OS,
                       const CostTable *Costs) {
  OS << Page(Errors, Measured, Costs).render();
}

} // namespace mlperf::lint
