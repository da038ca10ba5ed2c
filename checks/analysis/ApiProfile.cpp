#include "ApiProfile.h"
#include "Embedded.h"
#include "SourceUtils.h"

#include "InputFiles.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"

namespace clang::tidy::mlperf {

llvm::StringRef lastComponent(llvm::StringRef Qualified) {
  size_t Pos = Qualified.rfind("::");
  return Pos == llvm::StringRef::npos ? Qualified : Qualified.substr(Pos + 2);
}

const Expr *readObject(const CallExpr *Read, const ApiProfiles &P) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Read))
    return MC->getImplicitObjectArgument();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Read))
    return OC->getNumArgs() == 2 ? OC->getArg(1) : nullptr;
  for (const Expr *Arg : Read->arguments())
    if (P.autogradTensorProfile(Arg->getType()))
      return Arg;
  return nullptr;
}

/// The index key of callees spelled with `*`: no function is named that.
static constexpr llvm::StringLiteral PatternKey = "*";

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

llvm::Error ApiProfiles::addJson(llvm::StringRef Text, llvm::StringRef SourceName) {
  llvm::Expected<std::unique_ptr<Profile>> P = parseProfileJson(Text, SourceName);
  if (!P)
    return P.takeError();
  index(**P);
  Profiles.push_back(std::move(*P));
  return llvm::Error::success();
}

llvm::Error ApiProfiles::addFile(llvm::StringRef Path) {
  auto Buf = readStructuredFile(Path, "API profile");
  if (!Buf)
    return Buf.takeError();
  return addJson((*Buf)->getBuffer(), Path);
}

void ApiProfiles::addBuiltins() {
  // The built-in profiles are validated by the tests; one that fails here is a build defect.
  for (const EmbeddedFile &F : embeddedProfiles())
    if (llvm::Error E = addJson(F.Text, F.Name))
      llvm::report_fatal_error(std::move(E));
}

void ApiProfiles::index(const Profile &P) {
  for (const ProfileEntry &E : P.Entries) {
    for (const std::string &C : E.Callees)
      ByCalleeName[llvm::StringRef(C).contains('*') ? llvm::StringRef(PatternKey) : lastComponent(C)].push_back(&E);
    if (!E.Method.empty())
      ByMethodName[E.Method].push_back(&E);
    if (!E.ConstructsDerivedFrom.empty() || !E.Constructs.empty())
      Constructs.push_back(&E);
    if (!E.Types.empty())
      TypeEntries.push_back(&E);
    ByRole[E.R].push_back(&E);
    if (E.KernelLaunch)
      KernelLaunches.push_back(&E);
  }
  for (const auto &D : P.MarkerDecls)
    MarkerDecls[D] = true;
  for (const auto &T : P.MarkerTypes)
    MarkerTypes[T] = true;
  for (const auto &C : P.MarkerCalls)
    MarkerCalls[C] = true;
  auto Append = [](std::vector<std::string> &To, const std::vector<std::string> &From) {
    To.insert(To.end(), From.begin(), From.end());
  };
  const DeviceModel &D = P.Devices;
  Append(Devices.DeviceTypes, D.DeviceTypes);
  Append(Devices.DeviceKindTypes, D.DeviceKindTypes);
  Append(Devices.OptionsTypes, D.OptionsTypes);
  Append(Devices.NotDeviceTypes, D.NotDeviceTypes);
  Append(Devices.DeviceGetters, D.DeviceGetters);
  Append(Devices.DeviceNames, D.DeviceNames);
  Append(Devices.DeviceFollowingTypes, D.DeviceFollowingTypes);
  Append(Devices.OptionsGetters, D.OptionsGetters);
  Append(Devices.CpuNames, D.CpuNames);
  Append(Devices.AcceleratorNames, D.AcceleratorNames);
  Append(Devices.CpuStringPrefixes, D.CpuStringPrefixes);
  if (!D.OptionsDeviceMethod.empty())
    Devices.OptionsDeviceMethod = D.OptionsDeviceMethod;
}

