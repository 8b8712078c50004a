#pragma once
// Agreement at the phase boundaries of a job (nccl-tests style: errors are reduced across ranks
// so that every rank exits the same way). Every rank runs its part of a phase, then the ranks
// exchange what came of it: when any rank failed, every rank throws the same job_error, with
// the highest exit code and a message that names each failing rank and host.
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/communicator.hpp"

namespace dlsize::cluster {

// An error every rank of the job knows of: rank 0 prints it, every rank exits with its code.
class job_error : public std::runtime_error {
public:
  job_error(int exit_code, const std::string& what) : std::runtime_error(what), m_code(exit_code) {}
  int exit_code() const { return m_code; }

private:
  int m_code;
};

// Exit code of an exception: 2 for usage_error (and CLI parse errors, by their code), 1 else.
int exit_code_of(const std::exception& e);

// What one rank answers in an agreement: its part (ok), or its failure's exit code and message.
// Its JSON (what allgather carries) is made and read only in cluster/agreement_json.cpp.
struct rank_answer {
  bool ok = false;
  int code = 1;
  std::string message = "failed";
  nlohmann::json value; // the rank's part, when ok

  static rank_answer success(nlohmann::json value);
  static rank_answer failure(int code, std::string message);
  nlohmann::json to_json() const;
  static rank_answer from_json(const nlohmann::json& j);
};

// What every rank of a job must have been given alike: the command and its options (by long
// option name), the part each rank gives require_same after agree.
nlohmann::json command_given(const std::string& command, const nlohmann::json& options);

// Runs part on this rank, then agrees with the others. Returns every rank's value of part, by
// rank. With one rank the part's own exception passes through unchanged (so a single process
// behaves as it always did).
std::vector<nlohmann::json> agree(communicator& c, const std::function<nlohmann::json()>& part);

// For a rank whose part already failed before it could call agree (a command-line error): takes
// part in the same agreement with this failure, and throws the job_error.
[[noreturn]] void agree_failure(communicator& c, int exit_code, const std::string& message);

// Checks that every rank gave the same value (from agree()): otherwise throws job_error (exit 2)
// naming, for up to five differing keys, each differing rank and host and its value against
// rank 0's. what: what the values are ("the run's options and dataset").
void require_same(const communicator& c, const std::vector<nlohmann::json>& values,
                  const std::string& what);

// The message of the failures gathered from every rank: one message when every failing rank
// says the same, else "rank 1 (host a): ...; rank 3 (host b): ...". Exposed for tests.
std::string combine_failures(const communicator& c, const std::vector<rank_answer>& results);

} // namespace dlsize::cluster
