// The agreement's answer as allgather carries it: the only place its JSON is made and read.
#include "cluster/agreement.hpp"

namespace dlsize::cluster {

nlohmann::json command_given(const std::string& command, const nlohmann::json& options) {
  return {{"command", command}, {"options", options}};
}

rank_answer rank_answer::success(nlohmann::json value) {
  rank_answer a;
  a.ok = true;
  a.value = std::move(value);
  return a;
}

rank_answer rank_answer::failure(int code, std::string message) {
  rank_answer a;
  a.code = code;
  a.message = std::move(message);
  return a;
}

nlohmann::json rank_answer::to_json() const {
  if (ok)
    return {{"ok", true}, {"value", value}};
  return {{"ok", false}, {"code", code}, {"message", message}};
}

// A rank's answer; a part it lacks reads as a failure of exit code 1, "failed".
rank_answer rank_answer::from_json(const nlohmann::json& j) {
  rank_answer a;
  a.ok = j.value("ok", false);
  if (a.ok) {
    a.value = j.value("value", nlohmann::json());
    return a;
  }
  a.code = j.value("code", 1);
  a.message = j.value("message", std::string("failed"));
  return a;
}

} // namespace dlsize::cluster
