#include "ModelSize.h"
#include "SourceUtils.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::mlperf {

namespace {
std::optional<int64_t> trainableParameters(const Expr *E, const LayerSizes &L, const ASTContext &Ctx) {
  int64_t P = 1;
  for (unsigned I : L.SizeArgs) {
    std::optional<int64_t> V = constVolume(argumentFor(E, I, /*DefaultValue=*/false), 1, Ctx);
    if (!V)
      return std::nullopt;
    P *= *V;
  }
  if (L.KernelArg) {
    std::optional<unsigned> Rank = L.KernelRank;
    const auto *Ctor = dyn_cast<CXXConstructExpr>(E);
    const auto *Spec = Ctor ? dyn_cast<ClassTemplateSpecializationDecl>(Ctor->getConstructor()->getParent()) : nullptr;
    if (L.KernelRankTemplateArg && Spec && *L.KernelRankTemplateArg < Spec->getTemplateArgs().size() &&
        Spec->getTemplateArgs()[*L.KernelRankTemplateArg].getKind() == TemplateArgument::Integral)
      Rank = Spec->getTemplateArgs()[*L.KernelRankTemplateArg].getAsIntegral().getZExtValue();
    std::optional<int64_t> Kernel =
        Rank ? constVolume(argumentFor(E, L.KernelArg, /*DefaultValue=*/false), *Rank, Ctx) : std::nullopt;
    if (!Kernel)
      return std::nullopt;
    P *= *Kernel;
  }
  if (L.BiasArg) {
    std::optional<int64_t> Bias = constInt(argumentFor(E, L.BiasArg, /*DefaultValue=*/false), Ctx);
    if (!Bias)
      return std::nullopt;
    P += *Bias;
  }
  return P;
}

/// An integer width, or the last of at least two constant dimensions in a
/// braced list (a weight `Shape{in, out}`; a bias `Shape{out}` has none).
std::optional<int64_t> outputWidth(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = stripWrappers(E);
  if (std::optional<int64_t> V = constInt(E, Ctx))
    return V;
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    return IL->getNumInits() >= 2 ? constInt(IL->getInit(IL->getNumInits() - 1), Ctx) : std::nullopt;
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
    return outputWidth(SIL->getSubExpr(), Ctx);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() >= 1)
    return outputWidth(CE->getArg(0), Ctx);
  return std::nullopt;
}

bool isConstantZero(const Expr *E, const ASTContext &Ctx) {
  if (std::optional<int64_t> I = constInt(E, Ctx))
    return *I == 0;
  llvm::APFloat F(0.0);
  E = stripWrappers(E);
  if (!E->isValueDependent() && E->EvaluateAsFloat(F, Ctx))
    return F.isZero();
  if (const VarDecl *VD = namedVar(E); VD && VD->getType().isConstQualified() && VD->getInit())
    return isConstantZero(VD->getInit(), Ctx);
  return false;
}

/// The name a constant type argument spells (`DType::F16`, `torch::kHalf`),
/// through const variables.
std::optional<std::string> constantName(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = stripConversions(E);
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return std::nullopt;
  if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->getType().isConstQualified() && VD->getInit())
    if (std::optional<std::string> N = constantName(VD->getInit()))
      return N;
  return DRE->getDecl()->getName().str();
}
} // namespace

std::optional<LayerSize> layerSize(const Expr *E, const ProfileEntry &Entry, const ASTContext &Ctx) {
  const LayerSizes &L = Entry.Layer;
  LayerSize S;
  if (const Expr *T = argumentFor(E, L.TrainableArg, /*DefaultValue=*/false)) {
    bool Trainable = true;
    if (stripWrappers(T)->EvaluateAsBooleanCondition(Trainable, Ctx))
      S.Trainable = Trainable;
  }
  std::optional<int64_t> P = trainableParameters(E, L, Ctx);
  if (!P || *P <= 0)
    return std::nullopt;
  S.Parameters = *P;
  if (L.OutputArg)
    S.OutputWidth = outputWidth(argumentFor(E, L.OutputArg, /*DefaultValue=*/false), Ctx);
  const MemoryModel &M = Entry.Owner->Memory;
  S.ElementBytes = M.DefaultBytes;
  if (std::optional<std::string> T = constantName(argumentFor(E, L.DTypeArg, /*DefaultValue=*/false)))
    if (auto It = M.DTypeBytes.find(*T); It != M.DTypeBytes.end())
      S.ElementBytes = It->second;
  return S;
}

