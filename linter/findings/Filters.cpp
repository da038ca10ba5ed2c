#include "findings/Filters.h"
#include "support/SafeIO.h"

#include "findings/Findings.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <nlohmann/json.hpp>

namespace mlperf::lint {

using clang::tidy::ClangTidyError;

namespace {
llvm::Error failure(const std::string &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Message.c_str());
}

/// stdout of `git -C <Dir> <Args>`, or an error with its stderr.
llvm::Expected<std::string> git(const std::string &Dir, llvm::ArrayRef<std::string> Args) {
  auto Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return failure("--diff: git is not installed");
  llvm::SmallString<128> OutPath, ErrPath;
  llvm::sys::fs::createTemporaryFile("mlperf-git", "out", OutPath);
  llvm::sys::fs::createTemporaryFile("mlperf-git", "err", ErrPath);
  std::vector<llvm::StringRef> Argv = {*Git, "-C", Dir};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), OutPath.str(), ErrPath.str()};
  int Status = llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects);
  auto Read = [](llvm::StringRef P) {
    auto Buf = llvm::MemoryBuffer::getFile(P);
    return Buf ? (*Buf)->getBuffer().str() : std::string();
  };
  std::string Out = Read(OutPath), Err = Read(ErrPath);
  llvm::sys::fs::remove(OutPath);
  llvm::sys::fs::remove(ErrPath);
  if (Status != 0)
    return failure("--diff: git " + Args.front() + " failed: " + llvm::StringRef(Err).trim().str());
  return Out;
}

/// The changed lines of each file in `git diff -U0` output, as line filters
/// with absolute paths under \p Top.
std::vector<clang::tidy::FileFilter> changedLines(llvm::StringRef Diff, llvm::StringRef Top) {
  std::vector<clang::tidy::FileFilter> Files;
  llvm::SmallVector<llvm::StringRef> Lines;
  Diff.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    if (L.consume_front("+++ ")) {
      L = L.split('\t').first; // diff(1) puts a timestamp after a tab
      if (L == "/dev/null")
        Files.push_back({"", {}}); // a deleted file
      else if (L.consume_front("b/") || !llvm::sys::path::is_absolute(L))
        Files.push_back({(Top + "/" + L).str(), {}});
      else
        Files.push_back({L.str(), {}});
      continue;
    }
    if (!L.consume_front("@@ ") || Files.empty() || Files.back().Name.empty())
      continue;
    llvm::StringRef New = L.split(" +").second.split(' ').first;
    auto [Start, Count] = New.split(',');
    unsigned First = 0, N = 1;
    if (Start.getAsInteger(10, First) || (!Count.empty() && Count.getAsInteger(10, N)) || N == 0)
      continue;
    Files.back().LineRanges.push_back({First, First + N - 1});
  }
  // A file with only deletions keeps no line: nothing in it is new.
  llvm::erase_if(Files, [](const clang::tidy::FileFilter &F) { return F.Name.empty(); });
  return Files;
}

std::string lineText(const std::string &File, unsigned Offset) {
  auto Buf = llvm::MemoryBuffer::getFile(File);
  if (!Buf)
    return "";
  llvm::StringRef Text = (*Buf)->getBuffer();
  if (Offset > Text.size())
    return "";
  size_t Begin = Text.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  Begin = (Begin == llvm::StringRef::npos || Offset == 0) ? 0 : Begin + 1;
  return Text.slice(Begin, Text.find('\n', Offset)).trim().str();
}

/// Whitespace-insensitive, so reformatting does not resurface a finding.
std::string normalised(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text)
    if (!llvm::isSpace(C))
      Out += C;
  return Out;
}

std::string relativeTo(llvm::StringRef Dir, llvm::StringRef Path) {
  llvm::StringRef P = Path;
  if (!Dir.empty() && P.consume_front(Dir) && P.consume_front("/"))
    return P.str();
  return Path.str();
}

std::string directoryOf(const std::string &File) {
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return llvm::sys::path::parent_path(Abs).str();
}

bool isCxxSource(llvm::StringRef Path) {
  return llvm::is_contained({".cc", ".cpp", ".cxx", ".c++", ".cu", ".c", ".h", ".hh", ".hpp", ".hxx", ".cuh"},
                            llvm::sys::path::extension(Path));
}

} // namespace

