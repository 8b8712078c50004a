#include "pipeline/checkpoint_phase.hpp"

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/stop.hpp"
#include "io/uring_writer.hpp"
#include "io/watched_workers.hpp"
#include "pipeline/checkpoint_watch.hpp"

namespace dlsize::pipeline {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kProblemsKept = 8;

std::vector<std::string> shard_paths(const dataset::checkpoint_set& set, unsigned rank,
                                     const fs::path& folder) {
  std::vector<std::string> paths;
  if (set.rank_bytes.at(rank) == 0)
    return paths;
  for (unsigned f = 0; f < set.files_per_rank; ++f)
    paths.push_back((folder / dataset::shard_name(rank, f)).string());
  return paths;
}

// Checks every block as it arrives: a block is one request, at a multiple of the request size.
class block_checker : public io::job_consumer {
public:
  block_checker(const dataset::block_id& base, std::uint32_t block, const io::file_set& files,
                bool verify, rank_phase& out)
      : m_base(base), m_block(block), m_files(files), m_verify(verify), m_out(out) {}
  void on_start(unsigned, const io::read_job&) override {}
  void on_data(unsigned, const io::read_job& job, std::uint64_t file_offset, const std::byte* data,
               std::size_t bytes) override {
    m_bytes.fetch_add(bytes, std::memory_order_relaxed);
    if (!m_verify)
      return;
    // A piece that begins or ends inside a block (an object's body arrives in pieces of curl's
    // buffer) is put together first; whole blocks are checked where they are.
    const std::uint64_t size = m_files.sizes[job.file];
    const auto block_len = [&](std::uint64_t at) {
      return static_cast<std::size_t>(std::min<std::uint64_t>(m_block, size - at));
    };
    std::size_t used = 0;
    if (file_offset % m_block != 0 || bytes < block_len(file_offset)) {
      partial_block* p = nullptr;
      std::uint64_t at = 0;
      {
        std::lock_guard lk(m_mu); // map nodes stay put; a job's entry is its reader's alone
        p = &m_partial[job.tag];
        if (p->bytes.empty())
          p->bytes.resize(m_block);
        if (file_offset % m_block == 0)
          p->filled = 0;
        at = file_offset - p->filled;
        used = std::min(bytes, block_len(at) - p->filled);
        std::memcpy(p->bytes.data() + p->filled, data, used);
        p->filled += used;
        if (p->filled < block_len(at))
          return;
      }
      check(job, at, p->bytes.data(), p->filled);
      std::lock_guard lk(m_mu);
      m_partial.erase(job.tag);
    }
    std::uint64_t at = file_offset + used;
    while (used < bytes && bytes - used >= block_len(at)) {
      const std::size_t len = block_len(at);
      check(job, at, data + used, len);
      used += len;
      at += len;
    }
    if (used < bytes) {
      std::lock_guard lk(m_mu);
      partial_block& p = m_partial[job.tag];
      p.bytes.resize(m_block);
      std::memcpy(p.bytes.data(), data + used, bytes - used);
      p.filled = bytes - used;
    }
  }
  void on_done(unsigned, const io::read_job&, std::uint64_t, std::uint64_t, io::job_outcome outcome,
               const std::string& error) override {
    std::lock_guard lk(m_mu);
    if (outcome == io::job_outcome::failed && m_error.empty())
      m_error = error;
  }
  const std::string& error() const { return m_error; }
  std::uint64_t bytes() const { return m_bytes.load(std::memory_order_relaxed); }

private:
  void check(const io::read_job& job, std::uint64_t offset, const std::byte* data,
             std::size_t len) {
    dataset::block_id id = m_base;
    id.file = job.file;
    id.offset = offset;
    const std::string why = dataset::check_block(id, data, len);
    std::lock_guard lk(m_mu);
    ++m_out.blocks;
    if (why.empty())
      return;
    if (m_out.mismatches++ < kProblemsKept)
      m_out.problems.push_back(
          fmt::format("{} at offset {} ({} bytes): {}", m_files.paths[job.file], offset, len, why));
  }

  struct partial_block {
    std::vector<std::byte> bytes;
    std::size_t filled = 0;
  };
  std::map<std::uint64_t, partial_block> m_partial; // by job tag

  std::atomic<std::uint64_t> m_bytes{0};
  dataset::block_id m_base;
  std::uint32_t m_block;
  const io::file_set& m_files;
  bool m_verify;
  rank_phase& m_out;
  std::mutex m_mu;
  std::string m_error;
};

// What the writer measured, into the rank's result.
rank_phase finish_write(rank_phase& out, const io::write_stats& st) {
  out.bytes = st.bytes;
  out.requests = st.requests;
  out.seconds = static_cast<double>(st.run_ns) * 1e-9;
  out.cpu_s = static_cast<double>(st.cpu_ns) * 1e-9;
  out.fill_s = static_cast<double>(st.fill_ns) * 1e-9;
  out.completion_wait_s = static_cast<double>(st.completion_wait_ns) * 1e-9;
  out.starved_s = static_cast<double>(st.starved_ns) * 1e-9;
  out.latency = st.write_latency;
  out.fsync_latency = st.fsync_latency;
  if (st.interrupted)
    out.outcome = io::job_outcome::interrupted;
  out.registered_buffers = st.registered_buffers;
  out.engine = "io_uring";
  return out;
}

} // namespace

