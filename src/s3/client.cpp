#include "s3/client.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>

#include <curl/curl.h>
#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/rng.hpp"
#include "s3/curl_check.hpp"
#include "s3/easy_setup.hpp"
#include "s3/s3_error.hpp"
#include "s3/xml_text.hpp"

namespace dlsize::s3 {

// What one request sends and where its body goes.
struct client::call {
  std::string_view method = {};
  std::string_view bucket = {};
  std::string_view key = {};
  std::vector<name_value> query = {};
  std::vector<name_value> headers = {};
  std::uint64_t range_begin = 0; // [begin, end): a Range; end 0: the whole object
  std::uint64_t range_end = 0;
  std::span<const std::byte> upload = {}; // PUT's body
  std::string_view post_body = {};        // POST's body
  std::span<std::byte> into = {};         // the body of a `body_status` answer; else into `text`
  long body_status = 200;
  long ok = 200; // the statuses that are not failures
  long ok_too = 200;
};

struct client::answer {
  long status = 0;
  std::size_t body_bytes = 0; // into `into`
  std::string text;           // any other body (listings, XML answers, errors)
  std::string etag;
  std::int64_t content_length = -1;
};

// The state one try's callbacks share.
struct client::exchange {
  CURL* easy;
  std::span<std::byte> into; // what is left of the caller's buffer
  long body_status;
  std::span<const std::byte> upload;
  const std::atomic<bool>* stop;
  std::size_t uploaded = 0;
  std::size_t received = 0;
  bool overflow = false;
  std::string text;
  std::string etag;
};

namespace {

// A body kept as text: listings of 1000 keys are a few hundred KiB; errors are short.
constexpr std::size_t max_text_bytes = 64u << 20;

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* x = static_cast<client::exchange*>(user);
  const std::size_t bytes = size * count;
  long status = 0;
  curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
  if (status == x->body_status && x->into.data() != nullptr) {
    curl_off_t length = -1;
    if (x->received == 0)
      curl_easy_getinfo(x->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    // An answer that says it holds more than fits is refused before a byte of it is kept.
    if (bytes > x->into.size() - x->received ||
        (length > 0 && static_cast<std::uint64_t>(length) > x->into.size())) {
      x->overflow = true;
      return 0; // ends the transfer with CURLE_WRITE_ERROR
    }
    std::memcpy(x->into.data() + x->received, data, bytes);
    x->received += bytes;
    return bytes;
  }
  if (x->text.size() + bytes > max_text_bytes) {
    x->overflow = true;
    return 0;
  }
  x->text.append(data, bytes);
  return bytes;
}

std::size_t on_upload(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* x = static_cast<client::exchange*>(user);
  const std::size_t n = std::min(size * count, x->upload.size() - x->uploaded);
  if (n == 0)
    return 0;
  std::memcpy(buffer, x->upload.data() + x->uploaded, n);
  x->uploaded += n;
  return n;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* x = static_cast<client::exchange*>(user);
  const std::size_t bytes = size * count;
  std::string_view line = header_line(data, bytes);
  if (status_line(line)) {
    x->etag.clear(); // a 100 Continue's headers are not the answer's
  } else if (line.size() > 5 && header_named(line, "etag:")) {
    x->etag = header_value(line, 5);
  }
  return bytes;
}

// Ends a transfer once the stop flag is set (CURLE_ABORTED_BY_CALLBACK).
int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto* x = static_cast<client::exchange*>(user);
  return x->stop != nullptr && x->stop->load(std::memory_order_relaxed) ? 1 : 0;
}

void replace_all(std::string& text, const std::string& what, std::string_view with) {
  if (what.empty())
    return;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at))
    text.replace(at, what.size(), with), at += with.size();
}

} // namespace

client::client(client_options options, credentials keys)
    : m_options(std::move(options)), m_keys(std::move(keys)),
      m_random(splitmix64(now_ns() ^ reinterpret_cast<std::uintptr_t>(this))) {
  // Checks the endpoint, region and addressing now rather than at the first request.
  build_request({.method = "GET",
                 .endpoint = m_options.endpoint,
                 .bucket = "bucket",
                 .style = m_options.style,
                 .region = m_options.region});
  init_curl();
  m_easy = curl_easy_init();
  if (m_easy == nullptr)
    throw run_error("curl_easy_init failed (out of memory?)");
}

client::~client() {
  add_client_figures(m_stats);
  curl_easy_cleanup(static_cast<CURL*>(m_easy));
}

namespace {

// The method's own options on a reset handle: HEAD has no body, PUT and POST send one.
void set_method(CURL* easy, const http_request& r, client::exchange& x, std::string_view post,
                const std::string& context) {
  if (r.method == "HEAD") {
    DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_NOBODY, 1L), context);
  } else if (r.method == "PUT") {
    DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_UPLOAD, 1L), context);
    DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_READFUNCTION, on_upload), context);
    DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_READDATA, &x), context);
    DLSIZE_CURL(
        curl_easy_setopt(easy, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(x.upload.size())),
        context);
  } else if (r.method == "POST") {
    DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_POST, 1L), context);
    DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_POSTFIELDS, post.data()), context);
    DLSIZE_CURL(
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(post.size())),
        context);
  } else if (r.method != "GET") {
    DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, r.method.c_str()), context);
  }
}

} // namespace

