#include "ModelMemoryCheck.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

namespace {
constexpr uint64_t DefaultDeviceMemory = 16ull << 30;

std::string formatBytes(double Bytes) {
  static const char *Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  unsigned U = 0;
  while (Bytes >= 1024 && U + 1 < std::size(Units)) {
    Bytes /= 1024;
    ++U;
  }
  return llvm::formatv(U ? "{0:F1} {1}" : "{0:F0} {1}", Bytes, Units[U]).str();
}

std::optional<double> parseFraction(StringRef Text) {
  double F;
  if (Text.trim().getAsDouble(F) || !(F > 0 && F <= 1))
    return std::nullopt;
  return F;
}
} // namespace

std::optional<uint64_t> ModelMemoryCheck::parseByteSize(StringRef Text) {
  StringRef T = Text.trim();
  size_t NumEnd = T.find_first_not_of("0123456789.");
  double V;
  if (T.take_front(NumEnd).getAsDouble(V) || !(V > 0) || !std::isfinite(V))
    return std::nullopt;
  StringRef Unit = T.drop_front(std::min(NumEnd, T.size())).ltrim();
  double Scale = 1;
  if (!Unit.empty() && !Unit.equals_insensitive("b")) {
    size_t Power = StringRef("KMGT").find(llvm::toUpper(Unit[0]));
    StringRef Rest = Unit.drop_front();
    if (Power == StringRef::npos || !(Rest.empty() || Rest.equals_insensitive("b") || Rest.equals_insensitive("ib")))
      return std::nullopt;
    Scale = std::pow(1024.0, double(Power + 1));
  }
  double Bytes = V * Scale;
  return Bytes < 1 || Bytes > 1e19 ? std::nullopt : std::optional<uint64_t>(uint64_t(Bytes));
}

ModelMemoryCheck::ModelMemoryCheck(StringRef Name, ClangTidyContext *Context)
    : MlperfCheck(Name, Context), DeviceMemoryText(Options.get("DeviceMemory", "16GiB")),
      FractionText(Options.get("Fraction", "0.8")), Verbose(Options.get("Verbose", false)),
      DeviceMemory(parseByteSize(DeviceMemoryText).value_or(DefaultDeviceMemory)),
      Fraction(parseFraction(FractionText).value_or(0.8)) {
  if (!parseByteSize(DeviceMemoryText))
    configurationDiag("invalid value '%0' for option '%1.DeviceMemory': expected a size such as 16GiB, 512MiB, "
                      "1.5G or a number of bytes; using 16GiB")
        << DeviceMemoryText << Name;
  if (!parseFraction(FractionText))
    configurationDiag("invalid value '%0' for option '%1.Fraction': expected a number greater than 0 and at "
                      "most 1; using 0.8")
        << FractionText << Name;
}

void ModelMemoryCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  MlperfCheck::storeOptions(Opts);
  Options.store(Opts, "DeviceMemory", DeviceMemoryText);
  Options.store(Opts, "Fraction", FractionText);
  Options.store(Opts, "Verbose", Verbose);
}

void ModelMemoryCheck::onStartOfTranslationUnit() {
  MlperfCheck::onStartOfTranslationUnit();
  Layers.clear();
  Optimizers.clear();
  Batches.clear();
  Training = false;
  SM = nullptr;
}

void ModelMemoryCheck::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  auto User = unless(isExpansionInSystemHeader());
  auto CallOrCtor = anyOf(callExpr(), cxxConstructExpr());
  Finder->addMatcher(expr(CallOrCtor, User, hasFact(this, Role::Layer)).bind("layer"), this);
  Finder->addMatcher(expr(CallOrCtor, User, hasFact(this, Role::BatchSize)).bind("batch"), this);
  Finder->addMatcher(cxxConstructExpr(User, hasFact(this, Role::OptimizerState)).bind("optimizer"), this);
  Finder->addMatcher(callExpr(User, hasRole(this, Role::Step)).bind("step"), this);
  Finder->addMatcher(callExpr(User, hasFact(this, Role::Training)).bind("train"), this);
}

void ModelMemoryCheck::check(const MatchFinder::MatchResult &Result) {
  const ASTContext &Ctx = *Result.Context;
  SM = Result.SourceManager;
  if (const auto *E = Result.Nodes.getNodeAs<Expr>("layer")) {
    const ProfileEntry &Entry = *profiles().find(E, Role::Layer);
    if (std::optional<LayerSize> L = layerSize(E, Entry, Ctx))
      Layers.push_back({reportLoc(E->getBeginLoc(), *SM), *L, Entry.Owner});
  }
  if (const auto *E = Result.Nodes.getNodeAs<Expr>("batch"))
    if (std::optional<int64_t> B = constantBatchSize(E, *profiles().find(E, Role::BatchSize), Ctx))
      Batches.push_back({reportLoc(E->getBeginLoc(), *SM), *B, false, ""});
  if (const auto *E = Result.Nodes.getNodeAs<CXXConstructExpr>("optimizer")) {
    const ProfileEntry &Entry = *profiles().find(E, Role::OptimizerState);
    Optimizers.push_back({reportLoc(E->getBeginLoc(), *SM), optimizerCopies(E, Entry, Ctx), Entry.Optimizer.OutOfPlace,
                          E->getConstructor()->getParent()->getNameAsString()});
  }
  if (const auto *CE = Result.Nodes.getNodeAs<CallExpr>("step")) {
    std::optional<RoleMatch> M = profiles().match(CE);
    Training |= M && (M->kind() == Kind::Backward || M->kind() == Kind::Optimizer);
  }
  if (Result.Nodes.getNodeAs<CallExpr>("train"))
    Training = true;
}

