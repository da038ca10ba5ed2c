#include "JsonSchema.h"

#include <algorithm>
#include <cmath>
#include <regex>
#include <set>

namespace mlperf::test {
namespace {
using nlohmann::json;

class Validator {
public:
  explicit Validator(const json &Root) : Root(Root) {}

  void check(const json &I, const json &S, const std::string &Path, std::vector<std::string> &Errors) const {
    if (S.contains("$ref")) {
      std::string Ref = S["$ref"];
      if (Ref.rfind("#", 0) != 0) {
        Errors.push_back(Path + ": unsupported $ref " + Ref);
        return;
      }
      return check(I, Root.at(json::json_pointer(Ref.substr(1))), Path, Errors);
    }
    auto Fail = [&](const std::string &Why) { Errors.push_back((Path.empty() ? "/" : Path) + ": " + Why); };
    if (S.contains("type") && !hasType(I, S["type"]))
      return Fail("expected type " + S["type"].dump() + ", got " + I.dump().substr(0, 80));
    if (S.contains("enum") && std::find(S["enum"].begin(), S["enum"].end(), I) == S["enum"].end())
      Fail("value " + I.dump() + " not in " + S["enum"].dump());
    if (I.is_object())
      object(I, S, Path, Errors);
    if (I.is_array()) {
      if (S.contains("minItems") && I.size() < S["minItems"].get<size_t>())
        Fail("fewer than " + S["minItems"].dump() + " items");
      if (S.value("uniqueItems", false) && std::set<json>(I.begin(), I.end()).size() != I.size())
        Fail("items are not unique");
      if (S.contains("items"))
        for (size_t K = 0; K < I.size(); ++K)
          check(I[K], S["items"], Path + "/" + std::to_string(K), Errors);
    }
    if (I.is_number()) {
      if (S.contains("minimum") && I.get<double>() < S["minimum"].get<double>())
        Fail("below the minimum " + S["minimum"].dump());
      if (S.contains("maximum") && I.get<double>() > S["maximum"].get<double>())
        Fail("above the maximum " + S["maximum"].dump());
    }
    if (I.is_string()) {
      const std::string &Str = I.get_ref<const std::string &>();
      if (S.contains("pattern") && !std::regex_search(Str, std::regex(S["pattern"].get<std::string>())))
        Fail("'" + Str + "' does not match " + S["pattern"].dump());
      if (S.contains("format") && !hasFormat(Str, S["format"]))
        Fail("'" + Str + "' is not a " + S["format"].dump());
    }
    if (S.contains("anyOf") && matching(I, S["anyOf"], Path) == 0)
      Fail("matches none of anyOf");
    if (S.contains("oneOf"))
      if (size_t N = matching(I, S["oneOf"], Path); N != 1)
        Fail("matches " + std::to_string(N) + " of oneOf, not exactly one");
  }

private:
  void object(const json &I, const json &S, const std::string &Path, std::vector<std::string> &Errors) const {
    if (S.contains("required"))
      for (const auto &Key : S["required"])
        if (!I.contains(Key.get<std::string>()))
          Errors.push_back(Path + ": missing required property '" + Key.get<std::string>() + "'");
    const json Empty = json::object();
    const json &Props = S.contains("properties") ? S["properties"] : Empty;
    for (const auto &[Key, Value] : I.items()) {
      std::string Sub = Path + "/" + Key;
      if (Props.contains(Key))
        check(Value, Props[Key], Sub, Errors);
      else if (S.contains("additionalProperties")) {
        const json &Extra = S["additionalProperties"];
        if (Extra.is_boolean()) {
          if (!Extra.get<bool>())
            Errors.push_back(Sub + ": property not allowed here");
        } else {
          check(Value, Extra, Sub, Errors);
        }
      }
    }
  }

  size_t matching(const json &I, const json &Options, const std::string &Path) const {
    size_t N = 0;
    for (const auto &Option : Options) {
      std::vector<std::string> Sub;
      check(I, Option, Path, Sub);
      N += Sub.empty();
    }
    return N;
  }

  static bool hasType(const json &I, const json &Type) {
    if (Type.is_array())
      return std::any_of(Type.begin(), Type.end(), [&](const json &T) { return hasType(I, T); });
    const std::string &T = Type.get_ref<const std::string &>();
    if (T == "object")
      return I.is_object();
    if (T == "array")
      return I.is_array();
    if (T == "string")
      return I.is_string();
    if (T == "integer")
      return I.is_number_integer() || (I.is_number_float() && I.get<double>() == std::floor(I.get<double>()));
    if (T == "number")
      return I.is_number();
    if (T == "boolean")
      return I.is_boolean();
    return T == "null" && I.is_null();
  }

  static bool hasFormat(const std::string &S, const json &Format) {
    static const std::regex Uri("^[A-Za-z][A-Za-z0-9+.-]*:[^ ]*$");
    static const std::regex UriReference("^[^ ]*$");
    static const std::regex DateTime(
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$");
    if (Format == "uri")
      return std::regex_match(S, Uri);
    if (Format == "uri-reference")
      return std::regex_match(S, UriReference);
    if (Format == "date-time")
      return std::regex_match(S, DateTime);
    return true;
  }

  const json &Root;
};
} // namespace

std::vector<std::string> validateJson(const nlohmann::json &Instance, const nlohmann::json &Schema) {
  std::vector<std::string> Errors;
  Validator(Schema).check(Instance, Schema, "", Errors);
  return Errors;
}

} // namespace mlperf::test
