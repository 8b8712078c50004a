#include "s3/retry.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dlsize::s3 {

std::uint64_t backoff_ns(const retry_policy& p, unsigned failed, std::uint64_t random) {
  const unsigned shift = std::min(failed == 0 ? 0u : failed - 1, 40u);
  const std::uint64_t ceiling =
      p.base_ns > (p.cap_ns >> shift) ? p.cap_ns : std::min(p.cap_ns, p.base_ns << shift);
  if (ceiling == 0)
    return 0;
  __extension__ using u128 = unsigned __int128;
  return static_cast<std::uint64_t>((static_cast<u128>(random) * ceiling) >> 64);
}

std::optional<std::uint64_t> retry_clock::next_wait(std::uint64_t now, std::uint64_t random) {
  ++m_failed;
  if (m_failed > m_policy.max_retries)
    return std::nullopt;
  const std::uint64_t wait = backoff_ns(m_policy, m_failed, random);
  if (now + wait - std::min(now + wait, m_first_ns) > m_policy.budget_ns)
    return std::nullopt;
  return wait;
}

std::string retry_clock::spent(std::uint64_t now) const {
  const double took = static_cast<double>(now - std::min(now, m_first_ns)) * 1e-9;
  if (m_failed > m_policy.max_retries)
    return fmt::format("after {} tries in {:.1f} s (--s3-max-retries {})", m_failed, took,
                       m_policy.max_retries);
  return fmt::format("after {} tries in {:.1f} s (--s3-retry-budget {:g}s)", m_failed, took,
                     static_cast<double>(m_policy.budget_ns) * 1e-9);
}

namespace {

// libcurl's CURLcode values this policy tells apart (fixed by libcurl's ABI).
enum curl_code : int {
  couldnt_resolve_host = 6,
  couldnt_connect = 7,
  weird_server_reply = 8,
  http2 = 16,
  partial_file = 18,
  operation_timedout = 28,
  ssl_connect_error = 35,
  got_nothing = 52,
  send_error = 55,
  recv_error = 56,
  ssl_certproblem = 58,
  peer_failed_verification = 60,
  ssl_cacert_badfile = 77,
  ssl_issuer_error = 83,
  http2_stream = 92,
};

failure_verdict by_transport(const failure& f) {
  const std::string& t = f.transport;
  if (t == "timeout" || t == "connect" || t == "reset" || t == "cut" || t == "long")
    return {failure_class::retry, t, ""};
  if (t == "certificate")
    return {failure_class::usage, t,
            "the endpoint's TLS certificate is not trusted. valid: --s3-ca-bundle FILE with the "
            "PEM certificate of the CA that signed it, and the host name the certificate names "
            "in --s3-endpoint"};
  if (t == "tls")
    return {failure_class::run, t,
            "the TLS handshake failed: check that the endpoint speaks https on that port, and "
            "the CA certificates given by --s3-ca-bundle"};
  if (t == "resolve")
    return {failure_class::usage, t,
            "the host name does not resolve. valid: the host of --s3-endpoint as the client's "
            "DNS knows it; with --s3-addressing virtual, BUCKET.HOST must resolve too "
            "(--s3-addressing path needs only HOST)"};
  return {failure_class::run, "transport", ""};
}

// A 403's hint by S3's Code.
std::string refusal_hint(const std::string& code) {
  if (code == "SignatureDoesNotMatch")
    return "the secret key does not match the access key: check AWS_SECRET_ACCESS_KEY (its "
           "value is never shown)";
  if (code == "InvalidAccessKeyId")
    return "the server knows no such access key: check AWS_ACCESS_KEY_ID (or the --s3-profile "
           "used)";
  if (code == "RequestTimeTooSkewed")
    return "this host's clock differs too much from the server's: set the clock right (NTP)";
  return "check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN and the bucket's "
         "permissions";
}

bool wrong_region(long status, const std::string& code) {
  return status == 301 || code == "PermanentRedirect" || code == "AuthorizationHeaderMalformed" ||
         code == "IllegalLocationConstraintException" || code == "InvalidRegion";
}

} // namespace

failure_verdict classify(const failure& f) {
  if (f.http_status == 0 || !f.transport.empty())
    return by_transport(f);
  const long s = f.http_status;
  const std::string status = std::to_string(s);
  if (s == 500 || s == 502 || s == 503 || s == 504)
    return {failure_class::retry, status, ""};
  if (s == 400 && f.code == "RequestTimeout")
    return {failure_class::retry, "timeout", ""};
  if (s == 403)
    return {failure_class::usage, status, refusal_hint(f.code)};
  if (wrong_region(s, f.code))
    return {failure_class::usage, status,
            "the bucket is not in the region the request was signed for. valid: --s3-region "
            "with the bucket's region"};
  if (f.code == "NoSuchBucket" && !f.server_bucket.empty() && f.server_bucket != f.bucket)
    return {failure_class::usage, status,
            fmt::format("the server read the request as one for bucket '{}', not '{}': the "
                        "addressing does not match the server's. valid: --s3-addressing path "
                        "(http://HOST/BUCKET/KEY) or virtual (http://BUCKET.HOST/KEY), as the "
                        "server serves buckets",
                        f.server_bucket, f.bucket)};
  if (f.code == "NoSuchBucket")
    return {failure_class::usage, status,
            fmt::format("there is no bucket '{}' at this endpoint. valid: an existing bucket "
                        "(dlsize never creates one), or another --s3-endpoint",
                        f.bucket)};
  return {failure_class::run, status, ""};
}

bool gave_up_retrying(const transfer_stats& xs) {
  for (const auto& [cause, n] : xs.errors_by_cause) {
    if (cause.empty())
      continue;
    failure f;
    if (cause.find_first_not_of("0123456789") == std::string::npos)
      f.http_status = std::stol(cause);
    else
      f.transport = cause;
    if (n > 0 && classify(f).kind == failure_class::retry)
      return true;
  }
  return false;
}

std::string transport_of(int curl_code) {
  switch (curl_code) {
  case operation_timedout:
    return "timeout";
  case couldnt_connect:
    return "connect";
  case recv_error:
  case send_error:
  case got_nothing:
  case http2:
  case http2_stream:
  case weird_server_reply:
    return "reset";
  case partial_file:
    return "cut";
  case couldnt_resolve_host:
    return "resolve";
  case ssl_connect_error:
    return "tls";
  case ssl_certproblem:
  case peer_failed_verification:
  case ssl_cacert_badfile:
  case ssl_issuer_error:
    return "certificate";
  default:
    return "";
  }
}

} // namespace dlsize::s3
