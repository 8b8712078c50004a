#include "s3/easy_setup.hpp"

#include <algorithm>
#include <mutex>

#include "core/error.hpp"
#include "s3/curl_check.hpp"
#include "s3/retry.hpp"

namespace dlsize::s3 {

std::string_view header_line(const char* data, std::size_t bytes) {
  std::string_view line(data, bytes);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
    line.remove_suffix(1);
  return line;
}

bool status_line(std::string_view line) {
  return line.substr(0, 5) == "HTTP/";
}

bool header_named(std::string_view line, std::string_view lower_name) {
  if (line.size() < lower_name.size())
    return false;
  for (std::size_t i = 0; i < lower_name.size(); ++i) {
    const char c = line[i];
    if ((c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c) != lower_name[i])
      return false;
  }
  return true;
}

std::string_view header_value(std::string_view line, std::size_t name_len) {
  line.remove_prefix(name_len);
  while (!line.empty() && line.front() == ' ')
    line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t'))
    line.remove_suffix(1);
  return line;
}

void keep_server(std::string& server, std::string_view line) {
  if (server.empty() && header_named(line, "server:"))
    server = std::string(header_value(line, 7).substr(0, 200));
}

void init_curl() {
  static std::once_flag once;
  std::call_once(once, [] { DLSIZE_CURL(curl_global_init(CURL_GLOBAL_DEFAULT), "the S3 client"); });
}

header_list make_header_list(const http_request& r) {
  header_list headers;
  for (const auto& h : r.headers) {
    curl_slist* grown = curl_slist_append(headers.get(), h.c_str());
    if (grown == nullptr)
      throw run_error("curl_slist_append failed (out of memory?)");
    (void)headers.release();
    headers.reset(grown);
  }
  return headers;
}

void set_connection_options(CURL* easy, const client_options& o, const credentials& keys,
                            const std::string& scheme, char* error_buffer,
                            const std::string& context) {
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_USERNAME, keys.access_key.c_str()), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_PASSWORD, keys.secret_key.c_str()), context);
  // The key's dots and slashes are sent as they are: the signature covers the path as written.
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_PATH_AS_IS, 1L), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, scheme.c_str()), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L), context);
  if (!o.ca_bundle.empty())
    DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_CAINFO, o.ca_bundle.c_str()), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, o.connect_timeout_ms), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, o.stall_timeout_s), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer), context);
}

void set_transfer_options(CURL* easy, const client_options& o, const credentials& keys,
                          char* error_buffer, const std::string& context) {
  set_connection_options(easy, o, keys, o.endpoint.substr(0, o.endpoint.find(':')), error_buffer,
                         context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L), context);
}

void set_request(CURL* easy, const http_request& r, const header_list& headers,
                 const std::string& context) {
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_URL, r.url.c_str()), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers.get()), context);
  DLSIZE_CURL(curl_easy_setopt(easy, CURLOPT_AWS_SIGV4, r.sigv4.c_str()), context);
}

failure try_failure(CURLcode rc, long status, const char* error_buffer, std::string_view body,
                    std::string_view method, std::string_view bucket, std::string_view key,
                    std::string_view endpoint) {
  if (rc == CURLE_OK)
    return failure_from_answer(method, bucket, key, endpoint, status, body);
  failure f{std::string(method),
            std::string(bucket),
            std::string(key),
            std::string(endpoint),
            status,
            "",
            "",
            "",
            ""};
  f.message = error_buffer != nullptr && error_buffer[0] != '\0' ? std::string(error_buffer)
                                                                 : curl_easy_strerror(rc);
  f.transport = transport_of(static_cast<int>(rc));
  return f;
}

void record_try(transfer_stats& xs, CURL* easy, std::uint64_t t0, std::uint64_t now) {
  long status = 0, connects = 0;
  curl_off_t first_us = 0;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &connects);
  curl_easy_getinfo(easy, CURLINFO_STARTTRANSFER_TIME_T, &first_us);
  ++xs.requests;
  xs.connections += static_cast<std::uint64_t>(std::max(0L, connects));
  xs.latency.record(now - std::min(now, t0));
  if (status > 0)
    xs.first_byte.record(static_cast<std::uint64_t>(std::max<curl_off_t>(0, first_us)) * 1000);
}

// s3::transport_of knows libcurl's result codes by value (retry.cpp builds without libcurl);
// libcurl's ABI fixes them.
static_assert(CURLE_COULDNT_RESOLVE_HOST == 6 && CURLE_COULDNT_CONNECT == 7 &&
              CURLE_WEIRD_SERVER_REPLY == 8 && CURLE_HTTP2 == 16 && CURLE_PARTIAL_FILE == 18 &&
              CURLE_OPERATION_TIMEDOUT == 28 && CURLE_SSL_CONNECT_ERROR == 35 &&
              CURLE_GOT_NOTHING == 52 && CURLE_SEND_ERROR == 55 && CURLE_RECV_ERROR == 56 &&
              CURLE_SSL_CERTPROBLEM == 58 && CURLE_PEER_FAILED_VERIFICATION == 60 &&
              CURLE_SSL_CACERT_BADFILE == 77 && CURLE_SSL_ISSUER_ERROR == 83 &&
              CURLE_HTTP2_STREAM == 92);

} // namespace dlsize::s3
