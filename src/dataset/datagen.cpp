#include "dataset/datagen.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "core/progress.hpp"
#include "core/stop.hpp"
#include "core/sysinfo.hpp"
#include "core/units.hpp"
#include "dataset/datagen_journal.hpp"
#include "dataset/record.hpp"
#include "dlsize/build_config.hpp"
#include "io/watched_workers.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kWriteChunk = 4u << 20;

// Refuses a folder (made by claim_dataset_folder) that is neither empty, nor a dlsize dataset,
// nor an unfinished generation. Returns true if the dataset there is already complete with the
// same parameters.
bool check_folder(const fs::path& dir, const dataset_params& params) {
  std::error_code ec;
  if (access(dir.c_str(), W_OK) != 0)
    throw usage_error(fmt::format("--dataset: folder '{}' is not writable", dir.string()));
  for (const char* name : {kManifestName, kStateName}) {
    const fs::path p = dir / name;
    if (!fs::exists(p, ec))
      continue;
    nlohmann::json j;
    try {
      j = core::read_json_file(p, core::kManifestJson);
    } catch (const usage_error& e) {
      throw usage_error(fmt::format("{}; dlsize will not touch this folder", e.what()));
    }
    auto theirs = dataset_params::from_json(core::json_checker(p.string()).object(j, "", "params"),
                                            p.string());
    if (!(theirs == params))
      throw usage_error(fmt::format(
          "--dataset: '{}' holds a different dataset ({}: {}); dlsize never overwrites one. "
          "valid: a new or empty folder, or the same parameters to resume or reuse it",
          dir.string(), p.filename().string(), theirs.to_json().dump()));
    return std::string(name) == kManifestName;
  }
  if (!fs::is_empty(dir, ec))
    throw usage_error(fmt::format("--dataset: folder '{}' is not empty and is not a dlsize "
                                  "dataset; dlsize never writes among foreign files. valid: a "
                                  "new or empty folder",
                                  dir.string()));
  return false;
}

// Bytes of file f, summed record by record: no index is built for a figure needed once.
std::uint64_t file_bytes_of(const dataset_params& params, std::uint64_t f) {
  std::uint64_t bytes = 0;
  for (std::uint64_t k = 0; k < params.records_per_file; ++k)
    bytes += record_size(params, f * params.records_per_file + k);
  return bytes;
}

// The bytes a generation still has to write into dir, weighed against `have`: none when a
// manifest is there (complete, or another dataset that check_folder refuses), those of the files
// not yet complete when a state file is (an interrupted run), all of them otherwise. Where the
// bounds of a record's size decide, the records are not summed one by one.
struct room_need {
  std::uint64_t bytes = 0;
  bool at_least = false; // a lower bound, already more than `have`
};

room_need bytes_to_write(const fs::path& dir, const dataset_params& params, std::uint64_t have) {
  std::error_code ec;
  if (fs::exists(dir / kManifestName, ec))
    return {};
  const bool resume = fs::exists(dir / kStateName, ec);
  if (!resume) {
    const double records = static_cast<double>(params.files * params.records_per_file);
    const double lo = params.smallest_record();
    const double hi = params.largest_record();
    if (records * lo > static_cast<double>(have))
      return {static_cast<std::uint64_t>(records * lo), true};
    if (records * hi <= static_cast<double>(have))
      return {static_cast<std::uint64_t>(records * hi), false};
  }
  room_need need;
  for (std::uint64_t f = 0; f < params.files; ++f) {
    const std::uint64_t want = file_bytes_of(params, f);
    const fs::path p = dir / relative_file_path(f);
    if (!resume || !fs::is_regular_file(p, ec) || fs::file_size(p, ec) != want)
      need.bytes += want;
  }
  return need;
}

// A file this generation did not write, met in a writer's way: the generation stops (exit 2).
struct foreign_file : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string foreign_message(const fs::path& dir, const std::string& why) {
  return fmt::format("datagen: a file it did not write is in its way: {}; dlsize never replaces or "
                     "deletes a file it did not write, and nothing of it was touched. valid: move "
                     "it out of '{}', then run the same command again to resume",
                     why, dir.string());
}

class file_writer {
public:
  file_writer(const dataset_layout& layout, datagen_journal& journal)
      : m_layout(layout), m_journal(journal) {}

