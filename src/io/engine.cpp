#include "io/engine.hpp"

#include <fcntl.h>
#include <time.h>

#include <algorithm>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "core/units.hpp"
#include "io/psync_engine.hpp"
#include "io/uring_engine.hpp"

namespace dlsize::io {

std::uint64_t thread_cpu_ns() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0; // the verdict then sees no CPU: it cannot call the reader CPU-bound
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

reader_clock::reader_clock() : m_wall0(now_ns()), m_cpu0(thread_cpu_ns()) {}

void reader_clock::stop(reader_stats& st) const {
  st.run_ns = now_ns() - m_wall0;
  st.cpu_ns = thread_cpu_ns() - m_cpu0;
  st.busiest_cpu_share =
      st.run_ns ? static_cast<double>(st.cpu_ns) / static_cast<double>(st.run_ns) : 0.0;
}

std::string to_string(cache_mode m) {
  return std::string(core::name_of(m));
}

std::string to_string(job_outcome o) {
  return std::string(core::name_of(o));
}

job_outcome parse_job_outcome(const std::string& text) {
  return core::read_enum<job_outcome>(text, "job outcome");
}

cache_mode parse_cache_mode(const std::string& text) {
  return core::parse_enum<cache_mode>(text, "--cache");
}

int open_flags(cache_mode m) {
  int flags = O_RDONLY | O_CLOEXEC;
  if (m == cache_mode::direct)
    flags |= O_DIRECT;
  return flags;
}

read_span span_of(std::uint64_t offset, std::uint64_t length, std::uint64_t file_size,
                  bool direct) {
  read_span s{offset, std::min(offset + length, file_size)};
  if (direct) {
    s.begin = align_down(s.begin);
    s.end = align_up(s.end);
  }
  s.begin = std::min(s.begin, s.end);
  return s;
}

void check_engine_options(const engine_options& opt) {
  if (opt.engine != "io_uring" && opt.engine != "psync" && opt.engine != "s3")
    throw usage_error(fmt::format(
        "--engine: invalid value '{}'. valid: io_uring, psync, s3 (an s3:// dataset)", opt.engine));
  if (opt.queue_depth < 1 || opt.queue_depth > 4096)
    throw usage_error(
        fmt::format("--queue-depth: {} is out of range. valid: 1 to 4096", opt.queue_depth));
  if (opt.readers < 1 || opt.readers > 256)
    throw usage_error(fmt::format("--readers: {} is out of range. valid: 1 to 256", opt.readers));
  if (opt.request_size < 4096 || opt.request_size % 4096 != 0 || opt.request_size > (64u << 20))
    throw usage_error(fmt::format("--request-size: {} is not valid. valid: a multiple of 4 KiB "
                                  "from 4 KiB to 64 MiB",
                                  opt.request_size));
  // Each io_uring reader registers queue depth buffers of a request each (pinned memory); a
  // psync reader has one.
  // An s3 reader has a curl receive buffer of up to 512 KiB per request in flight.
  const std::uint64_t buffers = opt.engine == "psync" ? 1 : opt.queue_depth;
  const std::uint64_t buffer =
      opt.engine == "s3" ? std::min<std::uint64_t>(opt.request_size, 512u << 10) : opt.request_size;
  const std::uint64_t bytes =
      core::saturating_mul(core::saturating_mul(buffers, buffer), opt.readers);
  core::check_memory_budget(
      bytes,
      opt.engine == "psync"
          ? fmt::format("--request-size {} × --readers {} (one read buffer per reader)",
                        units::format_bytes_binary(opt.request_size), opt.readers)
          : fmt::format("--queue-depth {} × --request-size {} × --readers {} (the readers' "
                        "registered buffers)",
                        opt.queue_depth, units::format_bytes_binary(opt.request_size), opt.readers),
      "a smaller --queue-depth or --request-size, or fewer --readers");
}

std::unique_ptr<engine> make_engine(const engine_options& opt, const file_set& files,
                                    std::string& fallback_reason) {
  check_engine_options(opt);
  if (opt.engine == "s3")
    throw usage_error("--engine s3: reads a dataset in a bucket (--dataset s3://BUCKET/PREFIX), "
                      "not files. valid: io_uring, psync");
  if (opt.engine == "psync")
    return std::make_unique<psync_engine>(opt, files);
  std::string why;
  if (!uring_engine::available(why)) {
    fallback_reason = fmt::format("io_uring unavailable ({}); using psync", why);
    return std::make_unique<psync_engine>(opt, files);
  }
  return std::make_unique<uring_engine>(opt, files);
}

} // namespace dlsize::io
