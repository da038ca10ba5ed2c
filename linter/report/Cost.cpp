#include "report/Cost.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mlperf::lint {

using clang::tidy::ClangTidyError;
using clang::tidy::mlperf::CostFacts;
using clang::tidy::mlperf::Quantity;

namespace {
/// Two significant digits, no exponent: "21", "2.1", "0.21".
std::string number(double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, V >= 10 ? "%.0f" : "%.2g", V);
  return Buf;
}

std::string plural(double N, llvm::StringRef One, llvm::StringRef Many) {
  return number(N) + " " + (N == 1 ? One : Many).str();
}

std::string quoted(const std::string &Input) { return Input.empty() ? "a value in a macro" : "'" + Input + "'"; }

/// Thousands separated: "100,000".
std::string count(double N) {
  std::string Digits = std::to_string(static_cast<long long>(std::llround(N)));
  for (int I = static_cast<int>(Digits.size()) - 3; I > 0; I -= 3)
    Digits.insert(static_cast<size_t>(I), ",");
  return Digits;
}

struct Terms {
  double Seconds = 0;
  std::vector<std::string> Parts;
  std::vector<std::string> DependsOn;

  void add(double Seconds, std::string Text) {
    this->Seconds += Seconds;
    Parts.push_back(std::move(Text));
  }
  void copies(unsigned N, llvm::StringRef Way, double BytesPerSecond, const Quantity &Bytes, double Latency) {
    if (!N)
      return;
    std::string Times = N == 1 ? "" : std::to_string(N) + " × ";
    if (Bytes.Value) {
      double S = N * (Latency + *Bytes.Value / BytesPerSecond);
      add(S, Times + formatBytes(*Bytes.Value) + " " + Way.str() + " (" + formatDuration(S) + ")");
      return;
    }
    double S = N * Latency;
    add(S, plural(N, Way.str() + " copy", Way.str() + " copies") + " (" + formatDuration(S) + " + the bytes of " +
               quoted(Bytes.DependsOn) + ")");
    DependsOn.push_back(Bytes.DependsOn);
  }
};
} // namespace

std::string formatDuration(double S) {
  if (S < 1e-4)
    return number(S * 1e6) + " µs";
  if (S < 0.1)
    return number(S * 1e3) + " ms";
  if (S < 120)
    return number(S) + " s";
  if (S < 7200)
    return number(S / 60) + " min";
  return number(S / 3600) + " h";
}

std::string formatBytes(double B) {
  if (B < 1024)
    return number(B) + " B";
  if (B < 1024.0 * 1024)
    return number(B / 1024) + " KiB";
  if (B < 1024.0 * 1024 * 1024)
    return number(B / 1024 / 1024) + " MiB";
  return number(B / 1024 / 1024 / 1024) + " GiB";
}

std::optional<double> parseDuration(llvm::StringRef Text) {
  static const std::pair<const char *, double> Units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"µs", 1e-6}, {"ms", 1e-3},
                                                          {"min", 60},  {"s", 1},     {"h", 3600}};
  Text = Text.trim();
  for (const auto &[Unit, Scale] : Units) {
    llvm::StringRef Number = Text;
    if (!Number.consume_back(Unit))
      continue;
    double V = 0;
    if (Number.trim().getAsDouble(V) || !std::isfinite(V) || V < 0)
      return std::nullopt;
    return V * Scale;
  }
  return std::nullopt;
}

