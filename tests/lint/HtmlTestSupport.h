// Reading the generated HTML pages in tests: a strict XML parse (the pages
// are written as well-formed XML, so a parse error is a markup bug) and
// XPath queries on the result; headless Chromium where it is installed.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace mlperf::test {

class HtmlDoc {
public:
  explicit HtmlDoc(const std::string &Text);
  ~HtmlDoc();
  /// The parser's errors, "" when the page is well-formed.
  const std::string &errors() const { return Errors; }
  /// Text content of every node \p XPath selects, in document order.
  std::vector<std::string> texts(const std::string &XPath) const;
  /// Value of attribute \p Attr of every element \p XPath selects.
  std::vector<std::string> attrs(const std::string &XPath, const std::string &Attr) const;
  size_t count(const std::string &XPath) const { return texts(XPath).size(); }

private:
  struct Impl;
  std::unique_ptr<Impl> P;
  std::string Errors;
};

/// The chromium binary on PATH, or "".
std::string findChromium();

struct Rendered {
  bool Ok = false;
  std::string Dom; // the DOM after scripts ran (--dump-dom)
  std::string Log; // chromium's stderr, console messages included
  std::string Problem;
};
Rendered renderHeadless(const std::string &Chromium, const std::string &HtmlPath);

} // namespace mlperf::test
