#include "pipeline/training_checkpoint.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

#include <fmt/format.h>

#include "analysis/goodput.hpp"
#include "core/error.hpp"

namespace dlsize::pipeline {
namespace fs = std::filesystem;
namespace {

// The shared checks speak of `dlsize checkpoint`'s options (--dir, --scale): bench's are
// --checkpoint-dir and --checkpoint-scale.
[[noreturn]] void rethrow_renamed(const usage_error& e, const std::string& from,
                                  const std::string& to) {
  const std::string what = e.what();
  if (what.rfind(from, 0) == 0)
    throw usage_error(to + what.substr(from.size()));
  throw e;
}

} // namespace

std::uint64_t checkpoint_every_steps(const config::checkpoint_interval& every, double step_s) {
  if (every.in_steps())
    return every.steps;
  if (step_s <= 0)
    return 1;
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(every.seconds / step_s)));
}

report::checkpoint_interval_choice choose_interval(const optimal_interval& o, double pause_s,
                                                   double step_s) {
  const auto n = static_cast<double>(o.accelerators);
  const double m = analysis::system_mttf(o.mttf_s, n);
  const std::optional<double> daly = analysis::daly_interval(pause_s, m);
  const double interval = daly.value_or(m);
  report::checkpoint_interval_choice c;
  c.mttf_s = o.mttf_s;
  c.mttf_source = o.mttf_source;
  c.accelerators = o.accelerators;
  c.system_mttf_s = m;
  c.checkpoint_s = pause_s;
  c.young_s = analysis::young_interval(pause_s, m);
  c.daly_s = report::field<double>::of(daly);
  c.keeps_up = daly.has_value();
  c.interval_s = interval;
  c.step_s = step_s;
  const std::uint64_t steps = checkpoint_every_steps({0, interval}, step_s);
  c.every_steps = steps;
  const std::string at =
      fmt::format("the first checkpoint paused the job {:.3g} s; the system MTTF is {:.4g} s "
                  "({:.4g} s per accelerator / {})",
                  pause_s, m, o.mttf_s, o.accelerators);
  c.reason = daly ? fmt::format("Daly's optimum, {:.4g} s of compute between checkpoints "
                                "(Young's {:.4g} s): {}; every {} steps of {:.4g} s",
                                interval, *c.young_s, at, steps, step_s)
                  : fmt::format("checkpoints cannot keep up: {}, and a checkpoint of twice the "
                                "system MTTF or more has no optimum; every M, as Daly bounds "
                                "that case: {} steps of {:.4g} s",
                                at, steps, step_s);
  return c;
}

checkpoint_au_split split_checkpoint_au(double au, double checkpoint_s, double wall_s) {
  checkpoint_au_split s;
  if (wall_s <= 0)
    return s;
  s.lost_to_checkpoints = std::clamp(checkpoint_s / wall_s, 0.0, 1.0);
  s.lost_other = std::max(0.0, 1.0 - au - s.lost_to_checkpoints);
  const double outside = 1.0 - s.lost_to_checkpoints;
  s.excluding_checkpoints = outside > 0 ? std::min(1.0, au / outside) : 0.0;
  return s;
}

training_checkpointer::training_checkpointer(const training_checkpoint_options& o,
                                             const config::workload_profile& w, unsigned rank,
                                             unsigned ranks, double step_s, const phase_io& io,
                                             std::uint64_t run_id)
    : m_opt(o), m_io(io), m_rank(rank), m_step_s(step_s),
      m_every(o.optimal ? 1 : checkpoint_every_steps(o.every, step_s)), m_next(m_every) {
  config::share_options so;
  so.scale = o.scale;
  try {
    m_layout = config::checkpoint_shares(config::require_checkpoint(w), ranks, so);
  } catch (const usage_error& e) {
    rethrow_renamed(e, "--scale:", "--checkpoint-scale:");
  }
  m_set.run = run_id;
  m_set.workload = w.name;
  m_set.request_size = io.request_size;
  m_set.files_per_rank = 1;
  for (const auto& share : m_layout.shares)
    m_set.rank_bytes.push_back(share.bytes());
  if (rank == 0 && o.s3) {
    try {
      s3_claim(*o.s3, m_set); // puts the manifest
    } catch (const usage_error& e) {
      rethrow_renamed(e, "--dir:", "--checkpoint-dir:");
    }
  } else if (rank == 0) {
    try {
      m_made_folder = dataset::claim_checkpoint_folder(
          o.dir, m_set.bytes(), fmt::format("one checkpoint of {} bytes", m_set.bytes()));
    } catch (const usage_error& e) {
      rethrow_renamed(e, "--dir:", "--checkpoint-dir:");
    }
    dataset::write_checkpoint_manifest(o.dir, m_set);
  }
  const std::size_t pool_bytes =
      dataset::block_pool::size_for(m_set.rank_bytes[rank], m_set.request_size);
  m_pool = std::make_unique<dataset::block_pool>(pool_bytes, m_set.request_size, run_id ^ rank);
}

