#pragma once
// The rules of plan's options, in one place: the clients, the accelerator a profile with a
// dataset needs, the profile's sides (a checkpoint-only profile needs an interval), the read
// side's overrides and figures, --index against --dataset-size, and the checkpoint's ranks.
// cli/ parses the options into a plan_options and calls these; every rule throws usage_error
// naming the option and what is valid.
#include <cstdint>
#include <set>
#include <string>

#include "analysis/goodput_options.hpp"
#include "analysis/plan.hpp"
#include "analysis/plan_checkpoint.hpp"
#include "core/defaults.hpp"

namespace dlsize::analysis {

// plan's options as given: rates, sizes, durations and fractions as typed, so that messages
// quote them.
struct plan_options {
  std::string workload;
  std::string accelerator;
  std::string storage_bandwidth;
  std::string measured_bandwidth; // a row's bandwidth: plan gives the AU it ran at
  std::uint64_t accelerators = 0;
  std::string client_ram;
  std::uint64_t clients = 1;
  std::uint64_t accelerators_per_host = 0; // 0: not asked
  std::string au_threshold;
  std::uint64_t batch_size = 0;
  std::string compute_time;
  std::string cache = core::defaults::cache_text;
  std::string request_size = core::defaults::request_size_text;
  std::string dataset_size;
  double epochs = 0;
  std::string nic_bandwidth;
  std::string nic_efficiency = "0.8";
  std::string index; // --index: the dataset's sizes come from it
  std::string checkpoint_interval;
  std::string max_overhead = "5%";
  bool async = false;
  std::string write_bandwidth;
  // The goodput side (--mttf and its companions): the storage's rates come from
  // --write-bandwidth or a report; an asynchronous checkpoint pauses for the copy to host
  // memory at --staging-bandwidth.
  goodput_request goodput;
  std::string checkpoint_report;
  std::string staging_bandwidth;
  // plan --s3: the dataset is in an object store; its first byte, one connection's bandwidth
  // and its GET ceiling (0: not given).
  bool s3 = false;
  std::string first_byte = "100ms";
  std::string connection_bandwidth = "85MB/s";
  double max_requests_per_s = 0;
  std::string shard_read = "records"; // with --s3: records (a GET per record) or stream
};

// The inputs both sides of a plan share: the clients, their NICs, the storage's bandwidth.
void parse_shared_inputs(const plan_options& o, plan_inputs& in);

// A profile reads a dataset, saves checkpoints, or both: one without a dataset needs
// --checkpoint-interval or the goodput's options, and --index needs a dataset to size.
void check_plan_sides(const plan_options& o, const config::workload_profile& w);

// The read side's inputs: the accelerator (required), its overrides, the AU threshold, RAM,
// cache mode, request size, dataset size and epochs. --index and --dataset-size are refused
// together: the index gives the dataset's size. The measured dataset itself is the caller's to
// add (in.measured), at in.request_size.
void parse_read_inputs(const plan_options& o, plan_inputs& in);

// plan --s3's inputs (in.object_store): refuses --cache beside it, and the first-byte options
// without it; parses --first-byte, --connection-bandwidth, --max-requests-per-s and
// --shard-read (stream: a profile's shards streamed whole; refused for a profile of files and
// with --index).
void parse_object_store(const plan_options& o, const std::set<std::string>& given, plan_inputs& in);

// The write side's inputs: the profile's checkpoint, the interval and overhead, and the ranks:
// the read side's accelerators when there is one (reads non-null), else --accelerators.
checkpoint_plan_inputs checkpoint_inputs_of(const plan_options& o, const plan_inputs& in,
                                            const plan_reads* reads);

} // namespace dlsize::analysis
