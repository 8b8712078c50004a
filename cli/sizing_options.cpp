#include "sizing_options.hpp"

#include "goodput_options.hpp"

namespace dlsize::cli {

void add_sizing_options(CLI::App* sub, analysis::size_options& o) {
  sub->add_option("--target-accelerators", o.targets,
                  "Accelerator counts to project to, e.g. 64,128,256")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("--data-growth", o.growth, "Dataset growth factors to project to, e.g. 1,2,4")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("--headroom", o.headroom, "Factor over the upper prediction bound to provision")
      ->capture_default_str();
  sub->add_option("--nic-bandwidth", o.nic_bandwidth,
                  "Network line rate per client, e.g. 100Gb/s or 400GbE (caps projections: × "
                  "--nic-efficiency × --clients)");
  sub->add_option("--nic-efficiency", o.nic_efficiency,
                  "Share of the line rate reached in practice (0.8, or 80%)")
      ->capture_default_str();
  sub->add_option("--clients,--nodes", o.clients,
                  "Client nodes of the target cluster (--nodes: the old name)")
      ->capture_default_str();
  sub->add_option("--client-ram", o.client_ram,
                  "RAM per client, e.g. 512GiB: the page cache in front of the storage is "
                  "--client-ram × --clients (default: the reports' RAM for buffered runs, none "
                  "for direct I/O)");
  sub->add_option("--front-end-bandwidth", o.front_end_bandwidth,
                  "The storage front end's limit, e.g. 40GB/s (caps projections)");
  sub->add_option(
         "--cache-model", o.cache_model,
         "Cache model for grown data: auto (measured with a cache sweep among the reports, "
         "lru otherwise), measured, lru or never-evict")
      ->capture_default_str();
  sub->add_option("--accelerators-per-node", o.accelerators_per_node,
                  "Accelerators per node of the target cluster, for runs that modelled the "
                  "allreduce (bench --allreduce): the layout its scaling efficiency is modelled "
                  "on (default: as in the runs)");
  sub->add_option("--cache-bytes", o.cache_bytes, "Renamed: use --client-ram and --clients")
      ->group("");
  sub->add_option("--dataset-size", o.dataset_size,
                  "The dataset the targets train on, e.g. 140TB: the capacity each backend must "
                  "hold, × --data-growth (default: the runs' dataset)");
  sub->add_option("--backend", o.backend,
                  "A backend's prices and capacity, from the buyer: LABEL:price_per_tb=N,"
                  "price_per_gbps=N,usable_tb=N (repeat per backend; no defaults)");
  sub->add_option("--backends", o.backends,
                  "A backends.json (dlsize.backends/1) with each backend's prices and usable "
                  "capacity (one beside the reports is read too)");
  // The goodput of the backends whose checkpoints the reports measured.
  add_goodput_options(*sub, o.goodput);
}

} // namespace dlsize::cli