/// Whether \p Name matches \p Pattern, where `*` stands for any characters.
static bool wildcardMatch(llvm::StringRef Pattern, llvm::StringRef Name) {
  size_t Star = Pattern.find('*');
  if (Star == llvm::StringRef::npos)
    return Pattern == Name;
  if (!Name.consume_front(Pattern.take_front(Star)))
    return false;
  llvm::StringRef Rest = Pattern.drop_front(Star + 1);
  for (size_t I = 0; I <= Name.size(); ++I)
    if (wildcardMatch(Rest, Name.drop_front(I)))
      return true;
  return false;
}

/// A callee with `*` names the project's own functions by a convention
/// (`*_backward`), never a library's: not one declared in a system header.
static bool patternMatches(llvm::StringRef Pattern, llvm::StringRef Name, const FunctionDecl *FD) {
  return wildcardMatch(Pattern, Name) && !declaredInSystemHeader(FD);
}

static bool calleeMatches(const ProfileEntry &E, const FunctionDecl *FD) {
  std::string Name = plainQualifiedName(FD);
  for (const std::string &C : E.Callees)
    if (C == Name || (llvm::StringRef(C).contains('*') && patternMatches(C, Name, FD)))
      return true;
  if (E.Overrides)
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      for (const CXXMethodDecl *O : MD->overridden_methods())
        if (calleeMatches(E, O))
          return true;
  return false;
}

/// The function a call names: its direct callee or, for a call the parser
/// left unresolved because an argument involves a declaration it could not
/// resolve (a type of a header that was not found), the one function of C
/// linkage that its name finds. A C function cannot be overloaded, so the
/// call is that function whatever its arguments: `llama_decode(ctx.get(),
/// batch)` with `ctx` of a missing header's type is still llama_decode. (A
/// C++ function of the same name in an unresolved argument's namespace, which
/// argument-dependent lookup might prefer, is not considered.)
static const FunctionDecl *namedCallee(const CallExpr *CE) {
  if (const FunctionDecl *FD = CE->getDirectCallee())
    return FD;
  const auto *ULE = dyn_cast<UnresolvedLookupExpr>(CE->getCallee()->IgnoreParenImpCasts());
  if (!ULE || ULE->getNumDecls() == 0 || ULE->hasExplicitTemplateArgs())
    return nullptr;
  const FunctionDecl *Named = nullptr;
  for (const NamedDecl *D : ULE->decls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D->getUnderlyingDecl());
    if (!FD || !FD->isExternC() || (Named && Named->getCanonicalDecl() != FD->getCanonicalDecl()))
      return nullptr;
    Named = FD;
  }
  return Named;
}

/// Entries that a call names by callee, then by method, in load order.
template <class Fn>
static const ProfileEntry *forCallEntries(const llvm::StringMap<std::vector<const ProfileEntry *>> &ByCallee,
                                          const llvm::StringMap<std::vector<const ProfileEntry *>> &ByMethod,
                                          const CallExpr *CE, Fn Accept) {
  const FunctionDecl *FD = namedCallee(CE);
  if (!FD || !(FD->getIdentifier() || FD->isOverloadedOperator()))
    return nullptr;
  std::string Short = FD->getNameInfo().getName().getAsString();
  for (llvm::StringRef Key : {llvm::StringRef(Short), llvm::StringRef(PatternKey)})
    if (auto It = ByCallee.find(Key); It != ByCallee.end())
      for (const ProfileEntry *E : It->second)
        if (calleeMatches(*E, FD) && Accept(*E))
          return E;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (auto It = ByMethod.find(Short); It != ByMethod.end())
      for (const ProfileEntry *E : It->second)
        if (isDerivedFromName(MD->getParent(), E->ClassDerivedFrom) && Accept(*E))
          return E;
  return nullptr;
}

