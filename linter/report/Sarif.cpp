#include "report/Sarif.h"

#include "BuildInfo.h"
#include "Embedded.h"
#include "MlperfModule.h"
#include "report/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <array>
#include <map>

namespace mlperf::lint {

using clang::tidy::ClangTidyError;
using nlohmann::json;

namespace {
/// The UTF-16 code units of \p Text as a JavaScript string holding it would
/// have them (invalid UTF-8 bytes become U+FFFD, as Node's decoder does).
std::vector<uint32_t> utf16Units(llvm::StringRef Text) {
  std::vector<uint32_t> Units;
  Units.reserve(Text.size());
  const auto *P = reinterpret_cast<const llvm::UTF8 *>(Text.begin());
  const auto *End = reinterpret_cast<const llvm::UTF8 *>(Text.end());
  while (P < End) {
    if (*P < 0x80) {
      Units.push_back(*P++);
      continue;
    }
    llvm::UTF32 CodePoint;
    const llvm::UTF8 *Start = P;
    if (llvm::convertUTF8Sequence(&P, End, &CodePoint, llvm::strictConversion) != llvm::conversionOK) {
      P = Start + 1;
      Units.push_back(0xFFFD);
    } else if (CodePoint >= 0x10000) {
      Units.push_back(0xD800 + ((CodePoint - 0x10000) >> 10));
      Units.push_back(0xDC00 + ((CodePoint - 0x10000) & 0x3FF));
    } else {
      Units.push_back(CodePoint);
    }
  }
  return Units;
}
} // namespace

std::vector<std::string> lineHashes(llvm::StringRef Text) {
  constexpr unsigned Block = 100;
  constexpr uint32_t Eof = 65535;
  const uint64_t Mod = 37;
  uint64_t FirstMod = 1;
  for (unsigned I = 0; I < Block; ++I)
    FirstMod *= Mod;

  std::array<uint32_t, Block> Window{};
  std::array<int, Block> LineOf;
  LineOf.fill(-1);
  uint64_t Hash = 0;
  unsigned Index = 0;
  int Line = 0;
  bool LineStart = true, PrevCR = false;
  std::map<std::string, unsigned> Seen;
  std::vector<std::string> Out;

  auto Output = [&] {
    std::string Hex = llvm::utohexstr(Hash, /*LowerCase=*/true);
    unsigned N = ++Seen[Hex];
    if (Out.size() < static_cast<size_t>(LineOf[Index]))
      Out.resize(LineOf[Index]);
    Out[LineOf[Index] - 1] = Hex + ":" + std::to_string(N);
    LineOf[Index] = -1;
  };
  auto Update = [&](uint32_t C) {
    uint32_t Begin = Window[Index];
    Window[Index] = C;
    Hash = Mod * Hash + C - FirstMod * Begin;
    Index = (Index + 1) % Block;
  };
  auto Process = [&](uint32_t C) {
    if (C == ' ' || C == '\t' || (PrevCR && C == '\n')) {
      PrevCR = false;
      return;
    }
    PrevCR = C == '\r';
    if (PrevCR)
      C = '\n';
    if (LineOf[Index] != -1)
      Output();
    if (LineStart) {
      LineStart = false;
      LineOf[Index] = ++Line;
    }
    LineStart = C == '\n';
    Update(C);
  };
  for (uint32_t C : utf16Units(Text))
    Process(C);
  Process(Eof);
  for (unsigned I = 0; I < Block; ++I) {
    if (LineOf[Index] != -1)
      Output();
    Update(0);
  }
  return Out;
}

unsigned utf16Column(llvm::StringRef Line, unsigned ByteColumn) {
  return utf16Units(Line.take_front(ByteColumn - 1)).size() + 1;
}

std::string gitTopLevel() {
  llvm::SmallString<256> Dir;
  llvm::sys::fs::current_path(Dir);
  for (llvm::SmallString<256> D = Dir; !D.empty(); D = llvm::sys::path::parent_path(D).str()) {
    llvm::SmallString<256> Git(D);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return std::string(D);
    if (llvm::sys::path::parent_path(D) == D)
      break;
  }
  return std::string(Dir);
}

namespace {
/// SARIF's rule name: "sync-in-loop" -> "SyncInLoop".
std::string pascalCase(llvm::StringRef Id) {
  std::string Out;
  bool Upper = true;
  for (char C : Id) {
    if (!llvm::isAlnum(C)) {
      Upper = true;
      continue;
    }
    Out += Upper ? llvm::toUpper(C) : C;
    Upper = false;
  }
  return Out;
}

struct SourceFile {
  std::string Text;
  std::vector<unsigned> LineStarts{0};
  std::vector<std::string> Hashes;
};

class SarifBuilder {
public:
  explicit SarifBuilder(const SarifOptions &O) : Root(O.SrcRoot.empty() ? gitTopLevel() : O.SrcRoot), Costs(O.Costs) {
    llvm::SmallString<256> Abs(Root);
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    Root = std::string(Abs);
    if (Root.size() > 1 && Root.back() == '/')
      Root.pop_back();
  }

