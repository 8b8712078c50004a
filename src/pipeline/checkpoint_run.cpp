#include "pipeline/checkpoint_run.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "cluster/agreement.hpp"
#include "cluster/hosts.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/stop.hpp"
#include "core/sysinfo.hpp"
#include "core/units.hpp"
#include "dataset/checkpoint_folder.hpp"
#include "io/drop_caches.hpp"
#include "pipeline/checkpoint_report.hpp"
#include "report/checkpoint_validity.hpp"
#include "report/report_io.hpp"
#include "report/run_id.hpp"
#include "report/run_status.hpp"
#include "telemetry/host_provenance.hpp"
#include "telemetry/nvml.hpp"

namespace dlsize::pipeline {
namespace fs = std::filesystem;
using dataset::checkpoint_set;
using nlohmann::json;

namespace {

void fsync_folder(const fs::path& dir) {
  const int fd = DLSIZE_SYSCALL(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC),
                                "folder: " + dir.string());
  const int rc = fsync(fd);
  const int err = errno;
  close(fd);
  if (rc != 0)
    throw_syscall_error("fsync", err, __FILE__, __LINE__, "folder: " + dir.string());
}

// What a removal left in place because dlsize did not write it, for the report's warnings.
using left_list = std::vector<std::string>;

void append(left_list& to, left_list from) {
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

// Removes every rank's shards of a checkpoint folder, then the folder (rank 0, on the storage
// every rank shares); returns what it left.
left_list remove_checkpoint(const fs::path& folder, const checkpoint_set& set) {
  left_list left;
  for (unsigned r = 0; r < set.ranks(); ++r)
    append(left, dataset::remove_rank_shards(folder, set, r));
  append(left, dataset::remove_empty_folder(folder));
  return left;
}

// Rank 0: the shards of a checkpoint that did not complete (a stop or a failure) go.
left_list discard_partial(const checkpoint_options& opt, const checkpoint_set& set,
                          std::uint64_t k) {
  if (opt.s3)
    return s3_remove_checkpoint(*opt.s3, set, k, false);
  return remove_checkpoint(dataset::partial_checkpoint_path(opt.dir, k), set);
}

// Rank 0, once every rank's shards of checkpoint k are durable: every shard is there with its
// size (a rank on storage the others do not share fails here), then the folder takes its final
// name and the manifest lists it; past --keep-last, the oldest goes (what of it dlsize did not
// write stays, in `left`).
void seal_checkpoint(const checkpoint_options& opt, checkpoint_set& set, std::uint64_t k,
                     left_list& left) {
  if (opt.s3) {
    s3_check_sealed(*opt.s3, set, k);
    set.checkpoints.push_back(k);
    if (opt.keep_last && set.checkpoints.size() > opt.keep_last) {
      s3_remove_checkpoint(*opt.s3, set, set.checkpoints.front(), true);
      set.checkpoints.erase(set.checkpoints.begin());
    }
    s3_write_manifest(*opt.s3, set);
    return;
  }
  const fs::path partial = dataset::partial_checkpoint_path(opt.dir, k);
  for (unsigned r = 0; r < set.ranks(); ++r) {
    if (set.rank_bytes[r] == 0)
      continue;
    const auto sizes = set.file_bytes(r);
    for (unsigned f = 0; f < set.files_per_rank; ++f) {
      const fs::path p = partial / dataset::shard_name(r, f);
      std::error_code ec;
      if (fs::file_size(p, ec) != sizes[f] || ec)
        throw usage_error(fmt::format(
            "--dir: rank 0 does not see {} of rank {} with its {} bytes: a job's checkpoint "
            "must be on storage every rank shares. valid: a shared mount",
            p.string(), r, sizes[f]));
    }
  }
  fsync_folder(partial);
  const fs::path final_path = dataset::checkpoint_path(opt.dir, k);
  DLSIZE_SYSCALL(rename(partial.c_str(), final_path.c_str()), "folder: " + final_path.string());
  set.checkpoints.push_back(k);
  if (opt.keep_last && set.checkpoints.size() > opt.keep_last) {
    append(left,
           remove_checkpoint(dataset::checkpoint_path(opt.dir, set.checkpoints.front()), set));
    set.checkpoints.erase(set.checkpoints.begin());
  }
  dataset::write_checkpoint_manifest(opt.dir, set);
  fsync_folder(opt.dir);
}

std::uint64_t coexisting(const checkpoint_options& opt) {
  return opt.keep_last ? std::min(opt.writes, opt.keep_last + 1) : opt.writes;
}

// A --writes 0 restore describes the checkpoints its folder holds: an option given on its
// command line that says otherwise is refused (the report would describe data that is not there).
void check_written(const checkpoint_options& opt, const checkpoint_set& s) {
  const std::string dir = opt.dir.string();
  if (s.workload != opt.workload.name)
    throw usage_error(fmt::format("--workload: {}, but the checkpoints in '{}' are {}'s. valid: "
                                  "--workload {}",
                                  opt.workload.name, dir, s.workload, s.workload));
  if (!s.written_recorded)
    return; // an older manifest: the report warns that the command line's figures are used
  const auto refuse = [&](const char* option, const std::string& given, const std::string& was) {
    throw usage_error(fmt::format("{}: {} given, but the checkpoints in '{}' were written with "
                                  "{} {} (its {}). valid: {} {}, or leave {} out",
                                  option, given, dir, option, was, dataset::kCheckpointManifest,
                                  option, was, option));
  };
  const auto& w = s.written;
  if (opt.content_given && opt.content.dedupe_percent != w.content.dedupe_percent)
    refuse("--dedupe-percent", std::to_string(opt.content.dedupe_percent),
           std::to_string(w.content.dedupe_percent));
  if (opt.content_given && opt.content.compress_percent != w.content.compress_percent)
    refuse("--compress-percent", std::to_string(opt.content.compress_percent),
           std::to_string(w.content.compress_percent));
  if (opt.scale_given && opt.shares.scale != w.scale)
    refuse("--scale", fmt::format("{:g}", opt.shares.scale), fmt::format("{:g}", w.scale));
  if (opt.subset_given && opt.shares.subset != w.subset)
    refuse("--subset", opt.shares.subset ? "on" : "off", w.subset ? "on" : "off");
}

// What the report says the checkpoints hold: the manifest's record for a --writes 0 restore (the
// command line's where an older manifest has none), else what these writes use.
dataset::written_content described(const checkpoint_options& opt, const checkpoint_set& set) {
  if (opt.writes == 0 && set.written_recorded)
    return set.written;
  return {opt.content, opt.shares.scale, opt.shares.subset};
}

// A new run's set: its id, the workload's shares and the content the writes use.
checkpoint_set new_set(const checkpoint_options& opt, const config::checkpoint_layout& layout) {
  checkpoint_set s;
  s.run = std::stoull(report::new_run_id().substr(0, 16), nullptr, 16);
  s.workload = opt.workload.name;
  s.request_size = opt.io.request_size;
  s.files_per_rank = opt.files_per_rank;
  s.written = {opt.content, opt.shares.scale, opt.shares.subset};
  for (const auto& share : layout.shares)
    s.rank_bytes.push_back(share.bytes());
  return s;
}

// Rank 0: opens the folder's checkpoints (--writes 0), or claims the folder for a new set.
checkpoint_set claimed_here(const checkpoint_options& opt, const config::checkpoint_layout& layout,
                            cluster::communicator& comm, bool& made_folder) {
  if (opt.writes == 0) {
    checkpoint_set s = opt.s3 ? s3_open(*opt.s3) : dataset::open_checkpoint_folder(opt.dir);
    if (s.ranks() != static_cast<unsigned>(comm.size()))
      throw usage_error(fmt::format(
          "--dir: the checkpoints in '{}' were written by {} ranks; this job has {}. valid: "
          "launch {} ranks (rank r reads the shards rank r wrote)",
          opt.dir.string(), s.ranks(), comm.size(), s.ranks()));
    check_written(opt, s);
    if (s.checkpoints.size() < opt.reads)
      throw usage_error(fmt::format("--reads: {} asked, but '{}' holds {} checkpoints. valid: "
                                    "--reads {} or fewer",
                                    opt.reads, opt.dir.string(), s.checkpoints.size(),
                                    s.checkpoints.size()));
    return s;
  }
  checkpoint_set s = new_set(opt, layout);
  if (opt.s3) {
    s3_claim(*opt.s3, s); // puts the manifest
    return s;
  }
  const std::uint64_t n = coexisting(opt);
  made_folder = dataset::claim_checkpoint_folder(
      opt.dir, s.bytes() * n,
      fmt::format("{} coexisting checkpoint(s) of {} bytes each", n, s.bytes()));
  dataset::write_checkpoint_manifest(opt.dir, s);
  return s;
}

// Rank 0 makes or opens the folder; every rank gets the set. A bucket's failed request (not the
// user's to fix) is in `failed`, with the set the command line describes, so that the report
// still comes.
checkpoint_set claim_set(const checkpoint_options& opt, const config::checkpoint_layout& layout,
                         cluster::communicator& comm, bool& made_folder,
                         std::optional<std::string>& failed) {
  const json j = cluster::agree(comm, [&]() -> json {
    if (comm.rank() != 0)
      return nullptr;
    try {
      return claimed_here(opt, layout, comm, made_folder).to_json();
    } catch (const usage_error&) {
      throw;
    } catch (const std::exception& e) {
      if (!opt.s3)
        throw;
      return std::string(e.what()); // the failure; a set is an object
    }
  })[0];
  if (j.is_string()) {
    failed = j.get<std::string>();
    return new_set(opt, layout);
  }
  return checkpoint_set::from_json(j, "rank 0's checkpoint set");
}

// Every rank's part of checkpoint k. A rank's failure (a full disk, an I/O error, an engine that
// cannot start) is its result, not an exception, so that the report still comes.
phase_run gather(cluster::communicator& comm, std::uint64_t k,
                 const std::function<rank_phase()>& part) {
  phase_run run{k, {}};
  const auto mine = [&] {
    try {
      return part().to_json();
    } catch (const usage_error&) {
      throw;
    } catch (const std::exception& e) {
      rank_phase failed;
      failed.outcome = io::job_outcome::failed;
      failed.error = e.what();
      return failed.to_json();
    }
  };
  for (const auto& p : cluster::agree(comm, mine))
    run.ranks.push_back(rank_phase::from_json(p));
  return run;
}

// The stall on any rank, as a stop's detail: "writing checkpoint 1: rank 0: no write ... for a
// write of FILE at offset O" ("" when none). The requests and threads left in the kernel are
// named on stderr, so that whoever waits on the process knows why it may not exit until the
// storage answers.
std::string stall_of(const phase_run& run, const char* what) {
  std::string detail;
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    for (const auto& k : run.ranks[r].in_kernel)
      std::fprintf(stderr, "dlsize: stuck in the kernel: rank %zu: %s\n", r, k.c_str());
    if (detail.empty() && !run.ranks[r].stalled.empty())
      detail = fmt::format("{} checkpoint {}: rank {}: {}", what, run.checkpoint, r,
                           run.ranks[r].stalled);
  }
  return detail;
}

bool left_in_kernel(const phase_run& run) {
  for (const auto& r : run.ranks)
    if (!r.in_kernel.empty())
      return true;
  return false;
}

bool interrupted(const phase_run& run) {
  for (const auto& r : run.ranks)
    if (r.outcome == io::job_outcome::interrupted)
      return true;
  return false;
}

void say(const checkpoint_options& opt, const char* what, const phase_run& run, std::uint64_t i,
         std::uint64_t n) {
  if (!opt.progress)
    return;
  double bytes = 0, s = 0;
  for (const auto& r : run.ranks) {
    bytes += static_cast<double>(r.bytes);
    s = std::max(s, r.seconds);
  }
  std::fprintf(stderr, "checkpoint %llu: %s %llu of %llu, %s in %.2f s (%s)\n",
               static_cast<unsigned long long>(run.checkpoint), what,
               static_cast<unsigned long long>(i), static_cast<unsigned long long>(n),
               units::format_bytes_binary(bytes).c_str(), s,
               units::format_rate_both(s > 0 ? bytes / s : 0).c_str());
}

struct run_state {
  std::vector<phase_run> writes, reads;
  // A write or read that failed or was cut short: not in the figures above, but its requests to a
  // bucket (retries included) are in checkpoint.s3.
  std::vector<phase_run> unfinished;
  std::optional<report::checkpoint_failure> failure; // the run ended on a failure
  std::vector<std::uint64_t> written_here;           // this run's checkpoints, for the clean-up
  stop_event stop;       // why no further checkpoint started (none: every one did)
  std::string stop_said; // a signal that cut a checkpoint short says which; "" says it from stop
  // A stall, a request the kernel still holds or a bucket that stopped answering: --dir stays
  // as it is (removing files on a hung file system may hang as well).
  bool hung = false;
  std::vector<std::string> notes; // for the report's warnings: what the clean-up left
  // Rank 0: what removals left in place because dlsize did not write it, past --keep-last
  // (kept_past_limit) and at the clean-up (left).
  left_list kept_past_limit, left;
  bool stopped() const { return stop.cause != stop_cause::none; }
};

// Why no further checkpoint starts (none to go on): rank 0's answer, which every rank takes.
stop_event agreed_stop(const checkpoint_options& opt, cluster::communicator& comm, double t0) {
  const json j = cluster::agree(comm, [&] {
    stop_event e;
    if (stop_requested())
      e = {stop_cause::signal, stop_signal(), ""};
    else if (opt.time_limit_s > 0 && now_s() - t0 >= opt.time_limit_s)
      e.cause = stop_cause::time_limit;
    return json{report::to_string(e.cause), e.signal};
  })[0];
  return {report::stop_cause_from_string(j[0].get<std::string>()), j[1].get<int>(), ""};
}

// Records in st why a checkpoint's write or read ended early: a stall, or a signal that left
// requests in the kernel (both leave --dir as it is), or a signal the ranks stopped at (a read
// cut short is as unfinished as a write: the last read of a run too, which no later check
// would catch). Returns false when none did.
bool ended_early(const phase_run& run, const char* what, run_state& st) {
  const std::string stall = stall_of(run, what);
  const bool held = left_in_kernel(run);
  if (stall.empty() && !held && !interrupted(run))
    return false;
  st.hung = !stall.empty() || held;
  if (!stall.empty()) {
    st.stop = {stop_cause::stall, 0, stall};
    return true;
  }
  st.stop = {stop_cause::signal, stop_signal(), ""};
  st.stop_said = fmt::format("interrupted by signal {} while {} checkpoint {}", stop_signal(), what,
                             run.checkpoint);
  return true;
}

// The value of "name: VALUE" in an error message (up to the next ';'), or nullopt.
std::optional<std::string> named(const std::string& error, const std::string& name) {
  const auto at = error.find(name + ": ");
  if (at == std::string::npos)
    return std::nullopt;
  const auto from = at + name.size() + 2;
  const auto end = error.find(';', from);
  return error.substr(from, end == std::string::npos ? std::string::npos : end - from);
}

// The file an error message names ("what failed. file: PATH; offset: O"), or the object of a
// failed S3 request ("bucket: B; key: K" as s3://B/K); nullopt when it names neither.
std::optional<std::string> file_named(const std::string& error) {
  if (auto f = named(error, "file"))
    return f;
  const auto bucket = named(error, "bucket");
  const auto key = named(error, "key");
  if (bucket && key)
    return fmt::format("s3://{}/{}", *bucket, *key);
  return std::nullopt;
}

// Records in st the first rank's failure in a checkpoint's write or read; false when none failed.
bool failed_in(const phase_run& run, const char* phase, run_state& st) {
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    const std::string& e = run.ranks[r].error;
    if (!e.empty()) {
      st.failure = report::checkpoint_failure{phase, run.checkpoint, r, file_named(e), e};
      return true;
    }
  }
  return false;
}

