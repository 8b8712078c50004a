#include "s3/writer.hpp"

#include <algorithm>
#include <cstring>

#include <curl/curl.h>
#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "s3/curl_check.hpp"
#include "s3/easy_setup.hpp"
#include "s3/multi_loop.hpp"
#include "s3/multipart.hpp"
#include "s3/s3_error.hpp"
#include "s3/xml_text.hpp"

namespace dlsize::s3 {

namespace {

constexpr std::size_t kMaxAnswer = 64u << 10; // an answer's body (XML, errors) kept up to this
constexpr long kWritePollMs = 50;
// After a request gave up retrying, how long the aborts of the uploads left may take.
constexpr std::uint64_t kUnansweredGraceNs = 1'000'000'000;

} // namespace

// What a slot's request does in an upload.
enum class request_kind { none, create, part, complete, abort };

namespace {

const char* method_of(request_kind c) {
  return c == request_kind::part ? "PUT" : c == request_kind::abort ? "DELETE" : "POST";
}

} // namespace

// Where one object's upload stands.
struct upload_state {
  enum class stage { waiting, creating, open, completing, done, aborting, closed };
  stage at = stage::waiting;
  std::string upload_id;
  std::vector<completed_part> parts; // by number - 1
  std::uint32_t parts_total = 0, next_part = 0, parts_done = 0, parts_busy = 0;
  std::uint64_t t0 = 0;
};

// One request slot: an easy handle kept for the run (its connection stays in the multi handle's
// cache) and the request it serves.
struct wslot {
  writer::run* owner = nullptr;
  unsigned index = 0;
  CURL* easy = nullptr;
  header_list headers;
  char error[CURL_ERROR_SIZE] = {};
  std::size_t endpoint = 0;
  request_kind what = request_kind::none;
  bool in_flight = false;
  std::size_t object = 0;
  std::uint32_t part = 0;                    // 0-based
  std::uint64_t begin = 0, pos = 0, end = 0; // the part's bytes in the object; the next to send
  std::vector<std::byte> block;              // a block made but not all sent
  std::size_t block_at = 0, block_len = 0;
  std::string post; // a complete's body
  std::string answer, etag;
  long status = 0;
  retry_clock tries;     // of the request it serves
  bool on_board = false; // the request is on the in-flight board (from its first try)
  std::uint64_t start_at = 0, request_t0 = 0;
};

struct writer::run {
  writer& w;
  const std::vector<upload_object>& objects;
  const upload_filler& fill;
  upload_result res;
  xoshiro256 rng;
  multi_loop loop;
  std::vector<wslot> slots;
  std::vector<upload_state> ups;
  std::size_t next_object = 0; // the next object to create
  bool stopping = false;
  std::uint64_t stop_deadline = UINT64_MAX;

  run(writer& wr, const std::vector<upload_object>& objs, const upload_filler& f);
  ~run();
  run(const run&) = delete;
  run& operator=(const run&) = delete;

  void drive(const std::atomic<bool>& stop);
  bool assign(wslot& s);
  bool assign_abort(wslot& s);
  void start(wslot& s, std::uint64_t now);
  void finish(wslot& s, CURLcode rc);
  void answered(wslot& s);
  // A failure s3::classify finds retryable is tried again after a backoff while the policy
  // allows; any other fails its upload at once.
  void retry_or_fail(wslot& s, failure f);
  void give_up(wslot& s, const std::string& cause, const std::string& why);
  void fail(const std::string& reason);
  void begin_stop(std::uint64_t now);
  void release(wslot& s);
  bool busy() const;
  std::string key_of(const wslot& s) const { return objects[s.object].key; }
  // Part bytes handed to curl: progress, for the stall watch and the in-flight board.
  void sent(const wslot& s, std::size_t bytes) {
    if (bytes == 0)
      return;
    w.m_progress.fetch_add(bytes, std::memory_order_relaxed);
    w.m_inflight.touch(0, s.index, now_ns());
  }
};

namespace {

std::size_t answer_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* s = static_cast<wslot*>(user);
  const std::size_t bytes = size * count;
  if (s->answer.size() < kMaxAnswer)
    s->answer.append(data, std::min(bytes, kMaxAnswer - s->answer.size()));
  return bytes;
}

std::size_t answer_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* s = static_cast<wslot*>(user);
  const std::size_t bytes = size * count;
  const std::string_view line = header_line(data, bytes);
  if (status_line(line)) {
    s->etag.clear(); // a 100 Continue's headers are not the answer's
  } else if (header_named(line, "etag:")) {
    s->etag = header_value(line, 5);
  } else {
    keep_server(s->owner->res.xs.server, line);
  }
  return bytes;
}

