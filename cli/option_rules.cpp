#include "option_rules.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "config/option_table.hpp"

namespace dlsize::cli {
namespace {

bool is_help(const CLI::Option& opt) {
  return !opt.get_lnames().empty() &&
         (opt.get_lnames().front() == "help" || opt.get_lnames().front() == "help-all");
}

// Ranges worth a word in --help: numbers and units (text and paths have their own rules).
bool shows_range(core::value_kind k) {
  using core::value_kind;
  return k != value_kind::flag && k != value_kind::text && k != value_kind::path;
}

void apply_to(CLI::App& cmd) {
  for (CLI::Option* opt : cmd.get_options()) {
    if (is_help(*opt))
      continue;
    const core::value_rule rule = rule_of(cmd, *opt);
    if (opt->get_expected_min() == 0)
      continue; // a flag takes no value on the command line
    opt->check(CLI::Validator([rule](std::string& v) { return core::text_problem(rule, v); }, ""));
    if (shows_range(rule.kind) && !opt->get_group().empty())
      opt->description(fmt::format("{} [{}]", opt->get_description(), core::describe(rule)));
  }
  for (CLI::App* sub : cmd.get_subcommands({}))
    apply_to(*sub);
}

} // namespace

std::string command_path(const CLI::App& cmd) {
  std::string path;
  for (const CLI::App* a = &cmd; a && a->get_parent(); a = a->get_parent())
    path = path.empty() ? a->get_name() : a->get_name() + " " + path;
  return path;
}

std::string option_key(const CLI::Option& opt) {
  if (!opt.get_lnames().empty())
    return "--" + opt.get_lnames().front();
  if (!opt.get_snames().empty())
    return "-" + opt.get_snames().front();
  return opt.get_single_name();
}

const core::value_rule& rule_of(const CLI::App& cmd, const CLI::Option& opt) {
  const std::string command = command_path(cmd);
  const core::value_rule* r = config::option_rule(command, option_key(opt));
  if (!r)
    throw std::logic_error(fmt::format("option {} of dlsize {} has no entry in the option table "
                                       "(src/config/option_table.cpp)",
                                       option_key(opt), command));
  return *r;
}

void apply_option_rules(CLI::App& app) {
  apply_to(app);
}

std::string option_table_markdown(CLI::App& app) {
  std::string out;
  auto add = [&](CLI::App& cmd, auto& self) -> void {
    for (const CLI::Option* opt : cmd.get_options()) {
      if (is_help(*opt) || opt->get_group().empty())
        continue;
      const std::string command = command_path(cmd);
      out += fmt::format("| {} | `{}` | {} |\n", command.empty() ? "dlsize" : command,
                         option_key(*opt), core::describe(rule_of(cmd, *opt)));
    }
    for (CLI::App* sub : cmd.get_subcommands({}))
      self(*sub, self);
  };
  add(app, add);
  return out;
}

} // namespace dlsize::cli