// Runs one of rank 0's steps on the folder or the bucket (a seal, a clean-up); its failure,
// unless the user's to fix, comes back as its message. A bucket that stopped answering marks
// the run hung: rank 0 then asks nothing more of it.
std::optional<std::string> rank0_step(run_state& st, const std::function<void()>& step) {
  try {
    step();
  } catch (const usage_error&) {
    throw;
  } catch (const std::exception& e) {
    st.hung = st.hung || s3_unanswered(e);
    return std::string(e.what());
  }
  return std::nullopt;
}

// Rank 0 seals checkpoint k (seal_checkpoint); every rank gets the checkpoints kept, or the
// failure of the seal (a full disk under the manifest, a rename refused) in st.
bool sealed(const checkpoint_options& opt, checkpoint_set& set, cluster::communicator& comm,
            std::uint64_t k, run_state& st) {
  const json kept = cluster::agree(comm, [&]() -> json {
    if (comm.rank() != 0)
      return nullptr;
    if (const auto e = rank0_step(st, [&] { seal_checkpoint(opt, set, k, st.kept_past_limit); }))
      return *e; // the failure; the checkpoints kept are an array
    return set.checkpoints;
  })[0];
  if (kept.is_string()) {
    const auto e = kept.get<std::string>();
    st.failure =
        report::checkpoint_failure{"write", k, 0, file_named(e), "sealing the checkpoint: " + e};
    return false;
  }
  set.checkpoints = kept.get<std::vector<std::uint64_t>>();
  return true;
}

