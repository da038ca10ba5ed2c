#include "report/MergeReports.h"
#include "support/SafeIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>

namespace mlperf::lint {

using Json = nlohmann::ordered_json;

namespace {
llvm::Error problem(const std::string &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Message.c_str());
}

/// Renumbers every artifactLocation.index inside \p J through \p Map.
void renumberArtifacts(Json &J, const std::vector<size_t> &Map) {
  if (J.is_object()) {
    if (auto It = J.find("artifactLocation"); It != J.end() && It->is_object())
      if (auto Index = It->find("index"); Index != It->end() && Index->is_number_unsigned())
        *Index = Index->get<size_t>() < Map.size() ? Map[Index->get<size_t>()] : Index->get<size_t>();
    for (auto &[Key, Value] : J.items())
      if (Key != "artifactLocation")
        renumberArtifacts(Value, Map);
  } else if (J.is_array()) {
    for (Json &V : J)
      renumberArtifacts(V, Map);
  }
}

/// One tool's merged run.
struct MergedRun {
  Json Run;
  std::map<std::string, size_t> ArtifactIndex, RuleIndex;
  std::set<std::string> Seen;

  void add(const Json &From) {
    std::vector<size_t> Artifacts, Rules;
    for (const Json &A : From.value("artifacts", Json::array())) {
      std::string Uri = A.at("location").at("uri").get<std::string>();
      auto [It, New] = ArtifactIndex.try_emplace(Uri, Run["artifacts"].size());
      if (New) {
        Json Copy = A;
        Copy["location"]["index"] = It->second;
        Run["artifacts"].push_back(Copy);
      }
      Artifacts.push_back(It->second);
    }
    for (const Json &R : From.at("tool").at("driver").value("rules", Json::array())) {
      auto [It, New] = RuleIndex.try_emplace(R.at("id").get<std::string>(), Run["tool"]["driver"]["rules"].size());
      if (New)
        Run["tool"]["driver"]["rules"].push_back(R);
      Rules.push_back(It->second);
    }
    for (Json R : From.value("results", Json::array())) {
      if (auto It = R.find("ruleIndex"); It != R.end()) {
        size_t Old = It->get<size_t>();
        if (Old >= Rules.size())
          throw std::runtime_error("a result's ruleIndex " + std::to_string(Old) + " names no rule");
        *It = Rules[Old];
      }
      renumberArtifacts(R, Artifacts);
      if (Seen.insert(R.dump()).second)
        Run["results"].push_back(std::move(R));
    }
  }
};

/// The run's %SRCROOT% ("" when it has none): the directory its relative
/// URIs are resolved against.
std::string sourceRoot(const Json &Run) {
  auto Bases = Run.find("originalUriBaseIds");
  if (Bases == Run.end() || !Bases->is_object() || !Bases->contains("%SRCROOT%"))
    return "";
  return (*Bases)["%SRCROOT%"].value("uri", "");
}

llvm::Expected<std::string> mergeSarif(const std::vector<std::string> &Names, const std::vector<Json> &Docs) {
  std::vector<std::string> Order;
  std::map<std::string, MergedRun> Runs;
  std::map<std::string, size_t> RootFrom; // tool -> the log its %SRCROOT% was taken from
  for (size_t I = 0; I < Docs.size(); ++I)
    for (const Json &R : Docs[I].at("runs")) {
      std::string Tool = R.at("tool").at("driver").at("name").get<std::string>();
      auto [It, New] = Runs.try_emplace(Tool);
      auto [From, First] = RootFrom.try_emplace(Tool, I);
      // Relative URIs of logs with different roots name different files: a
      // merged log can keep only one root, so it refuses rather than guess.
      if (!First && sourceRoot(R) != sourceRoot(It->second.Run))
        return problem("merge-sarif: " + Names[I] + " has the source root '" + sourceRoot(R) + "' but " +
                       Names[From->second] + " has '" + sourceRoot(It->second.Run) +
                       "'; lint every shard with the same --sarif-root");
      if (New) {
        Order.push_back(Tool);
        It->second.Run = R;
        It->second.Run["artifacts"] = Json::array();
        It->second.Run["results"] = Json::array();
        It->second.Run["tool"]["driver"]["rules"] = Json::array();
      }
      It->second.add(R);
    }
  Json Out = {{"$schema", Docs.front().value("$schema", "https://json.schemastore.org/sarif-2.1.0.json")},
              {"version", Docs.front().at("version")},
              {"runs", Json::array()}};
  for (const std::string &Tool : Order)
    Out["runs"].push_back(std::move(Runs[Tool].Run));
  return Out.dump(2) + "\n";
}

std::string mergeJson(const std::vector<Json> &Docs) {
  Json Out = {{"tool", Docs.front().value("tool", "mlperf-lint")},
              {"version", Docs.front().value("version", "")},
              {"diagnostics", Json::array()}};
  std::set<std::string> Seen;
  for (const Json &D : Docs)
    for (const Json &Diag : D.at("diagnostics"))
      if (Seen.insert(Diag.dump()).second)
        Out["diagnostics"].push_back(Diag);
  return Out.dump(2) + "\n";
}
} // namespace

