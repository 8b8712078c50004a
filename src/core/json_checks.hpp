#pragma once
// Validation helpers for JSON inputs: every error names the file and the key path
// ("workloads/x.json: dataset.sample_bytes.mean: must be > 0").
#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace dlsize::core {

class json_checker {
public:
  explicit json_checker(std::string source) : m_source(std::move(source)) {}

  [[noreturn]] void fail(std::string_view path, std::string_view what) const;
  // Rejects keys of obj (at path) that are not in allowed.
  void only_keys(const nlohmann::json& obj, std::string_view path,
                 std::initializer_list<std::string_view> allowed) const;
  const nlohmann::json& object(const nlohmann::json& parent, std::string_view path,
                               std::string_view key) const;
  std::string string(const nlohmann::json& obj, std::string_view path, std::string_view key) const;
  double number(const nlohmann::json& obj, std::string_view path, std::string_view key, double min,
                double max) const;
  double number_or(const nlohmann::json& obj, std::string_view path, std::string_view key,
                   double min, double max, double fallback) const;
  std::uint64_t integer(const nlohmann::json& obj, std::string_view path, std::string_view key,
                        std::uint64_t min, std::uint64_t max) const;
  std::uint64_t integer_or(const nlohmann::json& obj, std::string_view path, std::string_view key,
                           std::uint64_t min, std::uint64_t max, std::uint64_t fallback) const;

  const std::string& source() const { return m_source; }

private:
  std::string m_source;
};

std::string join_path(std::string_view path, std::string_view key);

// Whether a name given for a profile, calibration or config means a file (it has a '/' or
// ends in .json) rather than an embedded or preset name.
bool names_a_file(std::string_view name);

} // namespace dlsize::core