void write_phase(const checkpoint_options& opt, checkpoint_set& set, cluster::communicator& comm,
                 run_state& st, double t0) {
  const auto rank = static_cast<unsigned>(comm.rank());
  const std::size_t pool_bytes =
      dataset::block_pool::size_for(set.rank_bytes[rank], set.request_size);
  const dataset::block_pool pool(pool_bytes, set.request_size, set.run ^ rank, opt.content);
  for (std::uint64_t k = 1; k <= opt.writes; ++k) {
    st.stop = agreed_stop(opt, comm, t0);
    if (st.stopped())
      return;
    const fs::path partial = dataset::partial_checkpoint_path(opt.dir, k);
    cluster::agree(comm, [&] {
      if (comm.rank() == 0 && !opt.s3 && !fs::create_directory(partial))
        throw run_error("cannot create folder " + partial.string() + ": it exists");
      return json(nullptr);
    });
    phase_run run = gather(comm, k, [&] {
      return opt.s3 ? s3_write_rank(*opt.s3, set, rank, k, opt.io, pool)
                    : write_rank_shards(set, rank, k, partial, opt.io, pool);
    });
    const bool failed = failed_in(run, "write", st);
    if (ended_early(run, "writing", st) || failed) {
      st.unfinished.push_back(run);
      st.hung = st.hung || s3_unanswered(run.ranks);
      if (!st.hung) // the ranks stopped or failed: the partial checkpoint goes
        cluster::agree(comm, [&] {
          if (comm.rank() == 0)
            if (const auto e =
                    rank0_step(st, [&] { append(st.left, discard_partial(opt, set, k)); }))
              st.notes.push_back(
                  fmt::format("checkpoint {}'s partial shards may be left: {}", k, *e));
          return json(nullptr);
        });
      return;
    }
    if (!sealed(opt, set, comm, k, st))
      return;
    st.written_here.push_back(k);
    st.writes.push_back(std::move(run));
    say(opt, "write", st.writes.back(), k, opt.writes);
  }
}