rank_phase write_rank_shards(const dataset::checkpoint_set& set, unsigned rank, std::uint64_t k,
                             const fs::path& folder, const phase_io& io,
                             const dataset::block_pool& pool) {
  rank_phase out;
  const auto paths = shard_paths(set, rank, folder);
  const auto sizes = set.file_bytes(rank);
  std::vector<io::write_target> targets;
  for (std::size_t f = 0; f < paths.size(); ++f)
    targets.push_back({paths[f], sizes[f]});
  const dataset::block_id base{set.run, rank, 0, k, 0};
  auto fill = [&](std::uint32_t file, std::uint64_t offset, std::byte* dst, std::size_t len) {
    dataset::block_id id = base;
    id.file = file;
    id.offset = offset;
    pool.fill(id, dst, len);
  };
  std::vector<std::string> created;
  auto remove_created = [&] {
    for (const auto& p : created) {
      std::error_code ec;
      fs::remove(p, ec);
    }
  };
  // One watched writer: a write or fsync that never completes (a hung server) is a stall after
  // --stall-timeout, and a writer the kernel holds is abandoned, not joined.
  io::write_stats st;
  const io::watched_result ran = io::run_watched(
      1,
      [&](io::worker_context& ctx) {
        io::write_files(targets, io.cache, io.queue_depth, io.request_size, fill, ctx, created, st);
      },
      io.stall_timeout_s, "writer", nullptr);
  out.in_kernel = st.in_kernel;
  out.in_kernel.insert(out.in_kernel.end(), ran.abandoned.begin(), ran.abandoned.end());
  if (!ran.stalled.empty())
    out.stalled = fmt::format("no write or fsync finished for {:g} s (--stall-timeout); {}",
                              io.stall_timeout_s, ran.stalled);
  if (!out.in_kernel.empty()) {
    // Its shards stay: removing a file the kernel is still writing may hang as the write does.
    out.outcome = io::job_outcome::interrupted;
    return finish_write(out, st);
  }
  if (!ran.first_error().empty()) {
    remove_created(); // a failed checkpoint's shards never stay
    finish_write(out, st);
    out.outcome = io::job_outcome::failed;
    out.error = ran.first_error();
    return out;
  }
  if (st.interrupted || ran.interrupted || !out.stalled.empty()) {
    st.interrupted = true;
    remove_created(); // partial shards never stay
  }
  return finish_write(out, st);
}

rank_phase read_rank_shards(const dataset::checkpoint_set& set, unsigned rank, std::uint64_t k,
                            const fs::path& folder, const phase_io& io) {
  rank_phase out;
  io::file_set files;
  files.paths = shard_paths(set, rank, folder);
  if (files.paths.empty())
    return out;
  const auto sizes = set.file_bytes(rank);
  files.sizes.assign(sizes.begin(), sizes.begin() + static_cast<long>(files.paths.size()));
  for (std::size_t f = 0; f < files.paths.size(); ++f) {
    std::error_code ec;
    const auto have = fs::file_size(files.paths[f], ec);
    if (ec || have != files.sizes[f]) {
      out.outcome = io::job_outcome::failed;
      out.error = fmt::format("shard missing or of another size. file: {}; expected bytes: {}; "
                              "found: {}",
                              files.paths[f], files.sizes[f], ec ? "none" : std::to_string(have));
      return out;
    }
  }
  io::engine_options eo;
  eo.cache = io.cache;
  eo.queue_depth = io.queue_depth;
  eo.request_size = io.request_size;
  std::string fallback;
  auto engine = io::make_engine(eo, files, fallback);
  range_jobs jobs(files, 0);
  return read_checked(set, rank, k, files, *engine, jobs, io);
}

range_jobs::range_jobs(const io::file_set& files, std::uint64_t part) {
  for (std::uint32_t f = 0; f < files.sizes.size(); ++f) {
    const std::uint64_t step = part == 0 ? std::max<std::uint64_t>(1, files.sizes[f]) : part;
    for (std::uint64_t at = 0; at < files.sizes[f]; at += step)
      m_jobs.push_back({f, at, std::min(step, files.sizes[f] - at), m_jobs.size()});
  }
}

io::pull_result range_jobs::pull(unsigned, io::read_job& job) {
  const std::size_t i = m_next.fetch_add(1);
  if (i >= m_jobs.size())
    return io::pull_result::end;
  job = m_jobs[i];
  return io::pull_result::job;
}

rank_phase read_checked(const dataset::checkpoint_set& set, unsigned rank, std::uint64_t k,
                        const io::file_set& files, io::engine& engine, io::job_source& jobs,
                        const phase_io& io) {
  rank_phase out;
  block_checker checker({set.run, rank, 0, k, 0}, set.request_size, files, io.verify, out);
  const std::uint64_t t0 = now_ns();
  const io::engine_result res = run_watched_phase(
      [&] { return checker.bytes(); }, [&](std::uint64_t age) { return engine.stuck_read(age); },
      "read", io.stall_timeout_s, out.stalled,
      [&](std::atomic<bool>& stop) { return engine.run(jobs, checker, stop); });
  out.seconds = static_cast<double>(now_ns() - t0) * 1e-9;
  out.in_kernel = res.abandoned;
  if (!out.stalled.empty()) {
    out.outcome = io::job_outcome::interrupted;
    return out;
  }
  for (const auto& r : res.readers) {
    out.bytes += r.bytes;
    out.requests += r.requests;
    out.cpu_s += static_cast<double>(r.cpu_ns) * 1e-9;
    out.latency.merge(r.read_latency);
  }
  out.engine = engine.name();
  if (!res.error.empty() || !checker.error().empty()) {
    out.outcome = io::job_outcome::failed;
    out.error = res.error.empty() ? checker.error() : res.error;
  } else if (stop_requested()) {
    out.outcome = io::job_outcome::interrupted;
  }
  return out;
}

} // namespace dlsize::pipeline
