// Where a device argument (`t.to(x)`, a module's `to(x)`) sends a tensor,
// from the profiles' `devices` model.
#include "ApiProfile.h"
#include "Invariance.h"
#include "SourceUtils.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::mlperf {

static bool nameIn(llvm::StringRef Name, const std::vector<std::string> &Patterns) {
  for (llvm::StringRef P : Patterns)
    if (P.consume_back("*") ? Name.starts_with(P) : Name == P)
      return true;
  return false;
}

llvm::StringRef deviceKindName(DeviceKind K) {
  switch (K) {
  case DeviceKind::Cpu:
    return "cpu";
  case DeviceKind::Accelerator:
    return "accelerator";
  default:
    return "unknown";
  }
}

DeviceKind deviceKindNamed(llvm::StringRef Name) {
  if (Name == "cpu")
    return DeviceKind::Cpu;
  if (Name == "accelerator")
    return DeviceKind::Accelerator;
  return DeviceKind::UnknownDevice;
}

DeviceKind ApiProfiles::deviceKindOfName(llvm::StringRef Name) const {
  Name = lastComponent(Name);
  if (nameIn(Name, Devices.CpuNames))
    return DeviceKind::Cpu;
  if (nameIn(Name, Devices.AcceleratorNames))
    return DeviceKind::Accelerator;
  return DeviceKind::UnknownDevice;
}

/// The qualified name of the class or enum type of \p E, or "".
static std::string typeNameOf(const Expr *E) {
  QualType T = E->getType().getCanonicalType().getUnqualifiedType();
  if (const auto *RD = T->getAsCXXRecordDecl())
    return plainQualifiedName(RD);
  if (const auto *ET = T->getAs<EnumType>())
    return plainQualifiedName(ET->getDecl());
  return "";
}

/// The device whose name \p E is (`device->str()`: the object `device`), or null.
static const Expr *namedDevice(const Expr *E, const DeviceModel &D) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  const FunctionDecl *FD = MC ? MC->getDirectCallee() : nullptr;
  return FD && llvm::is_contained(D.DeviceNames, plainQualifiedName(FD)) ? MC->getImplicitObjectArgument() : nullptr;
}

/// Whether \p E's value is text (`std::string`, `std::string_view`, `const char *`).
static bool isText(const Expr *E) {
  QualType T = E->getType().getNonReferenceType();
  if (T->isPointerType())
    return T->getPointeeType()->isAnyCharacterType();
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
         (RD->getName() == "basic_string" || RD->getName() == "basic_string_view");
}

bool ApiProfiles::isDeviceModelArg(const Expr *E) const {
  const Expr *Value = stripConversions(E);
  auto IsModelType = [&](const std::string &Type) {
    return llvm::is_contained(Devices.DeviceTypes, Type) || llvm::is_contained(Devices.DeviceKindTypes, Type) ||
           llvm::is_contained(Devices.OptionsTypes, Type);
  };
  // A device's name converted to a device where it is passed (`model.to(name)`).
  return IsModelType(typeNameOf(Value)) || namedDevice(Value, Devices) || (isText(Value) && IsModelType(typeNameOf(E)));
}

const Expr *ApiProfiles::followedTensor(const Expr *E) const {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return nullptr;
  E = stripConversions(E);
  const auto *RD = E->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (RD && llvm::is_contained(Devices.DeviceFollowingTypes, plainQualifiedName(RD)))
    return E;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (const auto *MD = MC->getMethodDecl(); MD && llvm::is_contained(Devices.OptionsGetters, plainQualifiedName(MD)))
      return stripConversions(MC->getImplicitObjectArgument());
  return nullptr;
}