void read_phase(const checkpoint_options& opt, const checkpoint_set& set,
                cluster::communicator& comm, run_state& st, double t0) {
  phase_io rio = opt.io;
  rio.request_size = set.request_size; // blocks are read as they were written
  const auto ranks = static_cast<unsigned>(comm.size());
  const unsigned source = (static_cast<unsigned>(comm.rank()) + opt.read_shift % ranks) % ranks;
  for (std::uint64_t i = 0; i < opt.reads && !st.stopped(); ++i) {
    st.stop = agreed_stop(opt, comm, t0);
    if (st.stopped())
      return;
    const std::uint64_t k = set.checkpoints.at(i); // oldest first
    if (opt.drop_caches)
      cluster::agree(comm, [&] {
        io::drop_caches(); // every rank: ranks may be on different hosts
        return json(nullptr);
      });
    st.reads.push_back(gather(comm, k, [&] {
      return opt.s3 ? s3_read_rank(*opt.s3, set, source, k, rio)
                    : read_rank_shards(set, source, k, dataset::checkpoint_path(opt.dir, k), rio);
    }));
    const bool failed = failed_in(st.reads.back(), "read", st);
    const bool early = ended_early(st.reads.back(), "reading", st);
    st.hung = st.hung || s3_unanswered(st.reads.back().ranks);
    if (failed || early)
      st.unfinished.push_back(st.reads.back());
    if (failed)
      st.reads.pop_back(); // the read figures are of the restores that completed
    if (failed || early)
      return;
    say(opt, "read", st.reads.back(), i + 1, opt.reads);
  }
}

