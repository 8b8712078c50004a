#pragma once
// The one place where an S3 request's URL and headers are made, in the form libcurl 7.88's
// CURLOPT_AWS_SIGV4 signs correctly (docs/s3.md, "Signing"). curl copies the URL's path and query
// into the canonical request as they are, so they must already be canonical: path segments and
// query parts percent-encoded with uppercase hex (RFC 3986 unreserved characters left alone, '/'
// kept in the key but encoded in query values), query parameters sorted, empty values written
// `key=`. curl 7.88 signs the payload hash but does not send it, so `x-amz-content-sha256` is
// always added here, exactly once.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/enum_names.hpp"

namespace dlsize::s3 {

// Path style (`http://host/bucket/key`) or virtual-hosted style (`http://bucket.host/key`).
enum class addressing { path, virtual_host };
inline constexpr core::enum_table<addressing, 2> kAddressingNames{
    {{addressing::path, "path"}, {addressing::virtual_host, "virtual"}}};
constexpr const auto& names_of(addressing) {
  return kAddressingNames;
}

// "path" or "virtual"; the option's words.
std::string_view addressing_name(addressing a);
// Parses "path" or "virtual"; throws usage_error naming the valid words.
addressing parse_addressing(std::string_view text);

// Throws usage_error naming the bucket when it breaks S3's bucket rules (3 to 63 of a-z 0-9 . -,
// starting and ending with a letter or digit).
void check_bucket(std::string_view bucket);
// Throws usage_error naming the region unless it is 1 to 32 of a-z 0-9 '-'.
void check_region(std::string_view region);

// An endpoint URL split: `scheme://host[:port]`, without a path, query or user info.
struct endpoint {
  std::string scheme; // "http" or "https"
  std::string host;   // host[:port], as sent in the Host header
};

// Parses an endpoint URL; throws usage_error naming the URL when it is not
// `http[s]://host[:port]` (a path, query, fragment or user info are refused: user info would put
// a secret into messages).
endpoint parse_endpoint(std::string_view url);

using name_value = std::pair<std::string, std::string>;

// What a request is about. `key` empty: the bucket itself. `payload_sha256` empty sends
// UNSIGNED-PAYLOAD; otherwise it is the body's SHA-256 in 64 lowercase hex digits. `headers` are
// further headers to send and sign (Range, Content-Type, x-amz-security-token); curl makes Host,
// Authorization and x-amz-date itself and x-amz-content-sha256 comes from `payload_sha256`, so
// those names are refused here.
struct request_spec {
  std::string_view method = {};
  std::string_view endpoint = {};
  std::string_view bucket = {};
  std::string_view key = {};
  std::vector<name_value> query = {};
  addressing style = addressing::path;
  std::string_view region = "us-east-1";
  std::string_view payload_sha256 = {};
  std::vector<name_value> headers = {};
  // A byte range [range_begin, range_end) of the object: sent as `Range: bytes=B-E` (E the last
  // byte, inclusive). range_end 0: no Range header (the whole object).
  std::uint64_t range_begin = 0;
  std::uint64_t range_end = 0;
};

// A request ready for curl: CURLOPT_URL, CURLOPT_HTTPHEADER lines ("name: value") and
// CURLOPT_AWS_SIGV4 ("aws:amz:REGION:s3").
struct http_request {
  std::string method;
  std::string url;
  std::vector<std::string> headers;
  std::string sigv4;
};

// Builds the request; throws usage_error for an endpoint, bucket, key, region, hash, header or
// empty range that S3 or curl's signing cannot take, naming it (never a header's value).
http_request build_request(const request_spec& spec);

// Percent-encodes with uppercase hex, leaving RFC 3986 unreserved characters (A-Z a-z 0-9 - . _ ~)
// alone, and '/' too when keep_slash (a key in a path).
std::string uri_encode(std::string_view text, bool keep_slash);

// The query string in canonical form: each name and value encoded (with '/'), sorted by name and
// then value, empty values as `name=`, joined by '&'.
std::string canonical_query(const std::vector<name_value>& query);

// The URL path of an object (or of the bucket when key is empty) for the addressing style.
std::string canonical_path(std::string_view bucket, std::string_view key, addressing style);

} // namespace dlsize::s3