DeviceKind ApiProfiles::classifyDeviceArg(const Expr *E, DeviceVariableKind Variable) const {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return DeviceKind::NotDevice;
  const std::string ConvertedTo = typeNameOf(E);
  E = stripConversions(E);
  // A device named by text that a variable holds (`std::string device` from
  // the command line, converted to a device where it is passed): what the
  // variable is known to hold, else a device chosen when the program runs.
  if (!isa<StringLiteral>(E) && isText(E) &&
      (llvm::is_contained(Devices.DeviceTypes, ConvertedTo) || llvm::is_contained(Devices.OptionsTypes, ConvertedTo)))
    return textDeviceKind(E, Variable);
  std::string TypeName = typeNameOf(E);
  const DeviceModel &D = Devices;
  bool IsDevice = llvm::is_contained(D.DeviceTypes, TypeName);
  bool IsDeviceKind = llvm::is_contained(D.DeviceKindTypes, TypeName);

  if (followedTensor(E))
    return DeviceKind::UnknownDevice;
  if (llvm::is_contained(D.NotDeviceTypes, TypeName))
    return DeviceKind::NotDevice;
  if (const auto *SL = dyn_cast<StringLiteral>(E)) {
    llvm::StringRef S = SL->getString();
    return llvm::any_of(D.CpuStringPrefixes, [&](llvm::StringRef P) { return S.starts_with(P); })
               ? DeviceKind::Cpu
               : DeviceKind::Accelerator;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *VD = DRE->getDecl();
    if (isa<EnumConstantDecl>(VD))
      return IsDeviceKind ? deviceKindOfName(VD->getName()) : DeviceKind::NotDevice;
    if (const auto *Var = dyn_cast<VarDecl>(VD)) {
      // A library's constant named like a device kind (`constexpr DeviceType kCUDA`).
      if (IsDeviceKind && deviceKindOfName(Var->getName()) != DeviceKind::UnknownDevice)
        return deviceKindOfName(Var->getName());
      if (IsDevice || IsDeviceKind) {
        if (Variable)
          if (std::optional<DeviceKind> K = Variable(Var, DRE))
            return *K;
        const Expr *Init = Var->getInit();
        if (Init && (Var->getType().isConstQualified() || !Var->isLocalVarDeclOrParm()))
          return classifyDeviceArg(Init, Variable);
        // `auto device = Device(kCPU); if (gpu) device = Device(kCUDA);`: the CPU only if never reassigned.
        if (Init && Var->isLocalVarDecl())
          return classifyDeviceArg(Init, Variable) == DeviceKind::Cpu && !assignedAfterDeclaration(Var)
                     ? DeviceKind::Cpu
                     : DeviceKind::UnknownDevice;
        return DeviceKind::UnknownDevice;
      }
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    DeviceKind A = classifyDeviceArg(CO->getTrueExpr(), Variable), B = classifyDeviceArg(CO->getFalseExpr(), Variable);
    return A == B ? A : DeviceKind::UnknownDevice;
  }
  if (IsDevice) {
    if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() >= 1)
      return classifyDeviceArg(C->getArg(0), Variable);
    return DeviceKind::UnknownDevice;
  }
  if (IsDeviceKind)
    return DeviceKind::UnknownDevice;
  if (llvm::is_contained(D.OptionsTypes, TypeName)) {
    // Options built inline: look for the device setter in the chain.
    auto IsSetter = [&](const FunctionDecl *FD, unsigned Args) {
      return FD && FD->getIdentifier() && FD->getName() == D.OptionsDeviceMethod && Args >= 1;
    };
    for (const Expr *Cur = E; Cur;) {
      const auto *MC = dyn_cast<CXXMemberCallExpr>(Cur);
      if (!MC)
        break;
      if (IsSetter(MC->getMethodDecl(), MC->getNumArgs()))
        return classifyDeviceArg(MC->getArg(0), Variable);
      if (followedTensor(MC))
        return DeviceKind::UnknownDevice;
      Cur = stripConversions(MC->getImplicitObjectArgument());
    }
    if (const auto *CE = dyn_cast<CallExpr>(E); CE && IsSetter(CE->getDirectCallee(), CE->getNumArgs()))
      return classifyDeviceArg(CE->getArg(0), Variable);
    // Options converted from one value (`t.to(name)`: c10::TensorOptions from a device or its name).
    if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() == 1 && !C->isListInitialization())
      return classifyDeviceArg(C->getArg(0), Variable);
    return DeviceKind::NotDevice;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const auto *FD = CE->getDirectCallee();
    if (FD && llvm::is_contained(D.DeviceGetters, plainQualifiedName(FD)))
      return DeviceKind::UnknownDevice;
    // `t.to(device->str())`: the name of a device is that device.
    if (const Expr *Named = namedDevice(CE, D)) {
      DeviceKind K = classifyDeviceArg(Named, Variable);
      return K == DeviceKind::NotDevice ? DeviceKind::UnknownDevice : K; // a device behind a pointer
    }
  }
  return DeviceKind::NotDevice;
}

DeviceKind ApiProfiles::textDeviceKind(const Expr *E, DeviceVariableKind Variable) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *Var = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!Var)
    return DeviceKind::UnknownDevice;
  // A parameter: what its calls pass; text the program computes (`argv[1]`,
  // a parsed option) names a device chosen when it runs.
  if (isa<ParmVarDecl>(Var)) {
    std::optional<DeviceKind> K = Variable ? Variable(Var, DRE) : std::nullopt;
    return K && *K != DeviceKind::NotDevice ? *K : DeviceKind::UnknownDevice;
  }
  // A constant, or a local nothing changes: its initial text.
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  bool Fixed = Var->getType().isConstQualified() ||
               (Var->isLocalVarDecl() && FD && FD->getBody() && !isWrittenIn(Var, FD->getBody()));
  const auto *Literal = Fixed && Var->getInit() ? dyn_cast<StringLiteral>(stripConversions(Var->getInit())) : nullptr;
  return Literal ? classifyDeviceArg(Literal, Variable) : DeviceKind::UnknownDevice;
}

} // namespace clang::tidy::mlperf