llvm::Expected<std::string> mergeReports(const std::vector<std::string> &Names,
                                         const std::vector<std::string> &Inputs) {
  if (Inputs.empty())
    return problem("merge-sarif: no reports to merge");
  std::vector<Json> Docs;
  bool Sarif = false;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    Json D = Json::parse(Inputs[I], nullptr, /*allow_exceptions=*/false);
    bool IsSarif = D.is_object() && D.contains("runs") && D["runs"].is_array();
    bool IsJson = D.is_object() && D.contains("diagnostics") && D["diagnostics"].is_array();
    if (!IsSarif && !IsJson)
      return problem(Names[I] + ": not a SARIF log or an mlperf-lint JSON report");
    if (I == 0)
      Sarif = IsSarif;
    else if (Sarif != IsSarif)
      return problem(Names[I] + ": is " + (IsSarif ? "SARIF" : "JSON") + " but " + Names[0] + " is " +
                     (Sarif ? "SARIF" : "JSON") + "; merge reports of one format");
    Docs.push_back(std::move(D));
  }
  try {
    if (Sarif)
      return mergeSarif(Names, Docs);
    return mergeJson(Docs);
  } catch (const std::exception &E) {
    return problem("merge-sarif: malformed report: " + std::string(E.what()));
  }
}

int runMergeReports(int Argc, const char **Argv) {
  auto Fail = [](const std::string &Message) {
    llvm::errs() << "mlperf-lint: error: " << Message << "\n";
    return 2;
  };
  std::string Output;
  std::vector<std::string> Names, Inputs;
  for (int I = 0; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "--help" || A == "-h") {
      llvm::outs() << "usage: mlperf-lint merge-sarif <report>... [-o <file>]\n"
                      "Merges SARIF logs (or mlperf-lint JSON reports) of the shards of a run into one.\n";
      return 0;
    }
    if (A == "-o") {
      if (I + 1 == Argc)
        return Fail("merge-sarif: -o needs a file name");
      Output = Argv[++I];
    } else if (A.consume_front("-o")) {
      A.consume_front("=");
      Output = A.str();
    } else if (A.starts_with("-") && A != "-") {
      return Fail("merge-sarif: unknown option '" + A.str() + "' (see --help)");
    } else {
      llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> Buf =
          A == "-" ? llvm::errorOrToExpected(llvm::MemoryBuffer::getSTDIN()) : readStructuredFile(A, "report");
      if (!Buf)
        return Fail(llvm::toString(Buf.takeError()));
      Names.push_back(A.str());
      Inputs.push_back((*Buf)->getBuffer().str());
    }
  }
  auto Merged = mergeReports(Names, Inputs);
  if (!Merged)
    return Fail(llvm::toString(Merged.takeError()));
  if (Output.empty()) {
    llvm::outs() << *Merged;
    return 0;
  }
  llvm::Error E = writeOutputFile(Output, "-o", "report", [&](llvm::raw_ostream &OS) { OS << *Merged; });
  return E ? Fail(llvm::toString(std::move(E))) : 0;
}

} // namespace mlperf::lint
