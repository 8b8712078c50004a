#pragma once
// The one reader and writer of typed documents' JSON: each section lists its keys once, in a
// `visit(section, op)` overload in this namespace, which reading (from_json) and writing
// (to_json) share. from_json moves each typed key out of the object into its field and keeps
// every other key in the section's `extra`; to_json writes `extra` and then the typed fields
// over it. A field of the wrong type or range is a usage_error naming its JSON pointer
// ("FILE: /summary/wall_s: ..."). Used by report/bench_report_json.cpp, which lists the keys of
// every section of the bench report (the hosts' facts too); include it only from a *_json.cpp.
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/field.hpp"
#include "report/bench_report.hpp"
#include "report/run_status.hpp"
#include "telemetry/host_facts.hpp"

namespace dlsize::report::json_fields {

// A number's range, beside its type in the field lists below: the figures size and compare
// compute with are never negative (rates, sizes, times), and utilizations, thresholds and hit
// ratios are shares. Counts (std::uint64_t) are whole numbers >= 0 whatever the bound.
enum class bound { none, nonneg, share };

// What a key the struct does not type must hold, where readers open it (it rides in extra).
enum class json_shape { object, array, string };

// The path of a key below an object at JSON pointer `path` ("" for the report itself).
inline std::string key_path(const std::string& path, const std::string& key) {
  return path + "/" + key;
}

inline const char* found_text(const nlohmann::json& v) {
  switch (v.type()) {
  case nlohmann::json::value_t::object:
    return "an object";
  case nlohmann::json::value_t::array:
    return "an array";
  case nlohmann::json::value_t::string:
    return "a string";
  case nlohmann::json::value_t::boolean:
    return "a boolean";
  case nlohmann::json::value_t::null:
    return "null";
  default:
    return "a number";
  }
}

// "FILE: /summary: is an array. valid: an object"
[[noreturn]] inline void wrong_type(const std::string& source, const std::string& key,
                                    const nlohmann::json& v, const char* valid) {
  throw usage_error(fmt::format("{}: {}: is {}. valid: {}", source, key.empty() ? "/" : key,
                                found_text(v), valid));
}

// "FILE: /summary/read_bytes_per_s: -5 is out of range. valid: a number >= 0"
[[noreturn]] inline void out_of_range(const std::string& source, const std::string& key,
                                      const nlohmann::json& v, const char* what,
                                      const char* valid) {
  std::string shown = v.is_number() ? fmt::format("{}", v.get<double>()) : v.dump();
  if (shown.size() > 40)
    shown = shown.substr(0, 37) + "...";
  throw usage_error(fmt::format("{}: {}: {} is {}. valid: {}", source, key, shown, what, valid));
}

// Where a value is, for the messages: the report's source (a file, or "report") and the key's
// JSON pointer.
struct place {
  const std::string& source;
  std::string key;
};

inline void check_bound(const place& at, const nlohmann::json& v, bound b) {
  const double d = v.get<double>();
  if (b == bound::nonneg && !(d >= 0))
    out_of_range(at.source, at.key, v, "out of range", "a number >= 0");
  if (b == bound::share && !(d >= 0 && d <= 1))
    out_of_range(at.source, at.key, v, "out of range", "a share from 0 to 1");
}

template <class T>
constexpr bool is_collection =
    std::is_same_v<T, std::vector<std::string>> || std::is_same_v<T, std::vector<std::uint64_t>> ||
    std::is_same_v<T, std::vector<double>> || std::is_same_v<T, std::vector<nlohmann::json>> ||
    std::is_same_v<T, std::map<std::string, std::string>>;

template <class T> T convert(const nlohmann::json& v, const place& at, bound b);

// A field's value that is a list or a map of values.
template <class T> T convert_collection(const nlohmann::json& v, const place& at, bound b) {
  if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    if (!v.is_array())
      wrong_type(at.source, at.key, v, "an array of strings");
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!v[i].is_string())
        wrong_type(at.source, fmt::format("{}/{}", at.key, i), v[i], "a string");
    return v.get<std::vector<std::string>>();
  } else if constexpr (std::is_same_v<T, std::vector<std::uint64_t>> ||
                       std::is_same_v<T, std::vector<double>>) {
    if (!v.is_array())
      wrong_type(at.source, at.key, v, "an array of numbers");
    T out;
    for (std::size_t i = 0; i < v.size(); ++i)
      out.push_back(convert<typename T::value_type>(
          v[i], place{at.source, fmt::format("{}/{}", at.key, i)}, b));
    return out;
  } else if constexpr (std::is_same_v<T, std::map<std::string, std::string>>) {
    if (!v.is_object())
      wrong_type(at.source, at.key, v, "an object of strings");
    for (const auto& [k, x] : v.items())
      if (!x.is_string())
        wrong_type(at.source, key_path(at.key, k), x, "a string");
    return v.get<std::map<std::string, std::string>>();
  } else {
    static_assert(std::is_same_v<T, std::vector<nlohmann::json>>);
    if (!v.is_array())
      wrong_type(at.source, at.key, v, "an array");
    return v.get<std::vector<nlohmann::json>>();
  }
}