client::answer client::try_once(const call& c, std::size_t have, std::optional<failure>& failed) {
  request_spec spec{.method = c.method,
                    .endpoint = m_options.endpoint,
                    .bucket = c.bucket,
                    .key = c.key,
                    .query = c.query,
                    .style = m_options.style,
                    .region = m_options.region,
                    .headers = c.headers,
                    .range_begin = c.range_begin,
                    .range_end = c.range_end};
  if (!m_keys.session_token.empty())
    spec.headers.emplace_back("x-amz-security-token", m_keys.session_token);
  const http_request r = build_request(spec);
  const header_list headers = make_header_list(r);
  CURL* easy = static_cast<CURL*>(m_easy);
  // reset keeps the connection cache: the next request to the endpoint reuses the connection.
  curl_easy_reset(easy);
  const std::span<std::byte> rest =
      c.into.data() != nullptr ? c.into.subspan(have) : std::span<std::byte>{};
  exchange x{easy, rest, c.body_status, c.upload, m_stop, 0, 0, false, {}, {}};
  char curl_error[CURL_ERROR_SIZE] = {};
  const std::string context = fmt::format("S3 {} bucket: {}; key: {}", c.method, c.bucket, c.key);
  set_request(easy, r, headers, context);
  set_connection_options(easy, m_options, m_keys, r.url.substr(0, r.url.find(':')), curl_error,
                         context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_WRITEDATA, &x), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_HEADERDATA, &x), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, on_progress), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_XFERINFODATA, &x), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L), context);
  set_method(easy, r, x, c.post_body, context);

  const std::uint64_t t0 = now_ns();
  const CURLcode rc = curl_easy_perform(easy);
  answer a;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &a.status);
  record_try(m_stats, easy, t0, now_ns());
  curl_off_t length = -1;
  curl_easy_getinfo(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
  a.content_length = length;
  a.body_bytes = x.received;
  if (rc != CURLE_OK) {
    failure f =
        try_failure(rc, a.status, curl_error, "", c.method, c.bucket, c.key, m_options.endpoint);
    if (rc == CURLE_ABORTED_BY_CALLBACK)
      f.message = "stopped: the command is ending";
    if (x.overflow && x.into.data() != nullptr && a.status == c.body_status) {
      // More than a range asked for is the server's fault, and another try may cure it; a
      // whole object larger than the buffer is the caller's.
      f.message =
          c.range_end > 0
              ? fmt::format("the body is larger than the {} bytes asked for", x.into.size())
              : fmt::format("the body is larger than the buffer of {} bytes", x.into.size());
      f.transport = c.range_end > 0 ? "long" : "";
    } else if (x.overflow) {
      f.message = fmt::format("the answer is larger than {} bytes", max_text_bytes);
    }
    failed = std::move(f);
    return a;
  }
  if (a.status != c.ok && a.status != c.ok_too) {
    failed = failure_from_answer(c.method, c.bucket, c.key, m_options.endpoint, a.status, x.text);
    return a;
  }
  a.text = std::move(x.text);
  a.etag = std::move(x.etag);
  return a;
}

client::answer client::perform(const call& c) {
  retry_clock clock(m_options.retry, now_ns());
  call next = c;
  std::size_t have = 0; // body bytes already in c.into (a GET resumed after a cut)
  const auto stopped = [this] { return m_stop != nullptr && m_stop->load(); };
  for (;;) {
    std::optional<failure> failed;
    answer a = try_once(next, have, failed);
    if (!failed) {
      m_stats.bytes += a.body_bytes;
      a.body_bytes += have;
      return a;
    }
    failure& f = *failed;
    // A server could echo what it was sent; the secret must not reach a message.
    replace_all(f.message, m_keys.secret_key, "<secret>");
    replace_all(f.code, m_keys.secret_key, "<secret>");
    // A GET whose body came in part goes on from the first byte it lacks.
    const std::uint64_t end = next.range_end > 0 ? next.range_end
                              : a.content_length > 0
                                  ? next.range_begin + static_cast<std::uint64_t>(a.content_length)
                                  : 0;
    const bool resumed =
        c.into.data() != nullptr && a.status == next.body_status && a.body_bytes > 0 && end > 0;
    m_stats.bytes += resumed ? a.body_bytes : 0;
    if (resumed && next.range_begin + a.body_bytes >= end) { // every byte asked came
      a.body_bytes += have;
      return a;
    }
    const failure_verdict v = classify(f);
    const std::uint64_t now = now_ns();
    m_random = splitmix64(m_random);
    const auto wait = v.kind == failure_class::retry && !stopped() ? clock.next_wait(now, m_random)
                                                                   : std::nullopt;
    if (!wait) {
      ++m_stats.errors;
      ++m_stats.errors_by_cause[v.cause];
      if (v.kind == failure_class::retry)
        f.message += "; " + (stopped() ? std::string("stopped") : clock.spent(now));
      throw_failure(std::move(f));
    }
    ++m_stats.retries;
    ++m_stats.retries_by_cause[v.cause];
    if (resumed) {
      have += a.body_bytes;
      next.range_begin = c.range_begin + have;
      next.range_end = end;
      next.body_status = next.ok = next.ok_too = 206;
    }
    sleep_until_ns_or(now + *wait, stopped);
  }
}