// A part's body, made block by block as curl asks for it: a whole block goes straight into
// curl's buffer; one that does not fit is made aside and handed on in pieces.
std::size_t part_body(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* s = static_cast<wslot*>(user);
  writer::run& r = *s->owner;
  const std::size_t want = size * count;
  std::size_t given = 0;
  while (given < want && s->pos < s->end) {
    if (s->block_at == s->block_len) {
      const std::size_t len =
          static_cast<std::size_t>(std::min<std::uint64_t>(s->block.size(), s->end - s->pos));
      const std::uint64_t t0 = now_ns();
      try {
        if (want - given >= len) { // the whole block fits: made in curl's buffer
          r.fill(s->object, s->pos, reinterpret_cast<std::byte*>(buffer + given), len);
          r.res.fill_ns += now_ns() - t0;
          given += len;
          s->pos += len;
          continue;
        }
        r.fill(s->object, s->pos, s->block.data(), len);
      } catch (const std::exception& e) {
        s->answer = e.what();
        return CURL_READFUNC_ABORT;
      }
      r.res.fill_ns += now_ns() - t0;
      s->block_at = 0;
      s->block_len = len;
    }
    const std::size_t n = std::min(want - given, s->block_len - s->block_at);
    std::memcpy(buffer + given, s->block.data() + s->block_at, n);
    s->block_at += n;
    given += n;
    s->pos += n;
  }
  r.sent(*s, given);
  return given;
}

} // namespace

writer::run::run(writer& wr, const std::vector<upload_object>& objs, const upload_filler& f)
    : w(wr), objects(objs), fill(f), rng(splitmix64(now_ns())), loop("the S3 writer"),
      ups(objs.size()) {
  const unsigned depth = std::max(1u, w.m_opt.parts_in_flight);
  slots.resize(depth);
  const std::string context = "the S3 writer";
  const long upload_buffer =
      static_cast<long>(std::clamp<std::uint32_t>(w.m_opt.fill_block, 16u << 10, 2u << 20));
  for (unsigned i = 0; i < depth; ++i) {
    wslot& s = slots[i];
    s.owner = this;
    s.index = i;
    s.endpoint = i % w.m_target.endpoints.size();
    s.block.resize(w.m_opt.fill_block);
    s.easy = curl_easy_init();
    if (s.easy == nullptr)
      throw run_error("curl_easy_init failed (out of memory?)");
    set_transfer_options(s.easy, w.m_target.endpoints[s.endpoint], w.m_target.keys, s.error,
                         context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_UPLOAD_BUFFERSIZE, upload_buffer), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_WRITEFUNCTION, answer_body), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_WRITEDATA, &s), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_HEADERFUNCTION, answer_header), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_HEADERDATA, &s), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_READFUNCTION, part_body), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_READDATA, &s), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_PRIVATE, &s), context);
  }
  for (std::size_t i = 0; i < objs.size(); ++i) {
    const std::uint64_t n = (objs[i].size + w.m_opt.part_size - 1) / w.m_opt.part_size;
    ups[i].parts_total = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, n));
    ups[i].parts.resize(ups[i].parts_total);
  }
}

writer::run::~run() {
  for (wslot& s : slots) {
    if (s.easy == nullptr)
      continue;
    if (s.in_flight)
      curl_multi_remove_handle(loop.multi(), s.easy);
    curl_easy_cleanup(s.easy);
  }
}

bool writer::run::busy() const {
  return std::any_of(slots.begin(), slots.end(),
                     [](const wslot& s) { return s.what != request_kind::none; });
}

// The next request for an idle slot: a complete whose parts are all in, a part of an open upload,
// or the next object's create (one create at a time). False when none is due.
bool writer::run::assign(wslot& s) {
  if (stopping)
    return assign_abort(s);
  for (std::size_t i = 0; i < next_object; ++i) {
    upload_state& u = ups[i];
    if (u.at == upload_state::stage::open && u.parts_done == u.parts_total) {
      u.at = upload_state::stage::completing;
      s.what = request_kind::complete;
      s.object = i;
      s.post = complete_multipart_body(u.parts);
      return true;
    }
  }
  for (std::size_t i = 0; i < next_object; ++i) {
    upload_state& u = ups[i];
    if (u.at == upload_state::stage::open && u.next_part < u.parts_total) {
      s.what = request_kind::part;
      s.object = i;
      s.part = u.next_part++;
      ++u.parts_busy;
      s.begin = std::uint64_t{s.part} * w.m_opt.part_size;
      s.end = std::min(objects[i].size, s.begin + w.m_opt.part_size);
      return true;
    }
  }
  const bool creating = next_object > 0 && ups[next_object - 1].at == upload_state::stage::creating;
  const bool parts_left = next_object > 0 && ups[next_object - 1].at == upload_state::stage::open &&
                          ups[next_object - 1].next_part < ups[next_object - 1].parts_total;
  if (next_object < objects.size() && !creating && !parts_left) {
    s.what = request_kind::create;
    s.object = next_object++;
    ups[s.object].at = upload_state::stage::creating;
    ups[s.object].t0 = now_ns();
    return true;
  }
  return false;
}

