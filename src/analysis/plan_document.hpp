#pragma once
// The document `dlsize plan` writes ("schema": "dlsize.plan/1", docs/plan.schema.json), as one
// typed value: analysis::make_plan fills its read side, add_scaling its allreduce curve,
// plan_objects its object store's side, checkpoint_plan its write side and goodput_plan its
// goodput; render/plan_text prints it, and to_json (analysis/plan_json.cpp) alone turns it into
// JSON.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/goodput_document.hpp"
#include "analysis/object_requests.hpp"
#include "analysis/requirement.hpp"
#include "analysis/sizing_answer.hpp"
#include "config/allreduce_config.hpp"
#include "dataset/index_stats_document.hpp"
#include "model/allreduce_model.hpp"

namespace dlsize::analysis {

// The accelerator preset the plan is for.
struct plan_accelerator {
  std::string type;
  std::uint64_t batch_size = 1;
  double compute_time_s = 0;
  std::string source;
};

// What the storage (or the clients' NICs) delivers, when a bandwidth is given.
struct plan_storage {
  std::optional<double> storage_bandwidth_bytes_per_s; // --storage-bandwidth; none: NICs only
  double deliverable_bytes_per_s = 0;                  // the lower of it and the NICs' cap
  std::uint64_t max_accelerators_at_threshold = 0;
  // With an allreduce: the count before it was modelled (each accelerator at its own demand).
  std::optional<std::uint64_t> max_accelerators_at_threshold_linear;
};

// One NIC line rate judged against one client host's load.
struct plan_nic {
  double gbe = 0, line_bytes_per_s = 0, usable_bytes_per_s = 0, load = 0;
  bool carries = false;
};

// plan --accelerators-per-host: what one client host must sustain.
struct plan_per_host {
  std::uint64_t accelerators = 0;
  double required_bytes_per_s = 0, reads_bytes_per_s = 0, iops = 0, nic_efficiency = 0;
  std::vector<plan_nic> one_nic; // one per kHostNicGbE
};

// plan --measured-bandwidth: the AU a row of that bandwidth ran at (analysis/plan_row).
struct plan_row {
  double bandwidth_bytes_per_s = 0;
  std::uint64_t accelerators = 0;
  double bandwidth_bytes_per_s_per_accelerator = 0, demand_bytes_per_s_per_accelerator = 0;
  double accelerator_utilization = 0, samples_per_s = 0;
  bool meets_au_threshold = false;
  std::string note; // empty: none (the row fits the plan's accelerators)
};

// plan --dataset-size (or --index): an epoch's time and the time to train.
struct plan_epoch {
  double dataset_bytes = 0, bytes_per_s = 0, epoch_s = 0;
  std::optional<double> epochs, time_to_train_s; // --epochs; none: not given
};

// The 5 × RAM rule's part, with --client-ram.
struct plan_ram_rule {
  double min_bytes = 0;
  std::uint64_t client_ram_bytes = 0, clients = 1;
};

// The indexed dataset against the rules, with --index.
struct plan_indexed {
  double bytes = 0;
  bool is_enough = false;
};

// The dataset a valid run needs (MLPerf Storage's rules).
struct plan_dataset {
  double min_bytes_for_steps = 0, min_samples_for_steps = 0;
  std::optional<plan_ram_rule> ram; // none: --client-ram not given
  double min_bytes = 0, min_samples = 0;
  std::string rules;
  std::optional<plan_indexed> indexed;
};

// plan --index: the measured dataset the plan read its sizes from.
struct plan_index {
  std::string path, dir, digest;
  std::uint64_t files = 0, samples = 0;
  double file_bytes = 0, sample_bytes = 0, samples_per_file = 0;
  dataset::size_summary sample_bytes_distribution; // the index's own statistics
  double p50 = 0, p99 = 0, max = 0;                // of the distribution, for the text
  std::uint32_t request_size = 0;
  double read_bytes = 0, requests = 0; // at the plan's cache mode
};

// A scaling curve's point (analysis/plan_scaling).
struct scaling_point {
  std::uint64_t accelerators = 0;
  model::job_layout layout;
  double exposed_s = 0, efficiency = 1, samples_per_s = 0;
  double demand_bytes_per_s = 0;   // at storage AU 1
  double required_bytes_per_s = 0; // at the threshold
};

// plan --allreduce: the modelled allreduce, the planned count's scaled figures and the curve.
struct plan_scaling {
  config::allreduce_setup allreduce;
  model::job_layout layout; // of the planned count
  double compute_s = 0;     // per batch
  double required_bytes_per_s_linear = 0, demand_bytes_per_s_linear = 0;
  double scaling_efficiency = 1, samples_per_s = 0;
  std::vector<scaling_point> curve;
};

// The read side: what the accelerators' data loading asks of storage.
struct plan_reads {
  plan_accelerator accelerator;
  double sample_bytes_mean = 0, au_threshold = 0.9;
  double samples_per_s_per_accelerator = 0, demand_bytes_per_s_per_accelerator = 0;
  std::string cache_mode; // "none" for an object store
  double read_amplification = 1;
  std::string read_amplification_basis;
  double reads_bytes_per_s_per_accelerator = 0, bytes_per_s_per_accelerator_at_threshold = 0;
  std::optional<double> nic_limit_bytes_per_s; // none: no --nic-bandwidth
  std::optional<plan_storage> storage;         // none: no bandwidth to plan against
  std::uint64_t accelerators = 1;
  double required_bytes_per_s = 0, demand_bytes_per_s = 0, reads_bytes_per_s = 0;
  double iops = 0, files_per_s = 0;
  std::optional<plan_per_host> per_host;
  std::optional<double> expected_accelerator_utilization;
  std::optional<plan_row> row;
  std::optional<plan_epoch> epoch;
  plan_dataset dataset;
  std::string dataset_source;
  std::optional<plan_index> index;
  std::optional<plan_scaling> scaling;
  std::optional<object_plan> s3;
  // Inputs the text quotes that the JSON does not hold: the request size, the clients and one
  // client's NIC line rate and efficiency.
  std::uint32_t request_size = 0;
  std::uint64_t clients = 1;
  double nic_bandwidth = 0, nic_efficiency = 0;
};

// The write side (analysis/plan_checkpoint): the checkpoint every interval.
struct checkpoint_plan_document {
  std::uint64_t bytes = 0;
  unsigned ranks = 0;
  unsigned tensor_parallel = 1, pipeline_parallel = 1, data_parallel = 1, zero_stage = 0;
  std::uint64_t largest_rank_bytes = 0, clients = 1, busiest_client_bytes = 0;
  std::string interval;
  double interval_s = 0;
  bool async = false;
  double max_overhead = 0, allowed_s = 0;
  double write_bytes_per_s = 0, rank_write_bytes_per_s = 0, client_write_bytes_per_s = 0;
  bool estimate = false;
  std::string source;
  struct client_link {
    double floor_s = 0;
    bool fits = false;
  };
  std::optional<client_link> link; // with --nic-bandwidth
  struct at_write_bandwidth {
    double bytes_per_s = 0, checkpoint_s = 0, overhead = 0;
    bool fits = false;
  };
  std::optional<at_write_bandwidth> at_write; // with --write-bandwidth
  struct restore_time {
    double bytes_per_s = 0, restore_s = 0;
  };
  std::optional<restore_time> restore; // with --storage-bandwidth
};

struct plan_document {
  std::string workload;
  std::optional<plan_reads> reads; // none: a profile without a dataset
  std::optional<checkpoint_plan_document> checkpoint;
  // plan --runs: the load's requirement measured from the runs and the answer at the count
  // planned for, as size gives them over the same reports.
  std::optional<workload_requirement> measured;
  std::optional<sizing_answer> answer;
  std::optional<goodput_document> goodput; // with --mttf and its companions
};

// The JSON of each (docs/plan.schema.json); the one place a plan's keys are written.
nlohmann::json to_json(const scaling_point& p);
nlohmann::json to_json(const plan_row& r);
nlohmann::json to_json(const checkpoint_plan_document& c);
nlohmann::json to_json(const plan_document& d);

} // namespace dlsize::analysis
