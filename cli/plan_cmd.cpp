// dlsize plan: the bandwidth N accelerators need, and the accelerators a bandwidth supports,
// from a workload profile (and with --runs, beside the requirement the runs measured).

#include <cstdio>

#include <fmt/format.h>

#include "allreduce_options.hpp"
#include "analysis/plan.hpp"
#include "analysis/plan_checkpoint.hpp"
#include "analysis/plan_goodput.hpp"
#include "analysis/plan_rules.hpp"
#include "analysis/report_shape.hpp"
#include "analysis/sizing_report.hpp"
#include "analysis/sizing_rules.hpp"
#include "commands.hpp"
#include "config/workload.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "core/units.hpp"
#include "dataset/index_reads.hpp"
#include "goodput_options.hpp"
#include "render/answer_render.hpp"
#include "render/goodput_tables.hpp"
#include "render/plan_text.hpp"
#include "report/report_io.hpp"
#include "run_config.hpp"

namespace dlsize::cli {
namespace {

struct plan_cli : analysis::plan_options {
  std::string out;
  config::allreduce_request allreduce;
  bool out_given = false;
  std::vector<std::string> runs; // --runs: reports whose measured requirement to plan with
};

// plan --runs: the load's requirement measured from the runs, and the answer at the count
// planned for, made as size makes them (the same reports give the same figures). Throws
// usage_error where the runs hold no training run of the planned workload and accelerator.
void add_measured(const plan_cli& o, const cli_context& ctx, analysis::plan_document& plan) {
  const analysis::plan_reads& r = *plan.reads;
  analysis::size_options so;
  so.targets = {static_cast<double>(r.accelerators)};
  so.growth = {1};
  so.clients = o.clients;
  so.nic_bandwidth = o.nic_bandwidth;
  so.nic_efficiency = o.nic_efficiency;
  const auto inputs = analysis::load_reports(o.runs);
  const auto sizing = analysis::reading_reports(inputs.reports, [&] {
    return analysis::make_sizing(inputs, analysis::sizing_request_of(so),
                                 report::command_line_json(ctx.argc, ctx.argv));
  });
  for (const auto& a : sizing.answers)
    if (a.workload == plan.workload && a.accelerator == r.accelerator.type) {
      plan.measured = sizing.requirements.at(a.requirement);
      plan.answer = a;
      std::printf("\n%s", render::answer_terminal(a, *plan.measured).c_str());
      return;
    }
  throw usage_error(fmt::format("--runs: no complete training run of {} on {} among the reports "
                                "given. valid: reports of dlsize bench --workload {} "
                                "--accelerator emulated:{}",
                                plan.workload, r.accelerator.type, plan.workload,
                                r.accelerator.type));
}

// The read side: what the accelerators' data loading asks of storage (and, with --s3, of an
// object store). Prints it and returns it.
analysis::plan_reads read_plan(const plan_cli& o, const CLI::App& cmd, analysis::plan_inputs& in) {
  analysis::parse_read_inputs(o, in);
  analysis::parse_object_store(o, given_long_options(cmd), in);
  if (!o.index.empty())
    in.measured = analysis::measured_dataset::of(
        dataset::index_read_shape(o.index, in.request_size), "--index " + o.index);
  analysis::plan_reads reads = analysis::plan_read_side(in, o.allreduce, given_long_options(cmd));
  render::print_read_plan(in.workload.name, reads);
  return reads;
}

int run_plan(const plan_cli& o, const CLI::App& cmd, const cli_context& ctx) {
  auto out = reserve_if_given(o.out_given, o.out, "--out");
  analysis::plan_inputs in;
  in.workload = config::load_workload(o.workload);
  analysis::parse_shared_inputs(o, in);
  analysis::check_plan_sides(o, in.workload);
  analysis::plan_document plan;
  plan.workload = in.workload.name;
  if (in.workload.has_dataset)
    plan.reads = read_plan(o, cmd, in);
  if (!o.runs.empty()) {
    if (!plan.reads)
      throw usage_error(fmt::format("--runs: {} has no dataset to read. valid: a profile with a "
                                    "dataset",
                                    plan.workload));
    add_measured(o, ctx, plan);
  }
  if (!o.checkpoint_interval.empty()) {
    // The write side: the checkpoint every --checkpoint-interval.
    plan.checkpoint = analysis::checkpoint_plan(
        analysis::checkpoint_inputs_of(o, in, plan.reads ? &*plan.reads : nullptr));
    render::print_checkpoint(plan.workload, *plan.checkpoint);
  }
  if (analysis::plan_asks_goodput(o)) {
    plan.goodput = analysis::goodput_plan(o, in, plan.reads ? &*plan.reads : nullptr);
    std::fputs(render::goodput_text(*plan.goodput).c_str(), stdout);
  }
  return commit_output(out, analysis::to_json(plan).dump(2) + "\n", "plan") ? 1 : 0;
}

// plan --s3 and the figures of an object store it plans with.
void add_object_store_options(CLI::App* sub, plan_cli& o) {
  sub->add_flag("--s3", o.s3,
                "The dataset is in an object store: prints the GET rate and the requests in "
                "flight beside the bandwidth, and which limit binds (docs/s3.md, Sizing for "
                "objects)");
  sub->add_option("--first-byte", o.first_byte,
                  "With --s3: the store's time to first byte per GET (a run's "
                  "storage.s3.first_byte)")
      ->capture_default_str();
  sub->add_option("--connection-bandwidth", o.connection_bandwidth,
                  "With --s3: what one connection's GET body streams at")
      ->capture_default_str();
  sub->add_option("--max-requests-per-s", o.max_requests_per_s,
                  "With --s3: the store's GET ceiling, e.g. 5500 (an S3 prefix); with "
                  "--storage-bandwidth, says which limit binds");
  sub->add_option("--shard-read", o.shard_read,
                  "With --s3, for a profile of shards: records (a GET per record) or stream "
                  "(each shard whole, in --request-size GETs)")
      ->capture_default_str();
}

// The write side's options: the checkpoint's interval and overhead, and the goodput's.
void add_checkpoint_options(CLI::App& cmd, plan_cli& o) {
  cmd.add_option("--checkpoint-interval", o.checkpoint_interval,
                 "Save the checkpoint every interval of training, e.g. 30min or 500steps: the "
                 "write bandwidth it needs");
  cmd.add_option("--max-overhead", o.max_overhead,
                 "Share of the training time checkpoints may take (5%, or 0.05)")
      ->capture_default_str();
  cmd.add_flag("--async", o.async,
               "The checkpoint is written in the background and has only to finish within the "
               "interval");
  cmd.add_option("--write-bandwidth", o.write_bandwidth,
                 "Storage write bandwidth, e.g. 50GB/s: the checkpoint's time and overhead, "
                 "and the goodput's storage");
  cmd.add_option("--checkpoint-report", o.checkpoint_report,
                 "A report of dlsize checkpoint (or bench --checkpoint-every): the goodput on "
                 "the storage it measured, its write and restore rates scaled to each count");
  cmd.add_option("--staging-bandwidth", o.staging_bandwidth,
                 "With --async and the goodput: what one accelerator copies its checkpoint "
                 "share to host memory at, e.g. 25GB/s (training pauses for that copy only)");
  add_goodput_options(cmd, o.goodput);
}

} // namespace

void setup_plan(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<plan_cli>();
  auto* sub = app.add_subcommand("plan", "What-if sizing from a workload profile alone: bandwidth "
                                         "for N accelerators, accelerators for a bandwidth");
  sub->add_option("--workload", o->workload, "Workload profile name or JSON file")->required();
  sub->add_option("--accelerator", o->accelerator,
                  "Accelerator type of the profile (h100 or emulated:h100), or emulated:FILE.json "
                  "(a calibration); required for a profile with a dataset");
  sub->add_option("--storage-bandwidth", o->storage_bandwidth,
                  "Storage read bandwidth to plan against, e.g. 20GB/s");
  sub->add_option("--accelerators", o->accelerators,
                  "Accelerators to plan for (default: what --storage-bandwidth supports, else 1)");
  sub->add_option("--measured-bandwidth", o->measured_bandwidth,
                  "A row's bandwidth of samples (a published MLPerf Storage row's MiB/s, or a "
                  "run's) over --accelerators: prints the AU it ran at (bandwidth = AU x demand "
                  "x accelerators)");
  sub->add_option("--client-ram", o->client_ram,
                  "RAM per client, for the 5 x RAM dataset rule, e.g. 512GiB");
  sub->add_option("--clients", o->clients, "Client nodes")->capture_default_str();
  sub->add_option("--accelerators-per-host", o->accelerators_per_host,
                  "Accelerators one client host runs: prints what the host must sustain and "
                  "whether one 100, 200 or 400 GbE NIC (at --nic-efficiency) carries it");
  sub->add_option("--au-threshold", o->au_threshold, "AU to plan for (default: the profile's)");
  sub->add_option("--batch-size", o->batch_size, "Override the preset's batch size");
  sub->add_option("--compute-time", o->compute_time,
                  "Override the preset's compute time per batch, e.g. 224ms");
  sub->add_option("--cache", o->cache,
                  "Cache mode of the reads (direct, buffered, uncached): the read amplification")
      ->capture_default_str();
  sub->add_option("--request-size", o->request_size, "Bytes per read request, for IOPS")
      ->capture_default_str();
  sub->add_option("--dataset-size", o->dataset_size,
                  "Dataset size, e.g. 2.8TB: the epoch time at the bandwidth and count");
  sub->add_option("--epochs", o->epochs, "Epochs to train, with --dataset-size: time to train");
  sub->add_option("--nic-bandwidth", o->nic_bandwidth,
                  "Line rate of one client's NIC, e.g. 100Gb/s or 400GbE: caps the bandwidth");
  sub->add_option("--nic-efficiency", o->nic_efficiency,
                  "Share of the line rate reached in practice (0.8, or 80%)")
      ->capture_default_str();
  add_checkpoint_options(*sub, *o);
  sub->add_option("--index", o->index,
                  "Index of a dataset (dlsize index): plan from its measured sample sizes, "
                  "samples and files instead of the profile's; --workload gives the compute side");
  add_object_store_options(sub, *o);
  sub->add_option("--runs", o->runs,
                  "Bench reports, folders or sweep folders of this workload: plan with the "
                  "requirement they measured (pooled over their backends) beside the "
                  "profile's, and each backend's verdict at --accelerators, as size gives them")
      ->expected(1, -1);
  sub->add_option("--out", o->out, "JSON file to write (dlsize.plan/1; must not exist)");
  add_allreduce_options(*sub, o->allreduce, false);
  sub->callback([o, sub, &ctx] {
    o->out_given = sub->get_option("--out")->count() > 0;
    ctx.exit_code = run_plan(*o, *sub, ctx);
  });
}

} // namespace dlsize::cli
