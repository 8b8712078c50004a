#include "s3/location.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "dlsize/build_config.hpp"
#include "s3/aws_ini.hpp"

namespace dlsize::s3 {

namespace {

constexpr std::string_view kScheme = "s3://";
// Room left under S3's 1024-byte key for the names a dataset's layout adds below the prefix.
constexpr std::size_t kMaxPrefix = 768;

// Why a prefix cannot name a dataset's place; empty when it can.
std::string prefix_problem(std::string_view prefix) {
  if (prefix.size() > kMaxPrefix)
    return fmt::format("the prefix is longer than {} bytes", kMaxPrefix);
  if (std::any_of(prefix.begin(), prefix.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return "the prefix holds a control character";
  std::size_t start = 0;
  while (!prefix.empty() && start <= prefix.size()) {
    const std::size_t end = std::min(prefix.find('/', start), prefix.size());
    const std::string_view segment = prefix.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..")
      return "the prefix has an empty, '.' or '..' name between slashes";
    start = end + 1;
  }
  return {};
}

// `source` names where the URL came from: --s3-endpoint, a variable or a file's setting.
void check_endpoint(const std::string& url, const std::string& source) {
  // User info would be a secret on the command line: refused without echoing the URL.
  const std::size_t authority = url.find("://");
  const std::size_t at = url.find('@');
  if (at != std::string::npos &&
      (authority == std::string::npos || at < url.find_first_of("/?#", authority + 3)))
    throw usage_error(fmt::format("{}: an endpoint URL holds user info (USER:PASSWORD@), which is "
                                  "not taken. valid: http[s]://HOST[:PORT]; credentials come from "
                                  "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or a profile",
                                  source));
  try {
    parse_endpoint(url);
  } catch (const usage_error& e) {
    throw usage_error(fmt::format("{}: {}", source, e.what()));
  }
}

} // namespace

std::string location::key(std::string_view relative) const {
  if (prefix.empty())
    return std::string(relative);
  return fmt::format("{}/{}", prefix, relative);
}

std::string location::url() const {
  return prefix.empty() ? fmt::format("s3://{}", bucket)
                        : fmt::format("s3://{}/{}", bucket, prefix);
}

bool is_s3_url(std::string_view text) {
  return text.substr(0, kScheme.size()) == kScheme;
}

location parse_location(std::string_view text, std::string_view option) {
  auto bad = [&](std::string_view why) {
    return usage_error(fmt::format("{}: not an S3 dataset location: {}. url: '{}'; valid: "
                                   "s3://BUCKET or s3://BUCKET/PREFIX",
                                   option, why, text));
  };
  if (!is_s3_url(text))
    throw bad("it does not start with s3://");
  std::string_view rest = text.substr(kScheme.size());
  const std::size_t slash = rest.find('/');
  location l;
  l.bucket = std::string(rest.substr(0, slash));
  std::string_view prefix = slash == std::string_view::npos ? "" : rest.substr(slash + 1);
  if (!prefix.empty() && prefix.back() == '/')
    prefix.remove_suffix(1);
  l.prefix = std::string(prefix);
  try {
    check_bucket(l.bucket);
  } catch (const usage_error& e) {
    throw bad(e.what());
  }
  if (const std::string why = prefix_problem(prefix); !why.empty())
    throw bad(why);
  return l;
}

std::vector<std::string> split_endpoints(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    if (const std::string_view item = trim_blank(text.substr(start, end - start)); !item.empty())
      out.emplace_back(item);
    start = end + 1;
  }
  return out;
}

void complete_settings(settings& s, const environment& env) {
  resolve_aws_settings(s, env);
  if (s.endpoints.empty())
    throw usage_error("--s3-endpoint: an s3:// dataset needs an endpoint. valid: --s3-endpoint "
                      "https://HOST[:PORT][,URL...] (http:// only when written so), "
                      "AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL in the environment, or "
                      "endpoint_url in the profile's section of ~/.aws/config");
  for (const std::string& e : s.endpoints)
    check_endpoint(e, s.from.endpoints);
  try {
    check_region(s.region);
  } catch (const usage_error& e) {
    throw usage_error(fmt::format("{}: {}", s.from.region, e.what()));
  }
  if (!s.ca_bundle.empty() && access(s.ca_bundle.c_str(), R_OK) != 0)
    throw usage_error(fmt::format("{}: cannot read the CA bundle: {}. file: {}; valid: a readable "
                                  "PEM file of CA certificates",
                                  s.from.ca_bundle, errno_text(errno), s.ca_bundle));
}

credentials resolve_credentials(const settings& s, const environment& env) {
  return resolve_aws_credentials(s, env);
}

void refuse_s3_options(const std::set<std::string>& given, std::string_view place) {
  for (const std::string& option : given)
    if (option.rfind("--s3-", 0) == 0)
      throw usage_error(fmt::format("{}: only for a bucket (s3://BUCKET/PREFIX); {} is a folder. "
                                    "valid: leave {} out, or name a bucket",
                                    option, place, option));
}

client_options client_options_for(const settings& s, std::size_t endpoint_index) {
  client_options o;
  if (!s.endpoints.empty())
    o.endpoint = s.endpoints[endpoint_index % s.endpoints.size()];
  o.region = s.region;
  o.style = s.style;
  o.ca_bundle = s.ca_bundle;
  o.retry.max_retries = s.max_retries;
  o.retry.budget_ns = static_cast<std::uint64_t>(s.retry_budget_s * 1e9);
  // A try that moves no byte for the whole budget (a frozen server) fails, and no retry fits.
  o.stall_timeout_s = std::max(1L, static_cast<long>(std::ceil(s.retry_budget_s)));
  return o;
}

std::optional<location> dataset_location(std::string_view dataset, std::string_view option,
                                         settings& s) {
  if (!is_s3_url(dataset))
    return std::nullopt;
  location l = parse_location(dataset, option);
  if (!DLSIZE_HAVE_S3)
    throw usage_error(fmt::format("{}: this dlsize is built without the S3 client (libcurl), so "
                                  "it cannot reach {}. valid: a folder, or a dlsize built with "
                                  "DLSIZE_WITH_S3",
                                  option, l.url()));
  complete_settings(s);
  return l;
}

} // namespace dlsize::s3
