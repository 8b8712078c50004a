#include "core/json_checks.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::core {

std::string join_path(std::string_view path, std::string_view key) {
  if (path.empty())
    return std::string(key);
  return fmt::format("{}.{}", path, key);
}

void json_checker::fail(std::string_view path, std::string_view what) const {
  throw usage_error(fmt::format("{}: {}: {}", m_source, path.empty() ? "(top level)" : path, what));
}

void json_checker::only_keys(const nlohmann::json& obj, std::string_view path,
                             std::initializer_list<std::string_view> allowed) const {
  if (!obj.is_object())
    fail(path, "must be an object");
  for (const auto& [key, value] : obj.items()) {
    bool ok = false;
    for (auto a : allowed)
      ok = ok || key == a;
    if (!ok) {
      std::string list;
      for (auto a : allowed)
        list += (list.empty() ? "" : ", ") + std::string(a);
      fail(join_path(path, key), fmt::format("unknown key. valid keys here: {}", list));
    }
  }
}

namespace {

// obj's member key; fails naming it when it is missing or is(member) says it is not what `must`
// asks.
template <typename Is>
const nlohmann::json& typed_member(const json_checker& ck, const nlohmann::json& obj,
                                   std::string_view path, std::string_view key, Is is,
                                   std::string_view must) {
  auto it = obj.find(key);
  if (it == obj.end())
    ck.fail(join_path(path, key), "missing");
  if (!is(*it))
    ck.fail(join_path(path, key), must);
  return *it;
}

// v; fails naming the member when v is outside [min, max] (NaN is).
template <typename T>
T in_range(const json_checker& ck, std::string_view path, std::string_view key, T v, T min, T max) {
  if (!(v >= min && v <= max))
    ck.fail(join_path(path, key), fmt::format("{} is out of range; valid: {} to {}", v, min, max));
  return v;
}

} // namespace

const nlohmann::json& json_checker::object(const nlohmann::json& parent, std::string_view path,
                                           std::string_view key) const {
  return typed_member(
      *this, parent, path, key, [](const nlohmann::json& v) { return v.is_object(); },
      "must be an object");
}

std::string json_checker::string(const nlohmann::json& obj, std::string_view path,
                                 std::string_view key) const {
  return typed_member(
             *this, obj, path, key, [](const nlohmann::json& v) { return v.is_string(); },
             "must be a string")
      .get<std::string>();
}

double json_checker::number(const nlohmann::json& obj, std::string_view path, std::string_view key,
                            double min, double max) const {
  const auto& v = typed_member(
      *this, obj, path, key, [](const nlohmann::json& j) { return j.is_number(); },
      "must be a number");
  return in_range(*this, path, key, v.get<double>(), min, max);
}

double json_checker::number_or(const nlohmann::json& obj, std::string_view path,
                               std::string_view key, double min, double max,
                               double fallback) const {
  return obj.contains(key) ? number(obj, path, key, min, max) : fallback;
}

std::uint64_t json_checker::integer(const nlohmann::json& obj, std::string_view path,
                                    std::string_view key, std::uint64_t min,
                                    std::uint64_t max) const {
  const auto& v = typed_member(
      *this, obj, path, key,
      [](const nlohmann::json& j) {
        return j.is_number_integer() && !(j.get<std::int64_t>() < 0 && !j.is_number_unsigned());
      },
      "must be a non-negative integer");
  return in_range(*this, path, key, v.get<std::uint64_t>(), min, max);
}

std::uint64_t json_checker::integer_or(const nlohmann::json& obj, std::string_view path,
                                       std::string_view key, std::uint64_t min, std::uint64_t max,
                                       std::uint64_t fallback) const {
  return obj.contains(key) ? integer(obj, path, key, min, max) : fallback;
}

bool names_a_file(std::string_view name) {
  return name.find('/') != std::string_view::npos ||
         (name.size() > 5 && name.substr(name.size() - 5) == ".json");
}

} // namespace dlsize::core