StepMemory estimateStep(llvm::ArrayRef<LayerSize> Layers, unsigned Copies, bool OutOfPlace,
                        std::optional<int64_t> Batch) {
  StepMemory M;
  for (const LayerSize &L : Layers) {
    double Bytes = double(L.Parameters) * L.ElementBytes;
    M.ParameterCount += L.Parameters;
    M.Parameters += Bytes;
    M.Gradients += L.Trainable ? Bytes : 0;
    M.Outputs += L.OutputWidth.value_or(0);
    M.PerExample += double(StepMemory::ValuesPerOutput * L.OutputWidth.value_or(0)) * L.ElementBytes;
    M.Wide |= L.ElementBytes > 2;
  }
  M.OptimizerState = Copies * M.Gradients;
  M.UpdatedCopies = OutOfPlace ? M.Gradients + M.OptimizerState : 0;
  M.Activations = Batch ? double(*Batch) * M.PerExample : 0;
  return M;
}

std::optional<int64_t> constantBatchSize(const Expr *E, const ProfileEntry &Entry, const ASTContext &Ctx) {
  std::optional<int64_t> B = constInt(argumentFor(E, Entry.SizeArg, /*DefaultValue=*/false), Ctx);
  return B && *B > 0 ? B : std::nullopt;
}

/// A layer built from integer sizes that are not all constants
/// (`Linear(784, hidden)`); not a copy of a layer, nor one built from an
/// options object, which the options' own construction sizes.
static bool sizedByVariables(const Expr *E, const ProfileEntry &Entry) {
  return llvm::any_of(Entry.Layer.SizeArgs, [&](unsigned I) {
    const Expr *Arg = argumentFor(E, I, /*DefaultValue=*/false);
    return Arg && stripWrappers(Arg)->getType()->isIntegerType();
  });
}

ModelSizes modelSizesOf(ASTContext &Ctx, const ApiProfiles &P) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    ASTContext &Ctx;
    const ApiProfiles &P;
    ModelSizes Out;
    Visitor(ASTContext &Ctx, const ApiProfiles &P) : Ctx(Ctx), P(P) {}
    bool TraverseDecl(Decl *D) {
      if (D && !isa<TranslationUnitDecl>(D) && Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
        return true;
      return RecursiveASTVisitor::TraverseDecl(D);
    }
    bool VisitExpr(Expr *E) {
      if (!isa<CallExpr, CXXConstructExpr>(E))
        return true;
      if (const ProfileEntry *L = P.find(E, Role::Layer)) {
        if (std::optional<LayerSize> S = layerSize(E, *L, Ctx))
          Out.Layers.push_back(*S);
        else if (sizedByVariables(E, *L))
          ++Out.Unsized;
      }
      if (const ProfileEntry *B = P.find(E, Role::BatchSize))
        if (std::optional<int64_t> N = constantBatchSize(E, *B, Ctx))
          Out.Batch = std::max(Out.Batch.value_or(0), *N);
      return true;
    }
  } V(Ctx, P);
  for (Decl *D : Ctx.getTraversalScope())
    V.TraverseDecl(D);
  return std::move(V.Out);
}

std::optional<double> graphBytes(const ModelSizes &S) {
  if (!S.Batch || S.Layers.empty() || S.Unsized)
    return std::nullopt;
  double PerExample = 0;
  for (const LayerSize &L : S.Layers) {
    if (!L.OutputWidth)
      return std::nullopt;
    PerExample += double((StepMemory::ValuesPerOutput - 1) * *L.OutputWidth) * L.ElementBytes;
  }
  return double(*S.Batch) * PerExample;
}

namespace {
/// A call of \p Method with an argument that is not a constant zero, in \p S.
bool setsMomentum(const Stmt *S, llvm::StringRef Method, const ASTContext &Ctx) {
  if (const auto *C = dyn_cast<CXXMemberCallExpr>(S))
    if (const CXXMethodDecl *MD = C->getMethodDecl();
        MD && C->getNumArgs() == 1 && plainQualifiedName(MD) == Method && !isConstantZero(C->getArg(0), Ctx))
      return true;
  for (const Stmt *Child : S->children())
    if (Child && setsMomentum(Child, Method, Ctx))
      return true;
  return false;
}
} // namespace

unsigned optimizerCopies(const Expr *E, const ProfileEntry &Entry, const ASTContext &Ctx) {
  const OptimizerMemory &O = Entry.Optimizer;
  if (const Expr *A = argumentFor(E, O.MomentumArg, /*DefaultValue=*/false); A && !isConstantZero(A, Ctx))
    return O.Copies + 1;
  // A momentum set through the options inside the construction: SGDOptions(0.1).momentum(0.9).
  if (!O.MomentumMethod.empty() && setsMomentum(E, O.MomentumMethod, Ctx))
    return O.Copies + 1;
  return O.Copies;
}

} // namespace clang::tidy::mlperf
