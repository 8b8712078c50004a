#include "sweep/sweep_config.hpp"

#include <map>
#include <optional>

#include <fmt/format.h>

namespace dlsize::sweep {

const std::vector<std::string>& launcher_variables() {
  static const std::vector<std::string> p = {"{ranks}", "{accelerators}", "{accelerators-per-rank}",
                                             "{point}"};
  return p;
}

namespace {

std::string substitute(std::string arg, const sweep_config& c, const sweep_point& p) {
  // The values of launcher_variables(), in its order.
  const std::vector<std::string> values = {
      std::to_string(p.ranks), std::to_string(p.accelerators),
      std::to_string(c.accelerators_per_rank ? c.accelerators_per_rank : p.accelerators), p.id};
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string& key = launcher_variables()[i];
    const std::string& value = values[i];
    for (auto at = arg.find(key); at != std::string::npos; at = arg.find(key, at + value.size()))
      arg.replace(at, key.size(), value);
  }
  return arg;
}

// "-buffered" of a swept cache mode, "" when the axis is not swept: a point id's part.
std::string cache_part(const std::optional<io::cache_mode>& m) {
  return m ? fmt::format("-{}", core::name_of(*m)) : "";
}

// The swept cache modes; one empty choice (the command's default) when the axis is not swept.
std::vector<std::optional<io::cache_mode>> cache_axis(const sweep_config& c) {
  std::vector<std::optional<io::cache_mode>> caches(c.caches.begin(), c.caches.end());
  if (caches.empty())
    caches.emplace_back();
  return caches;
}

// The points of a checkpoint sweep: repeats outermost, then cache modes and rank counts.
std::vector<sweep_point> checkpoint_points(const sweep_config& c) {
  const auto caches = cache_axis(c);
  std::vector<sweep_point> out;
  for (std::uint64_t r = 0; r < c.repeats; ++r)
    for (const auto& m : caches)
      for (auto n : c.ranks) {
        sweep_point p;
        p.ranks = n;
        p.repeat = r + 1;
        p.seeded = false;
        p.cache = m;
        p.id = fmt::format("np{}{}-r{}", n, cache_part(m), p.repeat);
        p.options = c.bench;
        out.push_back(std::move(p));
      }
  return out;
}

// A bench sweep's points, repeats outermost.
std::vector<sweep_point> repeat_major_points(const sweep_config& c) {
  const std::vector<sweep_dataset> datasets =
      c.datasets.empty() ? std::vector<sweep_dataset>{{"", {}}} : c.datasets;
  const auto caches = cache_axis(c);
  std::vector<sweep_point> out;
  for (std::uint64_t r = 0; r < c.repeats; ++r)
    for (const auto& d : datasets)
      for (const auto& m : caches)
        for (auto n : c.accelerators) {
          sweep_point p;
          p.accelerators = n;
          p.repeat = r + 1;
          p.seed = c.seed_policy == "fixed" ? c.seed : c.seed + r;
          p.ranks = c.accelerators_per_rank ? n / c.accelerators_per_rank : 1;
          p.dataset = d.name;
          p.cache = m;
          p.id = fmt::format("n{}{}{}-r{}", n, d.name.empty() ? "" : "-" + d.name, cache_part(m),
                             p.repeat);
          p.options = c.bench;
          for (const auto& [k, v] : d.options.items())
            p.options[k] = v;
          out.push_back(std::move(p));
        }
  return out;
}

// The points in the order the config asks: with "points" each point's repeats back to back,
// the points in the order of their first repeat.
std::vector<sweep_point> in_order(std::vector<sweep_point> points, const std::string& order) {
  if (order != "points")
    return points;
  std::vector<std::string> keys;
  std::map<std::string, std::vector<sweep_point>> by_point;
  for (auto& p : points) {
    std::string key = p.id.substr(0, p.id.rfind("-r"));
    if (!by_point.count(key))
      keys.push_back(key);
    by_point[key].push_back(std::move(p));
  }
  std::vector<sweep_point> out;
  for (const auto& k : keys)
    for (auto& p : by_point[k])
      out.push_back(std::move(p));
  return out;
}

} // namespace

std::vector<sweep_point> expand_points(const sweep_config& c) {
  return in_order(c.command == "checkpoint" ? checkpoint_points(c) : repeat_major_points(c),
                  c.order);
}

std::vector<std::string> point_argv(const sweep_config& c, const sweep_point& p,
                                    const std::string& self, const std::string& report) {
  // Every option of the point by name, in name order: the config's, then those the sweep sets.
  std::map<std::string, std::optional<std::string>> options; // nothing: a flag
  for (const auto& [key, value] : p.options.items()) {
    if (value.is_boolean()) {
      if (value.get<bool>())
        options.insert_or_assign(key, std::nullopt);
      continue;
    }
    options.insert_or_assign(key, value.is_string() ? value.get<std::string>() : value.dump());
  }
  const auto set = [&](const char* name, std::string value) {
    options.insert_or_assign(name, std::move(value));
  };
  if (p.cache)
    set("cache", std::string(core::name_of(*p.cache)));
  if (c.command != "checkpoint") {
    set("accelerators", std::to_string(p.accelerators));
    set("seed", std::to_string(p.seed));
  }
  if (c.accelerators_per_rank)
    set("accelerators-per-rank", std::to_string(c.accelerators_per_rank));

  std::vector<std::string> argv;
  for (const auto& a : c.launcher)
    argv.push_back(substitute(a, c, p));
  argv.push_back(self);
  argv.push_back(c.command);
  for (const auto& [key, value] : options) {
    argv.push_back("--" + key);
    if (value)
      argv.push_back(*value);
  }
  argv.push_back("--out");
  argv.push_back(report);
  argv.push_back("--quiet");
  return argv;
}

} // namespace dlsize::sweep
