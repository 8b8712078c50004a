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

const nlohmann::json& json_checker::object(const nlohmann::json& parent, std::string_view path,
                                           std::string_view key) const {
  auto it = parent.find(key);
  if (it == parent.end())
    fail(join_path(path, key), "missing");
  if (!it->is_object())
    fail(join_path(path, key), "must be an object");
  return *it;
}

std::string json_checker::string(const nlohmann::json& obj, std::string_view path,
                                 std::string_view key) const {
  auto it = obj.find(key);
  if (it == obj.end())
    fail(join_path(path, key), "missing");
  if (!it->is_string())
    fail(join_path(path, key), "must be a string");
  return it->get<std::string>();
}

double json_checker::number(const nlohmann::json& obj, std::string_view path, std::string_view key,
                            double min, double max) const {
  auto it = obj.find(key);
  if (it == obj.end())
    fail(join_path(path, key), "missing");
  if (!it->is_number())
    fail(join_path(path, key), "must be a number");
  const double v = it->get<double>();
  if (!(v >= min && v <= max))
    fail(join_path(path, key), fmt::format("{} is out of range; valid: {} to {}", v, min, max));
  return v;
}

double json_checker::number_or(const nlohmann::json& obj, std::string_view path,
                               std::string_view key, double min, double max,
                               double fallback) const {
  return obj.contains(key) ? number(obj, path, key, min, max) : fallback;
}

std::uint64_t json_checker::integer(const nlohmann::json& obj, std::string_view path,
                                    std::string_view key, std::uint64_t min,
                                    std::uint64_t max) const {
  auto it = obj.find(key);
  if (it == obj.end())
    fail(join_path(path, key), "missing");
  if (!it->is_number_integer() ||
      (it->is_number_integer() && it->get<std::int64_t>() < 0 && !it->is_number_unsigned()))
    fail(join_path(path, key), "must be a non-negative integer");
  const auto v = it->get<std::uint64_t>();
  if (v < min || v > max)
    fail(join_path(path, key), fmt::format("{} is out of range; valid: {} to {}", v, min, max));
  return v;
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
