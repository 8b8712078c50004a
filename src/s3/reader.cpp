#include "s3/reader.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <functional>
#include <utility>
#include <vector>

#include <curl/curl.h>
#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "io/rate_limiter.hpp"
#include "io/reader_pool.hpp"
#include "s3/curl_check.hpp"
#include "s3/easy_setup.hpp"
#include "s3/multi_loop.hpp"
#include "s3/s3_error.hpp"

namespace dlsize::s3 {

namespace {

// An error answer's body is kept for its Code and Message, up to this much.
constexpr std::size_t kMaxErrorBody = 64u << 10;
// How long a reader waits in curl at most before it looks at the stop flag and its source again.
constexpr long kPollMs = 50;

} // namespace

// One request slot of a reader: an easy handle kept for the run (its connection stays in the
// multi handle's cache), the job it serves and where that job has got to.
struct slot {
  reader::reader_thread* owner = nullptr;
  unsigned index = 0;
  CURL* easy = nullptr;
  header_list headers;
  char error[CURL_ERROR_SIZE] = {};
  std::size_t endpoint = 0;

  bool busy = false;      // serves a job
  bool in_flight = false; // its request is in the multi handle
  io::read_job job;
  std::uint64_t pos = 0, end = 0; // the next byte to hand on, the end of the job's range
  std::uint64_t piece_end = 0;    // the end of the request in flight
  std::uint64_t start_at = 0;     // when the next request may go (backoff, rate cap)
  std::uint64_t job_t0 = 0, request_t0 = 0;
  std::uint64_t try_pos = 0;  // pos when the try began: did it move a byte?
  std::uint64_t seen_pos = 0; // pos when the in-flight board last heard of it
  retry_clock tries;          // of the current request
  long status = 0;            // of the answer being received
  long expect = 200;          // 200 for a whole object, 206 for a range
  bool reserved = false;      // its bytes are reserved at the rate cap; it goes at start_at
  bool overlong = false;      // the answer held more than was asked for
  std::string body;           // an error answer's body
  std::exception_ptr consumer_error;
};

struct reader::reader_thread {
  reader& eng;
  unsigned id;
  io::job_source& source;
  io::job_consumer& consumer;
  io::rate_limiter& limiter;
  io::reader_stats& st;
  transfer_stats xs;
  xoshiro256 rng;
  multi_loop loop;
  CURLM* multi;
  std::vector<slot> slots;
  bool source_ended = false;
  bool source_later = false;

  reader_thread(reader& e, unsigned reader_id, io::job_source& src, io::job_consumer& c,
                io::rate_limiter& lim, io::reader_stats& stats);
  ~reader_thread();
  reader_thread(const reader_thread&) = delete;
  reader_thread& operator=(const reader_thread&) = delete;

  void run(const std::function<bool()>& halted);
  void fill_slots(const std::function<bool()>& halted);
  void launch_due(std::uint64_t now);
  void start_request(slot& s, std::uint64_t now);
  void collect_finished();
  void finish(slot& s, CURLcode rc);
  void retry_or_fail(slot& s, failure f);
  void end_job(slot& s, io::job_outcome outcome, const std::string& error);
  void wait_for_curl(std::uint64_t now);
  void abandon_all();
  unsigned busy() const;
  std::string object_name(const slot& s) const;
};

namespace {

std::size_t slot_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* s = static_cast<slot*>(user);
  const std::size_t bytes = size * count;
  if (s->status == 0)
    curl_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &s->status);
  if (s->status != s->expect) {
    if (s->body.size() < kMaxErrorBody)
      s->body.append(data, std::min(bytes, kMaxErrorBody - s->body.size()));
    return bytes;
  }
  if (s->pos == s->try_pos) {
    // An answer that says it holds more than was asked for is refused before any byte of it is
    // handed on: the retry then asks again from the same byte.
    curl_off_t length = -1;
    curl_easy_getinfo(s->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    if (length > 0 && static_cast<std::uint64_t>(length) > s->piece_end - s->pos)
      s->overlong = true;
  }
  if (s->overlong || bytes > s->piece_end - s->pos) {
    s->overlong = true;
    return 0; // ends the transfer (CURLE_WRITE_ERROR)
  }
  try {
    s->owner->consumer.on_data(s->owner->id, s->job, s->pos,
                               reinterpret_cast<const std::byte*>(data), bytes);
  } catch (...) {
    s->consumer_error = std::current_exception();
    return 0;
  }
  s->pos += bytes;
  s->owner->st.bytes += bytes;
  s->owner->xs.bytes += bytes;
  return bytes;
}

std::size_t slot_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* s = static_cast<slot*>(user);
  const std::size_t bytes = size * count;
  const std::string_view line = header_line(data, bytes);
  if (status_line(line))
    s->status = 0; // a 100 Continue's status is not the answer's
  else
    keep_server(s->owner->xs.server, line);
  return bytes;
}

} // namespace

