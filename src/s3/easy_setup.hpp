#pragma once
// What every S3 transfer sets on its curl easy handle, in one place for the synchronous client
// and the reader engine: the connection's rules (TLS verified, only the endpoint's scheme, no
// redirects, no signals, timeouts, SigV4 with the keys) and each request's URL and headers.
#include <memory>
#include <string>
#include <string_view>

#include <curl/curl.h>

#include "s3/client.hpp"
#include "s3/credentials.hpp"
#include "s3/request.hpp"
#include "s3/s3_error.hpp"
#include "s3/transfer_stats.hpp"

namespace dlsize::s3 {

struct slist_free {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
using header_list = std::unique_ptr<curl_slist, slist_free>;

// A header line as curl hands it to a header callback, without its line end.
std::string_view header_line(const char* data, std::size_t bytes);
// Whether a header line is an answer's status line ("HTTP/1.1 200 OK"): the headers of a new
// answer begin there (a 100 Continue's headers come first).
bool status_line(std::string_view line);
// Whether a header line's name is `lower_name` (which ends with ':'), in any case.
bool header_named(std::string_view line, std::string_view lower_name);
// The value of a header line whose name (with its ':') is name_len long, without the spaces
// before it and the spaces and tabs after it.
std::string_view header_value(std::string_view line, std::size_t name_len);

// Keeps the value of a `Server:` header line in server, the first one only (figures name it).
void keep_server(std::string& server, std::string_view line);

// curl_global_init, once per process (before the first handle is made).
void init_curl();

// The request's header lines as curl's list.
header_list make_header_list(const http_request& r);

// The options a handle keeps between requests (curl_easy_reset clears them): credentials,
// SigV4, TLS, timeouts and the error buffer (CURL_ERROR_SIZE bytes, alive while the handle is).
// `scheme` is the endpoint's ("http" or "https"): the only protocol allowed.
void set_connection_options(CURL* easy, const client_options& o, const credentials& keys,
                            const std::string& scheme, char* error_buffer,
                            const std::string& context);

// What the engine's transfers add to set_connection_options: HTTP/1.1 (kept-alive connections,
// no pipelining) and TCP_NODELAY; the scheme is the endpoint's.
void set_transfer_options(CURL* easy, const client_options& o, const credentials& keys,
                          char* error_buffer, const std::string& context);

// The request's URL, headers and SigV4 scope; `headers` must outlive the transfer.
void set_request(CURL* easy, const http_request& r, const header_list& headers,
                 const std::string& context);

// The failure of a finished try: with rc other than CURLE_OK, curl's reason (its error buffer,
// else its text) and transport word (s3::transport_of); else the answer's status and the S3
// <Error> of its body.
failure try_failure(CURLcode rc, long status, const char* error_buffer, std::string_view body,
                    std::string_view method, std::string_view bucket, std::string_view key,
                    std::string_view endpoint);

// Counts one finished try in xs: a request, the connections it opened, its latency from t0 and
// its time to the first byte of an answer.
void record_try(transfer_stats& xs, CURL* easy, std::uint64_t t0, std::uint64_t now);

} // namespace dlsize::s3
