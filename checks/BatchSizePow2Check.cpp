#include "BatchSizePow2Check.h"
#include "analysis/SourceUtils.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/Support/MathExtras.h"

using namespace clang::ast_matchers;

namespace clang::tidy::mlperf {

BatchSizePow2Check::BatchSizePow2Check(StringRef Name, ClangTidyContext *Context)
    : MlperfCheck(Name, Context), MinBatchSize(Options.get("MinBatchSize", static_cast<int64_t>(8))) {}

void BatchSizePow2Check::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  MlperfCheck::storeOptions(Opts);
  Options.store(Opts, "MinBatchSize", MinBatchSize);
}

void BatchSizePow2Check::onStartOfTranslationUnit() {
  MlperfCheck::onStartOfTranslationUnit();
  Sizes.clear();
  FeedsSpecialized = false;
  SM = nullptr;
}

void BatchSizePow2Check::registerMatchers(MatchFinder *Finder) {
  using namespace matchers;
  auto User = unless(isExpansionInSystemHeader());
  // Where a batch size is given: loader options, a dataset's batch, make_data_loader(dataset, n).
  Finder->addMatcher(expr(anyOf(callExpr(), cxxConstructExpr()), User, hasFact(this, Role::BatchSize)).bind("site"),
                     this);
  // A constant named as a batch size: `const int batch_size = 100;`.
  Finder->addMatcher(
      varDecl(User, unless(parmVarDecl()), hasType(isInteger()), hasType(isConstQualified()), hasInitializer(expr()))
          .bind("var"),
      this);
  // What the batches feed: a shape-specialized executable or an accelerator.
  Finder->addMatcher(callExpr(User, hasRole(this, Role::Step)).bind("step"), this);
  Finder->addMatcher(cxxConstructExpr(User, hasRole(this, Role::Construct)).bind("construct"), this);
}

/// The argument an entry names as the batch size, when it is an integer.
static const Expr *sizeArgument(const Expr *Site, const ProfileEntry &E) {
  const auto *CE = dyn_cast<CallExpr>(Site);
  const auto *Ctor = dyn_cast<CXXConstructExpr>(Site);
  unsigned N = CE ? CE->getNumArgs() : Ctor->getNumArgs();
  if (*E.SizeArg >= N)
    return nullptr;
  const Expr *Arg = (CE ? CE->getArg(*E.SizeArg) : Ctor->getArg(*E.SizeArg))->IgnoreParenImpCasts();
  return Arg->getType()->isIntegerType() ? Arg : nullptr;
}

/// Whether a variable's name says it is a batch size (batch, batch_size,
/// kBatchSize, train_batch, bs), not a batch count or index.
static bool namedLikeBatchSize(const VarDecl *VD) {
  if (!VD->getIdentifier())
    return false;
  std::string Name = VD->getName().lower();
  llvm::erase(Name, '_');
  StringRef N(Name);
  return N == "bs" || N.ends_with("batch") || N.ends_with("batchsize");
}

void BatchSizePow2Check::check(const MatchFinder::MatchResult &Result) {
  const ASTContext &Ctx = *Result.Context;
  SM = Result.SourceManager;
  if (analysis(*Result.Context).deviceAware())
    FeedsSpecialized = true; // the TU can put the batches on an accelerator
  if (const auto *Site = Result.Nodes.getNodeAs<Expr>("site")) {
    const Expr *SizeArg = sizeArgument(Site, *profiles().find(Site, Role::BatchSize));
    std::optional<int64_t> V = constInt(SizeArg, Ctx);
    if (!V)
      return;
    if (const VarDecl *VD = namedVar(SizeArg); VD && VD->getInit()) {
      BatchSize &B = Sizes[VD];
      B.Loc = reportLoc(stripWrappers(VD->getInit())->getBeginLoc(), *SM);
      B.Value = *V;
      B.Uses.push_back(reportLoc(Site->getExprLoc(), *SM));
    } else {
      const Expr *Value = stripWrappers(SizeArg);
      Sizes[Value] = {reportLoc(Value->getBeginLoc(), *SM), *V, {}};
    }
    return;
  }
  if (const auto *VD = Result.Nodes.getNodeAs<VarDecl>("var")) {
    if (!namedLikeBatchSize(VD) || Sizes.count(VD))
      return;
    if (std::optional<int64_t> V = constInt(VD->getInit(), Ctx))
      Sizes[VD] = {reportLoc(stripWrappers(VD->getInit())->getBeginLoc(), *SM), *V, {}};
    return;
  }
  const Expr *E = Result.Nodes.getNodeAs<CallExpr>("step");
  if (!E)
    E = Result.Nodes.getNodeAs<CXXConstructExpr>("construct");
  std::optional<RoleMatch> M = profiles().match(E);
  if (M && (M->deviceAlways() || M->Entry->ShapeSpecialized))
    FeedsSpecialized = true;
}

void BatchSizePow2Check::onEndOfTranslationUnit() {
  if (!SM || !FeedsSpecialized)
    return;
  for (const auto &[Key, B] : Sizes) {
    if (B.Value < MinBatchSize || llvm::isPowerOf2_64(static_cast<uint64_t>(B.Value)))
      continue;
    uint64_t Lo = uint64_t(1) << llvm::Log2_64(static_cast<uint64_t>(B.Value)), Hi = Lo * 2;
    uint64_t Near = B.Value - Lo <= Hi - B.Value ? Lo : Hi, Far = Near == Lo ? Hi : Lo;
    diag(B.Loc, "batch size %0 is not a power of two; shape-specialized executables and accelerator kernels tile "
                "best on power-of-two shapes (64, 128, 256 are the usual choices): try %1 or %2 and measure")
        << std::to_string(B.Value) << std::to_string(Near) << std::to_string(Far);
    for (SourceLocation Use : B.Uses)
      diag(Use, "used as the batch size here", DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::mlperf
