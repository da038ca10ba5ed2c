#include "ApiProfile.h"
#include "Embedded.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/MemoryBuffer.h"

#include <nlohmann/json.hpp>

namespace clang::tidy::mlperf {

namespace {
constexpr std::pair<const char *, Role> RoleNames[] = {
    {"materialize", Role::Materialize}, {"to-device", Role::ToDevice},
    {"sync", Role::Sync},               {"step", Role::Step},
    {"construct", Role::Construct},     {"factory", Role::Factory},
    {"host-wrap", Role::HostWrap},      {"no-grad-guard", Role::NoGradGuard},
    {"eval-mode", Role::EvalMode},      {"train-mode", Role::TrainMode},
    {"detach", Role::Detach},           {"finalize", Role::Finalize},
    {"acquire", Role::Acquire},         {"release", Role::Release},
    {"host-data", Role::HostData},
};

using json = nlohmann::json;

std::vector<std::string> stringOrList(const json &J, const char *Key) {
  std::vector<std::string> Out;
  if (!J.contains(Key))
    return Out;
  const json &V = J.at(Key);
  if (V.is_string())
    Out.push_back(V.get<std::string>());
  else if (V.is_array())
    for (const json &S : V)
      Out.push_back(S.get<std::string>());
  else
    throw std::runtime_error(std::string("'") + Key + "' must be a string or a list of strings");
  return Out;
}

Role roleOf(const json &J, const char *Key) {
  std::string Name = J.at(Key).get<std::string>();
  if (auto R = parseRole(Name))
    return *R;
  throw std::runtime_error("unknown role '" + Name + "'");
}

ProfileEntry parseEntry(const json &J) {
  static const char *Known[] = {"role", "kind", "callee", "method", "class_derived_from", "overrides",
                                "constructs_derived_from", "unless_derived_from", "types", "param_type", "device_arg", "cpu_role",
                                "enum_arg", "pair", "handle_arg", "value_arg", "shape_specialized", "metadata_when_set", "comment"};
  for (auto It = J.begin(); It != J.end(); ++It)
    if (std::find_if(std::begin(Known), std::end(Known), [&](const char *K) { return It.key() == K; }) ==
        std::end(Known))
      throw std::runtime_error("unknown key '" + It.key() + "' in entry");
  ProfileEntry E;
  E.R = roleOf(J, "role");
  E.Kind = J.value("kind", "");
  E.Callees = stringOrList(J, "callee");
  E.Method = J.value("method", "");
  E.ClassDerivedFrom = J.value("class_derived_from", "");
  E.Overrides = J.value("overrides", false);
  E.ConstructsDerivedFrom = stringOrList(J, "constructs_derived_from");
  E.UnlessDerivedFrom = stringOrList(J, "unless_derived_from");
  E.Types = stringOrList(J, "types");
  E.Pair = J.value("pair", "");
  E.ShapeSpecialized = J.value("shape_specialized", false);
  if (J.contains("param_type"))
    E.ParamType = {J.at("param_type").at("index").get<unsigned>(), J.at("param_type").at("type").get<std::string>()};
  if (J.contains("device_arg"))
    E.DeviceArg = J.at("device_arg").get<unsigned>();
  if (J.contains("cpu_role"))
    E.CpuRole = roleOf(J, "cpu_role");
  if (J.contains("value_arg"))
    E.ValueArg = J.at("value_arg").get<unsigned>();
  if (J.contains("handle_arg"))
    E.HandleArg = J.at("handle_arg").get<unsigned>();
  if (J.contains("metadata_when_set")) {
    E.MetadataArg = J.at("metadata_when_set").at("index").get<unsigned>();
    E.MetadataFields = J.at("metadata_when_set").at("fields").get<std::vector<std::string>>();
  }
  if (J.contains("enum_arg")) {
    const json &EA = J.at("enum_arg");
    E.EnumArg = EA.at("index").get<unsigned>();
    for (auto It = EA.at("roles").begin(); It != EA.at("roles").end(); ++It) {
      auto R = parseRole(It.value().get<std::string>());
      if (!R)
        throw std::runtime_error("unknown role '" + It.value().get<std::string>() + "' in enum_arg");
      E.EnumRoles[It.key()] = *R;
    }
  }
  if (E.Callees.empty() && E.Method.empty() && E.ConstructsDerivedFrom.empty() && E.Types.empty())
    throw std::runtime_error("entry with role '" + std::string(roleName(E.R)) +
                             "' names no callee, method, constructs_derived_from or types");
  return E;
}

llvm::StringRef lastComponent(llvm::StringRef Qualified) {
  size_t Pos = Qualified.rfind("::");
  return Pos == llvm::StringRef::npos ? Qualified : Qualified.substr(Pos + 2);
}

const Expr *stripArg(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && !isa<CXXTemporaryObjectExpr>(C) && C->getNumArgs() >= 1 &&
             (C->getNumArgs() == 1 || isa<CXXDefaultArgExpr>(C->getArg(1))))
      E = C->getArg(0);
    else
      return E;
  }
}
} // namespace