reader::reader_thread::reader_thread(reader& e, unsigned reader_id, io::job_source& src,
                                     io::job_consumer& c, io::rate_limiter& lim,
                                     io::reader_stats& stats)
    : eng(e), id(reader_id), source(src), consumer(c), limiter(lim), st(stats),
      rng(splitmix64(now_ns() ^ reader_id)), loop(fmt::format("the S3 reader {}", reader_id)),
      multi(loop.multi()) {
  const unsigned depth = std::max(1u, e.m_opt.queue_depth);
  slots.resize(depth);
  const std::string context = fmt::format("the S3 reader {}", id);
  // A receive buffer of up to 512 KiB: fewer, larger hand-offs to the consumer.
  const long buffer = static_cast<long>(
      std::clamp<std::uint32_t>(e.m_opt.request_size, CURL_MAX_WRITE_SIZE, 512u << 10));
  for (unsigned i = 0; i < depth; ++i) {
    slot& s = slots[i];
    s.owner = this;
    s.index = i;
    s.endpoint = (static_cast<std::size_t>(id) * depth + i) % e.m_target.endpoints.size();
    s.easy = curl_easy_init();
    if (s.easy == nullptr)
      throw run_error("curl_easy_init failed (out of memory?)");
    const client_options& o = e.m_target.endpoints[s.endpoint];
    set_transfer_options(s.easy, o, e.m_target.keys, s.error, context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_BUFFERSIZE, buffer), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_WRITEFUNCTION, slot_body), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_WRITEDATA, &s), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_HEADERFUNCTION, slot_header), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_HEADERDATA, &s), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_PRIVATE, &s), context);
  }
}

reader::reader_thread::~reader_thread() {
  for (slot& s : slots) {
    if (s.easy != nullptr) {
      if (s.in_flight)
        curl_multi_remove_handle(multi, s.easy);
      curl_easy_cleanup(s.easy);
    }
  }
}

unsigned reader::reader_thread::busy() const {
  return static_cast<unsigned>(
      std::count_if(slots.begin(), slots.end(), [](const slot& s) { return s.busy; }));
}

std::string reader::reader_thread::object_name(const slot& s) const {
  return fmt::format("s3://{}/{}", eng.m_target.bucket, eng.m_files.paths[s.job.file]);
}

void reader::reader_thread::fill_slots(const std::function<bool()>& halted) {
  source_later = false;
  for (slot& s : slots) {
    if (s.busy)
      continue;
    if (source_ended || halted())
      return;
    io::read_job job;
    const io::pull_result pr = source.pull(id, job);
    if (pr == io::pull_result::end) {
      source_ended = true;
      return;
    }
    if (pr == io::pull_result::later) {
      source_later = true;
      return;
    }
    s.job = job;
    s.job_t0 = now_ns();
    consumer.on_start(id, job);
    const io::read_span span =
        io::span_of(job.offset, job.length, eng.m_files.sizes[job.file], false);
    s.pos = span.begin;
    s.end = span.end;
    s.busy = true;
    s.tries = retry_clock(eng.m_target.retry, s.job_t0);
    s.start_at = s.job_t0;
    // The job waits from now until its last byte, tries and backoffs included.
    eng.m_inflight.begin(id, s.index, s.job.file, s.pos, s.end - s.pos, s.job_t0);
    if (s.pos >= s.end)
      end_job(s, io::job_outcome::done, "");
  }
}

