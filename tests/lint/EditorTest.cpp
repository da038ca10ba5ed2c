// The Vim (ALE) recipes of docs/editors.md, taken from the page itself and
// run in a real vim on a pseudo-terminal: ALE's clang-tidy linter with the
// plugin, and ALE's LSP client with `mlperf-lint lsp` (the recipe also lists
// clangd, which ALE starts too where it is installed).
#include "IntegrationSupport.h"

#include "llvm/Support/Program.h"

#include <nlohmann/json.hpp>

namespace mlperf::test {
namespace {

/// The \p Language code blocks of the page's \p Section, in order.
std::vector<std::string> recipes(const std::string &Section, const std::string &Language) {
  std::string Page = readFile(MLPERF_SOURCE_DIR "/docs/editors.md");
  std::vector<std::string> Blocks;
  std::string Fence = "```" + Language + "\n";
  size_t At = Page.find("## " + Section);
  size_t End = Page.find("\n## ", At + 1);
  while (At != std::string::npos && (At = Page.find(Fence, At)) < End) {
    size_t Close = Page.find("```", At + Fence.size());
    Blocks.push_back(Page.substr(At + Fence.size(), Close - At - Fence.size()));
    At = Close + 3;
  }
  return Blocks;
}
std::vector<std::string> aleRecipes() { return recipes("Vim (ALE)", "vim"); }

std::string pathWithLinter() {
  return llvm::sys::path::parent_path(MLPERF_LINT_BINARY).str() + ":" + std::getenv("PATH");
}

class EditorTest : public ProjectTest {
protected:
  void SetUp() override {
    ProjectTest::SetUp();
    auto Vim = llvm::sys::findProgramByName("vim");
    auto Script = llvm::sys::findProgramByName("script");
    if (!Vim || !Script || !llvm::sys::fs::exists("/usr/share/vim-ale/plugin/ale.vim"))
      GTEST_SKIP() << "vim, util-linux's script or Debian's vim-ale is not installed (scripts/setup.sh installs them)";
    ScriptBin = *Script;
  }

