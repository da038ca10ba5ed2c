#include "validate/Results.h"

#include <algorithm>

namespace mlperf::validate {

namespace {
const std::pair<Verdict, const char *> VerdictNames[] = {
    {Verdict::Confirmed, "confirmed"}, {Verdict::NotMeasurable, "not measurable here"}, {Verdict::Failed, "failed"}};

/// Reads typed fields of one JSON object; the first problem is kept, naming
/// the field ("results[2].ratio.median: expected a number, found string").
class Fields {
public:
  Fields(const nlohmann::json &J, std::string Where) : J(J), Where(std::move(Where)) {
    if (!J.is_object())
      fail(this->Where, "an object", J);
  }

  template <typename T> void get(const char *Key, T &Out, bool Required = true) {
    auto It = J.is_object() ? J.find(Key) : J.end();
    if (It == J.end() || It->is_null()) {
      if (Required && J.is_object() && Error.empty())
        Error = Where + "." + Key + ": missing";
      return;
    }
    read(*It, Where + "." + Key, Out);
  }
  /// A nested object, read by \p Read into a fresh value of \p Out.
  template <typename T, typename F> void object(const char *Key, std::optional<T> &Out, F Read) {
    auto It = J.is_object() ? J.find(Key) : J.end();
    if (It == J.end() || It->is_null())
      return;
    Fields Sub(*It, Where + "." + Key);
    Out.emplace();
    Read(Sub, *Out);
    if (Error.empty())
      Error = Sub.Error;
  }

  llvm::Error take() {
    return Error.empty() ? llvm::Error::success()
                         : llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Error.c_str());
  }

  std::string Error;

private:
  void fail(const std::string &Field, const char *Expected, const nlohmann::json &Found) {
    if (Error.empty())
      Error = Field + ": expected " + Expected + ", found " + Found.type_name();
  }
  void read(const nlohmann::json &V, const std::string &Field, std::string &Out) {
    V.is_string() ? void(Out = V.get<std::string>()) : fail(Field, "a string", V);
  }
  void read(const nlohmann::json &V, const std::string &Field, double &Out) {
    V.is_number() ? void(Out = V.get<double>()) : fail(Field, "a number", V);
  }
  void read(const nlohmann::json &V, const std::string &Field, bool &Out) {
    V.is_boolean() ? void(Out = V.get<bool>()) : fail(Field, "true or false", V);
  }
  void read(const nlohmann::json &V, const std::string &Field, unsigned &Out) {
    V.is_number_unsigned() ? void(Out = V.get<unsigned>()) : fail(Field, "a non-negative integer", V);
  }
  template <typename T> void read(const nlohmann::json &V, const std::string &Field, std::optional<T> &Out) {
    T Value{};
    read(V, Field, Value);
    Out = Value;
  }
  void read(const nlohmann::json &V, const std::string &Field, std::map<std::string, double> &Out) {
    if (!V.is_object())
      return fail(Field, "an object", V);
    for (auto It = V.begin(); It != V.end(); ++It) {
      if (!findMetric(It.key())) {
        if (Error.empty())
          Error = Field + "." + It.key() + ": not a known counter";
        return;
      }
      read(It.value(), Field + "." + It.key(), Out[It.key()]);
    }
  }
  void read(const nlohmann::json &V, const std::string &Field, Verdict &Out) {
    if (!V.is_string())
      return fail(Field, "a verdict", V);
    for (const auto &[K, Name] : VerdictNames)
      if (V.get<std::string>() == Name) {
        Out = K;
        return;
      }
    if (Error.empty())
      Error = Field + ": unknown verdict '" + V.get<std::string>() + "'";
  }

  const nlohmann::json &J;
  std::string Where;
};

nlohmann::json sideJson(const SideResult &S) {
  nlohmann::json J = {{"metric", S.Metric}, {"checksum", S.Checksum}, {"counters", S.Counters}};
  if (S.Steps)
    J["steps"] = *S.Steps;
  if (S.StepMs)
    J["step_ms"] = *S.StepMs;
  return J;
}

void readSide(Fields &F, SideResult &S) {
  F.get("metric", S.Metric);
  F.get("checksum", S.Checksum);
  F.get("counters", S.Counters);
  F.get("steps", S.Steps, /*Required=*/false);
  F.get("step_ms", S.StepMs, /*Required=*/false);
}
} // namespace

llvm::StringRef verdictName(Verdict V) {
  for (const auto &[K, Name] : VerdictNames)
    if (K == V)
      return Name;
  return "";
}

std::string PairResult::noRatioReason() const {
  if (Runs == 0)
    return Note.empty() ? "not run" : "not run: " + Note;
  return "a time from " + std::to_string(Runs) + (Runs == 1 ? " run" : " runs") +
         " is not taken as evidence (3 are needed); run without --quick";
}

