// API profiles: what calls into a framework mean for performance, described as
// roles in JSON so checks reason about roles, not names. The format is
// documented in profiles/README.md; ProfileParser.cpp validates it.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
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
  // What a call, construction or type is; ApiProfiles::match() answers these.
  Materialize, // device -> host copy or wait
  ToDevice,    // host -> device copy
  Sync,        // explicit device synchronization
  Step,        // runs the model: forward, backward, optimizer step, exec
  Construct,   // builds a module, optimizer, loader, executable
  Factory,     // creates a tensor
  HostWrap,    // wraps host memory as a tensor
  NoGradGuard, // RAII guard that disables autograd
  EvalMode,    // puts a module in evaluation mode
  Detach,      // drops autograd history: detach(), or a result that is never differentiable (indices, comparisons)
  Finalize,    // releases a device buffer now
  Acquire,     // acquires a handle-style resource (paired with Release)
  Release,
  HostData, // a value whose tensors are host memory (a data loader's examples)
  // Facts that hold beside the role above; ApiProfiles::find() answers these.
  Layer,          // a layer whose constructor arguments give its parameter count
  BatchSize,      // an argument that is a batch size
  DeviceProbe,    // asks whether an accelerator is present
  Training,       // builds or applies a training update (symbolic gradients, an optimizer's minimize)
  BackendChoice,  // chooses where the model runs (a backend by name, a device)
  SinglePass,     // an object consumed by one pass (a prefetcher, an iterator): built anew per epoch
  Slice,          // takes a slice whose length is an argument (narrow)
  OptimizerState, // an optimizer and the copies of the parameters it keeps as state
  Timer,          // reads a clock
  Pinned,         // makes host memory page-locked (allocates or registers it, pins a tensor)
  AsyncCopy,      // a copy queued on a stream that returns at once only for page-locked host memory
  Pageable,       // returns ordinary (pageable) host memory: malloc, a container's storage
  HostRead,       // reads a tensor's memory on the host directly (data_ptr, accessor)
  ElementIndex,   // selects one element or row of a tensor by index (`t[i]`, `select(0, i)`)
  TokenBatch,     // makes a batch that views existing tokens (`value_arg`) of a given count (`size_arg`)
  OutputFlags,    // a batch type's per-token field that asks for that token's output (`field`)
  OutputRead,     // reads the output of one token of the last decoded batch
  Join,           // joins a list of tensors into one (`stack`, `cat`)
  Whole,          // a view, layout change or element-wise map of a tensor: its result carries all of it
  LoadState,      // loads saved state into an object (`value_arg`, else the method's object): a checkpoint
  ModuleState,    // registers a tensor (`value_arg`) with a module, whose to(device) then moves it in place
  Make,           // builds an object of its first template argument (`std::make_unique<T>`): T's construction
};

/// Refines a role; which kinds a role allows is checked at load.
enum class Kind {
  None,
  Forward,
  Backward,
  Optimizer,
  Exec, // step
  Module,
  Executable,
  DataLoader,        // construct (and Optimizer)
  NotDifferentiable, // detach
  DeviceTensor,
  Allocation, // acquire
};

std::optional<Role> parseRole(llvm::StringRef Name);
llvm::StringRef roleName(Role R);
llvm::StringRef kindName(Kind K);
/// Whether match() reports the role (else it is a fact, see find()).
bool isPrimaryRole(Role R);

enum class DeviceContext { Markers, Always };

/// How a layer's constructor arguments give its parameter count:
/// product(SizeArgs) * KernelArg^rank + BiasArg.
struct LayerSizes {
  std::vector<unsigned> SizeArgs;
  std::optional<unsigned> KernelArg, KernelRank, KernelRankTemplateArg, BiasArg, TrainableArg;
  std::optional<unsigned> OutputArg; // the width of one example's output (model-memory's activations)
  std::optional<unsigned> DTypeArg;  // the element type, read through the profile's `memory.dtype_bytes`
};

/// What a training step holds in memory beyond the parameters (model-memory).
struct OptimizerMemory {
  unsigned Copies = 0;                 // copies of the parameters kept as state (Adam: 2)
  std::optional<unsigned> MomentumArg; // a constant non-zero argument here adds one copy
  std::string MomentumMethod;          // ... as does a call of this method in the arguments
  bool OutOfPlace = false;             // a step writes new parameters and state while the old are held
};