void reader::reader_thread::start_request(slot& s, std::uint64_t now) {
  // Under a rate cap a job goes as requests of what about 20 ms of the rate allows (so that a
  // stop never waits out a long reservation); otherwise as one request.
  const std::uint64_t piece =
      limiter.active() ? limiter.chunk(eng.m_opt.request_size) : s.end - s.pos;
  s.piece_end = std::min(s.end, s.pos + piece);
  if (limiter.active() && !s.reserved) {
    s.reserved = true;
    const std::uint64_t at = limiter.reserve(s.piece_end - s.pos, now);
    if (at > now) {
      s.start_at = at;
      return;
    }
  }
  s.reserved = false;
  const bool whole = s.pos == 0 && s.piece_end == eng.m_files.sizes[s.job.file];
  request_spec spec{.method = "GET",
                    .endpoint = eng.m_target.endpoints[s.endpoint].endpoint,
                    .bucket = eng.m_target.bucket,
                    .key = eng.m_files.paths[s.job.file],
                    .style = eng.m_target.endpoints[s.endpoint].style,
                    .region = eng.m_target.endpoints[s.endpoint].region,
                    .range_begin = whole ? 0 : s.pos,
                    .range_end = whole ? 0 : s.piece_end};
  if (!eng.m_target.keys.session_token.empty())
    spec.headers.emplace_back("x-amz-security-token", eng.m_target.keys.session_token);
  const http_request r = build_request(spec);
  s.headers = make_header_list(r);
  const std::string context = fmt::format("S3 GET {}", object_name(s));
  set_request(s.easy, r, s.headers, context);
  s.status = 0;
  s.expect = whole ? 200 : 206;
  s.overlong = false;
  s.body.clear();
  s.error[0] = '\0';
  s.request_t0 = now;
  s.try_pos = s.seen_pos = s.pos;
  s.start_at = 0;
  const CURLMcode mc = curl_multi_add_handle(multi, s.easy);
  if (mc != CURLM_OK)
    throw run_error(
        fmt::format("curl_multi_add_handle failed: {}. {}", curl_multi_strerror(mc), context));
  s.in_flight = true;
}

void reader::reader_thread::launch_due(std::uint64_t now) {
  for (slot& s : slots)
    if (s.busy && !s.in_flight && s.start_at <= now)
      start_request(s, now);
}

void reader::reader_thread::end_job(slot& s, io::job_outcome outcome, const std::string& error) {
  s.busy = false;
  eng.m_inflight.end(id, s.index);
  ++st.jobs;
  const std::uint64_t bytes =
      s.pos - io::span_of(s.job.offset, s.job.length, eng.m_files.sizes[s.job.file], false).begin;
  if (outcome == io::job_outcome::failed) {
    ++xs.errors;
    if (st.errors++ == 0)
      st.first_error = error;
  }
  consumer.on_done(id, s.job, bytes, now_ns() - s.job_t0, outcome, error);
}

void reader::reader_thread::retry_or_fail(slot& s, failure f) {
  const failure_verdict v = classify(f);
  const std::uint64_t now = now_ns();
  if (v.kind == failure_class::retry) {
    const std::uint64_t failing = eng.failing_for(failure_text(f), s.request_t0, now);
    if (failing >= eng.m_target.retry.budget_ns)
      throw run_error(
          fmt::format("no byte came from s3://{} for {:.1f} s while every request failed "
                      "(--s3-retry-budget {:g}s); the last failure: {}",
                      eng.m_target.bucket, static_cast<double>(failing) * 1e-9,
                      static_cast<double>(eng.m_target.retry.budget_ns) * 1e-9, failure_text(f)));
    if (const auto wait = s.tries.next_wait(now, rng.next())) {
      ++st.retries;
      ++xs.retries;
      ++xs.retries_by_cause[v.cause];
      // The next request resumes after the bytes already handed on.
      s.start_at = now + *wait;
      return;
    }
    f.message += "; " + s.tries.spent(now);
  }
  ++xs.errors_by_cause[v.cause];
  end_job(s, io::job_outcome::failed, failure_text(f));
}