  // Writes one file under a temporary name (made new, after the journal lists it), fsyncs, drops
  // it from the page cache, moves it to its name unless that name was taken meanwhile. Every
  // call that may block goes through io (the watch names it when it hangs). Throws foreign_file
  // when a file appeared under either name, run_error on I/O failure.
  std::uint64_t write(std::uint64_t file, io::worker_context& io) {
    const fs::path final_path = m_layout.file_path(file);
    const fs::path tmp = final_path.string() + ".partial";
    const std::string ctx = "file: " + final_path.string();
    if (!io.blocking("an append to " + m_journal.path().string(),
                     [&] { return m_journal.record(file); }))
      throw_syscall_error("write", errno, __FILE__, __LINE__,
                          "datagen's journal. path: " + m_journal.path().string());
    const int fd = io.blocking("the open of " + tmp.string(), [&] {
      return ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    });
    if (fd < 0 && errno == EEXIST)
      throw foreign_file(fmt::format("'{}' appeared during the run", tmp.string()));
    if (fd < 0)
      throw_syscall_error("open", errno, __FILE__, __LINE__, ctx);
    std::uint64_t written = 0;
    const std::uint64_t first = m_layout.first_record(file);
    for (std::uint64_t k = 0; k < m_layout.params().records_per_file; ++k) {
      const std::uint64_t r = first + k;
      const std::uint64_t bytes = m_layout.record_bytes(r);
      if (m_buf.size() < bytes)
        m_buf.resize(bytes);
      make_record(m_layout.params().dataset_id(), r, bytes, m_buf.data());
      std::uint64_t done = 0;
      while (done < bytes) {
        const auto n = std::min<std::uint64_t>(kWriteChunk, bytes - done);
        const ssize_t w =
            io.blocking(fmt::format("a write of {} at offset {}", tmp.string(), written + done),
                        [&] { return ::write(fd, m_buf.data() + done, n); });
        if (w < 0 && errno == EINTR)
          continue;
        if (w < 0) {
          int err = errno;
          close(fd);
          unlink(tmp.c_str());
          throw_syscall_error("write", err, __FILE__, __LINE__,
                              err == ENOSPC || err == EDQUOT
                                  ? ctx + "; the free space checked at the start was enough, "
                                          "but quotas, NFS servers and other writers can "
                                          "still refuse later"
                                  : ctx);
        }
        done += static_cast<std::uint64_t>(w);
      }
      written += bytes;
    }
    if (io.blocking("the fdatasync of " + tmp.string(), [&] { return fdatasync(fd); }) != 0)
      throw_syscall_error("fdatasync", errno, __FILE__, __LINE__, ctx);
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
    const int err = io.blocking("the rename of " + tmp.string(),
                                [&] { return move_no_replace(tmp, final_path); });
    if (err == EEXIST) {
      unlink(tmp.c_str());
      throw foreign_file(fmt::format("'{}' appeared during the run", final_path.string()));
    }
    if (err != 0)
      throw_syscall_error("rename", err, __FILE__, __LINE__, ctx);
    return written;
  }

private:
  const dataset_layout& m_layout;
  datagen_journal& m_journal;
  std::vector<std::byte> m_buf;
};

} // namespace

core::folder_lock claim_dataset_folder(const datagen_options& opt) {
  const std::uint64_t have = sysinfo::available_bytes(opt.dir.string());
  const room_need need = bytes_to_write(opt.dir, opt.params, have);
  if (need.bytes > have)
    throw usage_error(fmt::format(
        "--dataset: datagen would write {}{} bytes ({}) but the file system of '{}' has {} bytes "
        "({}) free for this user (statvfs f_bavail); nothing was written. valid: a smaller "
        "--size or --files, or a folder on a file system with room",
        need.at_least ? "at least " : "", need.bytes,
        units::format_bytes_binary(static_cast<double>(need.bytes)), opt.dir.string(), have,
        units::format_bytes_binary(static_cast<double>(have))));
  std::error_code ec;
  fs::create_directories(opt.dir, ec);
  if (ec)
    throw usage_error(
        fmt::format("--dataset: cannot create '{}': {}", opt.dir.string(), ec.message()));
  if (!fs::is_directory(opt.dir, ec))
    throw usage_error(fmt::format("--dataset: '{}' exists and is not a folder", opt.dir.string()));
  return core::folder_lock(opt.dir, "--dataset", "datagen");
}

bool prepare_dataset_folder(const datagen_options& opt) {
  if (check_folder(opt.dir, opt.params))
    return true;
  dataset_layout layout(opt.dir, opt.params);
  // The state file comes first: from here on the folder is ours, and a rerun resumes.
  // A new id each time, so that ranks can tell this generation's state file from a stale one.
  std::random_device rd;
  const nlohmann::json state =
      manifest_json(layout, "generating", fmt::format("{:08x}{:08x}", rd(), rd()));
  write_file_atomic(opt.dir / kStateName, state.dump(2) + "\n", true);
  std::error_code ec;
  for (std::uint64_t d = 0; d * kFilesPerDir < layout.files(); ++d) {
    const fs::path sub = layout.file_path(d * kFilesPerDir).parent_path();
    fs::create_directories(sub, ec);
    if (ec)
      throw run_error(fmt::format("cannot create folder '{}': {}", sub.string(), ec.message()));
  }
  return false;
}

