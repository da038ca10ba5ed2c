#include "validate/Calibration.h"

#include "validate/Measure.h"

#include <cmath>
#include <cstdio>

namespace mlperf::validate {

namespace {
/// The counters a prediction's events compare with. The fixtures report
/// syncs and bytes per step (Measure.cpp divides them), compilations per run.
struct EventCounter {
  const char *Kind;
  bool PerRun;
};
constexpr EventCounter Compared[] = {
    {"syncs", false}, {"h2d_bytes", false}, {"d2h_bytes", false}, {"compilations", true}};

/// What one side reports of \p C per step (or per run), when it reports it.
std::optional<double> measured(const SideResult &S, const EventCounter &C, bool PerRun) {
  auto It = S.Counters.find(C.Kind);
  if (It == S.Counters.end())
    return std::nullopt;
  if (C.PerRun == PerRun)
    return It->second;
  if (!S.Steps || *S.Steps <= 0)
    return std::nullopt;
  return PerRun ? It->second * *S.Steps : It->second / *S.Steps;
}

std::string number(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.3g", V);
  return Buf;
}

std::string seconds(double S) {
  if (std::fabs(S) < 1e-3)
    return number(S * 1e6) + " µs";
  if (std::fabs(S) < 1)
    return number(S * 1e3) + " ms";
  return number(S) + " s";
}

std::string ratioText(std::optional<double> R) { return R ? " (" + number(*R) + "x)" : " (–)"; }

nlohmann::json optionalJson(std::optional<double> V) { return V ? nlohmann::json(*V) : nlohmann::json(nullptr); }
} // namespace

std::optional<double> EventComparison::ratio() const {
  if (!Measured || *Measured <= 0)
    return std::nullopt;
  return Predicted / *Measured;
}

std::optional<double> CalibrationRow::timeRatio() const {
  if (!TimeIsEvidence || !MeasuredSeconds || *MeasuredSeconds <= 0)
    return std::nullopt;
  return PredictedSeconds / *MeasuredSeconds;
}

CalibrationRow calibrate(const PairResult &R, const nlohmann::json &LintReport, const std::string &Device) {
  CalibrationRow Row;
  Row.Check = R.Check;
  Row.Engine = R.Engine;
  Row.Backend = R.Backend;
  Row.Metric = R.Metric;
  Row.Device = Device;
  Row.BadFile = R.BadFile;
  std::map<std::string, double> Predicted, PredictedPerRun; // per run: the findings paid once
  auto Diagnostics = LintReport.is_object() ? LintReport.find("diagnostics") : LintReport.end();
  if (Diagnostics != LintReport.end() && Diagnostics->is_array())
    for (const nlohmann::json &D : *Diagnostics) {
      if (!D.is_object() || D.value("check", "") != R.Check)
        continue;
      ++Row.Findings;
      auto Cost = D.find("cost");
      if (Cost == D.end() || !Cost->is_object())
        continue;
      ++Row.Priced;
      bool PerStep = Cost->value("per_step", true);
      if (PerStep)
        Row.PredictedSeconds += Cost->value("per_step_seconds", 0.0);
      Row.LowerBound |= Cost->value("lower_bound", false);
      if (auto Events = Cost->find("events"); Events != Cost->end() && Events->is_object())
        for (auto It = Events->begin(); It != Events->end(); ++It)
          if (It->is_number())
            (PerStep ? Predicted : PredictedPerRun)[It.key()] += It->get<double>();
    }
  for (bool PerRun : {false, true})
    for (const EventCounter &C : Compared) {
      const std::map<std::string, double> &From = PerRun ? PredictedPerRun : Predicted;
      auto It = From.find(C.Kind);
      if (It == From.end())
        continue;
      EventComparison E{C.Kind, PerRun, It->second, std::nullopt};
      if (R.Bad && R.Good)
        if (std::optional<double> B = measured(*R.Bad, C, PerRun), G = measured(*R.Good, C, PerRun); B && G)
          E.Measured = *B - *G;
      Row.Events.push_back(E);
    }
  if (R.Bad && R.Good && R.Bad->StepMs && R.Good->StepMs)
    Row.MeasuredSeconds = (*R.Bad->StepMs - *R.Good->StepMs) / 1e3;
  Row.TimeIsEvidence = R.Runs >= 3;
  return Row;
}

nlohmann::json toJson(const CalibrationRow &Row) {
  nlohmann::json Events = nlohmann::json::array();
  for (const EventComparison &E : Row.Events)
    Events.push_back({{"kind", E.Kind},
                      {"per", E.PerRun ? "run" : "step"},
                      {"predicted", E.Predicted},
                      {"measured", optionalJson(E.Measured)},
                      {"ratio", optionalJson(E.ratio())}});
  return {{"check", Row.Check},
          {"engine", Row.Engine},
          {"backend", Row.Backend},
          {"metric", Row.Metric},
          {"device", Row.Device},
          {"bad_file", Row.BadFile},
          {"findings", Row.Findings},
          {"priced", Row.Priced},
          {"lower_bound", Row.LowerBound},
          {"events", Events},
          {"predicted_seconds_per_step", Row.PredictedSeconds},
          {"measured_seconds_per_step", optionalJson(Row.MeasuredSeconds)},
          {"time_ratio", optionalJson(Row.timeRatio())}};
}

std::string formatCalibration(const std::vector<CalibrationRow> &Rows) {
  std::string Out;
  for (const CalibrationRow &Row : Rows) {
    Out += Row.Check + " (" + Row.Engine + ", " + Row.Backend + ", " + Row.Metric + " pair): ";
    if (!Row.Priced) {
      Out += std::to_string(Row.Findings) + " finding(s) in " + Row.BadFile + ", none priced\n";
      continue;
    }
    for (const EventComparison &E : Row.Events)
      Out += E.Kind + " " + number(E.Predicted) + " vs " + (E.Measured ? number(*E.Measured) : "–") +
             (E.PerRun ? " per run" : " per step") + ratioText(E.ratio()) + "; ";
    Out += "time " + std::string(Row.LowerBound ? "≥ " : "") + seconds(Row.PredictedSeconds) + " vs " +
           (Row.MeasuredSeconds ? seconds(*Row.MeasuredSeconds) : "–") + " per step on " + Row.Device;
    Out += Row.TimeIsEvidence ? ratioText(Row.timeRatio()) : " (– from fewer than 3 runs)";
    Out += "\n";
  }
  return Out;
}

} // namespace mlperf::validate
