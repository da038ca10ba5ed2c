#include "Cost.h"
#include "SourceUtils.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <nlohmann/json.hpp>

namespace clang::tidy::mlperf {

using nlohmann::json;

static bool same(const Quantity &A, const Quantity &B) { return A.Value == B.Value && A.DependsOn == B.DependsOn; }

bool Retention::operator==(const Retention &O) const {
  return same(Bytes, O.Bytes) && What == O.What && Host == O.Host;
}

bool CostFacts::operator==(const CostFacts &O) const {
  return same(Repeats, O.Repeats) && Syncs == O.Syncs && Allocations == O.Allocations &&
         Compilations == O.Compilations && HostToDevice == O.HostToDevice && DeviceToHost == O.DeviceToHost &&
         same(Bytes, O.Bytes) && Retained == O.Retained && Steps.has_value() == O.Steps.has_value() &&
         (!Steps || same(*Steps, *O.Steps));
}

namespace {
json toJson(const Quantity &Q) { return Q.Value ? json(*Q.Value) : json{{"unknown", Q.DependsOn}}; }

/// A quantity: a finite number >= 0, or {"unknown": "<input>"}.
std::optional<Quantity> quantityFrom(const json &J) {
  if (J.is_number() && J.get<double>() >= 0 && J.get<double>() < 1e300)
    return Quantity::known(J.get<double>());
  if (J.is_object() && J.size() == 1 && J.contains("unknown") && J.at("unknown").is_string())
    return Quantity::unknown(J.at("unknown").get<std::string>());
  return std::nullopt;
}

/// {"bytes": <quantity>, "what": "<text>", "host": <bool>}, nothing else.
std::optional<Retention> retentionFrom(const json &J) {
  if (!J.is_object() || J.size() != 3 || !J.contains("bytes") || !J.contains("what") || !J.contains("host") ||
      !J.at("what").is_string() || !J.at("host").is_boolean())
    return std::nullopt;
  std::optional<Quantity> Bytes = quantityFrom(J.at("bytes"));
  if (!Bytes)
    return std::nullopt;
  return Retention{*Bytes, J.at("what").get<std::string>(), J.at("host").get<bool>()};
}

std::optional<unsigned> countFrom(const json &J, const char *Key) {
  if (!J.contains(Key))
    return 0u;
  const json &V = J.at(Key);
  if (!V.is_number_unsigned() || V.get<uint64_t>() > 1000000)
    return std::nullopt;
  return static_cast<unsigned>(V.get<uint64_t>());
}
} // namespace

std::string costFactsNote(const CostFacts &F) {
  json J = json::object();
  J["repeats"] = toJson(F.Repeats);
  for (auto [Key, N] : {std::pair<const char *, unsigned>{"syncs", F.Syncs},
                        {"allocations", F.Allocations},
                        {"compilations", F.Compilations},
                        {"h2d", F.HostToDevice},
                        {"d2h", F.DeviceToHost}})
    if (N)
      J[Key] = N;
  if (F.HostToDevice || F.DeviceToHost)
    J["bytes"] = toJson(F.Bytes);
  if (F.Retained)
    J["retained"] = {{"bytes", toJson(F.Retained->Bytes)}, {"what", F.Retained->What}, {"host", F.Retained->Host}};
  if (F.Steps)
    J["steps"] = toJson(*F.Steps);
  return CostFactsPrefix.str() + J.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<CostFacts> parseCostFactsNote(llvm::StringRef Message) {
  if (!Message.consume_front(CostFactsPrefix))
    return std::nullopt;
  json J = json::parse(Message.begin(), Message.end(), nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded() || !J.is_object())
    return std::nullopt;
  CostFacts F;
  auto Repeats = J.contains("repeats") ? quantityFrom(J.at("repeats")) : Quantity::known(1);
  auto Bytes = J.contains("bytes") ? quantityFrom(J.at("bytes")) : Quantity::known(0);
  auto Syncs = countFrom(J, "syncs"), Allocations = countFrom(J, "allocations"),
       Compilations = countFrom(J, "compilations"), H2D = countFrom(J, "h2d"), D2H = countFrom(J, "d2h");
  if (!Repeats || !Bytes || !Syncs || !Allocations || !Compilations || !H2D || !D2H)
    return std::nullopt;
  F.Repeats = *Repeats;
  F.Bytes = *Bytes;
  F.Syncs = *Syncs;
  F.Allocations = *Allocations;
  F.Compilations = *Compilations;
  F.HostToDevice = *H2D;
  F.DeviceToHost = *D2H;
  if (J.contains("retained")) {
    std::optional<Retention> R = retentionFrom(J.at("retained"));
    if (!R)
      return std::nullopt;
    F.Retained = std::move(*R);
  }
  if (J.contains("steps")) {
    auto Steps = quantityFrom(J.at("steps"));
    if (!Steps)
      return std::nullopt;
    F.Steps = *Steps;
  }
  return F;
}

CostFacts syncFacts() {
  CostFacts F;
  F.Syncs = 1;
  return F;
}

CostFacts readFacts(Quantity Bytes) {
  CostFacts F;
  F.Syncs = 1;
  F.DeviceToHost = 1;
  F.Bytes = std::move(Bytes);
  return F;
}

Quantity allocationBytes(const CallExpr *Call, const ProfileEntry &E, const ASTContext &Ctx) {
  if (!E.SizeArg || *E.SizeArg >= Call->getNumArgs())
    return Quantity::unknown("the size allocated");
  const Expr *Size = Call->getArg(*E.SizeArg);
  if (std::optional<int64_t> N = constInt(Size, Ctx); N && *N >= 0)
    return Quantity::known(static_cast<double>(*N));
  return Quantity::unknown(sourceText(Size->getSourceRange(), Ctx));
}

Quantity readBytes(const CallExpr *Read, const Expr *Object, const ModelAnalysis &A) {
  if (std::optional<RoleMatch> R = A.role(Read); R && R->waitsOnly())
    return Quantity::known(8); // the count of the result's elements
  QualType T = Read->getType().getNonReferenceType();
  if (!T->isDependentType() && T->isArithmeticType())
    return Quantity::known(static_cast<double>(A.context().getTypeSizeInChars(T).getQuantity()));
  // A scalar object (a Scalar of item()) is one value; a tensor or a
  // container of the values (with a size()) is as large as the tensor.
  const CXXRecordDecl *RD = T->isDependentType() ? nullptr : T->getAsCXXRecordDecl();
  if (RD && RD->hasDefinition() && !A.profiles().autogradTensorProfile(T) &&
      RD->lookup(&A.context().Idents.get("size")).empty())
    return Quantity::known(4);
  return Quantity::unknown(Object ? sourceText(Object->getSourceRange(), A.context()) : "the tensor read");
}

Quantity factoryBytes(const CallExpr *Factory, const ASTContext &Ctx) {
  // The sizes are the first argument that is not a number (`randint(0, 10, {64})`).
  const Expr *Sizes = nullptr;
  for (const Expr *Arg : Factory->arguments())
    if (!Arg->getType()->isArithmeticType() && !Arg->getType()->isEnumeralType()) {
      Sizes = Arg;
      break;
    }
  if (!Sizes)
    return Quantity::unknown("the tensor's sizes");
  if (std::optional<int64_t> N = constVolume(Sizes, 1, Ctx); N && *N > 0)
    return Quantity::known(4.0 * static_cast<double>(*N));
  return Quantity::unknown(sourceText(Sizes->getSourceRange(), Ctx));
}

namespace {
/// `i < N`, `i <= N`, `i != N` (or reversed) over the loop's variable.
Quantity forTrips(const ForStmt *For, const ASTContext &Ctx) {
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond)
    return Quantity::unknown("the loop's condition");
  Quantity Unknown = Quantity::unknown(sourceText(Cond->getSourceRange(), Ctx));
  const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *Var = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
  std::optional<int64_t> Start = Var ? constInt(Var->getInit(), Ctx) : std::nullopt;
  const VarDecl *Lhs = namedVar(Cond->getLHS());
  if (!Var || !Start || Lhs != Var)
    return Unknown;
  std::optional<int64_t> Bound = constInt(Cond->getRHS(), Ctx);
  if (!Bound) {
    Unknown.DependsOn = sourceText(Cond->getRHS()->getSourceRange(), Ctx);
    return Unknown;
  }
  int64_t Step = 0;
  const Expr *Inc = For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc); U && U->isIncrementOp() && namedVar(U->getSubExpr()) == Var)
    Step = 1;
  else if (const auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc);
           C && C->getOpcode() == BO_AddAssign && namedVar(C->getLHS()) == Var)
    Step = constInt(C->getRHS(), Ctx).value_or(0);
  if (Step <= 0)
    return Unknown;
  int64_t Span = *Bound - *Start + (Cond->getOpcode() == BO_LE ? 1 : 0);
  if (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE && Cond->getOpcode() != BO_NE)
    return Unknown;
  return Quantity::known(Span <= 0 ? 0 : static_cast<double>((Span + Step - 1) / Step));
}
} // namespace

