#include "s3/request.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::s3 {

namespace {

bool unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

bool lower_hex(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool ascii_iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
           return lower(x) == lower(y);
         });
}

void check_header(const name_value& h) {
  const auto& [name, value] = h;
  const bool name_ok = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return unreserved(static_cast<unsigned char>(c)) && c != '.' && c != '~';
  });
  if (!name_ok)
    throw usage_error(fmt::format("not an HTTP header name. header: '{}'", name));
  for (std::string_view made : {"host", "authorization", "x-amz-date", "x-amz-content-sha256"})
    if (ascii_iequal(name, made))
      throw usage_error(fmt::format("an S3 request header is made by the request builder, not "
                                    "given. header: {}",
                                    name));
  // curl drops a header with an empty value instead of sending it.
  if (value.empty())
    throw usage_error(fmt::format("an HTTP header has no value. header: {}", name));
  if (value.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos)
    throw usage_error(
        fmt::format("an HTTP header value holds a line break or NUL. header: {}", name));
}

// The host without its port, to tell an IP literal (no virtual hosts) from a DNS name.
bool ip_literal(std::string_view host) {
  if (!host.empty() && host.front() == '[')
    return true;
  host = host.substr(0, host.find(':'));
  return std::all_of(host.begin(), host.end(),
                     [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

} // namespace

// S3's bucket rules (3 to 63 of a-z 0-9 . -, starting and ending with a letter or digit), which
// also make the name a DNS label for virtual-hosted addressing.
void check_bucket(std::string_view bucket) {
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  const bool ok = bucket.size() >= 3 && bucket.size() <= 63 && alnum(bucket.front()) &&
                  alnum(bucket.back()) && std::all_of(bucket.begin(), bucket.end(), [&](char c) {
                    return alnum(c) || c == '.' || c == '-';
                  });
  if (!ok)
    throw usage_error(fmt::format("not an S3 bucket name. bucket: '{}'; valid: 3 to 63 of a-z, "
                                  "0-9, '.' and '-', starting and ending with a letter or digit",
                                  bucket));
}

void check_region(std::string_view region) {
  const bool ok = !region.empty() && region.size() <= 32 &&
                  std::all_of(region.begin(), region.end(), [](char c) {
                    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
                  });
  if (!ok)
    throw usage_error(fmt::format("not an S3 region. region: '{}'; valid: a-z, 0-9 and '-', e.g. "
                                  "us-east-1",
                                  region));
}

std::string_view addressing_name(addressing a) {
  return core::name_of(a);
}

addressing parse_addressing(std::string_view text) {
  if (const auto a = core::find_enum<addressing>(text))
    return *a;
  throw usage_error(fmt::format("unknown S3 addressing. value: '{}'; valid: {}", text,
                                core::name_list<addressing>()));
}

endpoint parse_endpoint(std::string_view url) {
  auto bad = [&](std::string_view why) {
    return usage_error(fmt::format("not an S3 endpoint: {}. endpoint: '{}'; valid: "
                                   "http://HOST[:PORT] or https://HOST[:PORT]",
                                   why, url));
  };
  endpoint e;
  std::string_view rest;
  for (std::string_view scheme : {"http", "https"}) {
    const std::string prefix = std::string(scheme) + "://";
    if (url.substr(0, prefix.size()) == prefix) {
      e.scheme = scheme;
      rest = url.substr(prefix.size());
    }
  }
  if (e.scheme.empty())
    throw bad("the scheme is not http or https");
  if (!rest.empty() && rest.back() == '/')
    rest.remove_suffix(1);
  if (rest.find('@') != std::string_view::npos)
    throw bad("user info is not taken (credentials come from the environment)");
  if (rest.find_first_of("/?#") != std::string_view::npos)
    throw bad("a path, query or fragment is not taken");
  const std::size_t bracket = rest.rfind(']');
  const std::size_t colon = rest.rfind(':');
  const bool has_port =
      colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket);
  const std::string_view name = has_port ? rest.substr(0, colon) : rest;
  if (name.empty())
    throw bad("the host is empty");
  if (has_port) {
    const std::string_view port = rest.substr(colon + 1);
    const bool digits =
        !port.empty() && port.size() <= 5 &&
        std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || std::stoul(std::string(port)) == 0 || std::stoul(std::string(port)) > 65535)
      throw bad("the port is not a number from 1 to 65535");
  }
  e.host = rest;
  return e;
}

