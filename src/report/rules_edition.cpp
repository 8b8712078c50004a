#include "report/rules_edition.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::report {

std::string to_string(rules_edition e) {
  switch (e) {
  case rules_edition::v1:
    return "v1";
  case rules_edition::v2:
    return "v2";
  case rules_edition::v3:
    break;
  }
  return "v3";
}

rules_edition parse_rules_edition(const std::string& text, const std::string& where) {
  for (const auto e : {rules_edition::v1, rules_edition::v2, rules_edition::v3}) {
    const std::string name = to_string(e);
    const std::string number = name.substr(1);
    if (text == name || text == number || text == name + ".0" || text == number + ".0")
      return e;
  }
  throw usage_error(fmt::format("{}: '{}' is not an edition of MLPerf Storage's rules. valid: v1 "
                                "(v1.0), v2 (v2.0), v3 (v3.0, the default)",
                                where, text));
}

} // namespace dlsize::report
