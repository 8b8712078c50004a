#pragma once
// What held a run's AU below 1, named from the telemetry the run collected. Each figure at its
// bound is a sign on one side: the client's (a reader thread at about a full core, the host's
// CPU or the process's CPU budget nearly spent, a host's NIC at its rate: the client network) or
// the storage's (readers waiting with their queues full, waiting on a busy device, a
// --max-read-rate cap reached, the hosts' traffic together at the storage side's declared
// network rate). Storage signs alone
// make the verdict `storage`; client signs alone `client`; both `mixed`, because a busy client
// also makes reads wait, so such a run says only that the backend delivers at least what it
// read; neither `harness` (the prefetch window or the emulation itself). The thresholds are
// constants here and in docs/metrics.md. size takes the backend's ceiling only from
// storage-limited runs and reads a client or mixed run as a lower bound of it.
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/enum_names.hpp"
#include "report/bench_report.hpp"

namespace dlsize::report {

inline constexpr double kUnlimitedAu = 0.99;         // less than 1 % of the time waiting on data
inline constexpr double kReaderCpuBound = 0.90;      // a reader thread's share of one core
inline constexpr double kHostCpuBound = 0.90;        // the host's CPU, all cores
inline constexpr double kProcessBudgetBound = 0.90;  // the process's CPU ÷ the cores it may use
inline constexpr double kQueueFullBound = 0.50;      // share of reader time with the queue full
inline constexpr double kCompletionWaitBound = 0.50; // share of reader time waiting on reads
inline constexpr double kDeviceBusyBound = 0.90;     // share of the run the device had I/O
inline constexpr double kCapReachedBound = 0.95;     // read rate ÷ --max-read-rate
// A NIC's busier direction ÷ its rate (declared, else reported), over the whole run, ramp-up
// included: TCP over Ethernet carries about 94 % of the line rate as payload.
inline constexpr double kNicBound = 0.85;
// The hosts' received bytes together ÷ the storage side's declared network rate.
inline constexpr double kStorageNetworkBound = 0.85;

enum class limit_kind { nothing, storage, client, mixed, harness, unknown };
inline constexpr core::enum_table<limit_kind, 6> kLimitKindNames{
    {{limit_kind::nothing, "nothing"},
     {limit_kind::storage, "storage"},
     {limit_kind::client, "client"},
     {limit_kind::mixed, "mixed"},
     {limit_kind::harness, "harness"},
     {limit_kind::unknown, "unknown"}}};
constexpr const auto& names_of(limit_kind) {
  return kLimitKindNames;
}

// "nothing", "storage", "client", "mixed", "harness", "unknown".
const char* to_string(limit_kind k);
// The names above; "client_cpu", the client verdict's name in reports before `mixed` existed,
// reads as client.
limit_kind parse_limit_kind(const std::string& text);

// Whether a run of this verdict shows only a lower bound of what the backend delivers: the
// client (or the client and the storage together) held it back.
bool client_side(limit_kind k);

// The figures behind a verdict; NaN where the report does not have them.
struct limit_figures {
  double au = std::nan("");
  double busiest_reader_cpu = std::nan(""); // of one core
  double host_cpu = std::nan("");
  double process_cpu_budget_share = std::nan(""); // the busiest rank's CPU ÷ its cores
  double cpu_budget_cores = std::nan("");         // the cores that rank may use
  double queue_full_share = std::nan("");
  double completion_wait_share = std::nan("");
  double mean_in_flight = std::nan("");
  double queue_depth = std::nan("");
  double readers = std::nan("");
  double device_busy = std::nan("");
  double max_read_rate = std::nan(""); // bytes/s; NaN without a cap
  double read_bytes_per_s = std::nan("");
  // The busiest host NIC (hosts[].nics): its share of its rate, the rate, "h2 eth0", and the
  // other hosts' NICs at the bound ("h1 eth0 93 %").
  double client_nic_share = std::nan("");
  double client_nic_bits_per_s = std::nan("");
  std::string client_nic;
  std::vector<std::string> client_nics_also;
  // The hosts' busiest NICs' received bytes/s together, against storage.network_bits_per_s.
  double storage_network_share = std::nan("");
  double storage_network_bits_per_s = std::nan("");
};

enum class limit_side { client, storage };

// One figure at its bound: which side it points at, what it is, and the sentence that says so.
struct limit_sign {
  limit_side side = limit_side::client;
  std::string name; // "host_cpu", "reader_cpu", "process_cpu_budget", "queue_full", ...
  double value = 0, bound = 0;
  std::string text;
};

struct limit_verdict {
  limit_kind kind = limit_kind::unknown;
  std::string reason;     // the figures that decided, in words
  std::string advice;     // what to change to measure the backend rather than this limit
  bool synthetic = false; // the storage sign was --max-read-rate, a token bucket
  std::vector<limit_sign> signs;
  limit_figures figures;
};

// The figures of a bench report (summary, io.reader_time, timeseries device_busy).
limit_figures limit_figures_of(const bench_report& report);

// The signs among those figures, client signs first.
std::vector<limit_sign> limit_signs(const limit_figures& f);

// The verdict on those figures: unknown without AU; nothing at AU ≥ 0.99; storage (synthetic)
// where reads reached the --max-read-rate cap, whatever else (the client got there); else by the
// signs (storage, client, mixed where both sides show one, harness where neither does).
limit_verdict decide_limit(const limit_figures& f);

// The `summary.limited_by` block (docs/report-schema.md).
limit_section limit_block(const limit_verdict& v);

// The block a bench report gets at the end of its run: limit_block of its own figures.
limit_section limited_by_block(const bench_report& report);

// One line for the terminal summary: "storage: readers waited ...".
std::string limit_line(const limit_section& block);

// The verdict on a report by the current rules, from its figures; the verdict it carries where
// its figures give no AU (a report that carries only the block).
limit_verdict limit_of(const bench_report& report);

} // namespace dlsize::report