void reader::reader_thread::finish(slot& s, CURLcode rc) {
  const std::uint64_t now = now_ns();
  curl_multi_remove_handle(multi, s.easy);
  s.in_flight = false;
  if (s.consumer_error)
    std::rethrow_exception(std::exchange(s.consumer_error, nullptr));
  long status = 0;
  curl_easy_getinfo(s.easy, CURLINFO_RESPONSE_CODE, &status);
  ++st.requests;
  st.read_latency.record(now - s.request_t0);
  record_try(xs, s.easy, s.request_t0, now);
  if (s.pos > s.try_pos) {
    eng.moved(now);
    s.tries = retry_clock(eng.m_target.retry, now); // bytes came: the server answers
  }
  if (rc == CURLE_OK && status == s.expect) {
    if (s.pos < s.piece_end) { // an answer shorter than its Content-Length says is "cut"
      failure f{"GET",
                eng.m_target.bucket,
                eng.m_files.paths[s.job.file],
                eng.m_target.endpoints[s.endpoint].endpoint,
                status,
                "",
                "",
                "",
                ""};
      f.message = fmt::format("the answer ended at byte {}, expected {} (is the object smaller "
                              "than the dataset says?)",
                              s.pos, s.piece_end);
      ++xs.errors_by_cause["short"];
      end_job(s, io::job_outcome::failed, failure_text(f));
    } else if (s.pos >= s.end) {
      end_job(s, io::job_outcome::done, "");
    } else {
      s.start_at = now; // the next piece (rate cap)
    }
    return;
  }
  failure f =
      try_failure(rc, status, s.error, s.body, "GET", eng.m_target.bucket,
                  eng.m_files.paths[s.job.file], eng.m_target.endpoints[s.endpoint].endpoint);
  if (s.overlong) {
    f.transport = "long";
    f.message = fmt::format("the answer holds more than the {} bytes asked for from byte {}",
                            s.piece_end - s.try_pos, s.try_pos);
  }
  if (s.pos > 0)
    f.message += fmt::format(" (at byte {} of the object)", s.pos);
  retry_or_fail(s, std::move(f));
}

void reader::reader_thread::collect_finished() {
  int left = 0;
  while (CURLMsg* m = curl_multi_info_read(multi, &left)) {
    if (m->msg != CURLMSG_DONE)
      continue;
    slot* s = nullptr;
    curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &s);
    finish(*s, m->data.result);
  }
}

void reader::reader_thread::wait_for_curl(std::uint64_t now) {
  const unsigned in_flight = static_cast<unsigned>(
      std::count_if(slots.begin(), slots.end(), [](const slot& s) { return s.in_flight; }));
  long timeout_ms = source_later ? 5 : kPollMs;
  for (const slot& s : slots)
    if (s.busy && !s.in_flight)
      timeout_ms = std::min<long>(
          timeout_ms, static_cast<long>((s.start_at - std::min(s.start_at, now)) / 1'000'000));
  const std::uint64_t moved_before = xs.bytes;
  loop.wait(timeout_ms, now);
  const std::uint64_t after = now_ns();
  if (xs.bytes != moved_before) {
    eng.moved(after);
    for (slot& s : slots)
      if (s.busy && s.pos != s.seen_pos) {
        s.seen_pos = s.pos;
        eng.m_inflight.touch(id, s.index, after);
      }
  }
  if (in_flight == 0)
    return;
  const std::uint64_t waited = after - now;
  st.completion_wait_ns += waited;
  st.in_flight_ns += static_cast<double>(waited) * in_flight;
  if (in_flight == slots.size())
    st.queue_full_ns += waited;
}

