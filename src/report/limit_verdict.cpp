#include "report/limit_verdict.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/bench_report.hpp"

namespace dlsize::report {
namespace {

field<double> num(double v) {
  return field<double>::of(std::isfinite(v) ? std::optional<double>(v) : std::nullopt);
}

double mean_device_busy(const bench_report& r) {
  double sum = 0;
  int n = 0;
  for (const auto& p : r.timeseries.value_or(std::vector<timeseries_point>{}))
    if (p.device_busy.has_value()) {
      // A multi-host timeseries adds host figures up: a share stays within 1.
      sum += std::min(1.0, *p.device_busy);
      ++n;
    }
  return n ? sum / n : std::nan("");
}

// Each host's busiest NIC against its rate (declared, else reported); the busiest of all named,
// the others at the bound listed; their received bytes together against the storage side's
// declared rate.
void add_network_figures(const bench_report& r, limit_figures& f) {
  if (!r.hosts)
    return;
  double received = 0;
  bool any = false;
  std::vector<std::pair<double, std::string>> at_bound;
  for (const auto& h : *r.hosts) {
    if (!h.nics)
      continue;
    const host_nic_row* busiest = nullptr;
    double most_rx = -1;
    for (const auto& n : *h.nics) {
      const double rx = n.rx_bytes_per_s.value_or(0);
      most_rx = std::max(most_rx, rx);
      if (n.utilization.has_value() && (!busiest || *n.utilization > *busiest->utilization))
        busiest = &n;
    }
    received += std::max(0.0, most_rx);
    any = any || most_rx >= 0;
    if (!busiest)
      continue;
    const std::string name = h.host.value_or("?") + " " + busiest->name.value_or("?");
    const double share = *busiest->utilization;
    if (!(share <= f.client_nic_share)) {
      if (std::isfinite(f.client_nic_share) && f.client_nic_share >= kNicBound)
        at_bound.emplace_back(f.client_nic_share, f.client_nic);
      f.client_nic_share = share;
      f.client_nic = name;
      f.client_nic_bits_per_s =
          busiest->declared_bits_per_s.value_or(busiest->speed_bits_per_s.value_or(0));
    } else if (share >= kNicBound) {
      at_bound.emplace_back(share, name);
    }
  }
  for (const auto& [share, name] : at_bound)
    f.client_nics_also.push_back(fmt::format("{} {:.0f} %", name, 100 * share));
  if (any && r.storage && r.storage->network_bits_per_s.has_value() &&
      *r.storage->network_bits_per_s > 0) {
    f.storage_network_bits_per_s = *r.storage->network_bits_per_s;
    f.storage_network_share = received * 8 / f.storage_network_bits_per_s;
  }
}

bool at_least(double v, double bound) {
  return std::isfinite(v) && v >= bound;
}

std::string pct(double v) {
  return fmt::format("{:.0f} %", 100 * v);
}

std::string pct_or_unknown(double v) {
  return std::isfinite(v) ? pct(v) : "?";
}

std::string mbits(double bits_per_s) {
  return fmt::format("{:.0f} Mbit/s", bits_per_s / 1e6);
}

void client_signs(const limit_figures& f, std::vector<limit_sign>& out) {
  if (at_least(f.client_nic_share, kNicBound)) {
    std::string text =
        fmt::format("the client network: {} carried {} of its {} (bound {})", f.client_nic,
                    pct(f.client_nic_share), mbits(f.client_nic_bits_per_s), pct(kNicBound));
    for (const auto& also : f.client_nics_also)
      text += ", " + also;
    out.push_back({limit_side::client, "client_network", f.client_nic_share, kNicBound, text});
  }
  if (at_least(f.busiest_reader_cpu, kReaderCpuBound))
    out.push_back({limit_side::client, "reader_cpu", f.busiest_reader_cpu, kReaderCpuBound,
                   fmt::format("a reader thread ran at {} of a core (bound {}), its reads and "
                               "preprocessing together",
                               pct(f.busiest_reader_cpu), pct(kReaderCpuBound))});
  if (at_least(f.host_cpu, kHostCpuBound))
    out.push_back({limit_side::client, "host_cpu", f.host_cpu, kHostCpuBound,
                   fmt::format("the host's CPU was {} busy (bound {})", pct(f.host_cpu),
                               pct(kHostCpuBound))});
  if (at_least(f.process_cpu_budget_share, kProcessBudgetBound))
    out.push_back({limit_side::client, "process_cpu_budget", f.process_cpu_budget_share,
                   kProcessBudgetBound,
                   fmt::format("dlsize used {} of the {:.3g} cores it may use (bound {}: its CPU "
                               "affinity and cgroup quota)",
                               pct(f.process_cpu_budget_share), f.cpu_budget_cores,
                               pct(kProcessBudgetBound))});
}

void storage_signs(const limit_figures& f, std::vector<limit_sign>& out) {
  if (at_least(f.storage_network_share, kStorageNetworkBound))
    out.push_back({limit_side::storage, "storage_network", f.storage_network_share,
                   kStorageNetworkBound,
                   fmt::format("the storage network: the hosts together received {} of the "
                               "storage side's declared {} (bound {})",
                               pct(f.storage_network_share), mbits(f.storage_network_bits_per_s),
                               pct(kStorageNetworkBound))});
  const double over_cap = f.read_bytes_per_s / f.max_read_rate;
  if (at_least(over_cap, kCapReachedBound))
    out.push_back({limit_side::storage, "read_rate_cap", over_cap, kCapReachedBound,
                   fmt::format("reads ran at {} of the --max-read-rate cap (bound {}): the token "
                               "bucket standing in for a slower storage",
                               pct(over_cap), pct(kCapReachedBound))});
  // A host's NIC at its rate makes its readers wait with full queues too: those waits are the
  // link's, not the storage's.
  if (at_least(f.client_nic_share, kNicBound))
    return;
  if (at_least(f.queue_full_share, kQueueFullBound))
    out.push_back({limit_side::storage, "queue_full", f.queue_full_share, kQueueFullBound,
                   fmt::format("readers waited with all {:.0f} requests in flight {} of their "
                               "time (bound {}; mean in flight {:.1f})",
                               f.queue_depth, pct(f.queue_full_share), pct(kQueueFullBound),
                               f.mean_in_flight)});
  else if (at_least(f.completion_wait_share, kCompletionWaitBound) &&
           at_least(f.device_busy, kDeviceBusyBound))
    out.push_back({limit_side::storage, "device_busy", f.completion_wait_share,
                   kCompletionWaitBound,
                   fmt::format("readers waited on completions {} of their time with the device "
                               "busy {} (bounds {}, {})",
                               pct(f.completion_wait_share), pct(f.device_busy),
                               pct(kCompletionWaitBound), pct(kDeviceBusyBound))});
}

bool has_side(const std::vector<limit_sign>& signs, limit_side side) {
  return std::any_of(signs.begin(), signs.end(),
                     [&](const limit_sign& s) { return s.side == side; });
}

std::string joined_texts(const std::vector<limit_sign>& signs) {
  std::string out;
  for (const auto& s : signs)
    out += (out.empty() ? "" : "; ") + s.text;
  return out;
}

// What to change to measure the backend rather than the limit found.
std::string advice_for(const limit_verdict& v) {
  const auto has = [&](const char* name) {
    return std::any_of(v.signs.begin(), v.signs.end(),
                       [&](const limit_sign& s) { return s.name == name; });
  };
  const bool reader = has("reader_cpu");
  switch (v.kind) {
  case limit_kind::client:
    if (has("client_network"))
      return "the hosts' NICs are the limit: the backend delivers at least this; more hosts or "
             "faster NICs find its ceiling";
    return reader ? "add --readers (each takes up to a core) or spread the accelerators over "
                    "more clients"
                  : "run on an idle client, or spread the accelerators over more clients";
  case limit_kind::mixed:
    return "the client was busy too: the backend delivers at least this; spread the "
           "accelerators over more clients (or idle ones) to find its ceiling";
  case limit_kind::storage:
    if (v.synthetic)
      return "the cap is the limit by design; remove it to measure the storage itself";
    if (has("storage_network"))
      return "the storage side's network is the limit: this is the backend as its network "
             "delivers it";
    return has("queue_full") ? "a deeper --queue-depth may find more; otherwise this is the backend"
                             : "this is the backend";
  case limit_kind::harness:
    return "raise --prefetch or --queue-depth; the emulation itself may be late";
  default:
    return "";
  }
}

} // namespace

const char* to_string(limit_kind k) {
  return core::name_of(k).data();
}

limit_kind parse_limit_kind(const std::string& t) {
  if (t == "client_cpu")
    return limit_kind::client;
  return core::find_enum<limit_kind>(t).value_or(limit_kind::unknown);
}

bool client_side(limit_kind k) {
  return k == limit_kind::client || k == limit_kind::mixed;
}

limit_figures limit_figures_of(const bench_report& r) {
  using num = bench_report;
  limit_figures f;
  if (r.summary) {
    // The waits on data decide, so a modelled allreduce's time is the accelerator's own
    // (storage_au; absent in reports older than the allreduce model, where it equals AU).
    f.au = r.summary->storage_au.has_value() ? num::number(r.summary->storage_au)
                                             : num::number(r.summary->accelerator_utilization);
    f.read_bytes_per_s = num::number(r.summary->read_bytes_per_s);
    if (const auto& cpu = r.summary->cpu_utilization) {
      f.host_cpu = num::number(cpu->host);
      f.process_cpu_budget_share = num::number(cpu->budget_share);
      f.cpu_budget_cores = num::number(cpu->budget_cores);
    }
  }
  if (r.io) {
    f.queue_depth = num::number(r.io->queue_depth);
    f.readers = num::number(r.io->readers);
    f.max_read_rate = num::number(r.io->max_read_rate);
    if (const auto& t = r.io->reader_time; t.has_value()) {
      f.busiest_reader_cpu = num::number(t->busiest_cpu_share);
      f.queue_full_share = num::number(t->queue_full_share);
      f.completion_wait_share = num::number(t->completion_wait_share);
      f.mean_in_flight = num::number(t->mean_in_flight);
    }
  }
  f.device_busy = mean_device_busy(r);
  add_network_figures(r, f);
  return f;
}

std::vector<limit_sign> limit_signs(const limit_figures& f) {
  std::vector<limit_sign> out;
  client_signs(f, out);
  storage_signs(f, out);
  return out;
}

limit_verdict decide_limit(const limit_figures& f) {
  limit_verdict v;
  v.figures = f;
  if (!std::isfinite(f.au)) {
    v.reason = "AU was not measured";
    return v;
  }
  if (f.au >= kUnlimitedAu) {
    v.kind = limit_kind::nothing;
    v.reason =
        fmt::format("AU {:.3f}: the accelerators waited on data less than 1 % of the time", f.au);
    return v;
  }
  v.signs = limit_signs(f);
  const bool client = has_side(v.signs, limit_side::client);
  const bool storage = has_side(v.signs, limit_side::storage);
  v.synthetic = std::any_of(v.signs.begin(), v.signs.end(),
                            [](const limit_sign& s) { return s.name == "read_rate_cap"; });
  // A reached --max-read-rate is known to be the limit: the client, busy or not, got there.
  v.kind = v.synthetic         ? limit_kind::storage
           : client && storage ? limit_kind::mixed
           : client            ? limit_kind::client
           : storage           ? limit_kind::storage
                               : limit_kind::harness;
  if (v.kind == limit_kind::harness)
    v.reason = fmt::format("nothing at a limit: busiest reader {} of a core, queue full {} of "
                           "the time, host CPU {}",
                           pct_or_unknown(f.busiest_reader_cpu), pct_or_unknown(f.queue_full_share),
                           pct_or_unknown(f.host_cpu));
  else
    v.reason = joined_texts(v.signs);
  v.advice = advice_for(v);
  return v;
}

limit_section limit_block(const limit_verdict& v) {
  const auto& f = v.figures;
  limit_section b;
  b.verdict = std::string(to_string(v.kind));
  b.synthetic = v.synthetic;
  b.reason = v.reason;
  b.advice = field<std::string>::of(v.advice.empty() ? std::nullopt
                                                     : std::optional<std::string>(v.advice));
  limit_figures_section& n = b.figures.emplace();
  n.accelerator_utilization = num(f.au);
  n.busiest_reader_cpu_share = num(f.busiest_reader_cpu);
  n.host_cpu_utilization = num(f.host_cpu);
  n.process_cpu_budget_share = num(f.process_cpu_budget_share);
  n.cpu_budget_cores = num(f.cpu_budget_cores);
  n.client_network_share = num(f.client_nic_share);
  n.storage_network_share = num(f.storage_network_share);
  n.queue_full_share = num(f.queue_full_share);
  n.completion_wait_share = num(f.completion_wait_share);
  n.mean_in_flight = num(f.mean_in_flight);
  n.queue_depth = num(f.queue_depth);
  n.readers = num(f.readers);
  n.device_busy = num(f.device_busy);
  n.max_read_rate = num(f.max_read_rate);
  n.read_bytes_per_s = num(f.read_bytes_per_s);
  auto& signs = b.signs.emplace();
  for (const auto& s : v.signs) {
    limit_sign_section& row = signs.emplace_back();
    row.side = std::string(s.side == limit_side::client ? "client" : "storage");
    row.name = s.name;
    row.value = num(s.value);
    row.bound = num(s.bound);
    row.text = s.text;
  }
  return b;
}

limit_section limited_by_block(const bench_report& report) {
  return limit_block(decide_limit(limit_figures_of(report)));
}

std::string limit_line(const limit_section& b) {
  return fmt::format("  limited by  {}: {}{}\n", b.verdict.value_or("unknown"),
                     b.reason.value_or(""), b.advice.has_value() ? " (" + *b.advice + ")" : "");
}

limit_verdict limit_of(const bench_report& r) {
  limit_verdict v = decide_limit(limit_figures_of(r));
  if (v.kind == limit_kind::unknown && r.summary && r.summary->limited_by.has_value()) {
    const limit_section& b = *r.summary->limited_by;
    v.kind = parse_limit_kind(b.verdict.value_or(""));
    v.reason = b.reason.value_or(v.reason);
    v.synthetic = b.synthetic.value_or(false);
    v.advice = b.advice.value_or("");
  }
  return v;
}

} // namespace dlsize::report