llvm::Error FindingFilter::readLineFilter(const std::string &Json) {
  if (llvm::Error E = checkNesting(Json, "--line-filter"))
    return E;
  // clang's parser reads it as YAML, where an alias (`*x`) or an unknown node
  // where a list belongs makes llvm::yaml::Input dereference a null node
  // (found by fuzz/LineFilterFuzzer.cpp): only JSON gets that far.
  if (!nlohmann::json::accept(Json))
    return failure("--line-filter: invalid JSON: expected a list like [{\"name\":\"file.cc\",\"lines\":[[1,3]]}]");
  clang::tidy::ClangTidyGlobalOptions Global;
  if (std::error_code EC = clang::tidy::parseLineFilter(Json, Global))
    return failure("--line-filter: invalid JSON: " + EC.message());
  Lines = Global.LineFilter;
  HaveLines = true;
  return llvm::Error::success();
}

namespace {
/// A unified diff on standard input: with `--diff=-` always, with a bare
/// `--diff` when stdin is a pipe or a file that is not empty (as
/// clang-tidy-diff reads `git diff -U0 | ...`). None: ask git.
llvm::Expected<std::optional<std::string>> diffOnStdin(const std::string &Ref) {
  llvm::sys::fs::file_status Status;
  bool Piped = !llvm::sys::fs::status(0, Status) && (Status.type() == llvm::sys::fs::file_type::fifo_file ||
                                                     Status.type() == llvm::sys::fs::file_type::regular_file);
  if (Ref != "-" && !(Ref.empty() && Piped))
    return std::nullopt;
  auto In = llvm::MemoryBuffer::getSTDIN();
  if (!In)
    return failure("--diff: cannot read the diff on standard input: " + In.getError().message());
  constexpr size_t Limit = 64u << 20;
  if ((*In)->getBufferSize() > Limit)
    return failure("--diff: the diff on standard input is larger than 64 MB");
  std::string Text = (*In)->getBuffer().str();
  if (Ref.empty() && llvm::StringRef(Text).trim().empty())
    return std::nullopt; // nothing piped in: the changes since HEAD
  if (!Text.empty() && !llvm::StringRef(Text).contains("\n+++ ") && !llvm::StringRef(Text).starts_with("+++ "))
    return failure("--diff: standard input is not a unified diff (no '+++ ' line); pipe `git diff -U0` into it");
  return Text;
}
} // namespace

llvm::Error FindingFilter::useDiff(llvm::StringRef Diff, llvm::StringRef Top) {
  std::vector<clang::tidy::FileFilter> Files = changedLines(Diff, Top);
  for (const auto &C : Files)
    if (isCxxSource(C.Name) && llvm::sys::fs::exists(C.Name))
      Changed.push_back(C.Name);
  if (HaveLines) {
    // Both: a line must be in the given ranges and changed.
    llvm::erase_if(Files, [&](const clang::tidy::FileFilter &C) {
      return !llvm::any_of(C.LineRanges, [&](const auto &Range) {
        for (unsigned L = Range.first; L <= Range.second; ++L)
          if (passesLines(C.Name, L))
            return true;
        return false;
      });
    });
  }
  Lines = std::move(Files);
  HaveLines = true;
  return llvm::Error::success();
}

llvm::Error FindingFilter::readDiff(const std::string &RefGiven) {
  auto Piped = diffOnStdin(RefGiven);
  if (!Piped)
    return Piped.takeError();
  if (*Piped) {
    // Paths in the diff are relative to the current directory, as for
    // clang-tidy-diff -p1.
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    return useDiff(**Piped, Cwd);
  }
  auto Top = git(".", {"rev-parse", "--show-toplevel"});
  if (!Top)
    return Top.takeError();
  std::string Ref = RefGiven.empty() ? "HEAD" : RefGiven;
  // The ref reaches git only as an operand after --end-of-options, and the
  // diff gets the commit's hash: no user text is read as an option.
  auto Commit = git(llvm::StringRef(*Top).trim().str(),
                    {"rev-parse", "--verify", "--quiet", "--end-of-options", Ref + "^{commit}"});
  std::string Hash = Commit ? llvm::StringRef(*Commit).trim().str() : "";
  if (!Commit)
    llvm::consumeError(Commit.takeError());
  if (Hash.empty() || !llvm::all_of(Hash, llvm::isHexDigit))
    return failure("--diff: '" + Ref + "' is not a commit of this repository");
  auto Diff = git(llvm::StringRef(*Top).trim().str(),
                  {"diff", "-U0", "--no-color", "--no-ext-diff", "--merge-base", Hash, "--"});
  if (!Diff)
    return Diff.takeError();
  return useDiff(*Diff, llvm::StringRef(*Top).trim());
}