static bool constructsRecord(const ProfileEntry &E, const CXXRecordDecl *RD) {
  if (!E.Constructs.empty()) {
    std::string Name = plainQualifiedName(RD);
    if (llvm::is_contained(E.Constructs, Name))
      return true;
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
        Spec && llvm::is_contained(E.Constructs, plainQualifiedName(Spec->getSpecializedTemplate())))
      return true;
  }
  for (const std::string &Base : E.ConstructsDerivedFrom)
    if (isDerivedFromName(RD, Base) &&
        llvm::none_of(E.UnlessDerivedFrom, [&](const std::string &U) { return isDerivedFromName(RD, U); }))
      return true;
  return false;
}

/// Whether constructor \p C wraps what it is given rather than allocating:
/// it takes nothing (an empty object), memory (a pointer), or another object
/// of its class (a view of a region: `GpuMat(const GpuMat &, Rect)`).
static bool wrapsItsArguments(const CXXConstructorDecl *C) {
  const CXXRecordDecl *Class = C->getParent()->getCanonicalDecl();
  return C->getNumParams() == 0 || llvm::any_of(C->parameters(), [&](const ParmVarDecl *P) {
           QualType T = P->getType().getNonReferenceType();
           const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
           return T->isPointerType() || (RD && RD->getCanonicalDecl() == Class);
         });
}

static bool constructs(const ProfileEntry &E, const CXXConstructExpr *CE) {
  const CXXConstructorDecl *C = CE->getConstructor();
  if (C->isCopyOrMoveConstructor() || (E.R == Role::Acquire && wrapsItsArguments(C)))
    return false;
  return constructsRecord(E, C->getParent());
}

/// Whether \p RD is one of \p M's records, or with `nested`, has one among
/// its template type arguments (`normal_iterator<device_ptr<float>>`,
/// `execution_policy_base<cuda_cub::tag>`), up to \p Depth levels down.
static bool namesRecord(const CXXRecordDecl *RD, const ProfileEntry::ParamTypeMatch &M, unsigned Depth) {
  if (!RD)
    return false;
  if (llvm::is_contained(M.Types, plainQualifiedName(RD)))
    return true;
  const auto *TS = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!M.Nested || !TS || Depth == 0)
    return false;
  return llvm::any_of(TS->getTemplateArgs().asArray(), [&](const TemplateArgument &TA) {
    return TA.getKind() == TemplateArgument::Type && namesRecord(TA.getAsType()->getAsCXXRecordDecl(), M, Depth - 1);
  });
}