training_checkpointer::~training_checkpointer() {
  if (m_rank != 0)
    return;
  try {
    if (m_opt.s3) {
      // Checkpoint objects a stop left (each rank deletes its own after a write), then the
      // manifest: only objects of this run's keys, size and block headers.
      for (std::uint64_t k = 1; k <= m_pause_s.size() + 1; ++k)
        s3_remove_checkpoint(*m_opt.s3, m_set, k, false);
      s3_remove_manifest(*m_opt.s3);
      return;
    }
    // Only what this run made: the checkpoints' folders (sealed as they went), the manifest,
    // and the folder when it was made here.
    for (std::uint64_t k = 1; k <= m_pause_s.size() + 1; ++k) {
      const fs::path partial = dataset::partial_checkpoint_path(m_opt.dir, k);
      for (unsigned r = 0; r < m_set.ranks(); ++r)
        dataset::remove_rank_shards(partial, m_set, r);
      dataset::remove_empty_folder(partial);
    }
    std::error_code ec;
    fs::remove(m_opt.dir / dataset::kCheckpointManifest, ec);
    if (m_made_folder)
      dataset::remove_empty_folder(m_opt.dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dlsize: removing the checkpoints failed: %s\n", e.what());
  }
}

bool training_checkpointer::write(std::uint64_t k) {
  if (m_opt.s3) {
    const rank_phase p = s3_write_rank(*m_opt.s3, m_set, m_rank, k, m_io, *m_pool);
    s3_remove_checkpoint(*m_opt.s3, m_set, k, false, m_rank);
    if (p.outcome == io::job_outcome::interrupted)
      return false;
    if (!p.error.empty())
      throw run_error(fmt::format("checkpoint {}: rank {}: {}", k, m_rank, p.error));
    m_write_s.push_back(p.seconds);
    return true;
  }
  const fs::path folder = dataset::partial_checkpoint_path(m_opt.dir, k);
  // Every rank may be first here (shared storage): the folder is made by whoever comes.
  std::error_code ec;
  fs::create_directory(folder, ec);
  if (ec)
    throw run_error(fmt::format("checkpoint {}: cannot create folder {}: {}", k, folder.string(),
                                ec.message()));
  const rank_phase p = write_rank_shards(m_set, m_rank, k, folder, m_io, *m_pool);
  dataset::remove_rank_shards(folder, m_set, m_rank);
  if (p.outcome == io::job_outcome::interrupted)
    return false;
  m_write_s.push_back(p.seconds);
  return true;
}

void training_checkpointer::add_pause(double seconds) {
  m_pause_s.push_back(seconds);
  // Every rank sees the same pause (the job's syncs), so every rank chooses the same steps.
  if (m_opt.optimal && !m_choice) {
    m_choice = choose_interval(*m_opt.optimal, seconds, m_step_s);
    m_every = *m_choice->every_steps;
  }
  m_next += m_every;
}

void training_checkpointer::seal(std::uint64_t k) {
  if (m_rank == 0 && !m_opt.s3)
    dataset::remove_empty_folder(dataset::partial_checkpoint_path(m_opt.dir, k));
}

report::checkpoints_section training_checkpointer::section(double wall_s, double au) const {
  const double total = std::accumulate(m_pause_s.begin(), m_pause_s.end(), 0.0);
  const auto count = static_cast<std::uint64_t>(m_pause_s.size());
  const std::uint64_t bytes = m_set.bytes() * count;
  const checkpoint_au_split s = split_checkpoint_au(au, total, wall_s);
  report::checkpoints_section c;
  c.every = m_opt.optimal ? "optimal" : m_opt.every.text();
  c.every_steps = m_every;
  c.dir =
      m_opt.s3 ? m_opt.s3->place.where.url() : fs::absolute(m_opt.dir).lexically_normal().string();
  c.scale = m_opt.scale;
  c.count = count;
  c.bytes_per_checkpoint = m_set.bytes();
  c.bytes_per_rank = m_set.rank_bytes;
  c.bytes = bytes;
  c.seconds = total;
  c.seconds_per_checkpoint = m_pause_s;
  c.mean_seconds = count ? total / static_cast<double>(count) : 0.0;
  c.write_bytes_per_s = total > 0 ? static_cast<double>(bytes) / total : 0.0;
  c.au_lost_to_checkpoints = s.lost_to_checkpoints;
  c.au_lost_other = s.lost_other;
  c.accelerator_utilization_excluding_checkpoints = s.excluding_checkpoints;
  c.interval_choice = m_choice;
  return c;
}

} // namespace dlsize::pipeline