struct ProfileEntry {
  Role R = Role::Step;
  Kind K = Kind::None;
  std::vector<std::string> Callees;
  std::string Method, ClassDerivedFrom;
  bool Overrides = false;
  std::vector<std::string> ConstructsDerivedFrom;
  std::vector<std::string> UnlessDerivedFrom; // exceptions to ConstructsDerivedFrom
  std::vector<std::string> Constructs;        // exactly these classes (or specializations of these templates)
  std::vector<std::string> Types;
  struct ParamTypeMatch {
    unsigned Index = 0;
    std::vector<std::string> Types; // record names, any of them
    bool Nested = false;            // or a template type argument of the record, at any depth
  };
  std::optional<ParamTypeMatch> ParamType;
  std::optional<unsigned> DeviceArg;
  std::optional<Role> CpuRole;
  std::optional<unsigned> EnumArg;
  std::map<std::string, Role> EnumRoles;
  std::string Pair;                  // for Acquire/Construct: the releasing function
  std::optional<unsigned> HandleArg; // for Acquire/Release: the argument that is the handle
  std::optional<unsigned> ValueArg;  // for ToDevice: the value copied; BackendChoice: the backend named
  bool ShapeSpecialized = false;     // for Step: compiles/specializes per input shape
  LayerSizes Layer;                  // for Layer
  std::optional<unsigned> SizeArg;   // for BatchSize, Slice: the size or length; Acquire: the size allocated;
                                     // ToDevice: the bytes copied
  std::optional<unsigned> DestArg;   // for ToDevice: the buffer copied into (a C API's destination)
  std::optional<unsigned> OffsetArg; // for ToDevice: the byte offset into DestArg
  bool Raii = false;                 // for Acquire: released when the returned value is destroyed
  /// For a raii Acquire: the object it allocates into (an output image),
  /// the argument at IntoArg or the object the method is called on; it
  /// allocates when that object is empty, a local declared in the step
  /// and not yet written.
  std::optional<unsigned> IntoArg;
  bool IntoObject = false;
  bool HostMemory = false;     // for Acquire: the memory it holds is the host's ("memory": "host")
  bool Synchronizes = false;   // for Release: waits for the device as a side effect (cudaFree)
  bool ReleasesObject = false; // for Release: a method releasing the object it is called on (`ctx->destroy()`)
  bool AbsentMeansCpu = false; // for DeviceProbe: false or 0 means the program computes on the CPU
  /// For Materialize: what a call that only waits for the device waits for
  /// (its result stays where its input is): the size of its result
  /// (`nonzero`), or an error check of it (`linalg_inv`).
  enum class Wait { None, Shape, ErrorCheck } WaitsFor = Wait::None;
  std::vector<unsigned> PointerArgs; // for AsyncCopy: arguments that may be host memory
  std::string FlagParam;             // for AsyncCopy: the parameter that makes a method copy asynchronously
  std::optional<unsigned> FlagArg;   // for Pinned: an argument that pins only unless it is `false`
  /// For Detach: the element of the call's tuple result that has the role
  /// (`std::get<1>(torch::max(t, 1))`, the indices); the call itself has none.
  std::optional<unsigned> TupleElement;
  std::optional<unsigned> NameArg; // for BackendChoice: the argument that must be Name
  std::string Name;
  std::vector<std::string> SlowValues; // for BackendChoice: values of ValueArg that choose a slow backend
  std::string Message; // for BackendChoice: what the choice is and what to do instead; Acquire, ElementIndex: the fix
  std::string Consequence; // for Construct: what building it again costs, after the finding (else the kind's)
  std::string Field;       // for OutputFlags: the field of the batch type
  std::optional<unsigned> GradModeArg; // for NoGradGuard: `true` there turns gradients on
  std::string DropLastMethod;          // for Construct data-loader: the option that drops a short last batch
  // Fix-it templates.
  std::string Fix;           // NoGradGuard: the declaration to insert; Detach: the suffix to append
  std::string FixLabel;      // NoGradGuard: how a message names the fix
  std::string DefaultDevice; // ToDevice without arguments (`.cuda()`): the device it means
  std::string OptionsType;   // Factory: the type of its trailing options parameter
  /// Factory: builds its tensor from host values (`torch::tensor(vec)`), so
  /// creating it with a device in its options still copies from the host.
  bool CopiesHostData = false;
  std::string NewOptions;    // Factory: options from a value, `{0}` is the value ("" for none)
  std::string SetDevice;     // Factory: the call appended to options to set the device, `{0}` is the device
  bool KernelLaunch = false; // the role of a CUDA kernel launch, `kernel<<<grid, block>>>(...)`
  /// For Construct: a struct argument whose named fields, when set (true or
  /// non-null), make the construction build only metadata (ggml's no_alloc).
  std::optional<unsigned> MetadataArg;
  std::vector<std::string> MetadataFields;
  OptimizerMemory Optimizer; // for OptimizerState
  const struct Profile *Owner = nullptr;
};