// Rank 0 removes what this run wrote: partial folders always; unless --keep, its checkpoints,
// the manifest, and the folder when it made it. Never anything an earlier run left: returns what
// it left in place.
left_list clean_up(const checkpoint_options& opt, const checkpoint_set& set, bool made_folder) {
  left_list left;
  if (opt.writes == 0)
    return left;
  if (opt.s3) {
    if (opt.keep)
      return left;
    for (std::uint64_t k : set.checkpoints)
      append(left, s3_remove_checkpoint(*opt.s3, set, k, false));
    s3_remove_manifest(*opt.s3);
    return left;
  }
  // A partial checkpoint (a failure left it) never stays, --keep or not.
  for (std::uint64_t k = 1; k <= opt.writes; ++k)
    if (fs::exists(dataset::partial_checkpoint_path(opt.dir, k)))
      append(left, remove_checkpoint(dataset::partial_checkpoint_path(opt.dir, k), set));
  if (opt.keep)
    return left;
  for (std::uint64_t k : set.checkpoints)
    append(left, remove_checkpoint(dataset::checkpoint_path(opt.dir, k), set));
  std::error_code ec;
  fs::remove(opt.dir / dataset::kCheckpointManifest, ec);
  if (made_folder)
    append(left, dataset::remove_empty_folder(opt.dir));
  return left;
}