nlohmann::json toJson(const PairResult &R) {
  nlohmann::json J = {{"check", R.Check},
                      {"engine", R.Engine},
                      {"backend", R.Backend},
                      {"metric", R.Metric},
                      {"metric_description", R.MetricDescription},
                      {"workload", R.Workload},
                      {"bad_file", R.BadFile},
                      {"good_file", R.GoodFile},
                      {"bad_path", R.BadPath},
                      {"good_path", R.GoodPath},
                      {"date", R.Date},
                      {"runs", R.Runs},
                      {"verdict", verdictName(R.Outcome).str()},
                      {"ratio", {{"median", R.Ratio.Median}, {"min", R.Ratio.Min}, {"max", R.Ratio.Max}}}};
  for (const auto &[Key, Text] : {std::pair{"problem", &R.Problem}, {"note", &R.Note}, {"explain", &R.Explain}})
    if (!Text->empty())
      J[Key] = *Text;
  if (R.Bad)
    J["bad"] = sideJson(*R.Bad);
  if (R.Good)
    J["good"] = sideJson(*R.Good);
  if (R.Fix) {
    nlohmann::json F = {{"source", R.Fix->Source}, {"ok", R.Fix->Ok}, {"summary", R.Fix->Summary}};
    if (R.Fix->SameResult)
      F["same_result"] = *R.Fix->SameResult;
    if (R.Fix->Ratio)
      F["ratio"] = *R.Fix->Ratio;
    J["fix_check"] = std::move(F);
  }
  return J;
}

llvm::Expected<PairResult> pairFromJson(const nlohmann::json &J, const std::string &Where) {
  PairResult R;
  Fields F(J, Where);
  for (const auto &[Key, Out] : {std::pair{"check", &R.Check},
                                 {"engine", &R.Engine},
                                 {"backend", &R.Backend},
                                 {"metric", &R.Metric},
                                 {"metric_description", &R.MetricDescription}})
    F.get(Key, *Out);
  for (const auto &[Key, Out] : {std::pair{"workload", &R.Workload},
                                 {"bad_file", &R.BadFile},
                                 {"good_file", &R.GoodFile},
                                 {"bad_path", &R.BadPath},
                                 {"good_path", &R.GoodPath},
                                 {"date", &R.Date},
                                 {"problem", &R.Problem},
                                 {"note", &R.Note},
                                 {"explain", &R.Explain}})
    F.get(Key, *Out, /*Required=*/false);
  F.get("runs", R.Runs);
  F.get("verdict", R.Outcome);
  std::optional<Summary> Ratio;
  F.object("ratio", Ratio, [](Fields &Sub, Summary &S) {
    Sub.get("median", S.Median);
    Sub.get("min", S.Min);
    Sub.get("max", S.Max);
  });
  if (!Ratio && F.Error.empty())
    F.Error = Where + ".ratio: missing";
  R.Ratio = Ratio.value_or(Summary{1, 1, 1});
  F.object("bad", R.Bad, readSide);
  F.object("good", R.Good, readSide);
  F.object("fix_check", R.Fix, [](Fields &Sub, FixCheck &C) {
    Sub.get("source", C.Source, false);
    Sub.get("ok", C.Ok);
    Sub.get("summary", C.Summary, false);
    Sub.get("same_result", C.SameResult, false);
    Sub.get("ratio", C.Ratio, false);
  });
  if (F.Error.empty() && !findMetric(R.Metric))
    F.Error = Where + ".metric: unknown metric '" + R.Metric + "'";
  if (llvm::Error E = F.take())
    return std::move(E);
  return R;
}

nlohmann::json toJson(const ValidationRun &Run) {
  nlohmann::json Results = nlohmann::json::array();
  for (const PairResult &R : Run.Results)
    Results.push_back(toJson(R));
  return {{"schema", ResultsSchema},
          {"machine", Run.Machine},
          {"date", Run.Date},
          {"repeat", Run.Repeat},
          {"results", std::move(Results)}};
}

llvm::Expected<ValidationRun> runFromJson(const nlohmann::json &J) {
  ValidationRun Run;
  Fields F(J, "results file");
  double Schema = 0;
  F.get("schema", Schema, /*Required=*/false);
  if (F.Error.empty() && Schema != ResultsSchema)
    F.Error = (Schema ? "schema " + std::to_string(int(Schema)) : std::string("written by an older mlperf-lint")) +
              " (this one reads schema " + std::to_string(ResultsSchema) + ")";
  F.get("machine", Run.Machine, false);
  F.get("date", Run.Date, false);
  F.get("repeat", Run.Repeat, false);
  if (llvm::Error E = F.take())
    return std::move(E);
  auto It = J.find("results");
  if (It == J.end() || !It->is_array())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "results: expected an array");
  for (size_t I = 0; I < It->size(); ++I) {
    auto R = pairFromJson((*It)[I], "results[" + std::to_string(I) + "]");
    if (!R)
      return R.takeError();
    Run.Results.push_back(std::move(*R));
  }
  return Run;
}

void sortForReport(std::vector<PairResult> &Results) {
  auto Rank = [](const PairResult &R) {
    if (R.Outcome == Verdict::Confirmed)
      return 0;
    if (R.Outcome == Verdict::NotMeasurable)
      return R.ratioIsEvidence() ? 1 : 2;
    return 3;
  };
  std::stable_sort(Results.begin(), Results.end(), [&](const PairResult &A, const PairResult &B) {
    if (Rank(A) != Rank(B))
      return Rank(A) < Rank(B);
    return Rank(A) < 2 && A.Ratio.Median > B.Ratio.Median;
  });
}

} // namespace mlperf::validate
