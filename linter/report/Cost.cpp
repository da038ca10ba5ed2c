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

namespace {
/// The work priced per step, by kind (CostEstimate::Events).
std::map<std::string, double> eventsOf(const CostFacts &F, double Repeats) {
  std::map<std::string, double> Events;
  auto Event = [&](const char *Kind, double N) {
    if (N > 0)
      Events[Kind] = N * Repeats;
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
  return Events;
}

MemoryGrowth growthOf(const clang::tidy::mlperf::Retention &R, double Repeats, const DeviceModel &D) {
  MemoryGrowth M;
  M.What = R.What;
  M.Host = R.Host;
  M.DeviceBytes = D.MemoryBytes;
  if (R.Bytes.Value)
    M.BytesPerStep = *R.Bytes.Value * Repeats;
  else
    M.DependsOn = R.Bytes.DependsOn;
  return M;
}
} // namespace

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
  bool Timed = !T.Parts.empty() && T.Seconds > 0;
  if (!Timed && !F.Retained)
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
  C.PerStep = Timed ? T.Seconds * Repeats : 0;
  if (F.Retained) {
    C.Memory = growthOf(*F.Retained, Repeats, D);
    if (!C.Memory->BytesPerStep)
      C.DependsOn.push_back(C.Memory->DependsOn);
  }
  C.Events = eventsOf(F, Repeats);
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

std::optional<double> MemoryGrowth::stepsToFill() const {
  if (Host || !BytesPerStep || *BytesPerStep <= 0 || DeviceBytes <= 0)
    return std::nullopt;
  return std::ceil(DeviceBytes / *BytesPerStep);
}

namespace {
double timeRank(double Seconds) { return std::clamp(10 * (std::log10(std::max(Seconds, 1e-9)) + 7), 0.0, 100.0); }

/// Memory that grows every step: 100 when it fills the device within the
/// run's known steps; else by the fraction of the device it fills over the
/// run (10%: 80, 1%: 70), or, when the run's steps are not known, by how
/// many steps fill it (1,000: 90, a million: 60); 60 when the bytes are
/// unknown or the memory is the host's.
double memoryRank(const MemoryGrowth &M, std::optional<double> Steps) {
  std::optional<double> Fill = M.stepsToFill();
  if (!Fill)
    return 60;
  if (Steps && *Steps >= *Fill)
    return 100;
  double R = Steps ? 90 + 10 * std::log10(*Steps / *Fill) : 90 - 10 * std::log10(*Fill / 1000);
  return std::clamp(R, 30.0, 95.0);
}
} // namespace

double CostEstimate::rank() const {
  double R = PerStep > 0 ? timeRank(timeWeight()) : 0;
  return Memory ? std::max(R, memoryRank(*Memory, PerStepFinding ? Steps : std::optional<double>(1))) : R;
}

double CostEstimate::weight() const {
  double Time = timeWeight();
  if (!Memory)
    return Time;
  return std::max(Time, std::pow(10.0, rank() / 10 - 7));
}

std::string CostEstimate::note() const {
  std::string About = lowerBound() ? "≥ " : "≈ ";
  std::vector<std::string> Parts;
  if (PerStep > 0)
    Parts.push_back(About + formatDuration(PerStep) + (PerStepFinding ? " per step" : "") + " on " + Device + ": " +
                    Breakdown);
  if (Memory) {
    std::string Kind = Memory->Host ? "host" : "device";
    std::string Grows = Memory->BytesPerStep
                            ? "by ≈ " + formatBytes(*Memory->BytesPerStep) + " per step"
                            : "by its size every step (unknown here: it depends on " + quoted(Memory->DependsOn) + ")";
    std::string Text = "keeps " + Memory->What + " alive on every step: " + Kind + " memory grows " + Grows;
    if (std::optional<double> Fill = Memory->stepsToFill())
      Text += "; " + Device + "'s " + formatBytes(Memory->DeviceBytes) + " are full after ≈ " + count(*Fill) + " steps";
    Parts.push_back(Text);
  }
  std::string Out = llvm::join(Parts, "; ");
  if (PerStepFinding && Steps) {
    std::vector<std::string> Over;
    if (PerStep > 0)
      Over.push_back(About + formatDuration(PerStep * *Steps));
    if (Memory && Memory->BytesPerStep)
      Over.push_back("≈ " + formatBytes(*Memory->BytesPerStep * *Steps) + " kept");
    if (!Over.empty())
      Out += "; " + llvm::join(Over, " and ") + " over " + count(*Steps) + " steps";
    if (std::optional<double> Fill = Memory ? Memory->stepsToFill() : std::nullopt; Fill && *Steps >= *Fill)
      Out += ": the run runs out of device memory";
  } else if (PerStepFinding) {
    Out += "; the number of steps depends on " + quoted(StepsDependOn);
  }
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
  if (C.Memory) {
    const MemoryGrowth &M = *C.Memory;
    auto OrNull = [](std::optional<double> V) { return V ? nlohmann::json(*V) : nlohmann::json(nullptr); };
    J["memory"] = {{"kept", M.What},
                   {"memory", M.Host ? "host" : "device"},
                   {"bytes_per_step", OrNull(M.BytesPerStep)},
                   {"steps_to_fill", OrNull(M.stepsToFill())}};
    if (!M.BytesPerStep)
      J["memory"]["depends_on"] = M.DependsOn;
  }
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
