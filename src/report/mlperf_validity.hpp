#pragma once
// MLPerf Storage's rules for a valid run, judged on one bench report: every rule with what the
// run measured, where the rule comes from, and the dlsize command that judges it (or sizes a
// run that meets it). Rules over several runs (five after a warm-up, within 5 %) are size's
// and compare's (analysis/point_validity.hpp), not a single run's.
#include <string>
#include <vector>

#include "report/bench_report.hpp"
#include "report/rules_edition.hpp"

namespace dlsize::report {

inline constexpr std::uint64_t kMlperfMinStepsPerEpoch = 500;
inline constexpr double kMlperfMinDatasetOverRam = 5.0;

enum class rule_verdict { pass, fail, not_judged };
inline constexpr core::enum_table<rule_verdict, 3> kRuleVerdictNames{
    {{rule_verdict::pass, "PASS"},
     {rule_verdict::fail, "FAIL"},
     {rule_verdict::not_judged, "not judged"}}};
constexpr const auto& names_of(rule_verdict) {
  return kRuleVerdictNames;
}
std::string to_string(rule_verdict v); // "PASS", "FAIL", "not judged"

struct validity_rule {
  std::string rule; // "≥ 500 steps per epoch"
  rule_verdict verdict = rule_verdict::not_judged;
  std::string measured; // what the run had, or why it is not judged
  std::string source;   // where the rule comes from
  std::string judge;    // the command that judges it
};

struct validity {
  rules_edition edition = kDefaultRules; // the rules that judged
  std::vector<validity_rule> rules;
  // Every rule judged passes (rules not judged leave the run unproven, not invalid).
  bool valid() const;
  bool proven() const; // every rule judged and passed
  // "INVALID" when a rule fails, "VALID" when every rule passes, else "not proven".
  std::string verdict() const;
};

// The rules of one run under an edition. v1 and v2 (the same rules): ≥ 500 steps per epoch,
// dataset ≥ 5 × the clients' RAM, the workload's epochs. v3: samples ≥ max(500 steps × batch ×
// accelerators, 5 × Σ client RAM ÷ record length) (§3.1.2), the workload's epochs (§3.6.2),
// identical accelerators per node (§3.3.6), data and results on different file systems
// (§3.4.2, from the report's fs_separation). A storage-only run (no accelerators) is no MLPerf
// Storage run: its training rules are not judged; its dataset against RAM is.
validity mlperf_validity(const bench_report& r, rules_edition edition = kDefaultRules);

// The verdict as a report holds it: {"rules_edition", "verdict", "rules": [...]}.
nlohmann::json to_json(const validity& v);

} // namespace dlsize::report