// After a stop or a failure: an abort of each upload that is open and has no request in flight.
bool writer::run::assign_abort(wslot& s) {
  for (std::size_t i = 0; i < next_object; ++i) {
    upload_state& u = ups[i];
    if (u.at == upload_state::stage::open && u.parts_busy == 0) {
      u.at = upload_state::stage::aborting;
      s.what = request_kind::abort;
      s.object = i;
      return true;
    }
  }
  return false;
}

void writer::run::start(wslot& s, std::uint64_t now) {
  const upload_state& u = ups[s.object];
  std::vector<name_value> query;
  if (s.what == request_kind::create)
    query = {{"uploads", ""}};
  else if (s.what == request_kind::part)
    query = {{"partNumber", std::to_string(s.part + 1)}, {"uploadId", u.upload_id}};
  else
    query = {{"uploadId", u.upload_id}};
  const client_options& o = w.m_target.endpoints[s.endpoint];
  request_spec spec{.method = method_of(s.what),
                    .endpoint = o.endpoint,
                    .bucket = w.m_target.bucket,
                    .key = objects[s.object].key,
                    .query = std::move(query),
                    .style = o.style,
                    .region = o.region};
  if (s.what == request_kind::complete)
    spec.headers.emplace_back("Content-Type", "application/xml");
  if (!w.m_target.keys.session_token.empty())
    spec.headers.emplace_back("x-amz-security-token", w.m_target.keys.session_token);
  const http_request r = build_request(spec);
  s.headers = make_header_list(r);
  const std::string context =
      fmt::format("S3 {} s3://{}/{}", r.method, w.m_target.bucket, objects[s.object].key);
  set_request(s.easy, r, s.headers, context);
  DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_HTTPGET, 1L), context); // clears the last method
  DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_CUSTOMREQUEST, nullptr), context);
  if (s.what == request_kind::part) {
    s.pos = s.begin;
    s.block_at = s.block_len = 0;
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_UPLOAD, 1L), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_INFILESIZE_LARGE,
                                 static_cast<curl_off_t>(s.end - s.begin)),
                context);
  } else if (s.what == request_kind::abort) {
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_CUSTOMREQUEST, "DELETE"), context);
  } else {
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_POST, 1L), context);
    DLSIZE_CURL(curl_easy_setopt(s.easy, CURLOPT_POSTFIELDS, s.post.c_str()), context);
    DLSIZE_CURL(curl_easy_setopt(
                    s.easy, CURLOPT_POSTFIELDSIZE_LARGE,
                    static_cast<curl_off_t>(s.what == request_kind::complete ? s.post.size() : 0)),
                context);
  }
  // A request waits from its first try to its answer, its retries included.
  if (!s.on_board) {
    const bool part = s.what == request_kind::part;
    w.m_inflight.begin(0, s.index, static_cast<std::uint32_t>(s.object), part ? s.begin : 0,
                       part ? s.end - s.begin : 0, now);
    s.on_board = true;
  }
  s.status = 0;
  s.answer.clear();
  s.etag.clear();
  s.error[0] = '\0';
  s.request_t0 = now;
  s.start_at = 0;
  const CURLMcode mc = curl_multi_add_handle(loop.multi(), s.easy);
  if (mc != CURLM_OK)
    throw run_error(
        fmt::format("curl_multi_add_handle failed: {}. {}", curl_multi_strerror(mc), context));
  s.in_flight = true;
}

void writer::run::release(wslot& s) {
  upload_state& u = ups[s.object];
  if (s.what == request_kind::part)
    --u.parts_busy;
  s.what = request_kind::none;
  if (s.on_board)
    w.m_inflight.end(0, s.index);
  s.on_board = false;
}

void writer::run::fail(const std::string& reason) {
  if (res.error.empty())
    res.error = reason;
  begin_stop(now_ns());
}