std::optional<RoleMatch> ApiProfiles::refineByArguments(const ProfileEntry &E, const CallExpr *CE,
                                                        const FunctionDecl *FD) const {
  auto Arg = [&](unsigned I) { return argumentFor(CE, I); };
  if (E.ParamType) {
    if (E.ParamType->Index >= FD->getNumParams())
      return std::nullopt;
    QualType PT = FD->getParamDecl(E.ParamType->Index)->getType().getNonReferenceType();
    if (PT->isPointerType())
      PT = PT->getPointeeType();
    if (!namesRecord(PT->getAsCXXRecordDecl(), *E.ParamType, 4))
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

/// `loss.item<float>()`, `model->forward(x)` in an uninstantiated template:
/// entries of the roles that make a loop hot or cost a round trip, named as
/// methods (of a profile's tensor type, a `method` entry, an override), whose
/// role does not depend on the arguments.
std::optional<RoleMatch> ApiProfiles::matchDependentCall(const CallExpr *CE) const {
  const auto *ME = dyn_cast<CXXDependentScopeMemberExpr>(CE->getCallee()->IgnoreParens());
  if (!ME || !ME->getMember().isIdentifier())
    return std::nullopt;
  llvm::StringRef Name = ME->getMember().getAsIdentifierInfo()->getName();
  auto Usable = [](const ProfileEntry &E) {
    return (E.R == Role::Materialize || E.R == Role::Sync || E.R == Role::Step) && !E.DeviceArg && !E.EnumArg &&
           !E.ParamType && !E.ShapeSpecialized;
  };
  if (auto It = ByCalleeName.find(Name); It != ByCalleeName.end())
    for (const ProfileEntry *E : It->second) {
      if (!Usable(*E))
        continue;
      for (const std::string &Callee : E->Callees) {
        llvm::StringRef Qualifier = llvm::StringRef(Callee).rsplit("::").first;
        if (lastComponent(Callee) == Name &&
            (E->Overrides || llvm::is_contained(E->Owner->AutogradTensorTypes, Qualifier)))
          return RoleMatch{E->R, E, /*ByName=*/true};
      }
    }
  if (auto It = ByMethodName.find(Name); It != ByMethodName.end())
    for (const ProfileEntry *E : It->second)
      if (Usable(*E))
        return RoleMatch{E->R, E, /*ByName=*/true};
  return std::nullopt;
}

/// `std::get<I>(x)`: I, and the call that made the tuple x (directly, or the
/// initializer of a local that nothing assigns again).
static std::optional<std::pair<unsigned, const CallExpr *>> tupleElementOf(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  const TemplateArgumentList *Args = FD ? FD->getTemplateSpecializationArgs() : nullptr;
  if (!Args || Args->size() < 1 || Args->get(0).getKind() != TemplateArgument::Integral || CE->getNumArgs() != 1 ||
      plainQualifiedName(FD) != "std::get")
    return std::nullopt;
  const Expr *Tuple = stripWrappers(CE->getArg(0));
  if (const VarDecl *V = namedVar(Tuple); V && V->isLocalVarDecl() && V->getInit()) {
    if (assignedAfterDeclaration(V))
      return std::nullopt;
    Tuple = stripWrappers(V->getInit());
  }
  const auto *Made = dyn_cast<CallExpr>(Tuple);
  if (!Made)
    return std::nullopt;
  return std::make_pair(static_cast<unsigned>(Args->get(0).getAsIntegral().getZExtValue()), Made);
}

std::optional<RoleMatch> ApiProfiles::matchCall(const CallExpr *CE) const {
  if (isa<CUDAKernelCallExpr>(CE) && !KernelLaunches.empty())
    return RoleMatch{KernelLaunches.front()->R, KernelLaunches.front()};
  if (!namedCallee(CE))
    return matchDependentCall(CE);
  std::optional<RoleMatch> M;
  if (auto Element = tupleElementOf(CE)) {
    forCallEntries(ByCalleeName, ByMethodName, Element->second, [&](const ProfileEntry &E) {
      if (E.TupleElement == Element->first)
        M = RoleMatch{E.R, &E};
      return M.has_value();
    });
    if (M)
      return M;
  }
  forCallEntries(ByCalleeName, ByMethodName, CE, [&](const ProfileEntry &E) {
    if (E.TupleElement)
      return false;
    if (isPrimaryRole(E.R))
      M = refineByArguments(E, CE, namedCallee(CE));
    return M.has_value();
  });
  if (const CXXRecordDecl *RD = M ? nullptr : madeRecord(CE))
    for (const ProfileEntry *E : Constructs)
      if (isPrimaryRole(E->R) && constructsRecord(*E, RD))
        return RoleMatch{E->R, E};
  return M;
}

const CXXRecordDecl *ApiProfiles::madeRecord(const CallExpr *CE) const {
  const FunctionDecl *FD = CE->getDirectCallee();
  const TemplateArgumentList *Args = FD ? FD->getTemplateSpecializationArgs() : nullptr;
  if (!Args || Args->size() == 0 || Args->get(0).getKind() != TemplateArgument::Type || !find(CE, Role::Make))
    return nullptr;
  return Args->get(0).getAsType()->getAsCXXRecordDecl();
}

std::optional<RoleMatch> ApiProfiles::matchConstruct(const CXXConstructExpr *CE) const {
  for (const ProfileEntry *E : Constructs)
    if (isPrimaryRole(E->R) && constructs(*E, CE))
      return RoleMatch{E->R, E};
  return std::nullopt;
}

/// Whether \p T is the permissive type that mlperf-lint makes up for the
/// names of a header that was not found, or a type made up from it
/// (linter/engine/MissingNames.h).
static bool madeUpType(QualType T) {
  if (T.isNull()) // a ParenListExpr of an uninstantiated template: `T value(first)`
    return false;
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return false;
  auto IsAny = [](const CXXRecordDecl *D) { return D && D->getIdentifier() && D->getName() == "__mlperf_any"; };
  if (IsAny(RD))
    return true;
  if (!RD->hasDefinition())
    return false;
  return llvm::any_of(RD->bases(), [&](const CXXBaseSpecifier &B) { return IsAny(B.getType()->getAsCXXRecordDecl()); });
}

/// Whether \p E involves a declaration the parser could not resolve, or one
/// made up for a header that was not found: either way what it is, and what
/// value it has, is unknown. (Made-up declarations keep the classes and loops
/// that use them; they never decide a role.)
static bool unresolved(const Expr *E) {
  if (E->containsErrors() || madeUpType(E->getType()))
    return true;
  for (const Stmt *Child : E->children())
    if (const auto *C = dyn_cast_or_null<Expr>(Child); C && unresolved(C))
      return true;
  return false;
}

/// Whether the only part of \p CE that involves a declaration the parser
/// could not resolve is the size of an allocation or copy, which never
/// changes what the call is: `cudaMalloc(&p, w * 4)` where `w` comes from a
/// type of a header that was not found is still an allocation. (A batch
/// size or slice length is what its checks judge: not there.)
static bool onlySizesUnresolved(const CallExpr *CE, const ProfileEntry &Entry) {
  if (!CE->getDirectCallee() || unresolved(CE->getCallee()) || !Entry.SizeArg ||
      (Entry.R != Role::Acquire && Entry.R != Role::ToDevice && Entry.R != Role::Materialize))
    return false;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I)
    if (unresolved(CE->getArg(I)) && I != *Entry.SizeArg)
      return false;
  return true;
}

/// Whether the unresolved arguments of \p CE (a call of a C function whose
/// name alone says what it is: namedCallee) are none that its role reads: a
/// step, a wait, a release, a construction or an acquisition is the same
/// call whatever the context or parameters it gets, but not a copy, whose
/// value and memory are judged, nor a call whose role an argument decides
/// (a direction, a device, the handle acquired or released).
static bool onlyUnreadArgumentsUnresolved(const CallExpr *CE, const ProfileEntry &Entry) {
  const FunctionDecl *Callee = namedCallee(CE);
  if (unresolved(CE->getCallee()) || !Callee || !Callee->isExternC() ||
      !llvm::is_contained({Role::Step, Role::Sync, Role::Release, Role::Finalize, Role::Construct, Role::Acquire},
                          Entry.R))
    return false;
  llvm::SmallVector<std::optional<unsigned>, 12> Read = {
      Entry.DeviceArg, Entry.EnumArg, Entry.HandleArg, Entry.ValueArg,    Entry.DestArg,
      Entry.IntoArg,   Entry.FlagArg, Entry.NameArg,   Entry.GradModeArg, Entry.MetadataArg};
  if (Entry.ParamType)
    Read.push_back(Entry.ParamType->Index);
  for (unsigned I = 0; I < CE->getNumArgs(); ++I)
    if (unresolved(CE->getArg(I)) &&
        (llvm::is_contained(Read, std::optional<unsigned>(I)) || llvm::is_contained(Entry.PointerArgs, I)))
      return false;
  return true;
}

std::optional<RoleMatch> ApiProfiles::match(const Expr *E) const {
  // Nothing that involves a declaration the parser could not resolve (a type
  // from a header that was not found) has a role, but for the size of a call
  // the parser resolved and the arguments that do not change what a C
  // function's call is; nor anything that involves a declaration made up for
  // such a header.
  if (unresolved(E)) {
    const auto *CE = dyn_cast<CallExpr>(E);
    std::optional<RoleMatch> M = CE && !isa<CXXOperatorCallExpr>(CE) ? matchCall(CE) : std::nullopt;
    return M && (onlySizesUnresolved(CE, *M->Entry) || onlyUnreadArgumentsUnresolved(CE, *M->Entry)) ? M : std::nullopt;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return matchCall(CE);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return matchConstruct(CE);
  return std::nullopt;
}

const ProfileEntry *ApiProfiles::find(const Expr *E, Role R) const {
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return forCallEntries(ByCalleeName, ByMethodName, CE,
                          [&](const ProfileEntry &PE) { return PE.R == R && !PE.TupleElement; });
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    for (const ProfileEntry *PE : Constructs)
      if (PE->R == R && constructs(*PE, CE))
        return PE;
  return nullptr;
}

std::optional<RoleMatch> ApiProfiles::matchVarType(const VarDecl *VD) const {
  if (VD->isInvalidDecl())
    return std::nullopt;
  return matchType(VD->getType());
}

std::optional<RoleMatch> ApiProfiles::matchType(QualType T) const {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return std::nullopt;
  std::string Name = plainQualifiedName(RD);
  for (const ProfileEntry *E : TypeEntries)
    if (isPrimaryRole(E->R) && llvm::is_contained(E->Types, Name))
      return RoleMatch{E->R, E};
  return std::nullopt;
}

const ProfileEntry *ApiProfiles::findType(QualType T, Role R) const {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  T = T.getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  const auto *ET = T->getAs<EnumType>();
  for (const ProfileEntry *E : TypeEntries)
    if (E->R == R)
      for (const std::string &Name : E->Types)
        if ((RD && isDerivedFromName(RD, Name)) || (ET && plainQualifiedName(ET->getDecl()) == Name))
          return E;
  return nullptr;
}

llvm::ArrayRef<const ProfileEntry *> ApiProfiles::entries(Role R) const {
  auto It = ByRole.find(R);
  if (It == ByRole.end())
    return {};
  return It->second;
}

const ProfileEntry *ApiProfiles::fixFor(const Profile &P, Role R) const {
  for (const ProfileEntry *E : entries(R))
    if (E->Owner == &P && !E->Fix.empty())
      return E;
  return nullptr;
}

bool ApiProfiles::isDeviceMarkerDecl(const NamedDecl *D) const {
  return !MarkerDecls.empty() && MarkerDecls.count(plainQualifiedName(D));
}

bool ApiProfiles::isDeviceMarkerType(QualType T) const {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && !MarkerTypes.empty() && MarkerTypes.count(plainQualifiedName(RD));
}

bool ApiProfiles::isModuleContainer(const CXXRecordDecl *RD) const {
  auto Named = [&](const CXXRecordDecl *R) {
    std::string Name = R ? plainQualifiedName(R) : "";
    return llvm::any_of(Profiles, [&](const auto &P) { return llvm::is_contained(P->ModuleContainers, Name); });
  };
  if (!RD)
    return false;
  if (Named(RD))
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type && Named(Arg.getAsType()->getAsCXXRecordDecl()))
        return true;
  return false;
}

bool ApiProfiles::isDeviceMarkerCall(const FunctionDecl *FD) const {
  return !MarkerCalls.empty() && MarkerCalls.count(plainQualifiedName(FD));
}

const Profile *ApiProfiles::autogradTensorProfile(QualType T) const {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return nullptr;
  std::string Name = plainQualifiedName(RD);
  for (const auto &P : Profiles)
    if (llvm::is_contained(P->AutogradTensorTypes, Name))
      return P.get();
  return nullptr;
}

} // namespace clang::tidy::mlperf