std::optional<Role> parseRole(llvm::StringRef Name) {
  for (const auto &[N, R] : RoleNames)
    if (Name == N)
      return R;
  return std::nullopt;
}

llvm::StringRef roleName(Role R) {
  for (const auto &[N, RR] : RoleNames)
    if (RR == R)
      return N;
  return "?";
}

std::string plainQualifiedName(const NamedDecl *D) {
  std::string Out;
  const DeclContext *Ctx = D->getDeclContext();
  llvm::SmallVector<std::string, 6> Parts;
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    Parts.push_back(FD->getNameInfo().getName().getAsString());
  else
    Parts.push_back(D->getDeclName().getAsString());
  for (; Ctx && !Ctx->isTranslationUnit(); Ctx = Ctx->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(Ctx)) {
      if (NS->isInline() || NS->isAnonymousNamespace())
        continue;
      Parts.push_back(NS->getName().str());
    } else if (const auto *RD = dyn_cast<RecordDecl>(Ctx)) {
      if (RD->getIdentifier())
        Parts.push_back(RD->getName().str());
    } else if (const auto *ED = dyn_cast<EnumDecl>(Ctx)) {
      if (ED->isScoped())
        Parts.push_back(ED->getName().str());
    } else if (isa<LinkageSpecDecl>(Ctx) || isa<ExportDecl>(Ctx)) {
      continue;
    } else {
      break;
    }
  }
  for (auto It = Parts.rbegin(); It != Parts.rend(); ++It) {
    if (!Out.empty())
      Out += "::";
    Out += *It;
  }
  return Out;
}

bool isDerivedFromName(const CXXRecordDecl *RD, llvm::StringRef Name) {
  if (!RD)
    return false;
  RD = RD->getDefinition() ? RD->getDefinition() : RD;
  if (plainQualifiedName(RD) == Name)
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    if (plainQualifiedName(Spec->getSpecializedTemplate()) == Name)
      return true;
  if (!RD->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &B : RD->bases()) {
    const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
    if (!Base) {
      if (const auto *TST = B.getType()->getAs<TemplateSpecializationType>())
        if (const TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl())
          if (plainQualifiedName(TD) == Name)
            return true;
      continue;
    }
    if (isDerivedFromName(Base, Name))
      return true;
  }
  return false;
}

DeviceKind classifyDeviceArg(const Expr *E) {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return DeviceKind::NotDevice;
  E = stripArg(E);
  QualType T = E->getType().getCanonicalType().getUnqualifiedType();
  std::string TypeName;
  if (const auto *RD = T->getAsCXXRecordDecl())
    TypeName = plainQualifiedName(RD);
  else if (const auto *ET = T->getAs<EnumType>())
    TypeName = plainQualifiedName(ET->getDecl());

  auto FromName = [](llvm::StringRef N) {
    N = lastComponent(N);
    if (N == "kCPU" || N == "CPU")
      return DeviceKind::Cpu;
    if (N.starts_with("k") || N == "CUDA" || N == "HIP" || N == "MPS" || N == "XLA" || N == "XPU" || N == "Vulkan")
      return DeviceKind::Accelerator;
    return DeviceKind::UnknownDevice;
  };

  if (TypeName == "c10::ScalarType" || TypeName == "caffe2::TypeMeta" || TypeName == "at::Tensor" ||
      TypeName == "c10::MemoryFormat" || TypeName == "c10::Layout")
    return DeviceKind::NotDevice;
  if (const auto *SL = dyn_cast<StringLiteral>(E)) {
    llvm::StringRef S = SL->getString();
    return S.starts_with("cpu") ? DeviceKind::Cpu : DeviceKind::Accelerator;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *VD = DRE->getDecl();
    if (isa<EnumConstantDecl>(VD))
      return TypeName == "c10::DeviceType" ? FromName(VD->getName()) : DeviceKind::NotDevice;
    if (const auto *Var = dyn_cast<VarDecl>(VD)) {
      if (TypeName == "c10::DeviceType" && Var->getName().starts_with("k"))
        return FromName(Var->getName());
      if (TypeName == "c10::Device" || TypeName == "c10::DeviceType") {
        if (const Expr *Init = Var->getInit(); Init && Var->getType().isConstQualified())
          return classifyDeviceArg(Init);
        if (const Expr *Init = Var->getInit(); Init && !Var->isLocalVarDeclOrParm())
          return classifyDeviceArg(Init);
        if (const Expr *Init = Var->getInit(); Init && Var->isLocalVarDecl()) {
          DeviceKind K = classifyDeviceArg(Init);
          return K == DeviceKind::Cpu ? DeviceKind::Cpu : DeviceKind::UnknownDevice;
        }
        return DeviceKind::UnknownDevice;
      }
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    DeviceKind A = classifyDeviceArg(CO->getTrueExpr()), B = classifyDeviceArg(CO->getFalseExpr());
    if (A == B)
      return A;
    return DeviceKind::UnknownDevice;
  }
  if (TypeName == "c10::Device") {
    if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() >= 1)
      return classifyDeviceArg(C->getArg(0));
    return DeviceKind::UnknownDevice;
  }
  if (TypeName == "c10::DeviceType")
    return DeviceKind::UnknownDevice;
  if (TypeName == "c10::TensorOptions") {
    // Options built inline: look for a .device(...) in the chain.
    for (const Expr *Cur = E; Cur;) {
      const auto *MC = dyn_cast<CXXMemberCallExpr>(Cur);
      if (!MC)
        break;
      if (const auto *MD = MC->getMethodDecl(); MD && MD->getName() == "device" && MC->getNumArgs() >= 1)
        return classifyDeviceArg(MC->getArg(0));
      Cur = stripArg(MC->getImplicitObjectArgument());
    }
    if (const auto *CE = dyn_cast<CallExpr>(E))
      if (const auto *FD = CE->getDirectCallee(); FD && FD->getName() == "device" && CE->getNumArgs() >= 1)
        return classifyDeviceArg(CE->getArg(0));
    return DeviceKind::NotDevice;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const auto *FD = CE->getDirectCallee(); FD && plainQualifiedName(FD) == "at::Tensor::device")
      return DeviceKind::UnknownDevice;
  return DeviceKind::NotDevice;
}