datagen_result write_dataset_share(const datagen_options& opt, unsigned rank, unsigned ranks) {
  datagen_result res;
  const auto t0 = now_s();
  dataset_layout layout(opt.dir, opt.params);
  // This share's files: rank, rank + ranks, ...
  const std::uint64_t share = layout.files() / ranks + (rank < layout.files() % ranks ? 1 : 0);
  std::uint64_t share_bytes = 0;
  for (std::uint64_t i = 0; i < share; ++i)
    share_bytes += layout.file_bytes(rank + i * ranks);
  std::atomic<std::uint64_t> next{0};
  std::atomic<std::uint64_t> bytes_done{0};
  std::atomic<std::uint64_t> written{0}, kept{0};
  const unsigned threads = opt.threads ? opt.threads : sysinfo::online_cpus();
  // The journals of earlier runs are read before the writers start: under the pre-run watch.
  const auto held =
      core::watched_call(opt.dir, core::watched_action{"reading the journals in", "a read of them"},
                         [dir = opt.dir, files = layout.files(), rank] {
                           return std::make_unique<datagen_journal>(dir, files, rank);
                         });
  datagen_journal& journal = *held;
  std::mutex foreign_m;
  std::string foreign; // the first foreign file met, which stops every writer
  std::atomic<bool> stop_all{false};
  auto worker = [&](io::worker_context& io) {
    file_writer w(layout, journal);
    while (!io.halted() && !stop_all.load()) {
      const std::uint64_t i = next.fetch_add(1);
      if (i >= share)
        return;
      const std::uint64_t f = rank + i * ranks;
      try {
        std::string why;
        const file_state at = io.blocking("a check of " + layout.file_path(f).string(),
                                          [&] { return journal.inspect(layout, f, why); });
        if (at == file_state::foreign)
          throw foreign_file(why);
        if (at == file_state::complete) {
          kept.fetch_add(1);
          bytes_done.fetch_add(layout.file_bytes(f));
          continue;
        }
        bytes_done.fetch_add(w.write(f, io));
        written.fetch_add(1);
      } catch (const foreign_file& e) {
        std::lock_guard lk(foreign_m);
        if (foreign.empty())
          foreign = e.what();
        stop_all = true;
        return;
      }
    }
  };
  progress bar(opt.progress);
  const auto ran = io::run_watched(threads, worker, opt.stall_timeout_s, "writer", [&] {
    const double el = now_s() - t0;
    const double done = static_cast<double>(bytes_done.load());
    bar.update(fmt::format("datagen: {} of {}{} ({:.0f} %), {}", units::format_bytes_binary(done),
                           units::format_bytes_binary(static_cast<double>(share_bytes)),
                           ranks > 1 ? fmt::format(" (rank {}'s share)", rank) : "",
                           share_bytes ? 100.0 * done / static_cast<double>(share_bytes) : 100.0,
                           units::format_rate_both(el > 0 ? done / el : 0)));
  });
  bar.finish();
  for (const auto& a : ran.abandoned)
    std::fprintf(stderr, "dlsize: stuck in the kernel: %s\n", a.c_str());
  if (!foreign.empty())
    throw usage_error(foreign_message(opt.dir, foreign));
  if (!ran.stalled.empty())
    throw run_error(fmt::format("datagen stalled: no write finished for {:g} s (--stall-timeout); "
                                "{}; rerun the same command to resume once the storage answers",
                                opt.stall_timeout_s, ran.stalled));
  if (!ran.first_error().empty())
    throw run_error("datagen failed: " + ran.first_error());
  res.files_written = written.load();
  res.files_kept = kept.load();
  res.bytes_written = bytes_done.load();
  res.seconds = now_s() - t0;
  res.interrupted = ran.interrupted || stop_requested();
  return res;
}

std::string generation_of(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir / kStateName, ec))
    return "";
  try {
    return generation_from_json(core::read_json_file(dir / kStateName, core::kManifestJson));
  } catch (const std::exception&) {
    return "";
  }
}

void seal_dataset(const datagen_options& opt) {
  dataset_layout layout(opt.dir, opt.params);
  sync();
  write_file_atomic(opt.dir / kManifestName, manifest_json(layout, "complete").dump(2) + "\n");
  datagen_journal::remove_all(opt.dir);
  std::error_code ec;
  fs::remove(opt.dir / kStateName, ec);
}

datagen_result generate_dataset(const datagen_options& opt) {
  const auto t0 = now_s();
  const core::folder_lock lock = claim_dataset_folder(opt);
  if (prepare_dataset_folder(opt)) {
    datagen_result res;
    res.already_complete = true;
    return res;
  }
  datagen_result res = write_dataset_share(opt, 0, 1);
  res.seconds = now_s() - t0;
  if (!res.interrupted)
    seal_dataset(opt);
  return res;
}

} // namespace dlsize::dataset