llvm::Error FindingFilter::readBaseline(const std::string &Path) {
  auto Buf = readStructuredFile(Path, "the baseline");
  if (!Buf)
    return Buf.takeError();
  nlohmann::json Doc = nlohmann::json::parse((*Buf)->getBuffer(), nullptr, /*allow_exceptions=*/false);
  if (Doc.is_discarded() || !Doc.is_object() || !Doc.contains("findings") || !Doc["findings"].is_array())
    return failure(Path + ": not a mlperf-lint baseline (a JSON object with \"findings\")");
  BaselinePath = Path;
  BaselineDir = directoryOf(Path);
  for (const nlohmann::json &E : Doc["findings"]) {
    if (!E.is_object() || !E.contains("check") || !E.contains("file") || !E.contains("text") ||
        !E["check"].is_string() || !E["file"].is_string() || !E["text"].is_string())
      return failure(Path + ": an entry needs \"check\", \"file\" and \"text\" strings: " + E.dump());
    llvm::SmallString<256> File(E["file"].get<std::string>());
    if (!llvm::sys::path::is_absolute(File))
      File = BaselineDir + "/" + File.str().str();
    Key K{E["check"], File.str().str(), normalised(E["text"].get<std::string>())};
    // A count is how many findings the entry accepts: a positive whole number.
    if (E.contains("count") && (!E["count"].is_number_unsigned() || E["count"].get<uint64_t>() == 0 ||
                                E["count"].get<uint64_t>() > UINT32_MAX))
      return failure(Path + ": an entry's \"count\" must be a positive whole number: " + E.dump());
    Accepted[K] += E.value("count", 1u);
    Shown[K] =
        E["file"].get<std::string>() + ": [" + E["check"].get<std::string>() + "] " + E["text"].get<std::string>();
  }
  return llvm::Error::success();
}

llvm::Expected<FindingFilter> FindingFilter::create(const FilterRequest &R) {
  FindingFilter F;
  if (!R.LineFilter.empty())
    if (llvm::Error E = F.readLineFilter(R.LineFilter))
      return std::move(E);
  if (R.Diff)
    if (llvm::Error E = F.readDiff(*R.Diff))
      return std::move(E);
  if (!R.Baseline.empty())
    if (llvm::Error E = F.readBaseline(R.Baseline))
      return std::move(E);
  return F;
}

bool FindingFilter::passesLines(const std::string &File, unsigned Line) const {
  if (!HaveLines)
    return true;
  for (const clang::tidy::FileFilter &Filter : Lines) {
    if (!llvm::StringRef(File).ends_with(Filter.Name))
      continue;
    if (Filter.LineRanges.empty())
      return true;
    return llvm::any_of(Filter.LineRanges, [&](const auto &R) { return R.first <= Line && Line <= R.second; });
  }
  return false;
}

std::vector<ClangTidyError> FindingFilter::applyLines(std::vector<ClangTidyError> Errors,
                                                      clang::tidy::ClangTidyStats &Stats) const {
  if (!HaveLines)
    return Errors;
  std::vector<ClangTidyError> Out;
  std::map<std::string, std::vector<unsigned>> LineStarts;
  for (ClangTidyError &E : Errors) {
    if (isCompilerError(E) || E.Message.FilePath.empty()) {
      Out.push_back(std::move(E));
      continue;
    }
    auto [It, New] = LineStarts.try_emplace(E.Message.FilePath, std::vector<unsigned>{0});
    if (New)
      if (auto Buf = llvm::MemoryBuffer::getFile(E.Message.FilePath))
        for (size_t I = 0; I < (*Buf)->getBufferSize(); ++I)
          if ((*Buf)->getBuffer()[I] == '\n')
            It->second.push_back(I + 1);
    unsigned Line = std::upper_bound(It->second.begin(), It->second.end(), E.Message.FileOffset) - It->second.begin();
    if (passesLines(E.Message.FilePath, Line))
      Out.push_back(std::move(E));
    else
      ++Stats.ErrorsIgnoredLineFilter;
  }
  return Out;
}

