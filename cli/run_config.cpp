#include "run_config.hpp"

#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "config/embedded_workloads.hpp"
#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "core/typed_value.hpp"
#include "core/units.hpp"
#include "core/value_rule.hpp"
#include "option_rules.hpp"
#include "report/bench_report.hpp"
#include "report/report_input.hpp"

namespace dlsize::cli {
namespace {

bool skipped(const CLI::Option* o) {
  if (o->get_lnames().empty())
    return true;
  const std::string& n = o->get_lnames().front();
  return n == "help" || n == "config" || n == "replay";
}

std::vector<std::string> valid_keys(const CLI::App& cmd) {
  std::vector<std::string> keys;
  for (const CLI::Option* o : cmd.get_options())
    if (!skipped(o))
      keys.push_back(o->get_lnames().front());
  return keys;
}

} // namespace

void watch_inputs_as_given(const std::string& stall_timeout, const std::string& time_limit) {
  const auto seconds = [](const std::string& text, const char* option) {
    try {
      return text.empty() ? 0.0 : units::parse_duration(text, option);
    } catch (const usage_error&) {
      return 0.0;
    }
  };
  core::watch_inputs(
      {seconds(stall_timeout, "--stall-timeout"), seconds(time_limit, "--time-limit")});
}

void apply_run_config(CLI::App& cmd, const std::string& file_or_name) {
  std::string text, source;
  if (core::names_a_file(file_or_name)) {
    text = core::read_input_file(file_or_name, core::kConfigJson);
    source = file_or_name;
  } else {
    std::vector<std::string> names;
    for (const auto& c : config::embedded_configs()) {
      names.emplace_back(c.name);
      if (c.name == file_or_name) {
        text = std::string(c.json);
        source = "configs/" + file_or_name + ".json (embedded)";
      }
    }
    if (source.empty())
      throw usage_error(
          fmt::format("--config: no embedded config '{}'. known: {}; or a path to a JSON file",
                      file_or_name, fmt::join(names, ", ")));
  }
  apply_run_config_object(cmd, core::parse_json(text, source, core::kConfigJson), source);
}

void apply_run_config_object(CLI::App& cmd, const nlohmann::json& j, const std::string& source) {
  if (!j.is_object())
    throw usage_error(
        fmt::format("{}: a run config must be a JSON object of option names and values", source));
  for (const auto& [key, value] : j.items()) {
    CLI::Option* opt =
        key == "config" || key == "help" ? nullptr : cmd.get_option_no_throw("--" + key);
    if (!opt)
      throw usage_error(
          fmt::format("{}: unknown key '{}'. valid keys (the long option names of dlsize {}): {}",
                      source, key, cmd.get_name(), fmt::join(valid_keys(cmd), ", ")));
    if (opt->count() > 0)
      continue; // the command line wins
    const core::value_rule& rule = rule_of(cmd, *opt);
    std::vector<std::string> inputs;
    auto add = [&](const nlohmann::json& v) {
      const std::string problem = core::json_problem(rule, v);
      if (!problem.empty())
        throw usage_error(fmt::format("{}: {}: {}", source, key, problem));
      inputs.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    };
    if (value.is_array() && opt->get_items_expected_max() > 1) {
      for (const auto& v : value)
        add(v);
    } else {
      add(value);
    }
    if (opt->get_expected_min() == 0 && inputs[0] == "false")
      continue;
    try {
      for (const auto& in : inputs)
        opt->add_result(in);
      opt->run_callback();
    } catch (const CLI::Error& e) {
      throw usage_error(fmt::format("{}: {}: {} is not valid ({}). valid: {}", source, key,
                                    value.dump(), e.what(), core::describe(rule)));
    }
  }
}

std::uint64_t apply_replay(CLI::App& cmd, const std::string& report_file) {
  const nlohmann::json r = report::read_report_input(report_file, report::report_use::bench);
  const auto source = report::replay_source_of(r);
  if (!source)
    throw usage_error(fmt::format("--replay: '{}' is not a dlsize bench report (schema "
                                  "dlsize.report/1 with a config block)",
                                  report_file));
  apply_run_config_object(cmd, source->config, report_file + " (config)");
  return source->ranks;
}

nlohmann::json given_options(const CLI::App& cmd) {
  nlohmann::json all = effective_config(cmd);
  nlohmann::json out = nlohmann::json::object();
  for (const CLI::Option* o : cmd.get_options())
    if (!skipped(o) && o->count() > 0)
      out[o->get_lnames().front()] = all[o->get_lnames().front()];
  return out;
}

std::set<std::string> given_long_options(const CLI::App& cmd) {
  std::set<std::string> given;
  for (const CLI::Option* o : cmd.get_options())
    if (o->count() > 0)
      for (const auto& name : o->get_lnames())
        given.insert("--" + name);
  return given;
}

nlohmann::json effective_config(const CLI::App& cmd) {
  nlohmann::json out = nlohmann::json::object();
  for (const CLI::Option* o : cmd.get_options()) {
    if (skipped(o))
      continue;
    const std::string& name = o->get_lnames().front();
    // Text and paths stay text ("--label 123" is the label "123", not a number).
    const core::value_kind kind = rule_of(cmd, *o).kind;
    const bool as_text = kind == core::value_kind::text || kind == core::value_kind::path;
    auto typed = [as_text](const std::string& s) {
      return as_text ? nlohmann::json(s) : core::typed_value(s);
    };
    if (o->count() > 0) {
      const auto& r = o->results();
      if (o->get_expected_min() == 0) {
        out[name] = true;
      } else if (r.size() == 1 ||
                 o->get_multi_option_policy() == CLI::MultiOptionPolicy::TakeLast) {
        out[name] = typed(r.back());
      } else {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& x : r)
          a.push_back(typed(x));
        out[name] = a;
      }
    } else if (o->get_expected_min() == 0) {
      out[name] = false;
    } else {
      const std::string d = o->get_default_str();
      out[name] = d.empty() ? nlohmann::json(nullptr) : typed(d);
    }
  }
  return out;
}

} // namespace dlsize::cli