report::checkpoint_phase_figures read_figures(const checkpoint_options& opt, const run_state& st) {
  report::checkpoint_phase_figures r = phase_figures(st.reads, opt.reads, false);
  r.verify->enabled = opt.io.verify; // off: blocks 0, and the bandwidth is a plain read's
  return r;
}

// What the report says of the folder's host and mount, taken before any write or read: a stat
// of a mount whose storage stopped answering may hang too.
struct folder_facts {
  sysinfo::mount_info mount;
  telemetry::host_provenance_facts provenance;
  report::checkpoint_facts rules; // what MLPerf Storage's checkpoint rules read
};

// The run as the checkpoint rules read it: the job, the declared accelerator, and per client
// host the bytes its ranks write of one checkpoint against its RAM (ram: by host, every rank's).
report::checkpoint_facts rules_facts(const checkpoint_options& opt,
                                     const config::checkpoint_layout& layout,
                                     const checkpoint_set& set, const dataset::written_content& w,
                                     const std::vector<std::string>& rank_hosts,
                                     const std::map<std::string, std::uint64_t>& ram) {
  report::checkpoint_facts f;
  f.workload = opt.workload.name;
  f.subset = w.subset;
  f.ranks = set.ranks();
  f.job_ranks = layout.job_ranks;
  f.checkpoint_bytes =
      static_cast<std::uint64_t>(static_cast<double>(set.bytes()) / (w.scale > 0 ? w.scale : 1));
  f.accelerator = opt.accelerator;
  f.reads = opt.reads;
  f.caches_dropped = opt.drop_caches;
  f.direct_reads = opt.io.cache == io::cache_mode::direct;
  f.fs_separation = opt.fs_separation;
  f.object_store = opt.s3.has_value();
  const auto host_of = [&](unsigned r) {
    return r < rank_hosts.size() ? rank_hosts[r] : ram.begin()->first;
  };
  std::map<std::string, std::uint64_t> bytes;
  f.reads_other_hosts = set.ranks() > 0 && opt.read_shift % set.ranks() != 0;
  for (unsigned r = 0; r < set.ranks(); ++r) {
    bytes[host_of(r)] += set.rank_bytes[r];
    if (host_of(r) == host_of((r + opt.read_shift) % set.ranks()))
      f.reads_other_hosts = false;
  }
  for (const auto& [name, b] : bytes)
    f.hosts.push_back({name, b, ram.count(name) ? ram.at(name) : 0});
  return f;
}

// What every rank's requests to the bucket did, over the runs, and over the writes (or reads)
// that failed or were cut short.
std::vector<rank_s3_figures> s3_figures_of(const std::vector<phase_run>& runs,
                                           const std::vector<phase_run>& unfinished, bool writes) {
  std::vector<rank_s3_figures> figures;
  for (const auto& run : runs)
    for (const auto& r : run.ranks)
      if (r.s3)
        figures.push_back(*r.s3);
  for (const auto& run : unfinished)
    for (const auto& r : run.ranks)
      if (r.s3 && r.s3->upload_time.has_value() == writes)
        figures.push_back(*r.s3);
  return figures;
}

report::checkpoint_section section_of(const checkpoint_options& opt,
                                      const config::checkpoint_layout& layout,
                                      const checkpoint_set& set, const run_state& st,
                                      const folder_facts& facts) {
  const dataset::written_content w = described(opt, set);
  report::checkpoint_section c;
  c.dir = opt.s3 ? opt.s3->place.where.url() : fs::absolute(opt.dir).lexically_normal().string();
  c.fs_type = facts.mount.fs_type;
  c.ranks = set.ranks();
  c.job_ranks = layout.job_ranks;
  c.tensor_parallel = layout.tensor_parallel;
  c.pipeline_parallel = layout.pipeline_parallel;
  c.data_parallel = layout.data_parallel;
  c.subset = w.subset;
  c.scale = w.scale;
  c.files_per_rank = set.files_per_rank;
  c.request_size = set.request_size;
  c.queue_depth = opt.io.queue_depth;
  c.cache_mode = opt.s3 ? std::string("none") : io::to_string(opt.io.cache);
  c.registered_buffers = !st.writes.empty() && st.writes[0].ranks[0].registered_buffers;
  c.bytes_per_rank = set.rank_bytes;
  c.bytes_per_checkpoint = set.bytes();
  c.coexisting_checkpoints = opt.writes ? coexisting(opt) : set.checkpoints.size();
  c.kept = opt.keep || opt.writes == 0;
  c.read_shift = opt.read_shift % set.ranks();
  c.caches_dropped = opt.drop_caches && !st.reads.empty();
  c.dedupe_percent = w.content.dedupe_percent;
  c.compress_percent = w.content.compress_percent;
  c.write = phase_figures(st.writes, opt.writes, true);
  c.read = read_figures(opt, st);
  if (opt.s3)
    c.s3 = s3_checkpoint_section(*opt.s3, s3_figures_of(st.writes, st.unfinished, true),
                                 s3_figures_of(st.reads, st.unfinished, false), opt.io.queue_depth);
  c.failure = st.failure;
  return c;
}