Quantity tripCount(const Stmt *Loop, const ASTContext &Ctx) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return forTrips(For, Ctx);
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop)) {
    const Expr *Init = Range->getRangeInit();
    if (const auto *CAT = Ctx.getAsConstantArrayType(Init->getType()))
      return Quantity::known(static_cast<double>(CAT->getSize().getZExtValue()));
    return Quantity::unknown(sourceText(Init->getSourceRange(), Ctx));
  }
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return Quantity::unknown(sourceText(While->getCond()->getSourceRange(), Ctx));
  return Quantity::unknown("the loop's condition");
}

Quantity stepsOf(const HotContext &H, const Stmt *S, const ModelAnalysis &A) {
  if (!H.Loop)
    return Quantity::unknown(H.Request ? "the number of requests" : "the calls of the function that runs every step");
  std::vector<const Stmt *> Loops = A.enclosingLoops(S);
  auto It = llvm::find(Loops, H.Loop);
  if (It == Loops.end())
    return tripCount(H.Loop, A.context());
  double Steps = 1;
  for (; It != Loops.end(); ++It) {
    Quantity Trips = tripCount(*It, A.context());
    if (!Trips.Value)
      return Trips;
    Steps *= *Trips.Value;
  }
  return Quantity::known(Steps);
}

} // namespace clang::tidy::mlperf