template <class T> T convert(const nlohmann::json& v, const place& at, bound b) {
  if constexpr (std::is_same_v<T, double>) {
    if (!v.is_number())
      wrong_type(at.source, at.key, v, "a number");
    check_bound(at, v, b);
    return v.get<double>();
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    if (v.is_number_unsigned())
      return v.get<std::uint64_t>();
    if (!v.is_number())
      wrong_type(at.source, at.key, v, "a number");
    // A count written as 2.0 (by hand, or by a tool that has only doubles) is still a count.
    const double d = v.get<double>();
    if (d < 0 || d != std::floor(d) || d >= 1.8e19)
      out_of_range(at.source, at.key, v, "out of range", "a whole number >= 0");
    return static_cast<std::uint64_t>(d);
  } else if constexpr (std::is_same_v<T, count_or_number>) {
    if (!v.is_number())
      wrong_type(at.source, at.key, v, "a number");
    check_bound(at, v, b);
    count_or_number c;
    c.whole = v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
    if (c.whole)
      c.count = v.get<std::uint64_t>();
    else
      c.number = v.get<double>();
    return c;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean())
      wrong_type(at.source, at.key, v, "true or false");
    return v.get<bool>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string())
      wrong_type(at.source, at.key, v, "a string");
    return v.get<std::string>();
  } else if constexpr (is_collection<T>) {
    return convert_collection<T>(v, at, b);
  } else if constexpr (std::is_same_v<T, telemetry::text_or_count>) {
    telemetry::text_or_count out;
    if (v.is_number_unsigned())
      out.count = v.get<std::uint64_t>();
    else if (v.is_string())
      out.text = v.get<std::string>();
    else
      wrong_type(at.source, at.key, v, "a whole number >= 0 or a string");
    return out;
  } else if constexpr (std::is_same_v<T, run_status>) {
    if (v == "complete")
      return run_status::complete;
    if (v == "incomplete")
      return run_status::incomplete;
    if (!v.is_string())
      wrong_type(at.source, at.key, v, "complete or incomplete");
    out_of_range(at.source, at.key, v, "not valid", "complete or incomplete");
  } else {
    static_assert(std::is_same_v<T, nlohmann::json>);
    if (!v.is_object())
      wrong_type(at.source, at.key, v, "an object");
    return v;
  }
}

// A struct of fields with its own extra (a section), held in a field: absent, null or an object.
template <class T>
concept typed_section = requires(const T& t) {
  t.extra;
};

template <class T> nlohmann::json to_value(const T& v) {
  if constexpr (std::is_same_v<T, run_status>)
    return to_string(v);
  else if constexpr (std::is_same_v<T, count_or_number>)
    return v.whole ? nlohmann::json(v.count) : nlohmann::json(v.number);
  else if constexpr (std::is_same_v<T, telemetry::text_or_count>)
    return v.count ? nlohmann::json(*v.count) : nlohmann::json(v.text);
  else
    return nlohmann::json(v);
}

