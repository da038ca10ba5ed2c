#include "HtmlTestSupport.h"

#include "LintTestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <libxml/parser.h>
#include <libxml/xpath.h>

namespace mlperf::test {

struct HtmlDoc::Impl {
  xmlDocPtr Doc = nullptr;
};

namespace {
void collect(void *Ctx, xmlErrorPtr E) {
  auto *Out = static_cast<std::string *>(Ctx);
  if (E && E->message)
    *Out += "line " + std::to_string(E->line) + ": " + E->message;
}

template <typename F> void eachNode(xmlDocPtr Doc, const std::string &XPath, F Visit) {
  if (!Doc)
    return;
  xmlXPathContextPtr Ctx = xmlXPathNewContext(Doc);
  xmlXPathObjectPtr R = xmlXPathEvalExpression(reinterpret_cast<const xmlChar *>(XPath.c_str()), Ctx);
  if (R && R->nodesetval)
    for (int I = 0; I < R->nodesetval->nodeNr; ++I)
      Visit(R->nodesetval->nodeTab[I]);
  xmlXPathFreeObject(R);
  xmlXPathFreeContext(Ctx);
}

std::string owned(xmlChar *S) {
  std::string Out = S ? reinterpret_cast<const char *>(S) : "";
  xmlFree(S);
  return Out;
}
} // namespace

HtmlDoc::HtmlDoc(const std::string &Text) : P(std::make_unique<Impl>()) {
  xmlSetStructuredErrorFunc(&Errors, collect);
  P->Doc = xmlReadMemory(Text.data(), int(Text.size()), "page.html", "UTF-8", XML_PARSE_NONET);
  xmlSetStructuredErrorFunc(nullptr, nullptr);
  if (!P->Doc && Errors.empty())
    Errors = "not parsed";
}

HtmlDoc::~HtmlDoc() {
  if (P->Doc)
    xmlFreeDoc(P->Doc);
}

std::vector<std::string> HtmlDoc::texts(const std::string &XPath) const {
  std::vector<std::string> Out;
  eachNode(P->Doc, XPath, [&](xmlNodePtr N) { Out.push_back(owned(xmlNodeGetContent(N))); });
  return Out;
}

std::vector<std::string> HtmlDoc::attrs(const std::string &XPath, const std::string &Attr) const {
  std::vector<std::string> Out;
  eachNode(P->Doc, XPath,
           [&](xmlNodePtr N) { Out.push_back(owned(xmlGetProp(N, reinterpret_cast<const xmlChar *>(Attr.c_str())))); });
  return Out;
}

std::string findChromium() {
  for (const char *Name : {"chromium", "chromium-browser"})
    if (auto P = llvm::sys::findProgramByName(Name))
      return *P;
  return "";
}

Rendered renderHeadless(const std::string &Chromium, const std::string &HtmlPath) {
  Rendered R;
  llvm::SmallString<128> Profile;
  llvm::sys::fs::createUniqueDirectory("mlperf-chromium", Profile);
  // A renderer that hangs must not hang the test run.
  auto Timeout = llvm::sys::findProgramByName("timeout");
  std::vector<std::string> Args = {"--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--no-first-run",
                                   "--user-data-dir=" + std::string(Profile),
                                   "--enable-logging=stderr",
                                   "--v=0",
                                   "--virtual-time-budget=2000",
                                   "--dump-dom",
                                   "file://" + HtmlPath};
  if (Timeout)
    Args.insert(Args.begin(), {"120", Chromium});
  ProcessResult P = runProcess(Timeout ? *Timeout : Chromium, Args);
  llvm::sys::fs::remove_directories(Profile);
  R.Dom = P.Out;
  R.Log = P.Err;
  R.Ok = P.Exit == 0 && !P.Out.empty();
  if (!R.Ok)
    R.Problem = "chromium exited with " + std::to_string(P.Exit) + ": " + P.Err;
  return R;
}

} // namespace mlperf::test