std::string uri_encode(std::string_view text, bool keep_slash) {
  static constexpr std::array<char, 16> hex = {'0', '1', '2', '3', '4', '5', '6', '7',
                                               '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};
  std::string out;
  out.reserve(text.size() * 3);
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (unreserved(c) || (keep_slash && c == '/')) {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 0xF];
    }
  }
  return out;
}

std::string canonical_query(const std::vector<name_value>& query) {
  std::vector<name_value> encoded;
  encoded.reserve(query.size());
  for (const auto& [name, value] : query)
    encoded.emplace_back(uri_encode(name, false), uri_encode(value, false));
  // Sorted by the encoded bytes, as the server sorts them when it checks the signature.
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [name, value] : encoded) {
    if (!out.empty())
      out += '&';
    out += name;
    out += '=';
    out += value;
  }
  return out;
}

std::string canonical_path(std::string_view bucket, std::string_view key, addressing style) {
  std::string path;
  if (style == addressing::path) {
    path = "/";
    path += bucket;
    if (!key.empty())
      path += "/";
  } else {
    path = "/";
  }
  path += uri_encode(key, true);
  return path;
}

http_request build_request(const request_spec& spec) {
  const endpoint e = parse_endpoint(spec.endpoint);
  if (spec.method.empty() || !std::all_of(spec.method.begin(), spec.method.end(),
                                          [](char c) { return c >= 'A' && c <= 'Z'; }))
    throw usage_error(fmt::format("not an HTTP method. method: '{}'", spec.method));
  check_bucket(spec.bucket);
  if (spec.key.size() > 1024)
    throw usage_error(fmt::format("an S3 key is longer than 1024 bytes. bucket: {}; key bytes: {}",
                                  spec.bucket, spec.key.size()));
  check_region(spec.region);
  if (!spec.payload_sha256.empty() &&
      (spec.payload_sha256.size() != 64 || !lower_hex(spec.payload_sha256)))
    throw usage_error("a payload hash is not 64 lowercase hex digits (a SHA-256)");
  if (spec.style == addressing::virtual_host && ip_literal(e.host))
    throw usage_error(fmt::format("virtual-hosted S3 addressing needs a DNS name, not an IP "
                                  "address. endpoint: {}; valid: --s3-addressing path",
                                  spec.endpoint));
  for (const auto& h : spec.headers)
    check_header(h);
  if (spec.range_end != 0 && spec.range_begin >= spec.range_end)
    throw usage_error(fmt::format("an S3 range read of 0 bytes. bucket: {}; key: {}; bytes: {}-{}",
                                  spec.bucket, spec.key, spec.range_begin, spec.range_end));

  http_request r;
  r.method = spec.method;
  r.url = e.scheme + "://";
  if (spec.style == addressing::virtual_host)
    r.url += std::string(spec.bucket) + ".";
  r.url += e.host;
  r.url += canonical_path(spec.bucket, spec.key, spec.style);
  if (!spec.query.empty())
    r.url += "?" + canonical_query(spec.query);
  r.headers.push_back(fmt::format("x-amz-content-sha256: {}",
                                  spec.payload_sha256.empty() ? std::string_view("UNSIGNED-PAYLOAD")
                                                              : spec.payload_sha256));
  for (const auto& [name, value] : spec.headers)
    r.headers.push_back(name + ": " + value);
  if (spec.range_end != 0)
    r.headers.push_back(fmt::format("Range: bytes={}-{}", spec.range_begin, spec.range_end - 1));
  r.sigv4 = fmt::format("aws:amz:{}:s3", spec.region);
  return r;
}

} // namespace dlsize::s3
