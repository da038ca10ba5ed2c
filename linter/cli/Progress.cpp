#include "cli/Progress.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

LiveReport::LiveReport(LintRequest &R, llvm::raw_ostream &Out, llvm::raw_ostream &Err, bool OutIsTerminal,
                       bool ErrIsTerminal)
    : Out(Out), Err(Err), Color(R.UseColor.value_or(OutIsTerminal)),
      Streams(R.OutputFormat == Format::Text && R.OutputPath.empty() && !R.SortByCost), InOrder(!OutIsTerminal),
      Progress(ErrIsTerminal && !R.Quiet) {
  if (Progress)
    R.CompilerStats = false;
}

FileReport LiveReport::callback() {
  if (!Streams && !Progress)
    return {};
  return [this](size_t Index, size_t N, const std::string &File, std::vector<ClangTidyError> Errors) {
    fileDone(Index, N, File, std::move(Errors));
  };
}

void LiveReport::fileDone(size_t Index, size_t N, const std::string &File, std::vector<ClangTidyError> Errors) {
  Total = N;
  ++Done;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  llvm::StringRef Rel(File);
  if (Rel.consume_front(Cwd) && Rel.consume_front("/"))
    Last = Rel.str();
  else
    Last = File;
  LastFindings = countFindings(Errors);
  if (Streams) {
    Pending[Index] = std::move(Errors);
    clearProgress();
    for (auto It = Pending.begin(); It != Pending.end() && (!InOrder || It->first == Next);) {
      print(It->second);
      Next = It->first + 1;
      It = Pending.erase(It);
    }
  }
  drawProgress();
}

void LiveReport::print(const std::vector<ClangTidyError> &Errors) {
  std::vector<ClangTidyError> New;
  for (const ClangTidyError &E : Errors)
    if (Seen.emplace(E.Message.FilePath, E.Message.FileOffset, E.DiagnosticName, E.Message.Message).second)
      New.push_back(E);
  writeText(New, Out, Color);
}

void LiveReport::drawProgress() {
  if (!Progress)
    return;
  auto Elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  unsigned Left = static_cast<unsigned>(Elapsed / Done * (Total - Done) + 0.5);
  Err << "\r\x1b[K[" << Done << "/" << Total << "] " << Last << " \u2014 " << LastFindings << " finding"
      << (LastFindings == 1 ? "" : "s") << ", " << Left / 60 << ":" << llvm::format("%02u", Left % 60) << " left";
  Err.flush();
}

void LiveReport::clearProgress() {
  if (!Progress)
    return;
  Err << "\r\x1b[K";
  Err.flush();
}

void LiveReport::finish() {
  for (const auto &[Index, Errors] : Pending)
    print(Errors);
  Pending.clear();
  clearProgress();
}

void printSuppressed(const clang::tidy::ClangTidyStats &Stats, llvm::raw_ostream &OS) {
  if (!Stats.errorsIgnored())
    return;
  OS << "Suppressed " << Stats.errorsIgnored() << " warnings (";
  llvm::StringRef Separator = "";
  auto Part = [&](unsigned N, llvm::StringRef What) {
    if (!N)
      return;
    OS << Separator << N << " " << What;
    Separator = ", ";
  };
  Part(Stats.ErrorsIgnoredNonUserCode, "in non-user code");
  Part(Stats.ErrorsIgnoredLineFilter, "due to line filter");
  Part(Stats.ErrorsIgnoredNOLINT, "NOLINT");
  Part(Stats.ErrorsIgnoredCheckFilter, "with check filters");
  OS << ").\n";
  if (Stats.ErrorsIgnoredNonUserCode)
    OS << "Use -header-filter=.* to display errors from all non-system headers. Use -system-headers to display "
          "errors from system headers as well.\n";
}

} // namespace mlperf::lint