void writer::run::begin_stop(std::uint64_t now) {
  if (stopping)
    return;
  stopping = true;
  stop_deadline = now + w.m_opt.abort_grace_ns;
  // Parts in flight are abandoned; a create or complete already sent is let finish (its upload
  // then gets its abort, or its object is whole).
  for (wslot& s : slots) {
    if (s.what != request_kind::part && !(s.what != request_kind::none && !s.in_flight))
      continue;
    if (s.in_flight) {
      curl_multi_remove_handle(loop.multi(), s.easy);
      s.in_flight = false;
    }
    if (s.what == request_kind::create)
      ups[s.object].at = upload_state::stage::closed; // never sent: no upload to abort
    else if (s.what == request_kind::complete)
      ups[s.object].at = upload_state::stage::open; // not sent: aborted instead
    release(s);
  }
}

void writer::run::retry_or_fail(wslot& s, failure f) {
  const failure_verdict v = classify(f);
  const std::uint64_t now = now_ns();
  if (v.kind == failure_class::retry && !(stopping && now > stop_deadline)) {
    if (const auto wait = s.tries.next_wait(now, rng.next())) {
      ++res.xs.retries;
      ++res.xs.retries_by_cause[v.cause];
      s.start_at = now + *wait;
      return;
    }
    f.message += "; " + s.tries.spent(now);
    give_up(s, v.cause, failure_text(f));
    // The server did not answer for a whole budget: the aborts get a moment, not another budget.
    stop_deadline = std::min(
        stop_deadline, now + std::min<std::uint64_t>(w.m_opt.abort_grace_ns, kUnansweredGraceNs));
    return;
  }
  give_up(s, v.cause, failure_text(f));
}

void writer::run::give_up(wslot& s, const std::string& cause, const std::string& why) {
  ++res.xs.errors_by_cause[cause];
  ++res.xs.errors;
  upload_state& u = ups[s.object];
  if (s.what == request_kind::abort) {
    u.at = upload_state::stage::closed;
    if (res.abort_error.empty())
      res.abort_error = why;
    release(s);
    return;
  }
  if (s.what == request_kind::create)
    u.at = upload_state::stage::closed;
  else if (s.what == request_kind::complete)
    u.at = upload_state::stage::open; // aborted next
  release(s);
  fail(why);
}

void writer::run::answered(wslot& s) {
  upload_state& u = ups[s.object];
  const std::uint64_t now = now_ns();
  const std::string key = key_of(s);
  switch (s.what) {
  case request_kind::create:
    try {
      u.upload_id = parse_upload_id(s.answer);
    } catch (const std::exception& e) {
      u.at = upload_state::stage::closed;
      release(s);
      fail(fmt::format("S3 POST ?uploads of s3://{}/{}: {}", w.m_target.bucket, key, e.what()));
      return;
    }
    u.at = upload_state::stage::open;
    break;
  case request_kind::part:
    if (s.etag.empty()) {
      release(s);
      fail(fmt::format("S3 PUT part {} of s3://{}/{} was answered without an ETag", s.part + 1,
                       w.m_target.bucket, key));
      return;
    }
    u.parts[s.part] = {static_cast<int>(s.part + 1), s.etag};
    ++u.parts_done;
    ++res.parts;
    res.bytes += s.end - s.begin;
    res.xs.bytes += s.end - s.begin;
    res.part_latency.record(now - s.request_t0);
    break;
  case request_kind::complete:
    // S3 may answer 200 and still fail the completion, in an <Error> body.
    if (xml_element(s.answer, "Error")) {
      u.at = upload_state::stage::open; // aborted next
      release(s);
      fail(failure_text(failure_from_answer("POST", w.m_target.bucket, key,
                                            w.m_target.endpoints[s.endpoint].endpoint, 200,
                                            s.answer)));
      return;
    }
    u.at = upload_state::stage::done;
    ++res.objects;
    res.upload_time.record(now - u.t0);
    break;
  case request_kind::abort:
    u.at = upload_state::stage::closed;
    ++res.aborted;
    break;
  case request_kind::none:
    break;
  }
  release(s);
}