llvm::Error ApiProfiles::addJson(llvm::StringRef Text, llvm::StringRef SourceName) {
  auto Fail = [&](const std::string &Msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: invalid API profile: %s",
                                   SourceName.str().c_str(), Msg.c_str());
  };
  json J = json::parse(Text.begin(), Text.end(), nullptr, /*allow_exceptions=*/false);
  if (J.is_discarded())
    return Fail("not valid JSON");
  if (!J.is_object())
    return Fail("the top level must be an object");
  auto P = std::make_unique<Profile>();
  try {
    P->Source = SourceName.str();
    P->Name = J.at("name").get<std::string>();
    P->Description = J.value("description", "");
    std::string DC = J.value("device_context", "markers");
    if (DC == "always")
      P->Device = DeviceContext::Always;
    else if (DC != "markers")
      return Fail("device_context must be \"markers\" or \"always\", not \"" + DC + "\"");
    if (J.contains("device_markers")) {
      const json &M = J.at("device_markers");
      P->MarkerDecls = stringOrList(M, "declarations");
      P->MarkerTypes = stringOrList(M, "types");
      P->MarkerCalls = stringOrList(M, "calls");
    }
    size_t Index = 0;
    for (const json &E : J.at("entries")) {
      try {
        P->Entries.push_back(parseEntry(E));
      } catch (const std::exception &Ex) {
        return Fail("entry " + std::to_string(Index) + ": " + Ex.what());
      }
      ++Index;
    }
  } catch (const json::exception &Ex) {
    return Fail(Ex.what());
  } catch (const std::exception &Ex) {
    return Fail(Ex.what());
  }
  for (ProfileEntry &E : P->Entries)
    E.Owner = P.get();
  index(*P);
  Profiles.push_back(std::move(P));
  return llvm::Error::success();
}

llvm::Error ApiProfiles::addFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "%s: cannot read API profile: %s", Path.str().c_str(),
                                   Buf.getError().message().c_str());
  return addJson((*Buf)->getBuffer(), Path);
}

void ApiProfiles::addBuiltins() {
  for (const EmbeddedFile &F : embeddedProfiles())
    llvm::cantFail(addJson(F.Text, F.Name));
}

void ApiProfiles::index(const Profile &P) {
  for (const ProfileEntry &E : P.Entries) {
    for (const std::string &C : E.Callees)
      ByCalleeName[lastComponent(C)].push_back(&E);
    if (!E.Method.empty())
      ByMethodName[E.Method].push_back(&E);
    if (!E.ConstructsDerivedFrom.empty())
      Constructs.push_back(&E);
    if (!E.Types.empty())
      TypeEntries.push_back(&E);
  }
  for (const auto &D : P.MarkerDecls)
    MarkerDecls[D] = true;
  for (const auto &T : P.MarkerTypes)
    MarkerTypes[T] = true;
  for (const auto &C : P.MarkerCalls)
    MarkerCalls[C] = true;
}