  json document(llvm::ArrayRef<ClangTidyError> Errors, llvm::ArrayRef<std::string> Problems) {
    json Results = json::array(), Notifications = json::array();
    for (const ClangTidyError &E : Errors) {
      if (isCompilerError(E))
        Notifications.push_back(notification(E));
      else
        Results.push_back(result(E));
    }
    for (const std::string &P : Problems)
      Notifications.push_back({{"level", "error"}, {"message", {{"text", P}}}});
    json Invocation = {{"executionSuccessful", Notifications.empty()}, {"toolExecutionNotifications", Notifications}};
    json Driver = {
        {"name", "mlperf-lint"},         {"fullName", "mlperf-lint static performance linter for ML model code"},
        {"version", MLPERF_VERSION},     {"semanticVersion", MLPERF_VERSION},
        {"informationUri", readmeUri()}, {"rules", Rules}};
    json Run = {{"tool", {{"driver", Driver}}},
                {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", "file://" + percentEncoded(Root) + "/"}}}}},
                {"columnKind", "utf16CodeUnits"},
                {"invocations", json::array({Invocation})},
                {"results", Results}};
    return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
            {"version", "2.1.0"},
            {"runs", json::array({Run})}};
  }

private:
  SourceFile &source(const std::string &Path) {
    auto [It, New] = Files.try_emplace(Path);
    if (New) {
      if (auto Buf = llvm::MemoryBuffer::getFile(Path))
        It->second.Text = (*Buf)->getBuffer().str();
      const std::string &T = It->second.Text;
      for (size_t I = 0; I < T.size(); ++I)
        if (T[I] == '\n')
          It->second.LineStarts.push_back(I + 1);
    }
    return It->second;
  }

  std::pair<unsigned, unsigned> lineColumn(SourceFile &F, unsigned Offset) {
    auto Line = std::upper_bound(F.LineStarts.begin(), F.LineStarts.end(), Offset) - F.LineStarts.begin();
    unsigned Start = F.LineStarts[Line - 1];
    llvm::StringRef Text = llvm::StringRef(F.Text).substr(Start);
    return {static_cast<unsigned>(Line), utf16Column(Text, Offset - Start + 1)};
  }

  json artifactLocation(const std::string &Path) {
    llvm::StringRef P(Path);
    if (P.consume_front(Root) && P.consume_front("/"))
      return {{"uri", percentEncoded(P)}, {"uriBaseId", "%SRCROOT%"}};
    return {{"uri", "file://" + percentEncoded(Path)}};
  }

  /// A physical location, or null when the diagnostic has no file.
  json physical(const std::string &Path, unsigned Offset, unsigned Length) {
    if (Path.empty())
      return nullptr;
    SourceFile &F = source(Path);
    auto [Line, Column] = lineColumn(F, Offset);
    json Region = {{"startLine", Line}, {"startColumn", Column}};
    if (Length) {
      auto [EndLine, EndColumn] = lineColumn(F, Offset + Length);
      Region["endLine"] = EndLine;
      Region["endColumn"] = EndColumn;
    }
    return {{"artifactLocation", artifactLocation(Path)}, {"region", Region}};
  }

  static unsigned lengthAt(const clang::tooling::DiagnosticMessage &M) {
    for (const auto &R : M.Ranges)
      if (R.FilePath == M.FilePath && R.FileOffset == M.FileOffset)
        return R.Length;
    return 0;
  }

  std::string fingerprint(const std::string &Path, unsigned Line) {
    SourceFile &F = source(Path);
    if (F.Hashes.empty())
      F.Hashes = lineHashes(F.Text);
    return Line <= F.Hashes.size() ? F.Hashes[Line - 1] : "";
  }

  json result(const ClangTidyError &E) {
    std::string Message = E.Message.Message;
    json Related = json::array(), Flow = json::array();
    for (const auto &N : E.Notes) {
      if (N.FilePath == E.Message.FilePath && N.FileOffset == E.Message.FileOffset) {
        Message += "\n" + N.Message; // about the finding itself, e.g. the measured effect
        continue;
      }
      json Loc = {{"message", {{"text", N.Message}}}};
      if (json P = physical(N.FilePath, N.FileOffset, lengthAt(N)); !P.is_null())
        Loc["physicalLocation"] = P;
      Flow.push_back({{"location", Loc}});
      Loc["id"] = Related.size();
      Related.push_back(Loc);
    }
    json R = {{"ruleId", E.DiagnosticName},
              {"ruleIndex", ruleIndex(E.DiagnosticName)},
              {"level", severityOf(E) == "error" ? "error" : "warning"},
              {"message", {{"text", Message}}}};
    if (isLowConfidence(E))
      R["properties"] = {{"confidence", "low"}};
    if (const CostEstimate *C = Costs ? Costs->find(E) : nullptr) {
      R["properties"]["cost"] = costJson(*C);
      R["rank"] = C->rank();
    }
    if (json P = physical(E.Message.FilePath, E.Message.FileOffset, lengthAt(E.Message)); !P.is_null()) {
      R["locations"] = json::array({{{"physicalLocation", P}}});
      std::string Hash = fingerprint(E.Message.FilePath, P["region"]["startLine"]);
      if (!Hash.empty())
        R["partialFingerprints"] = {{"primaryLocationLineHash", Hash}};
      Flow.push_back({{"location", {{"physicalLocation", P}, {"message", {{"text", E.Message.Message}}}}}});
    }
    if (!Related.empty()) {
      R["relatedLocations"] = Related;
      R["codeFlows"] = json::array({{{"threadFlows", json::array({{{"locations", Flow}}})}}});
    }
    return R;
  }

