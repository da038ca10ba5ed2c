#include "BuildInfo.h"
#include "report/Diagnostics.h"
#include "report/Report.h"

#include "llvm/Support/FileSystem.h"

#include <nlohmann/json.hpp>

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

void writeJson(llvm::ArrayRef<ClangTidyError> Errors, llvm::raw_ostream &OS, bool RelativePaths,
               const CostTable *Costs) {
  LineTable Lines;
  nlohmann::json Diags = nlohmann::json::array();
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  auto Shown = [&](llvm::StringRef File) {
    llvm::StringRef Rel = File;
    if (RelativePaths && Rel.consume_front(Cwd) && Rel.consume_front("/"))
      return Rel.str();
    return File.str();
  };
  auto Place = [&](nlohmann::json &J, const std::string &File, unsigned Offset) {
    J["file"] = File.empty() ? File : Shown(File);
    if (File.empty())
      return;
    auto [Line, Col] = Lines.lineColumn(File, Offset);
    J["line"] = Line;
    J["column"] = Col;
  };
  for (const ClangTidyError &E : Errors) {
    nlohmann::json D;
    Place(D, E.Message.FilePath, E.Message.FileOffset);
    D["check"] = E.DiagnosticName;
    D["severity"] = severityOf(E).str();
    D["message"] = E.Message.Message;
    if (isLowConfidence(E))
      D["confidence"] = "low";
    if (const CostEstimate *C = Costs ? Costs->find(E) : nullptr)
      D["cost"] = costJson(*C);
    D["notes"] = nlohmann::json::array();
    for (const auto &N : E.Notes) {
      nlohmann::json JN;
      Place(JN, N.FilePath, N.FileOffset);
      JN["message"] = N.Message;
      D["notes"].push_back(JN);
    }
    D["fixes"] = nlohmann::json::array();
    for (const auto &[File, Repls] : E.Message.Fix)
      for (const auto &R : Repls) {
        nlohmann::json F;
        Place(F, R.getFilePath().str(), R.getOffset());
        F["offset"] = R.getOffset();
        F["length"] = R.getLength();
        F["replacement"] = R.getReplacementText().str();
        D["fixes"].push_back(F);
      }
    Diags.push_back(std::move(D));
  }
  nlohmann::json Doc = {{"tool", "mlperf-lint"}, {"version", MLPERF_VERSION}, {"diagnostics", Diags}};
  // Messages may quote source bytes that are not UTF-8: replaced, not thrown.
  OS << Doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

} // namespace mlperf::lint
