#include "core/json_schema.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize {
namespace {

const std::set<std::string>& known_keywords() {
  static const std::set<std::string> k = {"$schema",
                                          "$id",
                                          "$ref",
                                          "$defs",
                                          "definitions",
                                          "title",
                                          "description",
                                          "type",
                                          "required",
                                          "properties",
                                          "additionalProperties",
                                          "items",
                                          "minItems",
                                          "maxItems",
                                          "enum",
                                          "const",
                                          "minimum",
                                          "maximum",
                                          "exclusiveMinimum",
                                          "pattern",
                                          "oneOf",
                                          "anyOf",
                                          "allOf"};
  return k;
}

std::string child(const std::string& path, const std::string& key) {
  std::string k;
  for (char c : key)
    k += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return path + "/" + k;
}

bool has_type(const nlohmann::json& v, const std::string& t) {
  // JSON Schema's type names that are nlohmann's value types.
  using is_type = bool (nlohmann::json::*)() const noexcept;
  static const std::pair<std::string_view, is_type> kTypes[] = {
      {"null", &nlohmann::json::is_null},     {"boolean", &nlohmann::json::is_boolean},
      {"object", &nlohmann::json::is_object}, {"array", &nlohmann::json::is_array},
      {"string", &nlohmann::json::is_string}, {"number", &nlohmann::json::is_number}};
  // JSON has no infinite number: one is a figure too large for a double (1e400), never valid.
  if (v.is_number_float() && !std::isfinite(v.get<double>()))
    return false;
  for (const auto& [name, is] : kTypes)
    if (t == name)
      return (v.*is)();
  if (t == "integer") {
    if (v.is_number_integer())
      return true;
    return v.is_number_float() && std::isfinite(v.get<double>()) &&
           std::floor(v.get<double>()) == v.get<double>();
  }
  return false;
}

// A schema's bound as people write it: 0, 64, 1e+15 (nlohmann writes 1e15 as
// 1000000000000000.0).
std::string bound_text(const nlohmann::json& b) {
  return b.is_number_float() ? fmt::format("{:g}", b.get<double>()) : b.dump();
}

std::string short_text(const nlohmann::json& v) {
  std::string s = v.dump();
  return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

} // namespace

json_schema::json_schema(nlohmann::json schema) : m_schema(std::move(schema)) {
  check_schema(m_schema, "#");
}

void json_schema::check_schema(const nlohmann::json& s, const std::string& where) {
  if (s.is_boolean())
    return;
  if (!s.is_object())
    throw run_error(fmt::format("schema: {} is not an object", where));
  for (const auto& [k, v] : s.items()) {
    if (!known_keywords().count(k))
      throw run_error(fmt::format("schema: keyword '{}' at {} is not supported by dlsize's "
                                  "validator",
                                  k, where));
    if (k == "$ref")
      resolve(v.get<std::string>());
    else if (k == "pattern")
      m_patterns.emplace(v.get<std::string>(),
                         std::regex(v.get<std::string>(), std::regex::ECMAScript));
    else if (k == "properties" || k == "$defs" || k == "definitions")
      for (const auto& [name, sub] : v.items())
        check_schema(sub, where + "/" + k + "/" + name);
    else if (k == "items" || k == "additionalProperties")
      check_schema(v, where + "/" + k);
    else if (k == "oneOf" || k == "anyOf" || k == "allOf")
      for (std::size_t i = 0; i < v.size(); ++i)
        check_schema(v[i], fmt::format("{}/{}/{}", where, k, i));
  }
}

const nlohmann::json& json_schema::resolve(const std::string& ref) const {
  if (ref.rfind("#", 0) != 0)
    throw run_error(fmt::format("schema: $ref '{}' is not within the schema (#/...)", ref));
  const nlohmann::json::json_pointer p(ref.substr(1));
  if (!m_schema.contains(p))
    throw run_error(fmt::format("schema: $ref '{}' does not resolve", ref));
  return m_schema.at(p);
}

std::vector<schema_problem> json_schema::validate(const nlohmann::json& doc,
                                                  std::size_t limit) const {
  std::vector<schema_problem> out;
  check(m_schema, doc, "", out, limit);
  return out;
}

void json_schema::check(const nlohmann::json& s, const nlohmann::json& v, const std::string& path,
                        std::vector<schema_problem>& out, std::size_t limit) const {
  if (out.size() >= limit)
    return;
  if (s.is_boolean()) {
    if (!s.get<bool>())
      out.push_back({path, "is not allowed here"});
    return;
  }
  auto fail = [&](std::string msg) { out.push_back({path, std::move(msg)}); };
  if (s.contains("$ref"))
    check(resolve(s["$ref"].get<std::string>()), v, path, out, limit);
  if (s.contains("type")) {
    const auto& t = s["type"];
    bool ok = false;
    for (const auto& one : t.is_array() ? t : nlohmann::json::array({t}))
      ok = ok || has_type(v, one.get<std::string>());
    if (!ok)
      return fail(fmt::format("{} is not of type {}", short_text(v),
                              t.is_array() ? fmt::format("{}", fmt::join(t, " or ")) : t.dump()));
  }
  if (s.contains("const") && v != s["const"])
    fail(fmt::format("{} is not {}", short_text(v), s["const"].dump()));
  if (s.contains("enum") && std::find(s["enum"].begin(), s["enum"].end(), v) == s["enum"].end())
    fail(fmt::format("{} is not one of {}", short_text(v), s["enum"].dump()));
  if (v.is_number()) {
    const double x = v.get<double>();
    if (s.contains("minimum") && x < s["minimum"].get<double>())
      fail(fmt::format("{} is below the minimum {}", v.dump(), bound_text(s["minimum"])));
    if (s.contains("exclusiveMinimum") && x <= s["exclusiveMinimum"].get<double>())
      fail(fmt::format("{} is not above {}", v.dump(), bound_text(s["exclusiveMinimum"])));
    if (s.contains("maximum") && x > s["maximum"].get<double>())
      fail(fmt::format("{} is above the maximum {}", v.dump(), bound_text(s["maximum"])));
  }
  if (v.is_string() && s.contains("pattern") &&
      !std::regex_search(v.get<std::string>(), m_patterns.at(s["pattern"].get<std::string>())))
    fail(fmt::format("{} does not match {}", short_text(v), s["pattern"].get<std::string>()));
  if (v.is_array()) {
    if (s.contains("minItems") && v.size() < s["minItems"].get<std::size_t>())
      fail(fmt::format("has {} items, fewer than {}", v.size(), s["minItems"].dump()));
    if (s.contains("maxItems") && v.size() > s["maxItems"].get<std::size_t>())
      fail(fmt::format("has {} items, more than {}", v.size(), s["maxItems"].dump()));
    if (s.contains("items"))
      for (std::size_t i = 0; i < v.size(); ++i)
        check(s["items"], v[i], child(path, std::to_string(i)), out, limit);
  }
  if (v.is_object())
    check_object(s, v, path, out, limit);
  check_alternatives(s, v, path, out, limit);
}

void json_schema::check_object(const nlohmann::json& s, const nlohmann::json& v,
                               const std::string& path, std::vector<schema_problem>& out,
                               std::size_t limit) const {
  if (s.contains("required"))
    for (const auto& r : s["required"])
      if (!v.contains(r.get<std::string>()))
        out.push_back({path, fmt::format("required field '{}' is missing", r.get<std::string>())});
  const nlohmann::json none = nlohmann::json::object();
  const auto& props = s.contains("properties") ? s["properties"] : none;
  for (const auto& [k, sub] : v.items()) {
    if (props.contains(k))
      check(props[k], sub, child(path, k), out, limit);
    else if (s.contains("additionalProperties")) {
      const auto& extra = s["additionalProperties"];
      if (extra.is_boolean() && !extra.get<bool>())
        out.push_back({child(path, k), "is not a field of this object"});
      else
        check(extra, sub, child(path, k), out, limit);
    }
  }
}

// oneOf and anyOf: when no alternative matches, the problems of the one that came closest (the
// fewest problems, when one has fewer than every other), else each one's first problem.
void json_schema::check_alternatives(const nlohmann::json& s, const nlohmann::json& v,
                                     const std::string& path, std::vector<schema_problem>& out,
                                     std::size_t limit) const {
  if (s.contains("allOf"))
    for (const auto& sub : s["allOf"])
      check(sub, v, path, out, limit);
  for (const char* kw : {"oneOf", "anyOf"}) {
    if (!s.contains(kw))
      continue;
    std::size_t matches = 0;
    std::vector<std::vector<schema_problem>> each;
    for (const auto& sub : s[kw]) {
      each.emplace_back();
      check(sub, v, path, each.back(), limit);
      matches += each.back().empty() ? 1 : 0;
    }
    if (matches == 0)
      report_closest(s[kw], each, path, out);
    else if (matches > 1 && std::string(kw) == "oneOf")
      out.push_back(
          {path, fmt::format("matches {} of the oneOf alternatives, not exactly one", matches)});
  }
}

void json_schema::report_closest(const nlohmann::json& alternatives,
                                 const std::vector<std::vector<schema_problem>>& each,
                                 const std::string& path, std::vector<schema_problem>& out) const {
  // Alternatives that fail the same way (a required field all of them need) are one answer.
  const auto same = [](const std::vector<schema_problem>& a, const std::vector<schema_problem>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
      return x.path == y.path && x.message == y.message;
    });
  };
  std::size_t best = 0, ties = 0;
  for (std::size_t i = 1; i < each.size(); ++i) {
    if (each[i].size() < each[best].size()) {
      best = i;
      ties = 0;
    } else if (each[i].size() == each[best].size() && !same(each[i], each[best])) {
      ++ties;
    }
  }
  if (ties == 0) {
    const auto& alt = alternatives[best];
    const std::string name = alt.is_object() && alt.contains("$ref")
                                 ? alt["$ref"].get<std::string>()
                                 : fmt::format("number {}", best + 1);
    for (const auto& p : each[best])
      out.push_back({p.path, fmt::format("{} (by the closest of the {} alternatives: {})",
                                         p.message, alternatives.size(), name)});
    return;
  }
  std::vector<std::string> why;
  for (const auto& p : each)
    why.push_back(fmt::format("{}: {}", p[0].path.empty() ? "/" : p[0].path, p[0].message));
  out.push_back({path, fmt::format("matches none of the {} alternatives ({})", alternatives.size(),
                                   fmt::join(why, "; "))});
}

std::string json_schema::title() const {
  const auto it = m_schema.find("title");
  return it != m_schema.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<schema_problem> json_schema::validate_at(const nlohmann::json& doc,
                                                     const std::string& ref,
                                                     std::size_t limit) const {
  std::vector<schema_problem> out;
  check(resolve(ref), doc, "", out, limit);
  return out;
}

} // namespace dlsize
