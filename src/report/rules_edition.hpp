#pragma once
// The edition of MLPerf Storage's rules a run, a point or a checkpoint is judged by (`--rules`):
// v1 and v2 reproduce the judgements dlsize made before v3.0 existed; v3 is MLPerf Storage v3.0
// (results 2026) and the default. Every judgement records its edition.
#include <string>

#include "core/enum_names.hpp"

namespace dlsize::report {

enum class rules_edition { v1, v2, v3 };
inline constexpr core::enum_table<rules_edition, 3> kRulesEditionNames{
    {{rules_edition::v1, "v1", "v1.0"},
     {rules_edition::v2, "v2", "v2.0"},
     {rules_edition::v3, "v3", "v3.0, the default"}}};
constexpr const auto& names_of(rules_edition) {
  return kRulesEditionNames;
}

inline constexpr rules_edition kDefaultRules = rules_edition::v3;

// "v1", "v2", "v3".
std::string to_string(rules_edition e);

// Parses "v1", "v2" or "v3" (also "1", "v1.0", ...). Throws usage_error naming `where` and the
// valid editions.
rules_edition parse_rules_edition(const std::string& text, const std::string& where);

// The v3.0 rules document every v3 rule cites: mlcommons/storage Rules.md at the commit read.
inline constexpr const char* kV3RulesDoc =
    "MLPerf Storage v3.0 Rules.md (mlcommons/storage @ 0366ccfc9fc629dde3379a8022cb4c4ff8285b53)";

// What `--rules` says in --help and the documents: the editions and the default.
inline constexpr const char* kRulesHelp =
    "MLPerf Storage rules to judge by: v1, v2 (as dlsize judged before v3.0) or v3 (v3.0, "
    "the default)";

} // namespace dlsize::report