// The writes and reads, then the clean-up (skipped where the storage hung); a failure cleans up
// on rank 0 and goes on.
run_state run_phases(const checkpoint_options& opt, checkpoint_set& set,
                     cluster::communicator& comm, bool made_folder) {
  const bool root = comm.rank() == 0;
  run_state st;
  const double t0 = now_s();
  // The writes and reads last as long as the slowest rank's: no time limit, a stop ends them.
  const double timeout = comm.timeout_s();
  comm.set_timeout_s(0);
  try {
    if (opt.writes > 0)
      write_phase(opt, set, comm, st, t0);
    if (!st.failure) // a failed write ends the run: its report comes now
      read_phase(opt, set, comm, st, t0);
  } catch (...) {
    if (root) {
      try {
        clean_up(opt, set, made_folder);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "dlsize: clean-up after the failure failed too: %s\n", e.what());
      }
    }
    throw;
  }
  comm.set_timeout_s(timeout);
  cluster::agree(comm, [&] {
    if (!root || st.hung)
      return json(nullptr);
    if (const auto e = rank0_step(st, [&] { append(st.left, clean_up(opt, set, made_folder)); })) {
      if (st.failure)
        st.notes.push_back("the clean-up after the failure failed too: " + *e);
      else // the checkpoints were measured, but what the run wrote may be left
        st.failure = report::checkpoint_failure{"clean-up", std::max<std::uint64_t>(1, opt.writes),
                                                0, file_named(*e), *e};
    }
    return json(nullptr);
  });
  return st;
}

// A stop that cut the run short (the time limit is a planned end: complete, with a warning),
// then blocks that failed verification.
report::status_decision checkpoint_status(const run_state& st,
                                          const report::checkpoint_verify& verify) {
  report::status_inputs si;
  if (st.failure)
    si.failure = fmt::format("failed: {} checkpoint {}: rank {}: {}",
                             st.failure->phase == "write"      ? "writing"
                             : st.failure->phase == "read"     ? "reading"
                             : st.failure->phase == "clean-up" ? "cleaning up after"
                                                               : "claiming --dir for",
                             st.failure->checkpoint, st.failure->rank, st.failure->error);
  si.stop = st.stop;
  si.stop_said = st.stop_said;
  // A stop is taken before a checkpoint starts or when one ended early: it always stopped some.
  si.work_done = false;
  si.problems = {{verify.mismatches, "blocks failed verification",
                  verify.problems.empty() ? std::string() : verify.problems[0]}};
  return report::decide_status(si);
}

std::vector<std::string> warnings_of(const checkpoint_options& opt, const checkpoint_set& set,
                                     const run_state& st, bool time_limited) {
  std::vector<std::string> warnings;
  if (time_limited)
    warnings.push_back("stopped at --time-limit before all checkpoints were written and read");
  if (opt.io.cache != io::cache_mode::direct && opt.reads > 0)
    warnings.push_back(fmt::format("--cache {}: the reads may come from the page cache, not the "
                                   "storage (restores look faster than they are)",
                                   io::to_string(opt.io.cache)));
  if (!opt.io.verify && opt.reads > 0)
    warnings.push_back("--no-verify: the restored blocks were not checked");
  if (st.hung && opt.writes > 0)
    warnings.push_back(fmt::format("'{}' was left as it is: the storage did not answer, and "
                                   "removing files on it may hang too; remove what this run "
                                   "wrote (the folder's manifest lists it) once it answers",
                                   opt.dir.string()));
  if (!st.kept_past_limit.empty())
    warnings.push_back(fmt::format(
        "--keep-last {}: more checkpoints remain than it keeps: a folder it would have removed "
        "holds files dlsize did not write, and dlsize deletes only what it wrote. left in place: "
        "{}",
        opt.keep_last, fmt::join(st.kept_past_limit, "; ")));
  if (!st.left.empty())
    warnings.push_back(fmt::format("the clean-up left in place what dlsize did not write: {}",
                                   fmt::join(st.left, "; ")));
  warnings.insert(warnings.end(), st.notes.begin(), st.notes.end());
  if (opt.writes == 0 && !set.written_recorded)
    warnings.push_back(fmt::format(
        "{} in '{}' does not record the checkpoints' --dedupe-percent, --compress-percent, "
        "--scale and --subset (an older dlsize wrote it): the report gives this command line's",
        dataset::kCheckpointManifest, opt.dir.string()));
  return warnings;
}

