// API profiles: what calls into a framework mean for performance, described as
// roles in JSON so checks reason about roles, not names.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::mlperf {

enum class Role {
  Materialize,  // device -> host copy or wait
  ToDevice,     // host -> device copy
  Sync,         // explicit device synchronization
  Step,         // runs the model: forward, backward, optimizer step, exec
  Construct,    // builds a module, optimizer, loader, executable
  Factory,      // creates a tensor
  HostWrap,     // wraps host memory as a tensor
  NoGradGuard,  // RAII guard that disables autograd
  EvalMode,     // puts a module in evaluation mode
  TrainMode,
  Detach,       // drops autograd history: detach(), or a result that is never differentiable (indices, comparisons)
  Finalize,     // releases a device buffer now
  Acquire,      // acquires a handle-style resource (paired with Release)
  Release,
  HostData,     // a value whose tensors are host memory (a data loader's examples)
};

std::optional<Role> parseRole(llvm::StringRef Name);
llvm::StringRef roleName(Role R);

enum class DeviceContext { Markers, Always };

struct ProfileEntry {
  Role R = Role::Step;
  std::string Kind;  // e.g. forward/backward/optimizer/exec, module/optimizer
  std::vector<std::string> Callees;
  std::string Method, ClassDerivedFrom;
  bool Overrides = false;
  std::vector<std::string> ConstructsDerivedFrom;
  std::vector<std::string> UnlessDerivedFrom;  // exceptions to ConstructsDerivedFrom
  std::vector<std::string> Types;
  std::optional<std::pair<unsigned, std::string>> ParamType;
  std::optional<unsigned> DeviceArg;
  std::optional<Role> CpuRole;
  std::optional<unsigned> EnumArg;
  std::map<std::string, Role> EnumRoles;
  std::string Pair;  // for Acquire: the releasing function
  std::optional<unsigned> HandleArg;  // for Acquire/Release: the argument that is the handle
  std::optional<unsigned> ValueArg;   // for ToDevice: the argument holding the copied value
  bool ShapeSpecialized = false;      // for Step: compiles/specializes per input shape
  /// For Construct: a struct argument whose named fields, when set (true or
  /// non-null), make the construction build only metadata (ggml's no_alloc).
  std::optional<unsigned> MetadataArg;
  std::vector<std::string> MetadataFields;
  const struct Profile *Owner = nullptr;
};

struct Profile {
  std::string Name, Description, Source;
  DeviceContext Device = DeviceContext::Markers;
  std::vector<std::string> MarkerDecls, MarkerTypes, MarkerCalls;
  std::vector<ProfileEntry> Entries;
};

/// A call, construction or declaration matched to a role.
struct RoleMatch {
  Role R;
  const ProfileEntry *Entry;
  llvm::StringRef kind() const { return Entry->Kind; }
  bool deviceAlways() const { return Entry->Owner->Device == DeviceContext::Always; }
};

/// Where an argument says a tensor goes.
enum class DeviceKind { Cpu, Accelerator, UnknownDevice, NotDevice };

/// The set of loaded profiles with an index for fast matching.
class ApiProfiles {
public:
  /// Parses one profile; errors name the source and the problem.
  llvm::Error addJson(llvm::StringRef Json, llvm::StringRef SourceName);
  llvm::Error addFile(llvm::StringRef Path);
  /// Loads the profiles shipped with mlperf-lint.
  void addBuiltins();

  /// Role of a call or construct expression (CallExpr, CXXConstructExpr).
  std::optional<RoleMatch> match(const clang::Expr *E) const;
  /// Role of a variable's declared type (e.g. a no-grad guard).
  std::optional<RoleMatch> matchVarType(const clang::VarDecl *VD) const;
  /// A role given to a type by its `types` list (references see through).
  std::optional<RoleMatch> matchType(clang::QualType T) const;

  bool isDeviceMarkerDecl(const clang::NamedDecl *D) const;
  bool isDeviceMarkerType(clang::QualType T) const;
  bool isDeviceMarkerCall(const clang::FunctionDecl *FD) const;

  llvm::ArrayRef<std::unique_ptr<Profile>> profiles() const { return Profiles; }

private:
  std::optional<RoleMatch> matchCall(const clang::CallExpr *CE) const;
  std::optional<RoleMatch> matchConstruct(const clang::CXXConstructExpr *CE) const;
  void index(const Profile &P);

  std::vector<std::unique_ptr<Profile>> Profiles;
  llvm::StringMap<std::vector<const ProfileEntry *>> ByCalleeName;  // last name component
  llvm::StringMap<std::vector<const ProfileEntry *>> ByMethodName;
  std::vector<const ProfileEntry *> Constructs, TypeEntries;
  llvm::StringMap<bool> MarkerDecls, MarkerTypes, MarkerCalls;
};

/// Qualified name without template arguments or inline namespaces, e.g.
/// "torch::nn::ModuleHolder::operator()".
std::string plainQualifiedName(const clang::NamedDecl *D);
bool isDerivedFromName(const clang::CXXRecordDecl *RD, llvm::StringRef Name);
/// Classifies an expression used as a device argument.
DeviceKind classifyDeviceArg(const clang::Expr *E);

} // namespace clang::tidy::mlperf