void reader::reader_thread::abandon_all() {
  for (slot& s : slots) {
    if (!s.busy)
      continue;
    if (s.in_flight) {
      curl_multi_remove_handle(multi, s.easy);
      s.in_flight = false;
    }
    end_job(s, io::job_outcome::interrupted, "");
  }
}

void reader::reader_thread::run(const std::function<bool()>& halted) {
  while (true) {
    if (halted()) {
      abandon_all();
      return;
    }
    fill_slots(halted);
    launch_due(now_ns());
    if (busy() == 0) {
      if (source_ended)
        return;
      if (!halted())
        source.wait(id, 50'000'000);
      continue;
    }
    wait_for_curl(now_ns());
    collect_finished();
  }
}

reader::reader(const io::engine_options& opt, const io::file_set& files, target where)
    : m_opt(opt), m_files(files), m_target(std::move(where)),
      m_inflight(opt.readers, std::max(1u, opt.queue_depth)) {
  check_target(m_target, "GET", "an S3 dataset");
  init_curl();
}

reader::~reader() = default;

std::uint64_t reader::failing_for(const std::string& failure, std::uint64_t try_t0,
                                  std::uint64_t now) {
  {
    const std::lock_guard lock(m_mutex);
    m_last_error = failure;
  }
  const std::uint64_t from = std::max(try_t0, m_last_byte_ns.load(std::memory_order_relaxed));
  std::uint64_t since = 0;
  if (m_failing_since.compare_exchange_strong(since, from, std::memory_order_relaxed))
    since = from;
  return now - std::min(now, since);
}

io::engine_result reader::run(io::job_source& source, io::job_consumer& consumer,
                              const std::atomic<bool>& stop) {
  io::engine_result res;
  res.readers.resize(m_opt.readers);
  {
    const std::lock_guard lock(m_mutex);
    m_stats = {};
    m_last_error.clear();
  }
  m_failing_since.store(0);
  m_last_byte_ns.store(0);
  io::rate_limiter limiter(m_opt.max_read_rate);
  io::reader_pool pool;
  const std::function<bool()> halted = [&] {
    return stop.load(std::memory_order_acquire) || pool.failed().load(std::memory_order_acquire);
  };
  auto body = [&](unsigned id, io::reader_guard&) {
    io::reader_stats& st = res.readers[id];
    const io::reader_clock clock;
    reader_thread r(*this, id, source, consumer, limiter, st);
    try {
      r.run(halted);
    } catch (...) {
      clock.stop(st);
      const std::lock_guard lock(m_mutex);
      m_stats.merge(r.xs);
      throw;
    }
    clock.stop(st);
    const std::lock_guard lock(m_mutex);
    m_stats.merge(r.xs);
  };
  const io::pool_result pr = pool.run(m_opt.readers, body, stop);
  for (std::size_t i = 0; i < pr.errors.size(); ++i)
    if (!pr.errors[i].empty() && res.error.empty())
      res.error = fmt::format("s3 reader {} failed: {}", i, pr.errors[i]);
  return res;
}

std::string reader::stuck_read(std::uint64_t min_age_ns) const {
  const std::uint64_t now = now_ns();
  const auto r = m_inflight.waited(min_age_ns, now);
  if (!r)
    return "";
  std::string text =
      io::describe(*r, fmt::format("s3://{}/{}", m_target.bucket, m_files.paths.at(r->file)), now);
  const std::lock_guard lock(m_mutex);
  if (m_failing_since.load(std::memory_order_relaxed) != 0 && !m_last_error.empty())
    text += "; requests are failing, the last: " + m_last_error;
  return text;
}

transfer_stats reader::stats() const {
  const std::lock_guard lock(m_mutex);
  return m_stats;
}

} // namespace dlsize::s3