// Rank 0's report of the run. As bench: a run --time-limit cut short is complete, with a
// warning; a signal is not.
checkpoint_result checkpoint_report(const checkpoint_options& opt,
                                    const config::checkpoint_layout& shown_layout,
                                    const checkpoint_set& set, const run_state& st,
                                    const folder_facts& facts, const json& command_line) {
  report::checkpoint_document d;
  d.run_id = report::new_run_id();
  d.created_at = report::utc_now();
  d.created_unix_s = report::unix_now_s();
  d.tool = report::tool_json();
  d.command_line = command_line.get<std::vector<std::string>>();
  d.config = opt.config;
  if (!opt.label.empty())
    d.label = opt.label;
  d.workload = {opt.workload.name, config::require_checkpoint(opt.workload)};
  const telemetry::nvml gpus;
  d.system = report::system_of({report::host_of(gpus.devices(), gpus.status(), facts.provenance)});
  d.checkpoint = section_of(opt, shown_layout, set, st, facts);
  d.fs_separation = opt.fs_separation;
  d.mlperf_validity = report::checkpoint_validity(facts.rules, opt.rules);
  const report::checkpoint_verify& verify = *d.checkpoint.read.verify;
  const report::status_decision decision = checkpoint_status(st, verify);
  d.warnings = warnings_of(opt, set, st, decision.stopped_at_time_limit);
  d.status = decision.status;
  if (!decision.reason.empty())
    d.reason = decision.reason;
  checkpoint_result res;
  res.failed = verify.mismatches > 0 || st.failure.has_value();
  res.report = std::move(d);
  return res;
}

} // namespace

void check_checkpoint_options(const checkpoint_options& opt, unsigned ranks) {
  if (opt.drop_caches) {
    const std::string why = io::drop_caches_refusal();
    if (!why.empty())
      throw usage_error("--drop-caches: refused: " + why +
                        ". valid: run as root where /proc/sys/vm/drop_caches is writable, or "
                        "leave --drop-caches off (--cache direct reads cold anyway)");
  }
  io::engine_options eo;
  eo.cache = opt.io.cache;
  eo.queue_depth = opt.io.queue_depth;
  eo.request_size = opt.io.request_size;
  io::check_engine_options(eo);
  (void)config::checkpoint_shares(config::require_checkpoint(opt.workload), ranks, opt.shares);
}

checkpoint_result run_checkpoint(const checkpoint_options& opt, cluster::communicator& comm,
                                 const json& command_line) {
  const bool root = comm.rank() == 0;
  const auto& profile = config::require_checkpoint(opt.workload);
  const auto layout =
      config::checkpoint_shares(profile, static_cast<unsigned>(comm.size()), opt.shares);
  bool made_folder = false;
  std::optional<std::string> claim_failed;
  checkpoint_set set = claim_set(opt, layout, comm, made_folder, claim_failed);
  const dataset::written_content w = described(opt, set);
  const auto shown_layout =
      config::checkpoint_shares(profile, static_cast<unsigned>(comm.size()), {w.scale, w.subset});
  folder_facts facts;
  const auto ram = cluster::ram_by_host(comm); // a collective: before the phases, on every rank
  if (root)
    facts = {opt.s3 ? run_mount(opt.dir, opt.s3->place) : sysinfo::mount_of(opt.dir.string()),
             opt.s3 ? run_provenance(opt.dir, opt.s3->place) : telemetry::host_provenance(opt.dir),
             rules_facts(opt, shown_layout, set, w, comm.where().rank_hosts, ram)};
  run_state st;
  if (claim_failed) { // nothing was written: nothing to clean up either
    st.failure = report::checkpoint_failure{"claim", 1, 0, file_named(*claim_failed),
                                            "claiming the prefix: " + *claim_failed};
  } else {
    st = run_phases(opt, set, comm, made_folder);
  }
  if (!root)
    return {};
  return checkpoint_report(opt, shown_layout, set, st, facts, command_line);
}

} // namespace dlsize::pipeline
