// The JSON form of the whole-project summaries, as the linter stores them:
// {"version": N, "files": {FILE: {"mtime", "size", "functions": {USR: ...},
// "hot_calls": {USR: [...]}, "churn_calls": {USR: [...]}, "loop_calls": {USR: [...]}, "passed": {USR: [...]},
// "param_calls": {"USR#index": [...]}, "uses", "grad_off_calls", "uses_device",
// "device_args": {USR: [[PARAM, KIND], ...]}, "host_args": {USR: [[PARAM, BOOL], ...]}, "null_args" (the same),
// "undefined": [USR, ...], "written_fields": [USR, ...], "pageable_args": {USR: [[PARAM, ORIGIN], ...]},
// "pointer_fields": {USR: ORIGIN}}}}.
#include "ProjectSummaries.h"

#include <nlohmann/json.hpp>

namespace clang::tidy::mlperf {

using nlohmann::json;

namespace {
// 2: "uses"; 3: "grad_off_calls"; 4: "uses_device"; 5: "invariant_args"; 6: "released_params", "returned_acquire";
// 7: "churn_calls"; 8: "result_use", "overrides"; 9: "device_args"; 10: "loop_calls", "passed", "param_calls";
// 11: "result_reloaded"; 12: "written_fields"; 14: "host_args", "undefined"; 15: "copied_back_args", "copied_back_at"
// 16: "pageable_args", "pointer_fields", "null_args"; 17: "read_only_params", "forward_for_training", "reads_to_host"
// 18: a `main` that does nothing is left out (no longer a program of its own)
// 19: "null_args" also for flags (false) and constant objects made empty (`cv::cuda::GpuMat()`)
// 20: "waits_after"
constexpr int SummaryVersion = 20;

json functionJson(const FunctionFacts &Fn) {
  return {{"name", Fn.Name},
          {"file", Fn.File},
          {"line", Fn.Line},
          {"steps_directly", Fn.StepsDirectly},
          {"reaches_step", Fn.ReachesStep},
          {"trains", Fn.Trains},
          {"callees", Fn.Callees},
          {"direct_callees", Fn.DirectCallees},
          {"released_params", Fn.ReleasedParams},
          {"read_only_params", Fn.ReadOnlyParams},
          {"forward_for_training", Fn.ForwardForTraining},
          {"reads_to_host", Fn.ReadsToHost},
          {"returned_acquire", Fn.ReturnedAcquire},
          {"returns_host", Fn.ReturnsHost},
          {"overrides", Fn.Overrides}};
}

json hotCallJson(const HotCallSite &H) {
  return {{"file", H.File},
          {"line", H.Line},
          {"column", H.Column},
          {"loop_file", H.LoopFile},
          {"loop_line", H.LoopLine},
          {"loop_column", H.LoopColumn},
          {"caller", H.Caller},
          {"training", H.Training},
          {"invariant_args", H.InvariantArgs},
          {"result_use", H.ResultUse},
          {"result_reloaded", H.ResultReloaded},
          {"copied_back_args", H.CopiedBackArgs},
          {"copied_back_at", H.CopiedBackAt},
          {"waits_after", H.WaitsAfter}};
}

json churnCallJson(const ChurnCall &C) {
  return {{"site", hotCallJson(C.Site)},
          {"request", C.Request},
          {"release", C.Release},
          {"release_line", C.ReleaseLine},
          {"release_column", C.ReleaseColumn}};
}

json fileJson(const FileSummary &S) {
  json F = {{"mtime", S.MTime},
            {"size", S.Size},
            {"functions", json::object()},
            {"hot_calls", json::object()},
            {"churn_calls", json::object()},
            {"loop_calls", json::object()},
            {"passed", json::object()},
            {"param_calls", json::object()},
            {"uses", S.Uses},
            {"grad_off_calls", S.GradOffCalls},
            {"uses_device", S.UsesDevice},
            {"device_args", S.DeviceArgs},
            {"host_args", S.HostArgs},
            {"null_args", S.NullArgs},
            {"undefined", S.Undefined},
            {"written_fields", S.WrittenFields},
            {"pageable_args", S.PageableArgs},
            {"pointer_fields", S.PointerFields}};
  for (const auto &[Usr, Fn] : S.Functions)
    F["functions"][Usr] = functionJson(Fn);
  for (const auto &[Usr, Sites] : S.HotCalls)
    for (const HotCallSite &H : Sites)
      F["hot_calls"][Usr].push_back(hotCallJson(H));
  for (const auto &[Usr, Calls] : S.ChurnCalls)
    for (const ChurnCall &C : Calls)
      F["churn_calls"][Usr].push_back(churnCallJson(C));
  for (const auto &[Usr, Sites] : S.LoopCalls)
    for (const HotCallSite &H : Sites)
      F["loop_calls"][Usr].push_back(hotCallJson(H));
  for (const auto &[Usr, Callables] : S.Passed)
    for (const PassedCallable &P : Callables)
      F["passed"][Usr].push_back({{"index", P.Index},
                                  {"steps_directly", P.StepsDirectly},
                                  {"reaches_step", P.ReachesStep},
                                  {"trains", P.Trains}});
  for (const auto &[Key, Sites] : S.ParamCalls)
    for (const HotCallSite &H : Sites)
      F["param_calls"][Key].push_back(hotCallJson(H));
  return F;
}

// The readers take the fields in a fixed order: the first one missing or of
// the wrong type is the one the error names.
FunctionFacts parseFunction(const json &F) {
  FunctionFacts Fn;
  Fn.Name = F.at("name").get<std::string>();
  Fn.File = F.at("file").get<std::string>();
  Fn.Line = F.at("line").get<unsigned>();
  Fn.StepsDirectly = F.at("steps_directly").get<bool>();
  Fn.ReachesStep = F.at("reaches_step").get<bool>();
  Fn.Trains = F.at("trains").get<bool>();
  Fn.Callees = F.at("callees").get<std::vector<std::string>>();
  Fn.DirectCallees = F.at("direct_callees").get<std::vector<std::string>>();
  Fn.ReleasedParams = F.at("released_params").get<std::vector<unsigned>>();
  Fn.ReadOnlyParams = F.at("read_only_params").get<std::vector<unsigned>>();
  Fn.ForwardForTraining = F.at("forward_for_training").get<bool>();
  Fn.ReadsToHost = F.at("reads_to_host").get<bool>();
  Fn.ReturnedAcquire = F.at("returned_acquire").get<std::string>();
  Fn.ReturnsHost = F.at("returns_host").get<bool>();
  Fn.Overrides = F.at("overrides").get<std::vector<std::string>>();
  return Fn;
}

HotCallSite parseHotCall(const json &J) {
  return HotCallSite{J.at("file").get<std::string>(),
                     J.at("line").get<unsigned>(),
                     J.at("column").get<unsigned>(),
                     J.at("loop_file").get<std::string>(),
                     J.at("loop_line").get<unsigned>(),
                     J.at("loop_column").get<unsigned>(),
                     J.at("caller").get<std::string>(),
                     J.at("training").get<bool>(),
                     J.at("invariant_args").get<std::vector<unsigned>>(),
                     J.at("result_use").get<std::string>(),
                     J.at("result_reloaded").get<bool>(),
                     J.at("copied_back_args").get<std::vector<unsigned>>(),
                     J.at("copied_back_at").get<std::string>(),
                     J.at("waits_after").get<bool>()};
}

ChurnCall parseChurnCall(const json &J) {
  return ChurnCall{parseHotCall(J.at("site")), J.at("request").get<bool>(), J.at("release").get<std::string>(),
                   J.at("release_line").get<unsigned>(), J.at("release_column").get<unsigned>()};
}

FileSummary parseFile(const std::string &File, const json &J) {
  FileSummary S;
  S.File = File;
  S.MTime = J.at("mtime").get<int64_t>();
  S.Size = J.at("size").get<uint64_t>();
  S.Uses = J.at("uses").get<std::set<std::string>>();
  S.GradOffCalls = J.at("grad_off_calls").get<std::map<std::string, bool>>();
  S.UsesDevice = J.at("uses_device").get<bool>();
  S.DeviceArgs = J.at("device_args").get<std::map<std::string, std::map<unsigned, std::string>>>();
  S.HostArgs = J.at("host_args").get<std::map<std::string, std::map<unsigned, bool>>>();
  S.NullArgs = J.at("null_args").get<std::map<std::string, std::map<unsigned, bool>>>();
  S.Undefined = J.at("undefined").get<std::set<std::string>>();
  S.WrittenFields = J.at("written_fields").get<std::set<std::string>>();
  S.PageableArgs = J.at("pageable_args").get<std::map<std::string, std::map<unsigned, std::string>>>();
  S.PointerFields = J.at("pointer_fields").get<std::map<std::string, std::string>>();
  for (auto F = J.at("functions").begin(); F != J.at("functions").end(); ++F)
    S.Functions[F.key()] = parseFunction(*F);
  for (auto H = J.at("hot_calls").begin(); H != J.at("hot_calls").end(); ++H)
    for (const json &Site : *H)
      S.HotCalls[H.key()].push_back(parseHotCall(Site));
  for (auto C = J.at("churn_calls").begin(); C != J.at("churn_calls").end(); ++C)
    for (const json &Call : *C)
      S.ChurnCalls[C.key()].push_back(parseChurnCall(Call));
  for (auto L = J.at("loop_calls").begin(); L != J.at("loop_calls").end(); ++L)
    for (const json &Site : *L)
      S.LoopCalls[L.key()].push_back(parseHotCall(Site));
  for (auto P = J.at("passed").begin(); P != J.at("passed").end(); ++P)
    for (const json &C : *P)
      S.Passed[P.key()].push_back(PassedCallable{C.at("index").get<unsigned>(), C.at("steps_directly").get<bool>(),
                                                 C.at("reaches_step").get<bool>(), C.at("trains").get<bool>()});
  for (auto P = J.at("param_calls").begin(); P != J.at("param_calls").end(); ++P)
    for (const json &Site : *P)
      S.ParamCalls[P.key()].push_back(parseHotCall(Site));
  return S;
}
} // namespace

std::string ProjectSummaries::toJson() const {
  json Out = {{"version", SummaryVersion}, {"files", json::object()}};
  for (const auto &[File, S] : Files)
    Out["files"][File] = fileJson(S);
  return Out.dump(1);
}

llvm::Expected<ProjectSummaries> ProjectSummaries::fromJson(llvm::StringRef Text, llvm::StringRef Source) {
  ProjectSummaries P;
  try {
    json In = json::parse(Text.begin(), Text.end());
    // An older tool's summaries are rebuilt, as a cache's would be.
    if (In.is_object() && In.value("version", 0) < SummaryVersion)
      return P;
    if (In.value("version", 0) != SummaryVersion)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: unknown summary version",
                                     Source.str().c_str());
    for (auto It = In.at("files").begin(); It != In.at("files").end(); ++It)
      P.add(parseFile(It.key(), *It));
  } catch (const std::exception &E) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: invalid summaries: %s", Source.str().c_str(),
                                   E.what());
  }
  P.resolve();
  return P;
}

} // namespace clang::tidy::mlperf
