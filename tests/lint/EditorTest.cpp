// The Vim (ALE) recipes of docs/editors.md, taken from the page itself and
// run in a real vim on a pseudo-terminal: ALE's clang-tidy linter with the
// plugin, and ALE's LSP client with `mlperf-lint lsp` (the recipe also lists
// clangd, which ALE starts too where it is installed).
#include "IntegrationSupport.h"

#include "llvm/Support/Program.h"

#include <nlohmann/json.hpp>

namespace mlperf::test {
namespace {

/// The `vim` code blocks of the page's "Vim (ALE)" section, in order.
std::vector<std::string> aleRecipes() {
  std::string Page = readFile(MLPERF_SOURCE_DIR "/docs/editors.md");
  std::vector<std::string> Blocks;
  size_t At = Page.find("## Vim (ALE)");
  size_t End = Page.find("\n## ", At + 1);
  while (At != std::string::npos && (At = Page.find("```vim\n", At)) < End) {
    size_t Close = Page.find("```", At + 7);
    Blocks.push_back(Page.substr(At + 7, Close - At - 7));
    At = Close + 3;
  }
  return Blocks;
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
    std::string Path = llvm::sys::path::parent_path(MLPERF_LINT_BINARY).str() + ":" + std::getenv("PATH");
    ProcessResult R = runProcess(ScriptBin, {"-q", "-e", "-c", "vim -N -u vimrc sync.cc", "/dev/null"}, Root,
                                 {{"PATH", Path}, {"HOME", Root}});
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
  Recipe.replace(Plugin, Installed.size(), MLPERF_PLUGIN);  // here the build's
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
  EXPECT_EQ(Found[0]["end_col"], 25);
}

} // namespace
} // namespace mlperf::test