static bool calleeMatches(const ProfileEntry &E, const FunctionDecl *FD) {
  std::string Name = plainQualifiedName(FD);
  for (const std::string &C : E.Callees)
    if (C == Name)
      return true;
  if (E.Overrides)
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      for (const CXXMethodDecl *O : MD->overridden_methods())
        if (calleeMatches(E, O))
          return true;
  return false;
}

static std::optional<RoleMatch> refineByArguments(const ProfileEntry &E, const CallExpr *CE,
                                                  const FunctionDecl *FD) {
  auto Arg = [&](unsigned I) -> const Expr * {
    unsigned Offset = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    return I + Offset < CE->getNumArgs() ? CE->getArg(I + Offset) : nullptr;
  };
  if (E.ParamType) {
    if (E.ParamType->first >= FD->getNumParams())
      return std::nullopt;
    QualType PT = FD->getParamDecl(E.ParamType->first)->getType().getNonReferenceType();
    const auto *RD = PT->getAsCXXRecordDecl();
    if (!RD || plainQualifiedName(RD) != E.ParamType->second)
      return std::nullopt;
  }
  Role R = E.R;
  if (E.DeviceArg) {
    switch (classifyDeviceArg(Arg(*E.DeviceArg))) {
    case DeviceKind::Cpu:
      if (!E.CpuRole)
        return std::nullopt;
      R = *E.CpuRole;
      break;
    case DeviceKind::NotDevice:
      return std::nullopt;
    default:
      break;
    }
  }
  if (E.EnumArg) {
    const Expr *A = Arg(*E.EnumArg);
    if (!A)
      return std::nullopt;
    A = A->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(A);
    if (!DRE)
      return RoleMatch{R, &E};
    auto It = E.EnumRoles.find(DRE->getDecl()->getName().str());
    if (It == E.EnumRoles.end())
      return std::nullopt;
    R = It->second;
  }
  return RoleMatch{R, &E};
}

std::optional<RoleMatch> ApiProfiles::matchCall(const CallExpr *CE) const {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return std::nullopt;
  if (FD->getIdentifier() || FD->isOverloadedOperator()) {
    std::string Short = FD->getNameInfo().getName().getAsString();
    if (auto It = ByCalleeName.find(Short); It != ByCalleeName.end())
      for (const ProfileEntry *E : It->second)
        if (calleeMatches(*E, FD))
          if (auto M = refineByArguments(*E, CE, FD))
            return M;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      if (auto It = ByMethodName.find(Short); It != ByMethodName.end())
        for (const ProfileEntry *E : It->second)
          if (isDerivedFromName(MD->getParent(), E->ClassDerivedFrom))
            if (auto M = refineByArguments(*E, CE, FD))
              return M;
  }
  return std::nullopt;
}

std::optional<RoleMatch> ApiProfiles::matchConstruct(const CXXConstructExpr *CE) const {
  const CXXRecordDecl *RD = CE->getConstructor()->getParent();
  if (CE->getConstructor()->isCopyOrMoveConstructor())
    return std::nullopt;
  for (const ProfileEntry *E : Constructs)
    for (const std::string &Base : E->ConstructsDerivedFrom)
      if (isDerivedFromName(RD, Base) &&
          llvm::none_of(E->UnlessDerivedFrom, [&](const std::string &U) { return isDerivedFromName(RD, U); }))
        return RoleMatch{E->R, E};
  return std::nullopt;
}

std::optional<RoleMatch> ApiProfiles::match(const Expr *E) const {
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return matchCall(CE);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return matchConstruct(CE);
  return std::nullopt;
}

std::optional<RoleMatch> ApiProfiles::matchVarType(const VarDecl *VD) const { return matchType(VD->getType()); }

std::optional<RoleMatch> ApiProfiles::matchType(QualType T) const {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return std::nullopt;
  std::string Name = plainQualifiedName(RD);
  for (const ProfileEntry *E : TypeEntries)
    for (const std::string &T : E->Types)
      if (T == Name)
        return RoleMatch{E->R, E};
  return std::nullopt;
}

bool ApiProfiles::isDeviceMarkerDecl(const NamedDecl *D) const {
  return !MarkerDecls.empty() && MarkerDecls.count(plainQualifiedName(D));
}

bool ApiProfiles::isDeviceMarkerType(QualType T) const {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && !MarkerTypes.empty() && MarkerTypes.count(plainQualifiedName(RD));
}

bool ApiProfiles::isDeviceMarkerCall(const FunctionDecl *FD) const {
  return !MarkerCalls.empty() && MarkerCalls.count(plainQualifiedName(FD));
}

} // namespace clang::tidy::mlperf