/// What a profile says about device arguments (`t.to(x)`).
struct DeviceModel {
  std::vector<std::string> DeviceTypes;     // values that are a device (c10::Device)
  std::vector<std::string> DeviceKindTypes; // enums whose enumerators name a device kind (c10::DeviceType)
  std::vector<std::string> OptionsTypes;    // options that may carry a device (c10::TensorOptions)
  std::string OptionsDeviceMethod;          // ... set through this method
  std::vector<std::string> NotDeviceTypes;  // other arguments of the same calls (dtypes, layouts)
  std::vector<std::string> DeviceGetters;   // calls whose device is known only at run time
  std::vector<std::string> DeviceNames;     // a device's name, the same device (`d.str()` given to `to`)
  /// Values whose device a move follows (`t.to(other)`, `t.to(other.options())`):
  /// a tensor type, and the getter of its options.
  std::vector<std::string> DeviceFollowingTypes, OptionsGetters;
  std::vector<std::string> CpuNames, AcceleratorNames; // enumerator names; `k*` is a prefix
  std::vector<std::string> CpuStringPrefixes;          // device strings ("cpu", "cpu:0")
};

/// Element sizes and the memory advice in the API's own spelling (model-memory).
struct MemoryModel {
  std::map<std::string, unsigned> DTypeBytes; // enumerator or constant name -> bytes per element
  unsigned DefaultBytes = 4;                  // a layer without a dtype argument
  std::string HalfPrecision;                  // how to ask for 16-bit parameters
  std::string Release;                        // how to release device memory early
};

struct Profile {
  std::string Name, Description, Source;
  MemoryModel Memory;
  DeviceContext Device = DeviceContext::Markers;
  std::vector<std::string> MarkerDecls, MarkerTypes, MarkerCalls;
  std::vector<std::string> AutogradTensorTypes;
  /// Classes whose forward runs the modules put into them (`torch::nn::SequentialImpl`).
  std::vector<std::string> ModuleContainers;
  DeviceModel Devices;
  std::vector<ProfileEntry> Entries;
};

/// A call, construction or declaration matched to a role.
struct RoleMatch {
  Role R;
  const ProfileEntry *Entry;
  /// Matched by the member's name alone: a call in a template that this
  /// translation unit never instantiates, whose object has a dependent type
  /// (a lower-confidence match).
  bool ByName = false;
  Kind kind() const { return Entry->K; }
  bool deviceAlways() const { return Entry->Owner->Device == DeviceContext::Always; }
  /// A read whose result is on the host (`item()`, `cpu()`), not one that
  /// only waits for a data-dependent size (`nonzero()`).
  bool copiesToHost() const { return R == Role::Materialize && Entry->WaitsFor == ProfileEntry::Wait::None; }
  /// A read that only waits for the device (`nonzero()`, `linalg_inv()`).
  bool waitsOnly() const { return R == Role::Materialize && Entry->WaitsFor != ProfileEntry::Wait::None; }
};

class ApiProfiles;
/// The tensor a read copies or waits for: a method's object, an operator's
/// tensor operand (`os << t`), a function's first tensor argument
/// (`torch::nonzero(t)`); null for anything else.
const Expr *readObject(const CallExpr *Read, const ApiProfiles &P);

/// Where an argument says a tensor goes.
enum class DeviceKind { Cpu, Accelerator, UnknownDevice, NotDevice };
/// The summaries' names of device kinds: "cpu", "accelerator", "unknown"
/// (NotDevice, which no device argument has, reads as "unknown").
llvm::StringRef deviceKindName(DeviceKind K);
DeviceKind deviceKindNamed(llvm::StringRef Name);

/// The set of loaded profiles with an index for fast matching.
class ApiProfiles {
public:
  /// Parses and validates one profile; errors name the source, the entry and the field.
  llvm::Error addJson(llvm::StringRef Json, llvm::StringRef SourceName);
  llvm::Error addFile(llvm::StringRef Path);
  /// Loads the profiles shipped with mlperf-lint.
  void addBuiltins();