std::optional<CostEstimate> estimateCost(const CostFacts &F, const DeviceModel &D) {
  Terms T;
  if (F.Syncs)
    T.add(F.Syncs * D.SyncSeconds,
          plural(F.Syncs, "sync", "syncs") + " (" + formatDuration(F.Syncs * D.SyncSeconds) + ")");
  T.copies(F.HostToDevice, "H2D", D.HostToDeviceBytesPerSecond, F.Bytes, D.CopySeconds);
  T.copies(F.DeviceToHost, "D2H", D.DeviceToHostBytesPerSecond, F.Bytes, D.CopySeconds);
  if (F.Allocations)
    T.add(F.Allocations * D.AllocationSeconds, plural(F.Allocations, "allocation", "allocations") + " (" +
                                                   formatDuration(F.Allocations * D.AllocationSeconds) + ")");
  if (F.Compilations)
    T.add(F.Compilations * D.CompileSeconds, plural(F.Compilations, "compilation", "compilations") + " (" +
                                                 formatDuration(F.Compilations * D.CompileSeconds) + ")");
  if (T.Parts.empty() || T.Seconds <= 0)
    return std::nullopt;
  CostEstimate C;
  C.Device = D.Name;
  C.DependsOn = T.DependsOn;
  std::string Sum = llvm::join(T.Parts, " + ");
  // A read per element repeats the terms once per trip of the inner loop;
  // with the trips unknown, one trip is the lower bound.
  double Repeats = F.Repeats.Value.value_or(1);
  if (!F.Repeats.Value) {
    C.DependsOn.push_back(F.Repeats.DependsOn);
    C.Breakdown = "(" + Sum + ") per trip of a loop bounded by " + quoted(F.Repeats.DependsOn);
  } else {
    C.Breakdown = Repeats == 1 ? Sum : count(Repeats) + " × (" + Sum + ")";
  }
  C.PerStep = T.Seconds * Repeats;
  auto Event = [&](const char *Kind, double N) {
    if (N > 0)
      C.Events[Kind] = N * Repeats;
  };
  Event("syncs", F.Syncs);
  Event("h2d_copies", F.HostToDevice);
  Event("d2h_copies", F.DeviceToHost);
  if (F.Bytes.Value) {
    Event("h2d_bytes", F.HostToDevice * *F.Bytes.Value);
    Event("d2h_bytes", F.DeviceToHost * *F.Bytes.Value);
  }
  Event("allocations", F.Allocations);
  Event("compilations", F.Compilations);
  C.PerStepFinding = F.Steps.has_value();
  if (F.Steps) {
    C.Steps = F.Steps->Value;
    if (!C.Steps)
      C.StepsDependOn = F.Steps->DependsOn;
  }
  return C;
}

std::optional<double> CostEstimate::perRun() const {
  if (!PerStepFinding)
    return PerStep;
  if (Steps)
    return PerStep * *Steps;
  return std::nullopt;
}

double CostEstimate::rank() const {
  double W = std::max(weight(), 1e-9);
  return std::clamp(10 * (std::log10(W) + 7), 0.0, 100.0);
}

std::string CostEstimate::note() const {
  std::string About = lowerBound() ? "≥ " : "≈ ";
  std::string Out =
      About + formatDuration(PerStep) + (PerStepFinding ? " per step" : "") + " on " + Device + ": " + Breakdown;
  if (PerStepFinding && Steps)
    Out += "; " + About + formatDuration(PerStep * *Steps) + " over " + count(*Steps) + " steps";
  else if (PerStepFinding)
    Out += "; the number of steps depends on " + quoted(StepsDependOn);
  return Out;
}

nlohmann::json costJson(const CostEstimate &C) {
  nlohmann::json J = {{"device", C.Device},           {"per_step_seconds", C.PerStep},
                      {"per_step", C.PerStepFinding}, {"lower_bound", C.lowerBound()},
                      {"depends_on", C.DependsOn},    {"rank", C.rank()},
                      {"events", C.Events},           {"text", C.note()}};
  J["steps"] = C.Steps ? nlohmann::json(*C.Steps) : nlohmann::json(nullptr);
  if (!C.StepsDependOn.empty())
    J["steps_depend_on"] = C.StepsDependOn;
  std::optional<double> Run = C.perRun();
  J["per_run_seconds"] = Run ? nlohmann::json(*Run) : nlohmann::json(nullptr);
  return J;
}

void CostTable::add(const ClangTidyError &E, CostEstimate C) { Costs.insert_or_assign(keyOf(E), std::move(C)); }

const CostEstimate *CostTable::find(const ClangTidyError &E) const {
  auto It = Costs.find(keyOf(E));
  return It == Costs.end() ? nullptr : &It->second;
}

CostTable::Key CostTable::keyOf(const ClangTidyError &E) {
  return {E.Message.FilePath, E.Message.FileOffset, E.DiagnosticName, E.Message.Message};
}

void sortByCost(std::vector<ClangTidyError> &Errors, const CostTable &Costs) {
  std::stable_sort(Errors.begin(), Errors.end(), [&](const ClangTidyError &A, const ClangTidyError &B) {
    const CostEstimate *CA = Costs.find(A), *CB = Costs.find(B);
    if (!CA || !CB)
      return CA && !CB;
    return CA->weight() > CB->weight();
  });
}

} // namespace mlperf::lint
