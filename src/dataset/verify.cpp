#include "dataset/verify.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "core/aligned_buffer.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/stop.hpp"
#include "core/sysinfo.hpp"
#include "core/units.hpp"
#include "dataset/layout.hpp"
#include "dataset/record_verifier.hpp"
#include "dataset/verify_run.hpp"
#include "io/watched_workers.hpp"

namespace dlsize::dataset {
namespace {

constexpr std::size_t kChunk = 4u << 20;

// Reads the file in order and feeds the verifier; O_DIRECT where the file system allows it so
// that verification reads the storage, not the page cache. Every call that may block goes
// through io (the watch names it when it hangs).
void check_file(const dataset_layout& layout, std::uint64_t f, std::byte* buf, record_verifier& v,
                std::uint64_t& bytes, io::worker_context& io) {
  const auto path = layout.file_path(f);
  v.reset(layout, f, layout.first_record(f), layout.params().records_per_file);
  const std::string opening = "the open of " + path.string();
  int fd =
      io.blocking(opening, [&] { return open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC); });
  if (fd < 0 && errno == EINVAL)
    fd = io.blocking(opening, [&] { return open(path.c_str(), O_RDONLY | O_CLOEXEC); });
  if (fd < 0) {
    v.fail(fmt::format("cannot open: {}", errno_text(errno)));
    return;
  }
  std::uint64_t off = 0;
  for (;;) {
    const ssize_t n = io.blocking(fmt::format("a read of {} at offset {}", path.string(), off),
                                  [&] { return pread(fd, buf, kChunk, static_cast<off_t>(off)); });
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      v.fail(fmt::format("read failed at offset {}: {}", off, errno_text(errno)));
      break;
    }
    if (n == 0)
      break;
    v.feed(off, buf, static_cast<std::size_t>(n));
    off += static_cast<std::uint64_t>(n);
  }
  close(fd);
  bytes += off;
  const std::uint64_t want = layout.file_bytes(f);
  if (off < want)
    v.fail(fmt::format("truncated: {} bytes, expected {}", off, want));
  else if (off > want)
    v.fail(fmt::format("too long: {} bytes, expected {}", off, want));
}

} // namespace

verify_result verify_layout(const dataset_layout& layout, unsigned threads, bool show,
                            double stall_timeout_s,
                            const std::function<file_checker()>& make_checker,
                            const std::function<std::string(const std::string&)>& name,
                            const char* unit) {
  const auto t0 = now_s();
  verify_result res;
  res.files = layout.files();
  std::atomic<std::uint64_t> next{0}, done_files{0}, done_bytes{0}, checked{0}, bad{0};
  std::mutex mu;
  std::vector<std::pair<std::uint64_t, std::string>> problems;
  if (threads == 0)
    threads = sysinfo::online_cpus();
  auto worker = [&](io::worker_context& io) {
    const file_checker check = make_checker();
    record_verifier v;
    while (!io.halted()) {
      const std::uint64_t f = next.fetch_add(1);
      if (f >= layout.files())
        return;
      done_bytes.fetch_add(check(f, v, io));
      checked.fetch_add(v.checked());
      if (v.mismatches()) {
        bad.fetch_add(v.mismatches());
        const std::string first = name(v.first_error());
        std::lock_guard lk(mu);
        problems.emplace_back(f, v.mismatches() > 1 ? fmt::format("{} (and {} more in this {})",
                                                                  first, v.mismatches() - 1, unit)
                                                    : first);
      }
      done_files.fetch_add(1);
    }
  };
  progress bar(show);
  const auto ran = io::run_watched(threads, worker, stall_timeout_s, "reader", [&] {
    bar.update(fmt::format("verify: {} of {} {}s, {}", done_files.load(), layout.files(), unit,
                           units::format_bytes_binary(static_cast<double>(done_bytes.load()))));
  });
  bar.finish();
  if (!ran.first_error().empty())
    throw run_error("verify failed: " + ran.first_error());
  std::sort(problems.begin(), problems.end());
  for (auto& p : problems)
    res.problems.push_back(std::move(p.second));
  res.records_checked = checked.load();
  res.bad_records = bad.load();
  res.bytes = done_bytes.load();
  res.interrupted = ran.interrupted || stop_requested();
  if (!ran.stalled.empty())
    res.stalled = fmt::format("no read finished for {:g} s (--stall-timeout); {}", stall_timeout_s,
                              ran.stalled);
  res.abandoned = ran.abandoned;
  res.seconds = now_s() - t0;
  return res;
}

verify_result verify_dataset(const std::filesystem::path& dir, unsigned threads, bool show,
                             double stall_timeout_s) {
  const auto t0 = now_s();
  const dataset_layout layout = open_dataset(dir);
  auto make_checker = [&layout]() -> file_checker {
    auto buf = std::make_shared<aligned_buffer>(make_aligned_buffer(kChunk));
    return [&layout, buf](std::uint64_t f, record_verifier& v, io::worker_context& io) {
      std::uint64_t bytes = 0;
      check_file(layout, f, buf->get(), v, bytes, io);
      return bytes;
    };
  };
  verify_result res = verify_layout(
      layout, threads, show, stall_timeout_s, make_checker,
      [](const std::string& problem) { return problem; }, "file");
  res.seconds = now_s() - t0;
  return res;
}

} // namespace dlsize::dataset
