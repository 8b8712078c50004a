#include "report/rules_edition.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::report {

std::string to_string(rules_edition e) {
  return std::string(core::name_of(e));
}

rules_edition parse_rules_edition(const std::string& text, const std::string& where) {
  for (const auto& n : names_of(rules_edition{})) {
    const std::string name(n.name);
    const std::string number = name.substr(1);
    if (text == name || text == number || text == name + ".0" || text == number + ".0")
      return n.value;
  }
  throw usage_error(fmt::format("{}: '{}' is not an edition of MLPerf Storage's rules. valid: {}",
                                where, text, core::valid_names<rules_edition>()));
}

} // namespace dlsize::report