void writer::run::finish(wslot& s, CURLcode rc) {
  const std::uint64_t now = now_ns();
  curl_multi_remove_handle(loop.multi(), s.easy);
  s.in_flight = false;
  long status = 0;
  curl_easy_getinfo(s.easy, CURLINFO_RESPONSE_CODE, &status);
  record_try(res.xs, s.easy, s.request_t0, now);
  const long ok = s.what == request_kind::abort ? 204 : 200;
  if (rc == CURLE_OK && (status == ok || (s.what == request_kind::abort && status == 404))) {
    answered(s); // an abort's 404: the upload is gone already
    return;
  }
  if (rc == CURLE_ABORTED_BY_CALLBACK) { // the filler failed: no try cures it
    give_up(s, "fill",
            fmt::format("making part {} of s3://{}/{} failed: {}", s.part + 1, w.m_target.bucket,
                        key_of(s), s.answer));
    return;
  }
  retry_or_fail(s, try_failure(rc, status, s.error, s.answer, method_of(s.what), w.m_target.bucket,
                               key_of(s), w.m_target.endpoints[s.endpoint].endpoint));
}

void writer::run::drive(const std::atomic<bool>& stop) {
  while (true) {
    std::uint64_t now = now_ns();
    if (!stopping && stop.load(std::memory_order_acquire)) {
      res.interrupted = true;
      begin_stop(now);
    }
    if (stopping && now > stop_deadline)
      break; // a hung server: what is left is named below
    for (wslot& s : slots)
      if (s.what == request_kind::none && assign(s)) {
        s.start_at = now;
        s.tries = retry_clock(w.m_target.retry, now);
      }
    long timeout_ms = kWritePollMs;
    for (wslot& s : slots) {
      if (s.what == request_kind::none || s.in_flight)
        continue;
      if (s.start_at <= now)
        start(s, now);
      else
        timeout_ms = std::min<long>(timeout_ms, static_cast<long>((s.start_at - now) / 1'000'000));
    }
    if (!busy())
      break;
    loop.wait(timeout_ms, now);
    int left = 0;
    while (CURLMsg* m = curl_multi_info_read(loop.multi(), &left)) {
      if (m->msg != CURLMSG_DONE)
        continue;
      wslot* s = nullptr;
      curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &s);
      finish(*s, m->data.result);
    }
  }
  std::string left;
  for (std::size_t i = 0; i < ups.size(); ++i)
    if (!ups[i].upload_id.empty() && ups[i].at != upload_state::stage::done &&
        ups[i].at != upload_state::stage::closed)
      left += fmt::format("{}s3://{}/{} (upload id {})", left.empty() ? "" : ", ",
                          w.m_target.bucket, objects[i].key, ups[i].upload_id);
  if (!left.empty())
    res.abort_error = fmt::format(
        "{}; not aborted: {}",
        res.abort_error.empty() ? "the server did not answer the aborts" : res.abort_error, left);
}

writer::writer(target where, upload_options opt)
    : m_target(std::move(where)), m_opt(opt), m_inflight(1, std::max(1u, opt.parts_in_flight)) {
  check_target(m_target, "PUT", "an S3 checkpoint");
  if (m_opt.fill_block == 0 || m_opt.part_size % m_opt.fill_block != 0)
    throw usage_error(fmt::format("--s3-part-size: {} bytes is not a multiple of the block size "
                                  "({} bytes). valid: a multiple of --request-size",
                                  m_opt.part_size, m_opt.fill_block));
  init_curl();
}

writer::~writer() = default;

upload_result writer::upload(const std::vector<upload_object>& objects, const upload_filler& fill,
                             const std::atomic<bool>& stop) {
  {
    const std::lock_guard lock(m_mutex);
    m_keys.clear();
    for (const auto& o : objects)
      m_keys.push_back(o.key);
  }
  m_progress.store(0, std::memory_order_relaxed);
  const std::uint64_t t0 = now_ns(), cpu0 = thread_cpu_ns();
  run r(*this, objects, fill);
  r.drive(stop);
  upload_result res = std::move(r.res);
  res.run_ns = now_ns() - t0;
  res.cpu_ns = thread_cpu_ns() - cpu0;
  return res;
}

std::string writer::stuck_write(std::uint64_t min_age_ns) const {
  const std::uint64_t now = now_ns();
  const auto r = m_inflight.waited(min_age_ns, now);
  if (!r)
    return "";
  const std::lock_guard lock(m_mutex);
  const std::string name =
      fmt::format("s3://{}/{}", m_target.bucket, r->file < m_keys.size() ? m_keys[r->file] : "?");
  const double waited = static_cast<double>(now - r->since_ns) * 1e-9;
  if (r->length == 0)
    return fmt::format("the writer has waited {:.1f} s for an answer about the upload of {}",
                       waited, name);
  return fmt::format("the writer has waited {:.1f} s for a write of {} at offset {} ({} bytes)",
                     waited, name, r->offset, r->length);
}

} // namespace dlsize::s3
