#include "cluster/agreement.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::cluster {
namespace {

std::vector<nlohmann::json> exchange_results(communicator& c, const rank_answer& mine) {
  // Counted before the exchange: if it times out, the job is past agreeing.
  c.count_agreement();
  std::vector<rank_answer> all;
  for (const auto& s : c.allgather(mine.to_json().dump()))
    all.push_back(rank_answer::from_json(nlohmann::json::parse(s)));
  int code = 0;
  for (const auto& r : all)
    if (!r.ok)
      code = std::max(code, r.code);
  if (code)
    throw job_error(code, combine_failures(c, all));
  std::vector<nlohmann::json> values;
  for (auto& r : all)
    values.push_back(std::move(r.value));
  return values;
}

// "a.b": value for every leaf of a JSON object.
void flatten(const nlohmann::json& j, const std::string& prefix,
             std::map<std::string, std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    return;
  }
  out[prefix] = j.dump();
}

} // namespace

void require_same(const communicator& c, const std::vector<nlohmann::json>& values,
                  const std::string& what) {
  if (values.size() < 2)
    return;
  std::map<std::string, std::string> root;
  flatten(values[0], "", root);
  std::vector<std::string> diffs;
  std::size_t more = 0;
  for (std::size_t r = 1; r < values.size(); ++r) {
    std::map<std::string, std::string> mine;
    flatten(values[r], "", mine);
    std::set<std::string> keys;
    for (const auto& [k, v] : root)
      keys.insert(k);
    for (const auto& [k, v] : mine)
      keys.insert(k);
    for (const auto& k : keys) {
      const auto a = root.count(k) ? root[k] : "(none)";
      const auto b = mine.count(k) ? mine[k] : "(none)";
      if (a == b)
        continue;
      if (diffs.size() < 5)
        diffs.push_back(
            fmt::format("{} has {} {}, rank 0 has {}", c.rank_name(static_cast<int>(r)), k, b, a));
      else
        ++more;
    }
  }
  if (diffs.empty())
    return;
  throw job_error(2, fmt::format("the ranks were not given the same {}: {}{}. valid: the same "
                                 "command, options and dataset "
                                 "on every rank",
                                 what, fmt::join(diffs, "; "),
                                 more ? fmt::format(" (and {} more)", more) : ""));
}

int exit_code_of(const std::exception& e) {
  if (const auto* j = dynamic_cast<const job_error*>(&e))
    return j->exit_code();
  if (dynamic_cast<const usage_error*>(&e))
    return 2;
  return 1;
}

std::vector<nlohmann::json> agree(communicator& c, const std::function<nlohmann::json()>& part) {
  if (c.size() == 1) {
    c.count_agreement();
    return {part()};
  }
  rank_answer mine;
  try {
    mine = rank_answer::success(part());
  } catch (const std::exception& e) {
    mine = rank_answer::failure(exit_code_of(e), e.what());
  }
  return exchange_results(c, mine);
}

void agree_failure(communicator& c, int exit_code, const std::string& message) {
  if (c.size() == 1) {
    c.count_agreement();
    throw job_error(exit_code, message);
  }
  exchange_results(c, rank_answer::failure(exit_code, message));
  throw job_error(exit_code, message); // not reached: the exchange throws for this failure
}

std::string combine_failures(const communicator& c, const std::vector<rank_answer>& results) {
  std::map<std::string, std::vector<int>> by_message;
  for (std::size_t r = 0; r < results.size(); ++r)
    if (!results[r].ok)
      by_message[results[r].message].push_back(static_cast<int>(r));
  if (by_message.size() == 1 && by_message.begin()->second.size() == results.size())
    return by_message.begin()->first;
  std::vector<std::string> parts;
  for (const auto& [message, ranks] : by_message) {
    if (ranks.size() == 1) {
      parts.push_back(fmt::format("{}: {}", c.rank_name(ranks[0]), message));
      continue;
    }
    std::set<std::string> hosts;
    for (int r : ranks)
      hosts.insert(c.where().rank_hosts.at(static_cast<std::size_t>(r)));
    parts.push_back(fmt::format("ranks {} (host{} {}): {}", fmt::join(ranks, ", "),
                                hosts.size() > 1 ? "s" : "", fmt::join(hosts, ", "), message));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

} // namespace dlsize::cluster