void ModelMemoryCheck::onEndOfTranslationUnit() {
  if (!SM || !Training || Layers.empty())
    return;
  const Layer *Largest = &Layers.front();
  for (const Layer &L : Layers)
    if (L.Size.Parameters * L.Size.ElementBytes > Largest->Size.Parameters * Largest->Size.ElementBytes)
      Largest = &L;
  report(*Largest);
}

void ModelMemoryCheck::report(const Layer &Largest) {
  const Site *Opt = nullptr, *Batch = nullptr;
  for (const Site &O : Optimizers)
    if (!Opt || O.Value > Opt->Value)
      Opt = &O;
  for (const Site &B : Batches)
    if (!Batch || B.Value > Batch->Value)
      Batch = &B;
  std::vector<LayerSize> Sizes;
  for (const Layer &L : Layers)
    Sizes.push_back(L.Size);
  StepMemory E = estimateStep(Sizes, Opt ? unsigned(Opt->Value) : 0, Opt && Opt->OutOfPlace,
                              Batch ? std::optional<int64_t>(Batch->Value) : std::nullopt);
  double Budget = Fraction * double(DeviceMemory);
  if (E.total() <= Budget)
    return;

  const MemoryModel &M = Largest.Owner->Memory;
  std::vector<std::string> Advice;
  if (E.Wide && !M.HalfPrecision.empty())
    Advice.push_back("store the parameters in 16 bits (" + M.HalfPrecision + ")");
  if (Batch && E.PerExample > 0 && E.fixed() < Budget) {
    int64_t Fits = int64_t((Budget - E.fixed()) / E.PerExample);
    if (Fits >= 1 && Fits < Batch->Value)
      Advice.push_back("train with a smaller batch (" + std::to_string(Fits) + " fits)");
  }
  if (!M.Release.empty())
    Advice.push_back(M.Release);
  std::string Remedy = Advice.empty() ? "make the model smaller" : Advice.front();
  for (size_t I = 1; I < Advice.size(); ++I)
    Remedy += (I + 1 == Advice.size() ? ", or " : ", ") + Advice[I];

  diag(Largest.Loc, "one training step of this model needs about %0 of device memory (%1 parameters counted from "
                    "the constant layer sizes), more than %2 (Fraction %3 of DeviceMemory %4); %5")
      << formatBytes(E.total()) << std::to_string(E.ParameterCount) << formatBytes(Budget) << FractionText
      << DeviceMemoryText << Remedy;
  if (Opt && Opt->Value > 0)
    diag(Opt->Loc, "%0 keeps %1 %plural{1:copy|:copies}1 of the parameters as its state", DiagnosticIDs::Note)
        << Opt->Name << static_cast<unsigned>(Opt->Value);
  if (Batch && E.Activations > 0)
    diag(Batch->Loc, "batch size %0", DiagnosticIDs::Note) << std::to_string(Batch->Value);
  if (!Verbose)
    return;
  auto Note = [&](const std::string &Text) { diag(Largest.Loc, "estimate: %0", DiagnosticIDs::Note) << Text; };
  Note("parameters " + formatBytes(E.Parameters) + " (" + std::to_string(E.ParameterCount) + " parameters)");
  Note("gradients " + formatBytes(E.Gradients) + " (one per trainable parameter)");
  Note("optimizer state " + formatBytes(E.OptimizerState) + " (" + std::to_string(Opt ? Opt->Value : 0) +
       " copies of the trainable parameters)");
  if (E.UpdatedCopies > 0)
    Note("updated copies " + formatBytes(E.UpdatedCopies) +
         " (a step writes new parameters and optimizer state while it still holds the old)");
  if (!Batch || E.Outputs == 0)
    Note(std::string("activations not counted (") +
         (Batch ? "no layer gives its output width)" : "no constant batch size)"));
  else
    Note("activations " + formatBytes(E.Activations) + " (batch " + std::to_string(Batch->Value) + " x " +
         std::to_string(E.Outputs) + " layer outputs x " + std::to_string(StepMemory::ValuesPerOutput) + " values)");
  Note("total " + formatBytes(E.total()) + " (" + std::to_string(int64_t(E.total())) + " bytes)");
}

} // namespace clang::tidy::mlperf
