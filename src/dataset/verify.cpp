#include "dataset/verify.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

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

namespace dlsize::dataset {
namespace {

constexpr std::size_t kChunk = 4u << 20;

// Reads the file in order and feeds the verifier; O_DIRECT where the file system allows it so
// that verification reads the storage, not the page cache.
void check_file(const dataset_layout& layout, std::uint64_t f, std::byte* buf, record_verifier& v,
                std::uint64_t& bytes) {
  const auto path = layout.file_path(f);
  v.reset(layout, f, layout.first_record(f), layout.params().records_per_file);
  int fd = open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
  if (fd < 0 && errno == EINVAL)
    fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    v.fail(fmt::format("cannot open: {}", errno_text(errno)));
    return;
  }
  std::uint64_t off = 0;
  for (;;) {
    ssize_t n = pread(fd, buf, kChunk, static_cast<off_t>(off));
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

verify_result verify_dataset(const std::filesystem::path& dir, unsigned threads, bool show) {
  const auto t0 = now_s();
  dataset_layout layout = open_dataset(dir);
  verify_result res;
  res.files = layout.files();
  std::atomic<std::uint64_t> next{0}, done_files{0}, done_bytes{0}, checked{0}, bad{0};
  std::mutex mu;
  std::vector<std::pair<std::uint64_t, std::string>> problems;
  if (threads == 0)
    threads = sysinfo::online_cpus();
  auto worker = [&] {
    aligned_buffer buf = make_aligned_buffer(kChunk);
    record_verifier v;
    for (;;) {
      if (stop_requested())
        return;
      const std::uint64_t f = next.fetch_add(1);
      if (f >= layout.files())
        return;
      std::uint64_t bytes = 0;
      check_file(layout, f, buf.get(), v, bytes);
      done_bytes.fetch_add(bytes);
      checked.fetch_add(v.checked());
      if (v.mismatches()) {
        bad.fetch_add(v.mismatches());
        std::lock_guard lk(mu);
        problems.emplace_back(f, v.mismatches() > 1
                                     ? fmt::format("{} (and {} more in this file)", v.first_error(),
                                                   v.mismatches() - 1)
                                     : v.first_error());
      }
      done_files.fetch_add(1);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned i = 0; i < threads; ++i)
    pool.emplace_back(worker);
  progress bar(show);
  while (done_files.load() < layout.files() && !stop_requested()) {
    bar.update(fmt::format("verify: {} of {} files, {}", done_files.load(), layout.files(),
                           units::format_bytes_binary(static_cast<double>(done_bytes.load()))));
    usleep(100'000);
  }
  for (auto& t : pool)
    t.join();
  bar.finish();
  std::sort(problems.begin(), problems.end());
  for (auto& p : problems)
    res.problems.push_back(std::move(p.second));
  res.records_checked = checked.load();
  res.bad_records = bad.load();
  res.bytes = done_bytes.load();
  res.interrupted = stop_requested();
  res.seconds = now_s() - t0;
  return res;
}

} // namespace dlsize::dataset
