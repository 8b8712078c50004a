#include "analysis/plan_rules.hpp"

#include <cmath>

#include <fmt/format.h>

#include "analysis/plan_goodput.hpp"
#include "config/accelerator_spec.hpp"
#include "config/checkpoint_interval.hpp"
#include "config/read_modes.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::analysis {

void parse_shared_inputs(const plan_options& o, plan_inputs& in) {
  if (!o.storage_bandwidth.empty())
    in.storage_bandwidth = units::parse_rate(o.storage_bandwidth, "--storage-bandwidth");
  in.accelerators = o.accelerators;
  if (!o.measured_bandwidth.empty()) {
    in.row_bandwidth = units::parse_rate(o.measured_bandwidth, "--measured-bandwidth");
    if (o.accelerators == 0)
      throw usage_error("--measured-bandwidth: a row's bandwidth needs the accelerators that "
                        "reached it. valid: --accelerators N beside it (e.g. --accelerators 8 "
                        "--measured-bandwidth 44703.8MiB/s)");
  }
  if (o.clients < 1)
    throw usage_error("--clients: must be at least 1");
  in.clients = o.clients;
  in.accelerators_per_host = o.accelerators_per_host;
  if (!o.nic_bandwidth.empty())
    in.nic_bandwidth = units::parse_rate(o.nic_bandwidth, "--nic-bandwidth");
  in.nic_efficiency = units::parse_fraction(o.nic_efficiency, "--nic-efficiency");
}

void check_plan_sides(const plan_options& o, const config::workload_profile& w) {
  if (w.has_dataset)
    return;
  if (!o.index.empty())
    throw usage_error(fmt::format("plan --workload {} --index: the profile reads no dataset, so "
                                  "there is nothing to size from the index. valid: a profile "
                                  "with a dataset (its compute side), such as resnet50",
                                  w.name));
  if (o.checkpoint_interval.empty() && !plan_asks_goodput(o))
    throw usage_error(fmt::format("plan --workload {}: the profile saves checkpoints and reads "
                                  "no dataset. valid: --checkpoint-interval (e.g. 30min) to plan "
                                  "its writes, or --mttf (e.g. 50000h) with --write-bandwidth to "
                                  "plan its goodput",
                                  w.name));
}

void parse_read_inputs(const plan_options& o, plan_inputs& in) {
  if (o.accelerator.empty())
    throw usage_error(fmt::format("plan --workload {}: --accelerator is required for a "
                                  "profile with a dataset. valid: an accelerator type such as "
                                  "h100",
                                  in.workload.name));
  config::preset_overrides over;
  if (o.batch_size)
    over.batch_size = o.batch_size;
  if (!o.compute_time.empty())
    over.compute_time_s = units::parse_duration(o.compute_time, "--compute-time");
  const std::string spec =
      o.accelerator.rfind("emulated:", 0) == 0 ? o.accelerator : "emulated:" + o.accelerator;
  in.accelerator = config::resolve_accelerator(spec, in.workload, over);
  in.au_threshold = in.workload.au_threshold;
  if (!o.au_threshold.empty())
    in.au_threshold = units::parse_fraction(o.au_threshold, "--au-threshold");
  if (!o.client_ram.empty())
    in.client_ram = units::parse_size(o.client_ram, "--client-ram");
  in.cache = io::parse_cache_mode(o.cache);
  in.request_size = static_cast<std::uint32_t>(units::parse_size(o.request_size, "--request-size"));
  if (in.request_size == 0)
    throw usage_error("--request-size: must be above 0");
  if (!o.index.empty() && !o.dataset_size.empty())
    throw usage_error(fmt::format("--dataset-size: the index {} gives the dataset's size. valid: "
                                  "one of --index and --dataset-size",
                                  o.index));
  if (!o.dataset_size.empty())
    in.dataset_bytes = static_cast<double>(units::parse_size(o.dataset_size, "--dataset-size"));
  if (o.epochs < 0)
    throw usage_error("--epochs: must be at least 0");
  in.epochs = o.epochs;
}

void parse_object_store(const plan_options& o, const std::set<std::string>& given,
                        plan_inputs& in) {
  if (!o.s3) {
    for (const char* name :
         {"--first-byte", "--connection-bandwidth", "--max-requests-per-s", "--shard-read"})
      if (given.count(name) > 0)
        throw usage_error(fmt::format("{}: describes an object store. valid: with --s3", name));
    return;
  }
  if (given.count("--cache") > 0)
    throw usage_error("--cache: an object store has no page cache to read through or around. "
                      "valid: --s3 without --cache");
  object_store_assumptions a;
  a.first_byte_s = units::parse_duration(o.first_byte, "--first-byte");
  a.connection_bytes_per_s = units::parse_rate(o.connection_bandwidth, "--connection-bandwidth");
  if (!(a.connection_bytes_per_s > 0))
    throw usage_error("--connection-bandwidth: must be above 0. valid: one connection's rate, "
                      "e.g. 85MB/s");
  if (!(o.max_requests_per_s >= 0) || !std::isfinite(o.max_requests_per_s))
    throw usage_error("--max-requests-per-s: must be 0 (no ceiling) or a GET rate above 0");
  a.max_requests_per_s = o.max_requests_per_s;
  if (core::parse_enum<config::shard_read>(o.shard_read, "--shard-read") ==
      config::shard_read::stream) {
    if (in.workload.layout != config::file_layout::shards || !o.index.empty())
      throw usage_error(fmt::format("--shard-read stream: {}. valid: a profile of shards (such "
                                    "as resnet50) without --index",
                                    o.index.empty() ? "the profile " + in.workload.name +
                                                          " holds a sample per file, no shard"
                                                    : "the index gives no shard layout"));
    a.samples_per_object = static_cast<double>(in.workload.records_per_file);
  }
  if (given.count("--request-size") == 0)
    in.request_size = plan_inputs::kWholeObject;
  const bool fb = given.count("--first-byte") > 0;
  const bool cb = given.count("--connection-bandwidth") > 0;
  a.first_byte_source = fb ? "--first-byte"
                           : "Amazon S3's performance guidelines: first byte in roughly 100 to "
                             "200 ms (the low end)";
  a.connection_source = cb ? "--connection-bandwidth"
                           : "Amazon S3's performance guidelines: one connection per 85 to 90 "
                             "MB/s";
  in.object_store = a;
}

checkpoint_plan_inputs checkpoint_inputs_of(const plan_options& o, const plan_inputs& in,
                                            const plan_reads* reads) {
  checkpoint_plan_inputs c;
  c.profile = config::require_checkpoint(in.workload);
  c.interval = config::parse_checkpoint_interval(o.checkpoint_interval, "--checkpoint-interval");
  if (reads) {
    c.ranks = static_cast<unsigned>(reads->accelerators);
    c.step_s = in.accelerator.preset.compute_time_s;
  } else {
    if (o.accelerators > 1u << 20)
      throw usage_error("--accelerators: at most 1048576");
    c.ranks = static_cast<unsigned>(o.accelerators);
  }
  c.max_overhead = units::parse_fraction(o.max_overhead, "--max-overhead");
  c.async = o.async;
  c.clients = in.clients;
  if (!o.write_bandwidth.empty())
    c.write_bandwidth = units::parse_rate(o.write_bandwidth, "--write-bandwidth");
  c.read_bandwidth = in.storage_bandwidth;
  if (in.nic_bandwidth > 0)
    c.client_link_bytes_per_s = in.nic_bandwidth * in.nic_efficiency;
  return c;
}

} // namespace dlsize::analysis