// Moves typed keys out of an object (whatever stays is the section's extra), checking each
// against the field lists: its type, its range, and the shape of the untyped keys readers open.
struct reader {
  nlohmann::json& obj;
  std::string path; // JSON pointer of obj
  const std::string& source;
  template <class T> void operator()(const char* key, field<T>& f, bound b = bound::none) {
    const auto it = obj.find(key);
    if (it == obj.end())
      return;
    f.present = true;
    // A figure not measured: null, or (in a report built in memory, before it is written) a NaN
    // or infinity, which the JSON text holds as null.
    if (it->is_null() || (it->is_number_float() && !std::isfinite(it->get<double>())))
      ;
    else if constexpr (typed_section<T>)
      f.value = nested<T>(*it, key_path(path, key));
    else
      f.value = convert<T>(*it, place{source, key_path(path, key)}, b);
    obj.erase(it);
  }
  template <class S> S nested(nlohmann::json& v, const std::string& where) const;
  // An untyped key (or a path of them, "system/hosts"), checked in place; absent or null (not
  // measured) is fine. A parent of the wrong type is named by its own entry, which comes first.
  void shape(const char* key, json_shape s) const {
    const nlohmann::json::json_pointer p("/" + std::string(key));
    if (!obj.contains(p) || obj.at(p).is_null())
      return;
    const nlohmann::json& v = obj.at(p);
    const std::string at = key_path(path, key);
    if (s == json_shape::object && !v.is_object())
      wrong_type(source, at, v, "an object");
    if (s == json_shape::array && !v.is_array())
      wrong_type(source, at, v, "an array");
    if (s == json_shape::string && !v.is_string())
      wrong_type(source, at, v, "a string");
  }
  template <class S> void section(const char* key, std::optional<S>& s);
  // A section a run writes as null when it has none (operator() reads it).
  template <class S> void section(const char* key, field<S>& s) { (*this)(key, s); }
  template <class S> void rows(const char* key, std::optional<std::vector<S>>& rows);
};

// Writes typed fields over a section's extra.
struct writer {
  nlohmann::json& obj;
  template <class T> void operator()(const char* key, const field<T>& f, bound = bound::none) {
    if (!f.present)
      return;
    if constexpr (typed_section<T>)
      obj[key] = f.value ? nested(*f.value) : nlohmann::json(nullptr);
    else
      obj[key] = f.value ? to_value(*f.value) : nlohmann::json(nullptr);
  }
  template <class S> static nlohmann::json nested(const S& s);
  void shape(const char*, json_shape) const {}
  template <class S> void section(const char* key, const std::optional<S>& s);
  template <class S> void section(const char* key, const field<S>& s) { (*this)(key, s); }
  template <class S> void rows(const char* key, const std::optional<std::vector<S>>& rows);
};

template <class S, class T>
concept section_of = std::is_same_v<std::remove_const_t<S>, T>;

template <class S> S reader::nested(nlohmann::json& v, const std::string& where) const {
  if (!v.is_object())
    wrong_type(source, where, v, "an object");
  S sec;
  sec.extra = std::move(v);
  reader sub{sec.extra, where, source};
  visit(sec, sub);
  return sec;
}

template <class S> void reader::section(const char* key, std::optional<S>& s) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) // null: not measured; it stays untyped, in extra
    return;
  s = nested<S>(*it, key_path(path, key));
  obj.erase(it);
}

template <class S> void reader::rows(const char* key, std::optional<std::vector<S>>& rows) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null())
    return;
  const std::string where = key_path(path, key);
  if (!it->is_array())
    wrong_type(source, where, *it, "an array of objects");
  std::vector<S> out;
  for (std::size_t i = 0; i < it->size(); ++i)
    out.push_back(nested<S>((*it)[i], fmt::format("{}/{}", where, i)));
  obj.erase(it);
  rows = std::move(out);
}

template <class S> nlohmann::json writer::nested(const S& s) {
  nlohmann::json o = s.extra.is_object() ? s.extra : nlohmann::json::object();
  writer sub{o};
  visit(s, sub);
  return o;
}

template <class S> void writer::section(const char* key, const std::optional<S>& s) {
  if (s)
    obj[key] = nested(*s);
}

template <class S> void writer::rows(const char* key, const std::optional<std::vector<S>>& rows) {
  if (!rows)
    return;
  nlohmann::json a = nlohmann::json::array();
  for (const auto& row : *rows)
    a.push_back(nested(row));
  obj[key] = std::move(a);
}

} // namespace dlsize::report::json_fields
