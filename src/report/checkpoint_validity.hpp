#pragma once
// MLPerf Storage's rules for a valid checkpoint run, judged on what `dlsize checkpoint` knows of
// its run: every rule with what the run had, its source (a section of v3.0's Rules.md) and the
// command that judges it, as report/mlperf_validity.hpp judges a bench run. v1.0 had no
// checkpoint workload and dlsize judged none under v2, so those editions judge nothing here.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/mlperf_validity.hpp"

namespace dlsize::report {

// v3.0 Rules.md §4.3.4 Table 3: the memory of each simulated accelerator, in the GB of the
// checkpoint sizes of Table 2 (which the table's note says are GiB): b200 and mi355 CLOSED and
// OPEN, h100 and a100 whatif only.
struct accelerator_memory {
  const char* type;
  double gib;
  const char* divisions;
};
inline constexpr accelerator_memory kCheckpointAcceleratorMemory[] = {
    {"b200", 180, "CLOSED, OPEN"},
    {"mi355", 288, "CLOSED, OPEN"},
    {"h100", 80, "whatif only"},
    {"a100", 80, "whatif only"}};
// §4.3.1: below this many times a client's RAM per client, caches are cleared before reads.
inline constexpr double kCheckpointCacheRamMultiple = 3.0;
// §4.3.5: the one model and the one accelerator count of a subset run.
inline constexpr const char* kSubsetWorkload = "llama3-8b";
inline constexpr std::uint64_t kSubsetAccelerators = 8;

// The memory of a Table 3 accelerator, or nothing for another type.
std::optional<accelerator_memory> checkpoint_accelerator(const std::string& type);

// What a checkpoint run did, as the rules read it.
struct checkpoint_facts {
  std::string workload;
  bool subset = false;
  std::uint64_t ranks = 0;                // launched ranks: the simulated accelerators of a subset
  std::uint64_t job_ranks = 0;            // the full job's ranks: those of a run that is not
  std::uint64_t checkpoint_bytes = 0;     // one checkpoint as the workload stands for it (unscaled)
  std::optional<std::string> accelerator; // --accelerator, as declared
  struct host {
    std::string name;
    std::uint64_t bytes_per_checkpoint = 0; // what this client writes of one checkpoint
    std::uint64_t ram_bytes = 0;
  };
  std::vector<host> hosts;
  std::uint64_t reads = 0;
  bool caches_dropped = false;    // --drop-caches before every read
  bool direct_reads = false;      // --cache direct: O_DIRECT reads bypass the page cache
  bool reads_other_hosts = false; // --read-shift: every rank reads shards another host wrote
  // The devices of --dir and of the report's folder (report/fs_separation.hpp); null: not known.
  std::optional<fs_separation_section> fs_separation;
  bool object_store = false; // --dir s3://: checkpoints in a bucket
};

// The rules of one checkpoint run under an edition. v3: subset mode only for llama3-8b on 8
// accelerators (§4.3.5), the simulated accelerators' memory holds the checkpoint (§4.3.4),
// caches cleared between writes and reads where a client's checkpoint is under 3 × its RAM
// (§4.3.1, §4.7.1), the checkpoints and the report on different file systems (§4.4.2; a bucket
// passes). v1, v2: one rule, not judged (no checkpoint rules of those editions).
validity checkpoint_validity(const checkpoint_facts& f, rules_edition edition = kDefaultRules);

} // namespace dlsize::report
