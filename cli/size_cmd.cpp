// dlsize size: bench reports (files, folders, sweep folders) into a sizing report: the fit of
// bandwidth against accelerators, the knee, the ceiling, projections; JSON, Markdown and HTML.
#include <cstdio>
#include <map>

#include <fmt/format.h>

#include "analysis/report_shape.hpp"
#include "analysis/sizing_report.hpp"
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "core/units.hpp"
#include "render/sizing_render.hpp"
#include "render/sizing_tables.hpp"
#include "report/report_io.hpp"

namespace dlsize::cli {
namespace {

struct size_cli {
  std::vector<std::string> inputs;
  std::string out;
  std::vector<double> targets = {64, 128, 256};
  std::vector<double> growth = {1, 2, 4};
  double headroom = 1.2;
  std::string nic_bandwidth;
  std::string nic_efficiency = "0.8";
  std::uint64_t clients = 1;
  std::string client_ram;
  std::string front_end_bandwidth;
  std::string cache_model = "auto";
  std::string cache_bytes;
  std::uint64_t accelerators_per_node = 0;
};

int run_size(const size_cli& o, const cli_context& ctx) {
  const std::string json_path = o.out + ".json", md_path = o.out + ".md",
                    html_path = o.out + ".html";
  if (o.out.empty())
    throw usage_error(
        "--out: an empty prefix. valid: a prefix such as results/sizing (PREFIX.json, "
        ".md, .html are written)");
  auto out_json = reserve_if_given(true, json_path, "--out");
  auto out_md = reserve_if_given(true, md_path, "--out");
  auto out_html = reserve_if_given(true, html_path, "--out");
  analysis::sizing_request req;
  req.targets = o.targets;
  req.growth = o.growth;
  if (!(o.headroom >= 1))
    throw usage_error(fmt::format("--headroom: {} is not valid. valid: a factor of 1 or more (1.2: "
                                  "20 % above the requirement)",
                                  o.headroom));
  req.headroom = o.headroom;
  if (!o.nic_bandwidth.empty())
    req.nic_bandwidth = units::parse_rate(o.nic_bandwidth, "--nic-bandwidth");
  req.nic_efficiency = units::parse_fraction(o.nic_efficiency, "--nic-efficiency");
  if (o.clients < 1)
    throw usage_error("--clients: must be at least 1");
  req.clients = o.clients;
  req.accelerators_per_node = o.accelerators_per_node;
  if (!o.front_end_bandwidth.empty())
    req.front_end_bandwidth = units::parse_rate(o.front_end_bandwidth, "--front-end-bandwidth");
  const std::map<std::string, analysis::cache_model_kind> models = {
      {"auto", analysis::cache_model_kind::automatic},
      {"measured", analysis::cache_model_kind::measured},
      {"lru", analysis::cache_model_kind::lru},
      {"never-evict", analysis::cache_model_kind::never_evict}};
  if (!models.count(o.cache_model))
    throw usage_error(fmt::format(
        "--cache-model: '{}' is not valid. valid: auto (measured where the reports hold a cache "
        "sweep, lru otherwise), measured (the cache sweep's fitted curve), lru (a page cache "
        "under a new random order each epoch), never-evict (keeps what it first read)",
        o.cache_model));
  req.cache_model = models.at(o.cache_model);
  if (!o.cache_bytes.empty())
    throw usage_error(fmt::format("--cache-bytes {}: renamed. valid: --client-ram SIZE (RAM per "
                                  "client) with --clients N; the cache is their product",
                                  o.cache_bytes));
  if (!o.client_ram.empty())
    req.cache_bytes = static_cast<double>(units::parse_size(o.client_ram, "--client-ram")) *
                      static_cast<double>(o.clients);

  const auto inputs = analysis::load_reports(o.inputs);
  const nlohmann::json z = analysis::reading_reports(inputs.reports, [&] {
    return analysis::make_sizing(inputs, req, report::command_line_json(ctx.argc, ctx.argv));
  });
  for (const auto& l : render::summary_lines(z))
    std::printf("%s\n", l.c_str());
  for (const auto& s : z["series"]) {
    std::printf("%s\n", render::series_title(s).c_str());
    const auto& f = s["fit"];
    if (f.is_object())
      std::printf("  fit        %s per accelerator + %s, R² %.4f (%d runs)\n",
                  render::rate_text(f["slope"]).c_str(), render::rate_text(f["intercept"]).c_str(),
                  f["r2"].get<double>(), f["n"].get<int>());
    std::printf("  knee       %s\n", s["knee"]["reason"].get<std::string>().c_str());
    std::printf("  ceiling    %s\n",
                s["ceiling"]["bytes_per_s"].is_null()
                    ? ("not reached; at least " +
                       render::rate_text(s["ceiling"]["best_measured_bytes_per_s"]))
                          .c_str()
                    : render::rate_text(s["ceiling"]["bytes_per_s"]).c_str());
    for (const auto& w : s["warnings"])
      std::fprintf(stderr, "size: warning: %s\n", w.get<std::string>().c_str());
  }
  for (const auto& c : z["cache_curves"])
    std::printf("cache curve %s: %zu runs at %zu distinct f, fit residual RMS %.3f (LRU %.3f, "
                "never-evict %.3f)%s\n",
                c["workload"].get<std::string>().c_str(), c["points"].size(),
                c["distinct_f"].get<std::size_t>(), c["residuals"]["fit"]["rms"].get<double>(),
                c["residuals"]["lru"]["rms"].get<double>(),
                c["residuals"]["never_evict"]["rms"].get<double>(),
                c["usable"].get<bool>() ? "" : "; too few f for projections");
  for (const auto& w : z["warnings"])
    std::fprintf(stderr, "size: note: %s\n", w.get<std::string>().c_str());
  bool fell_back = commit_output(out_json, z.dump(2) + "\n", "sizing");
  fell_back |= commit_output(out_md, render::sizing_markdown(z), "sizing");
  fell_back |= commit_output(out_html, render::sizing_html(z), "sizing");
  return fell_back ? 1 : 0;
}

} // namespace

void setup_size(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<size_cli>();
  auto* sub = app.add_subcommand("size", "Fit bench reports into a sizing report: bandwidth "
                                         "against accelerators, knee, ceiling, projections");
  sub->add_option("reports", o->inputs, "Bench reports, folders of them, or sweep folders")
      ->required()
      ->expected(1, -1);
  sub->add_option("--out", o->out,
                  "Prefix of the files to write: PREFIX.json (dlsize.sizing/1), PREFIX.md, "
                  "PREFIX.html (none may exist)")
      ->required();
  sub->add_option("--target-accelerators", o->targets,
                  "Accelerator counts to project to, e.g. 64,128,256")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("--data-growth", o->growth, "Dataset growth factors to project to, e.g. 1,2,4")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("--headroom", o->headroom, "Factor over the upper prediction bound to provision")
      ->capture_default_str();
  sub->add_option("--nic-bandwidth", o->nic_bandwidth,
                  "Network line rate per client, e.g. 100Gb/s or 400GbE (caps projections: × "
                  "--nic-efficiency × --clients)");
  sub->add_option("--nic-efficiency", o->nic_efficiency,
                  "Share of the line rate reached in practice (0.8, or 80%)")
      ->capture_default_str();
  sub->add_option("--clients,--nodes", o->clients,
                  "Client nodes of the target cluster (--nodes: the old name)")
      ->capture_default_str();
  sub->add_option("--client-ram", o->client_ram,
                  "RAM per client, e.g. 512GiB: the page cache in front of the storage is "
                  "--client-ram × --clients (default: the reports' RAM for buffered runs, none "
                  "for direct I/O)");
  sub->add_option("--front-end-bandwidth", o->front_end_bandwidth,
                  "The storage front end's limit, e.g. 40GB/s (caps projections)");
  sub->add_option(
         "--cache-model", o->cache_model,
         "Cache model for grown data: auto (measured with a cache sweep among the reports, "
         "lru otherwise), measured, lru or never-evict")
      ->capture_default_str();
  sub->add_option("--accelerators-per-node", o->accelerators_per_node,
                  "Accelerators per node of the target cluster, for runs that modelled the "
                  "allreduce (bench --allreduce): the layout its scaling efficiency is modelled "
                  "on (default: as in the runs)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20));
  sub->add_option("--cache-bytes", o->cache_bytes, "Renamed: use --client-ram and --clients")
      ->group("");
  sub->callback([o, &ctx] { ctx.exit_code = run_size(*o, ctx); });
}

} // namespace dlsize::cli