  /// Role of a call or construct expression (CallExpr, CXXConstructExpr).
  /// A call of a `make` function has the role of the construction it makes.
  std::optional<RoleMatch> match(const clang::Expr *E) const;
  /// The record a call of a `make` function builds (`std::make_unique<T>`: T), or null.
  const clang::CXXRecordDecl *madeRecord(const clang::CallExpr *CE) const;
  /// Role of a variable's declared type (e.g. a no-grad guard).
  std::optional<RoleMatch> matchVarType(const clang::VarDecl *VD) const;
  /// A role given to a type by its `types` list (references see through).
  std::optional<RoleMatch> matchType(clang::QualType T) const;
  /// The first entry of fact \p R that a call or construction matches.
  const ProfileEntry *find(const clang::Expr *E, Role R) const;
  /// The first entry of \p R whose `types` name \p T, a class \p T derives
  /// from, or an enum (references and pointers see through).
  const ProfileEntry *findType(clang::QualType T, Role R) const;
  /// Entries of \p R (in load order).
  llvm::ArrayRef<const ProfileEntry *> entries(Role R) const;
  /// The first entry of \p R in \p P with a fix-it template.
  const ProfileEntry *fixFor(const Profile &P, Role R) const;

  bool isDeviceMarkerDecl(const clang::NamedDecl *D) const;
  bool isDeviceMarkerType(clang::QualType T) const;
  /// Whether \p RD is a profile's module container (`module_containers`), or
  /// a holder of one (`torch::nn::Sequential`, a `ModuleHolder<SequentialImpl>`).
  bool isModuleContainer(const clang::CXXRecordDecl *RD) const;
  bool isDeviceMarkerCall(const clang::FunctionDecl *FD) const;
  /// The profile whose autograd tensor types include \p T, or null.
  const Profile *autogradTensorProfile(clang::QualType T) const;
  /// What a variable holds where an expression reads it (\p Use): a device
  /// kind, or nothing to fall back on the variable's declaration alone.
  using DeviceVariableKind =
      llvm::function_ref<std::optional<DeviceKind>(const clang::VarDecl *, const clang::Expr *Use)>;
  /// Classifies an expression used as a device argument; the variables it
  /// reads are asked of \p Variable first (ModelAnalysis::deviceKind follows
  /// their values through the function and the calls of its parameters).
  DeviceKind classifyDeviceArg(const clang::Expr *E, DeviceVariableKind Variable = {}) const;
  /// The device that text held in a variable names (\p E, converted to a device).
  DeviceKind textDeviceKind(const clang::Expr *E, DeviceVariableKind Variable) const;
  /// Whether \p E is of a device, device-kind or options type of the device model,
  /// or a device's name (DeviceModel::DeviceNames).
  bool isDeviceModelArg(const clang::Expr *E) const;
  /// The tensor whose device a device argument follows (`other` in
  /// `t.to(other)` or `t.to(other.options())`), or null.
  const clang::Expr *followedTensor(const clang::Expr *E) const;
  /// The device model of every profile (device, device-kind and options types).
  const DeviceModel &devices() const { return Devices; }

  llvm::ArrayRef<std::unique_ptr<Profile>> profiles() const { return Profiles; }

private:
  std::optional<RoleMatch> matchCall(const clang::CallExpr *CE) const;
  std::optional<RoleMatch> matchDependentCall(const clang::CallExpr *CE) const;
  std::optional<RoleMatch> matchConstruct(const clang::CXXConstructExpr *CE) const;
  std::optional<RoleMatch> refineByArguments(const ProfileEntry &E, const clang::CallExpr *CE,
                                             const clang::FunctionDecl *FD) const;
  DeviceKind deviceKindOfName(llvm::StringRef Name) const;
  void index(const Profile &P);

  std::vector<std::unique_ptr<Profile>> Profiles;
  llvm::StringMap<std::vector<const ProfileEntry *>> ByCalleeName; // last name component
  llvm::StringMap<std::vector<const ProfileEntry *>> ByMethodName;
  std::vector<const ProfileEntry *> Constructs, TypeEntries, KernelLaunches;
  std::map<Role, std::vector<const ProfileEntry *>> ByRole;
  llvm::StringMap<bool> MarkerDecls, MarkerTypes, MarkerCalls;
  DeviceModel Devices; // the union of every profile's
};

/// Parses and validates one profile (ProfileParser.cpp).
llvm::Expected<std::unique_ptr<Profile>> parseProfileJson(llvm::StringRef Json, llvm::StringRef SourceName);

/// Qualified name without template arguments or inline namespaces, e.g.
/// "torch::nn::ModuleHolder::operator()".
std::string plainQualifiedName(const clang::NamedDecl *D);
bool isDerivedFromName(const clang::CXXRecordDecl *RD, llvm::StringRef Name);
/// The last component of a qualified name.
llvm::StringRef lastComponent(llvm::StringRef Qualified);

} // namespace clang::tidy::mlperf