void client::create_bucket(std::string_view bucket) {
  perform({.method = "PUT", .bucket = bucket});
}

void client::delete_bucket(std::string_view bucket) {
  perform({.method = "DELETE", .bucket = bucket, .ok = 204});
}

void client::put_object(std::string_view bucket, std::string_view key,
                        std::span<const std::byte> body) {
  perform({.method = "PUT", .bucket = bucket, .key = key, .upload = body});
}

std::size_t client::get_object(std::string_view bucket, std::string_view key,
                               std::span<std::byte> into) {
  return perform({.method = "GET", .bucket = bucket, .key = key, .into = into}).body_bytes;
}

std::size_t client::get_range(std::string_view bucket, std::string_view key, std::uint64_t offset,
                              std::span<std::byte> into) {
  if (into.empty())
    throw usage_error(fmt::format("an S3 range read of 0 bytes. bucket: {}; key: {}", bucket, key));
  return perform({.method = "GET",
                  .bucket = bucket,
                  .key = key,
                  .range_begin = offset,
                  .range_end = offset + into.size(),
                  .into = into,
                  .body_status = 206,
                  .ok = 206,
                  .ok_too = 206})
      .body_bytes;
}

std::optional<object_info> client::head_object(std::string_view bucket, std::string_view key) {
  const answer a =
      perform({.method = "HEAD", .bucket = bucket, .key = key, .ok = 200, .ok_too = 404});
  if (a.status == 404)
    return std::nullopt;
  if (a.content_length < 0)
    throw_failure({"HEAD", std::string(bucket), std::string(key), m_options.endpoint, a.status, "",
                   "the answer has no Content-Length"});
  return object_info{static_cast<std::uint64_t>(a.content_length), a.etag};
}

void client::delete_object(std::string_view bucket, std::string_view key) {
  perform({.method = "DELETE", .bucket = bucket, .key = key, .ok = 204});
}

list_page client::list_objects(std::string_view bucket, std::string_view prefix,
                               std::string_view token, int max_keys, std::string_view delimiter) {
  std::vector<name_value> query = {{"list-type", "2"}, {"max-keys", std::to_string(max_keys)}};
  if (!prefix.empty())
    query.emplace_back("prefix", prefix);
  if (!token.empty())
    query.emplace_back("continuation-token", token);
  if (!delimiter.empty())
    query.emplace_back("delimiter", delimiter);
  return parse_list_page(perform({.method = "GET", .bucket = bucket, .query = query}).text);
}

std::string client::create_multipart_upload(std::string_view bucket, std::string_view key) {
  return parse_upload_id(
      perform({.method = "POST", .bucket = bucket, .key = key, .query = {{"uploads", ""}}}).text);
}

std::string client::upload_part(std::string_view bucket, std::string_view key,
                                std::string_view upload_id, int part_number,
                                std::span<const std::byte> body) {
  answer a = perform(
      {.method = "PUT",
       .bucket = bucket,
       .key = key,
       .query = {{"partNumber", std::to_string(part_number)}, {"uploadId", std::string(upload_id)}},
       .upload = body});
  if (a.etag.empty())
    throw_failure({"PUT", std::string(bucket), std::string(key), m_options.endpoint, a.status, "",
                   fmt::format("UploadPart {} answered without an ETag", part_number)});
  return a.etag;
}

void client::complete_multipart_upload(std::string_view bucket, std::string_view key,
                                       std::string_view upload_id,
                                       const std::vector<completed_part>& parts) {
  const std::string body = complete_multipart_body(parts);
  const answer a = perform({.method = "POST",
                            .bucket = bucket,
                            .key = key,
                            .query = {{"uploadId", std::string(upload_id)}},
                            .headers = {{"Content-Type", "application/xml"}},
                            .post_body = body});
  // S3 may answer 200 and still fail the completion, in an <Error> body.
  if (xml_element(a.text, "Error"))
    throw_failure(failure_from_answer("POST", bucket, key, m_options.endpoint, a.status, a.text));
}

void client::abort_multipart_upload(std::string_view bucket, std::string_view key,
                                    std::string_view upload_id) {
  perform({.method = "DELETE",
           .bucket = bucket,
           .key = key,
           .query = {{"uploadId", std::string(upload_id)}},
           .ok = 204});
}

} // namespace dlsize::s3
