#pragma once

#include "MlperfCheck.h"
#include "analysis/ModelSize.h"

#include <vector>

namespace clang::tidy::mlperf {

/// A training step whose estimated memory (parameters, gradients, optimizer
/// state, activations, from constant sizes) exceeds the device's.
class ModelMemoryCheck : public MlperfCheck {
public:
  ModelMemoryCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

  /// "16GiB", "512 MiB", "1.5G", "1000000": binary units, as the runtime reads them.
  static std::optional<uint64_t> parseByteSize(StringRef Text);

private:
  struct Layer {
    SourceLocation Loc;
    LayerSize Size;
    const Profile *Owner;
  };
  struct Site {
    SourceLocation Loc;
    int64_t Value;   // batch size, or copies of the parameters
    bool OutOfPlace; // optimizers: new parameters and state are written beside the old
    std::string Name;
  };
  void report(const Layer &Largest);

  const std::string DeviceMemoryText, FractionText;
  const bool Verbose;
  const uint64_t DeviceMemory;
  const double Fraction;
  std::vector<Layer> Layers;
  std::vector<Site> Optimizers, Batches;
  bool Training = false;
  const SourceManager *SM = nullptr;
};

} // namespace clang::tidy::mlperf