  json notification(const ClangTidyError &E) {
    json N = {
        {"level", "error"}, {"message", {{"text", E.Message.Message}}}, {"descriptor", {{"id", E.DiagnosticName}}}};
    if (json P = physical(E.Message.FilePath, E.Message.FileOffset, lengthAt(E.Message)); !P.is_null())
      N["locations"] = json::array({{{"physicalLocation", P}}});
    return N;
  }

  size_t ruleIndex(const std::string &Id) {
    if (auto It = RuleIndex.find(Id); It != RuleIndex.end())
      return It->second;
    RuleIndex[Id] = Rules.size();
    Rules.push_back(rule(Id));
    return Rules.size() - 1;
  }

  static json rule(const std::string &Id) {
    for (const auto &C : clang::tidy::mlperf::allChecks()) {
      if (C.Name != Id)
        continue;
      std::string Page = checkPage(Id);
      // Checks on by default are the ones whose findings hold up on their
      // fixtures' near-misses; opt-in checks are heuristics.
      json Rule = {
          {"id", Id},
          {"name", pascalCase(llvm::StringRef(Id).drop_front(llvm::StringRef(Id).starts_with("mlperf-") ? 7 : 0))},
          {"shortDescription", {{"text", C.Summary.str()}}},
          {"fullDescription", {{"text", firstParagraph(Page, C.Summary.str())}}},
          {"help", {{"text", Page}, {"markdown", Page}}},
          {"defaultConfiguration", {{"level", "warning"}, {"enabled", C.EnabledByDefault}}},
          {"properties",
           {{"tags", {"performance"}},
            {"precision", C.EnabledByDefault ? "high" : "medium"},
            {"problem.severity", "warning"}}}};
      if (std::string Uri = checkPageUri(Id); !Uri.empty())
        Rule["helpUri"] = Uri;
      return Rule;
    }
    std::string Flag = llvm::StringRef(Id).starts_with("clang-diagnostic-") ? Id.substr(17) : Id;
    std::string Text = "Clang compiler warning -W" + Flag + ".";
    return {{"id", Id},
            {"name", pascalCase(Id)},
            {"shortDescription", {{"text", Text}}},
            {"fullDescription", {{"text", Text + " Reported while parsing the file for the mlperf checks."}}},
            {"help",
             {{"text", Text + " See clang's documentation of -W" + Flag + "."},
              {"markdown", Text + " See clang's documentation of `-W" + Flag + "`."}}},
            {"defaultConfiguration", {{"level", "warning"}}},
            {"properties", {{"tags", {"compiler"}}, {"precision", "very-high"}, {"problem.severity", "warning"}}}};
  }

  static std::string checkPage(llvm::StringRef Id) {
    std::string Name = (Id.drop_front(Id.starts_with("mlperf-") ? 7 : 0) + ".md").str();
    for (const auto &Doc : clang::tidy::mlperf::embeddedDocs())
      if (Name == Doc.Name)
        return Doc.Text;
    return "";
  }

  /// The page's first paragraph after its title, joined into one line.
  static std::string firstParagraph(llvm::StringRef Page, const std::string &Otherwise) {
    std::string Out;
    llvm::SmallVector<llvm::StringRef> Lines;
    Page.split(Lines, '\n');
    for (llvm::StringRef L : Lines) {
      L = L.trim();
      if (L.starts_with("#") && Out.empty())
        continue;
      if (L.empty() || L.starts_with("#")) {
        if (Out.empty())
          continue;
        break;
      }
      Out += (Out.empty() ? "" : " ") + L.str();
    }
    return Out.empty() ? Otherwise : Out;
  }

  std::string Root;
  const CostTable *Costs;
  std::map<std::string, SourceFile> Files;
  json Rules = json::array();
  std::map<std::string, size_t> RuleIndex;
};
} // namespace

json sarifDocument(llvm::ArrayRef<ClangTidyError> Errors, const SarifOptions &Options) {
  return SarifBuilder(Options).document(Errors, Options.Problems);
}

void writeSarif(llvm::ArrayRef<ClangTidyError> Errors, llvm::raw_ostream &OS, const SarifOptions &Options) {
  OS << sarifDocument(Errors, Options).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

} // namespace mlperf::lint
