#include "InputFiles.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace clang::tidy::mlperf {
namespace {
llvm::Error fail(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message.str());
}

struct Inputs {
  std::mutex Lock;
  std::set<std::pair<uint64_t, uint64_t>> Ids; // device and inode of each file read
};

Inputs &inputs() {
  static Inputs I;
  return I;
}

std::optional<std::pair<uint64_t, uint64_t>> idOf(llvm::StringRef Path) {
  struct stat St;
  if (::stat(std::string(Path).c_str(), &St) != 0)
    return std::nullopt;
  return std::pair<uint64_t, uint64_t>(St.st_dev, St.st_ino);
}

void noteId(const struct stat &St) {
  std::lock_guard<std::mutex> G(inputs().Lock);
  inputs().Ids.insert({St.st_dev, St.st_ino});
}

std::string humanSize(uint64_t Bytes) { return std::to_string(Bytes >> 20) + " MB"; }
} // namespace

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readInputFile(llvm::StringRef Path, llvm::StringRef What,
                                                                  uint64_t Limit, bool Record) {
  std::string P(Path);
  std::string Cannot = (Path + ": cannot read " + What + ": ").str();
  // Non-blocking, so that opening a FIFO returns at once; it is refused below.
  int Fd = ::open(P.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0)
    return fail(Cannot + std::strerror(errno));
  struct stat St;
  if (::fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
    ::close(Fd);
    return fail(Cannot + "not a regular file");
  }
  if (static_cast<uint64_t>(St.st_size) > Limit) {
    ::close(Fd);
    return fail(Cannot + "larger than " + humanSize(Limit));
  }
  if (Record)
    noteId(St);
  // The size fstat saw: what a file gains meanwhile is not read.
  auto Buf = llvm::MemoryBuffer::getOpenFileSlice(Fd, P, St.st_size, 0);
  ::close(Fd);
  if (!Buf)
    return fail(Cannot + Buf.getError().message());
  return std::move(*Buf);
}

unsigned nestingDepth(llvm::StringRef Text) {
  unsigned Deepest = 0, Brackets = 0;
  llvm::SmallVector<size_t, 16> Blocks; // YAML block indentation levels
  size_t I = 0;
  while (I < Text.size()) {
    size_t LineEnd = Text.find('\n', I);
    if (LineEnd == llvm::StringRef::npos)
      LineEnd = Text.size();
    llvm::StringRef Line = Text.slice(I, LineEnd);
    size_t Indent = Line.find_first_not_of(' ');
    if (Brackets == 0 && Indent != llvm::StringRef::npos && Line[Indent] != '#') {
      while (!Blocks.empty() && Blocks.back() >= Indent)
        Blocks.pop_back();
      Blocks.push_back(Indent);
      unsigned Items = 0;
      // "- - x" is two items; a lone "-" ends the line (it consumes nothing).
      for (llvm::StringRef Rest = Line.drop_front(Indent); Rest.consume_front("- ") || Rest == "-";
           Rest = Rest == "-" ? "" : Rest.ltrim(' '))
        ++Items;
      Deepest = std::max<unsigned>(Deepest, Blocks.size() + Items);
    }
    char Quote = 0;
    for (size_t K = I; K < LineEnd; ++K) {
      char C = Text[K];
      if (Quote) {
        if (C == '\\' && Quote == '"')
          ++K;
        else if (C == Quote)
          Quote = 0;
      } else if (C == '"' || (C == '\'' && (K == I || !std::isalnum(static_cast<unsigned char>(Text[K - 1]))))) {
        Quote = C;
      } else if (C == '#' && (K == I || Text[K - 1] == ' ')) {
        break;
      } else if (C == '[' || C == '{') {
        Deepest = std::max(Deepest, ++Brackets + static_cast<unsigned>(Blocks.size()));
      } else if ((C == ']' || C == '}') && Brackets) {
        --Brackets;
      }
    }
    I = LineEnd + 1;
  }
  return Deepest;
}

llvm::Error checkNesting(llvm::StringRef Text, llvm::StringRef Source) {
  if (nestingDepth(Text) <= MaxNesting)
    return llvm::Error::success();
  return fail(Source + ": nested more than " + llvm::Twine(MaxNesting) + " levels deep; not read");
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readStructuredFile(llvm::StringRef Path, llvm::StringRef What,
                                                                       bool Record) {
  auto Buf = readInputFile(Path, What, MaxStructuredBytes, Record);
  if (!Buf)
    return Buf.takeError();
  if (nestingDepth((*Buf)->getBuffer()) > MaxNesting)
    return fail(Path + ": cannot read " + What + ": nested more than " + llvm::Twine(MaxNesting) + " levels deep");
  return Buf;
}

void noteInput(llvm::StringRef Path) {
  if (auto Id = idOf(Path)) {
    std::lock_guard<std::mutex> G(inputs().Lock);
    inputs().Ids.insert(*Id);
  }
}

void noteInputs(const std::vector<std::string> &Paths) {
  for (const std::string &P : Paths)
    noteInput(P);
}

bool isInput(llvm::StringRef Path) {
  auto Id = idOf(Path);
  std::lock_guard<std::mutex> G(inputs().Lock);
  return Id && inputs().Ids.count(*Id);
}

} // namespace clang::tidy::mlperf