  /// ALE's findings in sync.cc from \p Linter once it reports some (or 60 s).
  nlohmann::json aleFindings(const std::string &Recipe, const std::string &Linter) {
    write("sync.cc", syncLoopSource());
    write("vimrc", "set nocompatible\n"
                   "set runtimepath^=/usr/share/vim-ale\n"
                   "set runtimepath+=/usr/share/vim-ale/after\n"
                   "filetype plugin on\n" +
                       Recipe +
                       "function! Dump(timer) abort\n"
                       "  let l:mine = filter(ale#engine#GetLoclist(bufnr('')), 'v:val.linter_name ==# \"" +
                       Linter +
                       "\"')\n"
                       "  if empty(l:mine) && a:timer != g:deadline\n"
                       "    return\n"
                       "  endif\n"
                       "  call writefile([json_encode(l:mine)], 'found.json')\n"
                       "  qa!\n"
                       "endfunction\n"
                       "let g:deadline = timer_start(60000, 'Dump')\n"
                       "call timer_start(300, 'Dump', {'repeat': -1})\n");
    ProcessResult R = runProcess(ScriptBin, {"-q", "-e", "-c", "vim -N -u vimrc sync.cc", "/dev/null"}, Root,
                                 {{"PATH", pathWithLinter()}, {"HOME", Root}});
    EXPECT_EQ(R.Exit, 0) << R.Err;
    std::string Found = readFile(Root + "/found.json");
    return Found.empty() ? nlohmann::json::array() : nlohmann::json::parse(Found);
  }
  std::string ScriptBin;
};

TEST_F(EditorTest, AleClangTidyRecipeShowsTheFinding) {
  std::vector<std::string> Recipes = aleRecipes();
  ASSERT_EQ(Recipes.size(), 2u) << "docs/editors.md: the LSP and the clang-tidy recipes";
  std::string Recipe = Recipes[1];
  const std::string Installed = "/usr/lib/mlperf-lint/mlperf-lint-plugin.so";
  size_t Plugin = Recipe.find(Installed);
  ASSERT_NE(Plugin, std::string::npos) << Recipe;
  Recipe.replace(Plugin, Installed.size(), MLPERF_PLUGIN); // here the build's
  EXPECT_NE(Recipe.find("g:ale_cpp_clangtidy_extra_options"), std::string::npos);
  nlohmann::json Found = aleFindings(Recipe + "let g:ale_linters = {'cpp': ['clangtidy']}\n", "clangtidy");
  ASSERT_EQ(Found.size(), 1u) << Found.dump(2);
  EXPECT_EQ(Found[0]["lnum"], 6);
  EXPECT_EQ(Found[0]["col"], 5);
  EXPECT_NE(Found[0]["text"].get<std::string>().find("[mlperf-sync-in-loop]"), std::string::npos);
}

TEST_F(EditorTest, AleLspRecipeShowsTheFinding) {
  std::vector<std::string> Recipes = aleRecipes();
  ASSERT_EQ(Recipes.size(), 2u);
  nlohmann::json Found = aleFindings(Recipes[0], "mlperf_lint");
  ASSERT_EQ(Found.size(), 1u) << Found.dump(2);
  EXPECT_EQ(Found[0]["code"], "mlperf-sync-in-loop");
  EXPECT_EQ(Found[0]["lnum"], 6);
  EXPECT_EQ(Found[0]["col"], 5);
  EXPECT_EQ(Found[0]["end_col"], 27); // the whole call, `cudaDeviceSynchronize()`
}

TEST(EglotTest, EglotRecipeShowsTheFinding) {
  auto Emacs = llvm::sys::findProgramByName("emacs");
  if (!Emacs)
    GTEST_SKIP() << "emacs is not installed (Debian: emacs-nox and elpa-eglot)";
  std::vector<std::string> Recipes = recipes("Emacs", "elisp");
  ASSERT_EQ(Recipes.size(), 2u) << "docs/editors.md: the eglot and the lsp-mode recipes";
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mlperf-eglot", Dir));
  std::string Root(Dir);
  std::ofstream(Root + "/sync.cc") << syncLoopSource();
  // Batch Emacs has no command loop, so the session starts with `eglot`
  // itself rather than `eglot-ensure`.
  std::ofstream(Root + "/init.el")
      << "(require 'package)\n(package-initialize)\n"
         "(unless (require 'eglot nil t) (with-temp-file \"no-eglot\") (kill-emacs 0))\n"
      << Recipes[0]
      << "(find-file \"sync.cc\")\n"
         "(apply #'eglot (eglot--guess-contact))\n"
         "(let ((deadline (+ (float-time) 60)) (found nil))\n"
         "  (while (and (not found) (< (float-time) deadline))\n"
         "    (accept-process-output nil 0.3)\n"
         "    (setq found (flymake-diagnostics)))\n"
         "  (let ((lines (mapcar (lambda (d)\n"
         "                         (format \"%d:%d:%s\\n\" (line-number-at-pos (flymake-diagnostic-beg d))\n"
         "                                 (save-excursion (goto-char (flymake-diagnostic-beg d)) (1+ "
         "(current-column)))\n"
         "                                 (flymake-diagnostic-text d)))\n"
         "                       found)))\n"
         "    (with-temp-file \"found.txt\" (apply #'insert lines))))\n"
         "(kill-emacs 0)\n";
  ProcessResult R =
      runProcess(*Emacs, {"--batch", "-l", "init.el"}, Root, {{"PATH", pathWithLinter()}, {"HOME", Root}});
  bool NoEglot = llvm::sys::fs::exists(Root + "/no-eglot");
  std::string Found = readFile(Root + "/found.txt");
  llvm::sys::fs::remove_directories(Root);
  if (NoEglot)
    GTEST_SKIP() << "eglot is not installed (Debian: elpa-eglot)";
  EXPECT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(Found.rfind("6:5:", 0), 0u) << Found << R.Err;
  EXPECT_NE(Found.find("[mlperf-sync-in-loop]"), std::string::npos) << Found;
}

} // namespace
} // namespace mlperf::test