std::vector<ClangTidyError> FindingFilter::applyBaseline(std::vector<ClangTidyError> Errors,
                                                         std::vector<ClangTidyError> &AcceptedErrors) {
  if (Accepted.empty())
    return Errors;
  std::vector<ClangTidyError> Out;
  for (ClangTidyError &E : Errors) {
    if (!isCompilerError(E) && !E.Message.FilePath.empty()) {
      auto It = Accepted.find(
          {E.DiagnosticName, E.Message.FilePath, normalised(lineText(E.Message.FilePath, E.Message.FileOffset))});
      if (It != Accepted.end() && It->second) {
        --It->second;
        AcceptedErrors.push_back(std::move(E));
        continue;
      }
    }
    Out.push_back(std::move(E));
  }
  return Out;
}

std::vector<std::string> FindingFilter::staleEntries(llvm::ArrayRef<std::string> Linted) const {
  std::vector<std::string> Out;
  for (const auto &[K, Left] : Accepted)
    if (Left && llvm::is_contained(Linted, std::get<1>(K)))
      Out.push_back(Shown.at(K) + (Left > 1 ? " (" + std::to_string(Left) + " of them)" : ""));
  return Out;
}

namespace {
/// The entries of the baseline already at \p Path whose file this run did
/// not lint and that still exists: a run over part of a tree (--diff, a
/// subdirectory) rewrites its files' entries and keeps the others.
nlohmann::json keptEntries(const std::string &Path, const std::string &Dir, llvm::ArrayRef<std::string> Linted) {
  nlohmann::json Kept = nlohmann::json::array();
  if (!llvm::sys::fs::is_regular_file(Path))
    return Kept;
  // Read to be rewritten, not as an input: the output rule allows it.
  auto Buf = readStructuredFile(Path, "the baseline", /*Record=*/false);
  if (!Buf) {
    llvm::consumeError(Buf.takeError());
    return Kept;
  }
  nlohmann::json Old = nlohmann::json::parse((*Buf)->getBuffer(), nullptr, /*allow_exceptions=*/false);
  if (Old.is_discarded() || !Old.is_object() || !Old.contains("findings") || !Old["findings"].is_array())
    return Kept;
  for (const nlohmann::json &E : Old["findings"]) {
    if (!E.is_object() || !E.contains("file") || !E["file"].is_string())
      continue;
    std::string File = E["file"];
    if (!llvm::sys::path::is_absolute(File))
      File = Dir + "/" + File;
    if (!llvm::is_contained(Linted, File) && llvm::sys::fs::exists(File))
      Kept.push_back(E);
  }
  return Kept;
}
} // namespace

llvm::Error writeBaseline(const std::string &Path, llvm::ArrayRef<ClangTidyError> Errors,
                          llvm::ArrayRef<std::string> Linted) {
  std::string Dir = directoryOf(Path);
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<std::string, unsigned>> Entries;
  for (const ClangTidyError &E : Errors) {
    if (isCompilerError(E) || E.Message.FilePath.empty())
      continue;
    std::string Text = lineText(E.Message.FilePath, E.Message.FileOffset);
    auto &Entry = Entries[{relativeTo(Dir, E.Message.FilePath), E.DiagnosticName, normalised(Text)}];
    Entry.first = Text;
    ++Entry.second;
  }
  nlohmann::json Findings = keptEntries(Path, Dir, Linted);
  for (const auto &[K, V] : Entries)
    Findings.push_back({{"file", std::get<0>(K)}, {"check", std::get<1>(K)}, {"text", V.first}, {"count", V.second}});
  std::stable_sort(Findings.begin(), Findings.end(), [](const nlohmann::json &A, const nlohmann::json &B) {
    return A.value("file", "") < B.value("file", "");
  });
  nlohmann::json Doc = {{"tool", "mlperf-lint"}, {"version", 1}, {"findings", Findings}};
  return writeOutputFile(Path, "--write-baseline", "the baseline", [&](llvm::raw_ostream &OS) {
    OS << Doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  });
}

} // namespace mlperf::lint
