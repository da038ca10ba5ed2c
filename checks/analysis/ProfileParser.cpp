// Reading and validating an API profile (the format: profiles/README.md).
// Every key is checked for its type, its range and the roles it applies to;
// errors name the file, the entry and the field.
#include "ApiProfile.h"

#include <nlohmann/json.hpp>

#include <set>

namespace clang::tidy::mlperf {

namespace {
using json = nlohmann::json;

constexpr unsigned MaxArgIndex = 7;

constexpr std::pair<const char *, Role> RoleNames[] = {
    {"materialize", Role::Materialize},
    {"to-device", Role::ToDevice},
    {"sync", Role::Sync},
    {"step", Role::Step},
    {"construct", Role::Construct},
    {"factory", Role::Factory},
    {"host-wrap", Role::HostWrap},
    {"no-grad-guard", Role::NoGradGuard},
    {"eval-mode", Role::EvalMode},
    {"detach", Role::Detach},
    {"finalize", Role::Finalize},
    {"acquire", Role::Acquire},
    {"release", Role::Release},
    {"host-data", Role::HostData},
    {"layer", Role::Layer},
    {"batch-size", Role::BatchSize},
    {"device-probe", Role::DeviceProbe},
    {"training", Role::Training},
    {"backend-choice", Role::BackendChoice},
    {"single-pass", Role::SinglePass},
    {"slice", Role::Slice},
    {"optimizer-state", Role::OptimizerState},
    {"timer", Role::Timer},
    {"pinned", Role::Pinned},
    {"async-copy", Role::AsyncCopy},
    {"pageable", Role::Pageable},
    {"host-read", Role::HostRead},
    {"element-index", Role::ElementIndex},
    {"token-batch", Role::TokenBatch},
    {"output-flags", Role::OutputFlags},
    {"output-read", Role::OutputRead},
    {"join", Role::Join},
    {"whole", Role::Whole},
    {"load-state", Role::LoadState},
    {"module-state", Role::ModuleState},
    {"make", Role::Make},
};

struct KindSpec {
  const char *Name;
  Kind K;
  Role R;
};
constexpr KindSpec Kinds[] = {
    {"forward", Kind::Forward, Role::Step},
    {"backward", Kind::Backward, Role::Step},
    {"optimizer", Kind::Optimizer, Role::Step},
    {"exec", Kind::Exec, Role::Step},
    {"module", Kind::Module, Role::Construct},
    {"optimizer", Kind::Optimizer, Role::Construct},
    {"executable", Kind::Executable, Role::Construct},
    {"data-loader", Kind::DataLoader, Role::Construct},
    {"not-differentiable", Kind::NotDifferentiable, Role::Detach},
    {"device-tensor", Kind::DeviceTensor, Role::Acquire},
    {"allocation", Kind::Allocation, Role::Acquire},
};

/// The roles a key applies to; empty: every role.
struct KeySpec {
  const char *Key;
  std::vector<Role> Roles;
};
const std::vector<KeySpec> &keySpecs() {
  using R = Role;
  static const std::vector<KeySpec> Specs = {
      {"role", {}},
      {"comment", {}},
      {"callee", {}},
      {"method", {}},
      {"class_derived_from", {}},
      {"overrides", {}},
      {"constructs_derived_from", {}},
      {"unless_derived_from", {}},
      {"constructs", {}},
      {"param_type", {}},
      {"enum_arg", {}},
      {"kind", {R::Step, R::Construct, R::Detach, R::Acquire}},
      {"types", {R::NoGradGuard, R::HostData, R::Acquire, R::SinglePass, R::BackendChoice, R::OutputFlags}},
      {"field", {R::OutputFlags}},
      {"device_arg", {R::ToDevice, R::BackendChoice}},
      {"cpu_role", {R::ToDevice}},
      {"pair", {R::Acquire, R::Construct}},
      {"handle_arg", {R::Acquire, R::Construct, R::Release, R::Finalize, R::Pinned}},
      {"value_arg", {R::ToDevice, R::Materialize, R::BackendChoice, R::TokenBatch, R::LoadState, R::ModuleState}},
      {"shape_specialized", {R::Step}},
      {"kernel_launch", {R::Step}},
      {"size_args", {R::Layer}},
      {"kernel_arg", {R::Layer}},
      {"kernel_rank", {R::Layer}},
      {"kernel_rank_template_arg", {R::Layer}},
      {"bias_arg", {R::Layer}},
      {"trainable_arg", {R::Layer}},
      {"output_arg", {R::Layer}},
      {"dtype_arg", {R::Layer}},
      {"state_copies", {R::OptimizerState}},
      {"momentum_arg", {R::OptimizerState}},
      {"momentum_method", {R::OptimizerState}},
      {"out_of_place", {R::OptimizerState}},
      {"size_arg", {R::BatchSize, R::Slice, R::Acquire, R::TokenBatch, R::ToDevice}},
      {"dest_arg", {R::ToDevice}},
      {"offset_arg", {R::ToDevice}},
      {"raii", {R::Acquire}},
      {"into_arg", {R::Acquire}},
      {"into_object", {R::Acquire}},
      {"memory", {R::Acquire}},
      {"synchronizes", {R::Release}},
      {"releases_object", {R::Release}},
      {"absent_means_cpu", {R::DeviceProbe}},
      {"waits_for", {R::Materialize}},
      {"pointer_args", {R::AsyncCopy}},
      {"flag_param", {R::AsyncCopy}},
      {"flag_arg", {R::Pinned}},
      {"tuple_element", {R::Detach}},
      {"name_arg", {R::BackendChoice}},
      {"name", {R::BackendChoice}},
      {"slow_values", {R::BackendChoice}},
      {"message",
       {R::BackendChoice, R::Acquire, R::AsyncCopy, R::ElementIndex, R::TokenBatch, R::OutputFlags, R::Materialize}},
      {"grad_mode_arg", {R::NoGradGuard}},
      {"drop_last_method", {R::Construct}},
      {"consequence", {R::Construct}},
      {"metadata_when_set", {R::Construct}},
      {"fix", {R::NoGradGuard, R::Detach}},
      {"fix_label", {R::NoGradGuard}},
      {"default_device", {R::ToDevice}},
      {"options_type", {R::Factory}},
      {"new_options", {R::Factory}},
      {"set_device", {R::Factory}},
      {"copies_host_data", {R::Factory}},
  };
  return Specs;
}

const KeySpec *findSpec(llvm::StringRef Key) {
  for (const KeySpec &S : keySpecs())
    if (Key == S.Key)
      return &S;
  return nullptr;
}

std::string describeJson(const json &V) {
  switch (V.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::boolean:
    return V.get<bool>() ? "true" : "false";
  case json::value_t::string:
    return "\"" + V.get<std::string>() + "\"";
  case json::value_t::number_integer:
  case json::value_t::number_unsigned:
  case json::value_t::number_float:
    return V.dump();
  case json::value_t::array:
    return "a list";
  case json::value_t::object:
    return "an object";
  default:
    return "a value";
  }
}

struct ProfileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string &Where, const std::string &Msg) {
  throw ProfileError(Where.empty() ? Msg : Where + ": " + Msg);
}

std::string key(llvm::StringRef K) { return "'" + K.str() + "'"; }

std::string getString(const json &V, const std::string &Where, llvm::StringRef K) {
  if (!V.is_string())
    fail(Where, key(K) + " must be a string, not " + describeJson(V));
  return V.get<std::string>();
}

std::vector<std::string> getStrings(const json &V, const std::string &Where, llvm::StringRef K) {
  std::vector<std::string> Out;
  if (V.is_string()) {
    Out.push_back(V.get<std::string>());
    return Out;
  }
  if (!V.is_array())
    fail(Where, key(K) + " must be a string or a list of strings, not " + describeJson(V));
  for (const json &S : V) {
    if (!S.is_string())
      fail(Where, key(K) + " must list strings, not " + describeJson(S));
    Out.push_back(S.get<std::string>());
  }
  return Out;
}

bool getBool(const json &V, const std::string &Where, llvm::StringRef K) {
  if (!V.is_boolean())
    fail(Where, key(K) + " must be true or false, not " + describeJson(V));
  return V.get<bool>();
}

unsigned getUnsigned(const json &V, const std::string &Where, llvm::StringRef K, unsigned Lo, unsigned Hi,
                     const char *What) {
  if (!V.is_number_integer() || V.get<int64_t>() < int64_t(Lo) || V.get<int64_t>() > int64_t(Hi))
    fail(Where, key(K) + " must be " + What + " from " + std::to_string(Lo) + " to " + std::to_string(Hi) + ", not " +
                    describeJson(V));
  return static_cast<unsigned>(V.get<int64_t>());
}

unsigned getArg(const json &V, const std::string &Where, llvm::StringRef K) {
  return getUnsigned(V, Where, K, 0, MaxArgIndex, "an argument index");
}

Role getRole(const json &V, const std::string &Where, llvm::StringRef K, bool PrimaryOnly) {
  std::string Name = getString(V, Where, K);
  std::optional<Role> R = parseRole(Name);
  if (!R)
    fail(Where, key(K) + ": unknown role \"" + Name + "\"");
  if (PrimaryOnly && !isPrimaryRole(*R))
    fail(Where, key(K) + ": \"" + Name + "\" is a fact, not a role a call can take");
  return *R;
}

const json &object(const json &V, const std::string &Where, llvm::StringRef K,
                   std::initializer_list<const char *> Keys) {
  std::string Names;
  for (const char *N : Keys)
    Names += (Names.empty() ? "'" : ", '") + std::string(N) + "'";
  if (!V.is_object())
    fail(Where, key(K) + " must be an object with " + Names + ", not " + describeJson(V));
  for (auto It = V.begin(); It != V.end(); ++It)
    if (std::none_of(Keys.begin(), Keys.end(), [&](const char *N) { return It.key() == N; }))
      fail(Where, key(K) + ": unknown key '" + It.key() + "' (expected " + Names + ")");
  return V;
}

/// "entry 3 (role 'step', callee 'x')", for messages.
std::string entryLabel(size_t Index, const json &J) {
  std::string L = "entry " + std::to_string(Index);
  std::string Detail;
  if (J.is_object() && J.contains("role") && J.at("role").is_string())
    Detail = "role '" + J.at("role").get<std::string>() + "'";
  for (const char *K : {"callee", "method", "constructs_derived_from", "constructs", "types"})
    if (J.is_object() && J.contains(K)) {
      const json &V = J.at(K);
      const json *First = V.is_array() && !V.empty() ? &V.front() : &V;
      if (First->is_string()) {
        Detail += (Detail.empty() ? "" : ", ") + std::string(K) + " '" + First->get<std::string>() + "'";
        break;
      }
    }
  return Detail.empty() ? L : L + " (" + Detail + ")";
}

void requireTogether(const json &J, const std::string &Where, std::initializer_list<const char *> Keys) {
  size_t Present = std::count_if(Keys.begin(), Keys.end(), [&](const char *K) { return J.contains(K); });
  if (Present != 0 && Present != Keys.size()) {
    std::string Names;
    for (const char *K : Keys)
      Names += (Names.empty() ? "'" : ", '") + std::string(K) + "'";
    fail(Where, Names + " go together");
  }
}

void parseLayer(const json &J, ProfileEntry &E, const std::string &W) {
  if (!J.contains("size_args"))
    fail(W, "a layer needs 'size_args'");
  const json &SA = J.at("size_args");
  if (!SA.is_array() || SA.empty())
    fail(W, "'size_args' must be a non-empty list of argument indices, not " + describeJson(SA));
  for (const json &A : SA)
    E.Layer.SizeArgs.push_back(getArg(A, W, "size_args"));
  auto Opt = [&](const char *K, std::optional<unsigned> &Out) {
    if (J.contains(K))
      Out = getArg(J.at(K), W, K);
  };
  Opt("kernel_arg", E.Layer.KernelArg);
  Opt("bias_arg", E.Layer.BiasArg);
  Opt("trainable_arg", E.Layer.TrainableArg);
  Opt("kernel_rank_template_arg", E.Layer.KernelRankTemplateArg);
  Opt("output_arg", E.Layer.OutputArg);
  Opt("dtype_arg", E.Layer.DTypeArg);
  if (J.contains("kernel_rank"))
    E.Layer.KernelRank = getUnsigned(J.at("kernel_rank"), W, "kernel_rank", 1, 8, "a rank");
  bool HasRank = E.Layer.KernelRank || E.Layer.KernelRankTemplateArg;
  if (E.Layer.KernelArg.has_value() != HasRank)
    fail(W, "'kernel_arg' needs 'kernel_rank' or 'kernel_rank_template_arg', and they need 'kernel_arg'");
  if (E.Layer.KernelRank && E.Layer.KernelRankTemplateArg)
    fail(W, "give 'kernel_rank' or 'kernel_rank_template_arg', not both");
}

void parseOptimizerState(const json &J, ProfileEntry &E, const std::string &W) {
  if (!J.contains("state_copies"))
    fail(W, "role 'optimizer-state' needs 'state_copies'");
  OptimizerMemory &O = E.Optimizer;
  O.Copies = getUnsigned(J.at("state_copies"), W, "state_copies", 0, 8, "a number of copies");
  if (J.contains("momentum_arg"))
    O.MomentumArg = getArg(J.at("momentum_arg"), W, "momentum_arg");
  if (J.contains("momentum_method"))
    O.MomentumMethod = getString(J.at("momentum_method"), W, "momentum_method");
  if (J.contains("out_of_place"))
    O.OutOfPlace = getBool(J.at("out_of_place"), W, "out_of_place");
}

ProfileEntry parseEntry(const json &J, const std::string &W) {
  if (!J.is_object())
    fail(W, "must be an object, not " + describeJson(J));
  if (!J.contains("role"))
    fail(W, "needs a 'role'");
  ProfileEntry E;
  E.R = getRole(J.at("role"), W, "role", false);
  for (auto It = J.begin(); It != J.end(); ++It) {
    const KeySpec *S = findSpec(It.key());
    if (!S)
      fail(W, "unknown key '" + It.key() + "'");
    if (!S->Roles.empty() && llvm::find(S->Roles, E.R) == S->Roles.end())
      fail(W, key(It.key()) + " does not apply to role '" + roleName(E.R).str() + "'");
  }
  auto Str = [&](const char *K, std::string &Out) {
    if (J.contains(K))
      Out = getString(J.at(K), W, K);
  };
  auto Strs = [&](const char *K, std::vector<std::string> &Out) {
    if (J.contains(K))
      Out = getStrings(J.at(K), W, K);
  };
  auto Arg = [&](const char *K, std::optional<unsigned> &Out) {
    if (J.contains(K))
      Out = getArg(J.at(K), W, K);
  };
  if (J.contains("kind")) {
    std::string Name = getString(J.at("kind"), W, "kind");
    const KindSpec *Found = nullptr;
    std::string Allowed;
    for (const KindSpec &K : Kinds)
      if (K.R == E.R) {
        Allowed += (Allowed.empty() ? "\"" : ", \"") + std::string(K.Name) + "\"";
        if (Name == K.Name)
          Found = &K;
      }
    if (!Found)
      fail(W, "'kind' of role '" + roleName(E.R).str() + "' must be one of " + Allowed + ", not \"" + Name + "\"");
    E.K = Found->K;
  } else if (E.R == Role::Step || E.R == Role::Construct) {
    fail(W, "role '" + roleName(E.R).str() + "' needs a 'kind'");
  }
  Strs("callee", E.Callees);
  Str("method", E.Method);
  Str("class_derived_from", E.ClassDerivedFrom);
  if (E.Method.empty() != E.ClassDerivedFrom.empty())
    fail(W, "'method' and 'class_derived_from' go together");
  if (J.contains("overrides"))
    E.Overrides = getBool(J.at("overrides"), W, "overrides");
  if (E.Overrides && E.Callees.empty())
    fail(W, "'overrides' needs a 'callee'");
  Strs("constructs_derived_from", E.ConstructsDerivedFrom);
  Strs("unless_derived_from", E.UnlessDerivedFrom);
  if (!E.UnlessDerivedFrom.empty() && E.ConstructsDerivedFrom.empty())
    fail(W, "'unless_derived_from' needs 'constructs_derived_from'");
  Strs("constructs", E.Constructs);
  Strs("types", E.Types);
  if (J.contains("param_type")) {
    const json &PT = object(J.at("param_type"), W, "param_type", {"index", "type", "nested"});
    if (!PT.contains("index") || !PT.contains("type"))
      fail(W, "'param_type' needs 'index' and 'type'");
    ProfileEntry::ParamTypeMatch M;
    M.Index = getArg(PT.at("index"), W, "param_type.index");
    if (PT.at("type").is_array())
      for (const json &T : PT.at("type"))
        M.Types.push_back(getString(T, W, "param_type.type"));
    else
      M.Types.push_back(getString(PT.at("type"), W, "param_type.type"));
    if (M.Types.empty())
      fail(W, "'param_type.type' needs at least one type");
    M.Nested = PT.contains("nested") && getBool(PT.at("nested"), W, "param_type.nested");
    E.ParamType = std::move(M);
  }
  Arg("device_arg", E.DeviceArg);
  if (J.contains("cpu_role")) {
    if (!E.DeviceArg)
      fail(W, "'cpu_role' needs 'device_arg'");
    E.CpuRole = getRole(J.at("cpu_role"), W, "cpu_role", true);
  }
  if (J.contains("enum_arg")) {
    const json &EA = object(J.at("enum_arg"), W, "enum_arg", {"index", "roles"});
    if (!EA.contains("index") || !EA.contains("roles") || !EA.at("roles").is_object())
      fail(W, "'enum_arg' needs an 'index' and an object of 'roles'");
    E.EnumArg = getArg(EA.at("index"), W, "enum_arg.index");
    for (auto It = EA.at("roles").begin(); It != EA.at("roles").end(); ++It)
      E.EnumRoles[It.key()] = getRole(It.value(), W, "enum_arg.roles." + It.key(), true);
  }
  Str("pair", E.Pair);
  if (J.contains("raii"))
    E.Raii = getBool(J.at("raii"), W, "raii");
  if (J.contains("memory")) {
    std::string Memory = getString(J.at("memory"), W, "memory");
    if (Memory != "host" && Memory != "device")
      fail(W, "'memory' must be \"host\" or \"device\", not \"" + Memory + "\"");
    E.HostMemory = Memory == "host";
  }
  if (E.R == Role::Acquire && E.Pair.empty() == !E.Raii)
    fail(W, "role 'acquire' needs a 'pair', the function that releases it, or 'raii': true (its destructor does), "
            "not both");
  Arg("into_arg", E.IntoArg);
  if (J.contains("into_object"))
    E.IntoObject = getBool(J.at("into_object"), W, "into_object");
  if ((E.IntoArg || E.IntoObject) && (!E.Raii || (E.IntoArg && E.IntoObject)))
    fail(W, "'into_arg' or 'into_object' (not both) names the object an 'acquire' allocates into, which releases "
            "it: it needs 'raii': true");
  if (J.contains("synchronizes"))
    E.Synchronizes = getBool(J.at("synchronizes"), W, "synchronizes");
  if (J.contains("releases_object"))
    E.ReleasesObject = getBool(J.at("releases_object"), W, "releases_object");
  if (J.contains("absent_means_cpu"))
    E.AbsentMeansCpu = getBool(J.at("absent_means_cpu"), W, "absent_means_cpu");
  if (J.contains("waits_for")) {
    const json &V = J.at("waits_for");
    if (V == "shape")
      E.WaitsFor = ProfileEntry::Wait::Shape;
    else if (V == "error-check")
      E.WaitsFor = ProfileEntry::Wait::ErrorCheck;
    else
      fail(W, "'waits_for' must be \"shape\" or \"error-check\", not " + describeJson(V));
  }
  if (J.contains("pointer_args")) {
    const json &PA = J.at("pointer_args");
    if (!PA.is_array() || PA.empty())
      fail(W, "'pointer_args' must be a non-empty list of argument indices, not " + describeJson(PA));
    for (const json &A : PA)
      E.PointerArgs.push_back(getArg(A, W, "pointer_args"));
  }
  Str("flag_param", E.FlagParam);
  if (E.R == Role::AsyncCopy && E.PointerArgs.empty() == E.FlagParam.empty())
    fail(W, "role 'async-copy' needs 'pointer_args' (a function's pointers) or 'flag_param' (a method's "
            "asynchronous flag), not both");
  Arg("flag_arg", E.FlagArg);
  Arg("tuple_element", E.TupleElement);
  Arg("handle_arg", E.HandleArg);
  Arg("value_arg", E.ValueArg);
  if (J.contains("shape_specialized"))
    E.ShapeSpecialized = getBool(J.at("shape_specialized"), W, "shape_specialized");
  if (J.contains("copies_host_data"))
    E.CopiesHostData = getBool(J.at("copies_host_data"), W, "copies_host_data");
  if (J.contains("kernel_launch"))
    E.KernelLaunch = getBool(J.at("kernel_launch"), W, "kernel_launch");
  if (E.R == Role::Layer)
    parseLayer(J, E, W);
  if (E.R == Role::OptimizerState)
    parseOptimizerState(J, E, W);
  Arg("size_arg", E.SizeArg);
  Arg("dest_arg", E.DestArg);
  Arg("offset_arg", E.OffsetArg);
  if ((E.R == Role::BatchSize || E.R == Role::Slice || E.R == Role::TokenBatch) && !E.SizeArg)
    fail(W, "role '" + roleName(E.R).str() + "' needs a 'size_arg'");
  if (E.R == Role::TokenBatch && !E.ValueArg)
    fail(W, "role 'token-batch' needs a 'value_arg', the tokens the batch views");
  Str("field", E.Field);
  if (E.R == Role::OutputFlags && (E.Field.empty() || E.Types.empty()))
    fail(W, "role 'output-flags' needs 'types' (the batch type) and 'field' (its per-token flags)");
  Arg("name_arg", E.NameArg);
  Str("name", E.Name);
  requireTogether(J, W, {"name_arg", "name"});
  Strs("slow_values", E.SlowValues);
  if (!E.SlowValues.empty() && !E.ValueArg)
    fail(W, "'slow_values' needs 'value_arg'");
  Str("message", E.Message);
  Str("consequence", E.Consequence);
  if (E.WaitsFor != ProfileEntry::Wait::None && E.Message.empty())
    fail(W, "'waits_for' needs a 'message', the fix");
  if (E.R == Role::BackendChoice) {
    if (E.Message.empty())
      fail(W, "role 'backend-choice' needs a 'message'");
    if (!E.ValueArg && !E.DeviceArg && E.Types.empty())
      fail(W, "role 'backend-choice' needs 'value_arg' (a backend by name), 'device_arg' or 'types' (a device)");
    if (E.ValueArg && E.SlowValues.empty())
      fail(W, "'value_arg' of role 'backend-choice' needs 'slow_values'");
  }
  Arg("grad_mode_arg", E.GradModeArg);
  Str("drop_last_method", E.DropLastMethod);
  if (J.contains("metadata_when_set")) {
    const json &MW = object(J.at("metadata_when_set"), W, "metadata_when_set", {"index", "fields"});
    if (!MW.contains("index") || !MW.contains("fields"))
      fail(W, "'metadata_when_set' needs 'index' and 'fields'");
    E.MetadataArg = getArg(MW.at("index"), W, "metadata_when_set.index");
    E.MetadataFields = getStrings(MW.at("fields"), W, "metadata_when_set.fields");
  }
  if (!E.DropLastMethod.empty() && E.K != Kind::DataLoader)
    fail(W, "'drop_last_method' applies to kind 'data-loader'");
  Str("fix", E.Fix);
  Str("fix_label", E.FixLabel);
  Str("default_device", E.DefaultDevice);
  Str("options_type", E.OptionsType);
  Str("new_options", E.NewOptions);
  Str("set_device", E.SetDevice);
  requireTogether(J, W, {"options_type", "new_options", "set_device"});
  if (E.Callees.empty() && E.Method.empty() && E.ConstructsDerivedFrom.empty() && E.Constructs.empty() &&
      E.Types.empty() && !E.KernelLaunch)
    fail(W, "names no 'callee', 'method', 'constructs_derived_from', 'constructs', 'types' or 'kernel_launch' to "
            "match by");
  return E;
}

void parseDevices(const json &V, DeviceModel &D) {
  const char *W = "'devices'";
  const json &O = object(V, "", "devices",
                         {"device_types", "device_kind_types", "options_types", "options_device_method",
                          "not_device_types", "device_getters", "device_names", "cpu_names", "accelerator_names",
                          "cpu_string_prefixes", "device_following_types", "options_getters"});
  auto Strs = [&](const char *K, std::vector<std::string> &Out) {
    if (O.contains(K))
      Out = getStrings(O.at(K), W, K);
  };
  Strs("device_types", D.DeviceTypes);
  Strs("device_kind_types", D.DeviceKindTypes);
  Strs("options_types", D.OptionsTypes);
  if (O.contains("options_device_method"))
    D.OptionsDeviceMethod = getString(O.at("options_device_method"), W, "options_device_method");
  Strs("not_device_types", D.NotDeviceTypes);
  Strs("device_getters", D.DeviceGetters);
  Strs("device_names", D.DeviceNames);
  Strs("device_following_types", D.DeviceFollowingTypes);
  Strs("options_getters", D.OptionsGetters);
  Strs("cpu_names", D.CpuNames);
  Strs("accelerator_names", D.AcceleratorNames);
  Strs("cpu_string_prefixes", D.CpuStringPrefixes);
}

void parseMemory(const json &V, MemoryModel &M) {
  const char *W = "'memory'";
  const json &O = object(V, "", "memory", {"dtype_bytes", "default_bytes", "half_precision", "release"});
  if (O.contains("dtype_bytes")) {
    const json &D = O.at("dtype_bytes");
    if (!D.is_object())
      fail(W, "'dtype_bytes' must be an object of type names and sizes, not " + describeJson(D));
    for (auto It = D.begin(); It != D.end(); ++It)
      M.DTypeBytes[It.key()] = getUnsigned(It.value(), W, "dtype_bytes." + It.key(), 1, 16, "a size in bytes");
  }
  if (O.contains("default_bytes"))
    M.DefaultBytes = getUnsigned(O.at("default_bytes"), W, "default_bytes", 1, 16, "a size in bytes");
  if (O.contains("half_precision"))
    M.HalfPrecision = getString(O.at("half_precision"), W, "half_precision");
  if (O.contains("release"))
    M.Release = getString(O.at("release"), W, "release");
}

void parseProfile(const json &J, Profile &P) {
  static const std::set<std::string> TopKeys = {
      "name",    "description", "device_context", "device_markers", "autograd_tensor_types",
      "devices", "entries",     "comment",        "memory",         "module_containers"};
  for (auto It = J.begin(); It != J.end(); ++It)
    if (!TopKeys.count(It.key()))
      fail("", "unknown key '" + It.key() + "'");
  if (!J.contains("name"))
    fail("", "needs a 'name'");
  P.Name = getString(J.at("name"), "", "name");
  if (J.contains("description"))
    P.Description = getString(J.at("description"), "", "description");
  if (J.contains("device_context")) {
    std::string DC = getString(J.at("device_context"), "", "device_context");
    if (DC == "always")
      P.Device = DeviceContext::Always;
    else if (DC != "markers")
      fail("", "'device_context' must be \"markers\" or \"always\", not \"" + DC + "\"");
  }
  if (J.contains("device_markers")) {
    const json &M = object(J.at("device_markers"), "", "device_markers", {"declarations", "types", "calls"});
    if (M.contains("declarations"))
      P.MarkerDecls = getStrings(M.at("declarations"), "'device_markers'", "declarations");
    if (M.contains("types"))
      P.MarkerTypes = getStrings(M.at("types"), "'device_markers'", "types");
    if (M.contains("calls"))
      P.MarkerCalls = getStrings(M.at("calls"), "'device_markers'", "calls");
  }
  if (J.contains("autograd_tensor_types"))
    P.AutogradTensorTypes = getStrings(J.at("autograd_tensor_types"), "", "autograd_tensor_types");
  if (J.contains("module_containers"))
    P.ModuleContainers = getStrings(J.at("module_containers"), "", "module_containers");
  if (J.contains("devices"))
    parseDevices(J.at("devices"), P.Devices);
  if (J.contains("memory"))
    parseMemory(J.at("memory"), P.Memory);
  if (!J.contains("entries") || !J.at("entries").is_array())
    fail("", "needs 'entries', a list of entries");
  size_t Index = 0;
  for (const json &E : J.at("entries"))
    P.Entries.push_back(parseEntry(E, entryLabel(Index++, E)));
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

llvm::StringRef kindName(Kind K) {
  for (const KindSpec &S : Kinds)
    if (S.K == K)
      return S.Name;
  return "";
}

bool isPrimaryRole(Role R) { return R < Role::Layer; }

llvm::Expected<std::unique_ptr<Profile>> parseProfileJson(llvm::StringRef Text, llvm::StringRef SourceName) {
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
  P->Source = SourceName.str();
  try {
    parseProfile(J, *P);
  } catch (const ProfileError &Ex) {
    return Fail(Ex.what());
  }
  for (ProfileEntry &E : P->Entries)
    E.Owner = P.get();
  return std::move(P);
}

} // namespace clang::tidy::mlperf
