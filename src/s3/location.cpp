#include "s3/location.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "dlsize/build_config.hpp"

namespace dlsize::s3 {

namespace {

constexpr std::string_view kScheme = "s3://";
// Room left under S3's 1024-byte key for the names a dataset's layout adds below the prefix.
constexpr std::size_t kMaxPrefix = 768;

std::string getenv_text(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

std::string_view trim_blank(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos)
    return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

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

void check_endpoint(const std::string& url) {
  // User info would be a secret on the command line: refused without echoing the URL.
  const std::size_t authority = url.find("://");
  const std::size_t at = url.find('@');
  if (at != std::string::npos &&
      (authority == std::string::npos || at < url.find_first_of("/?#", authority + 3)))
    throw usage_error("--s3-endpoint: an endpoint URL holds user info (USER:PASSWORD@), which is "
                      "not taken. valid: http[s]://HOST[:PORT]; credentials come from "
                      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or --s3-profile");
  try {
    parse_endpoint(url);
  } catch (const usage_error& e) {
    throw usage_error(fmt::format("--s3-endpoint: {}", e.what()));
  }
}

std::string credentials_file() {
  std::string file = getenv_text("AWS_SHARED_CREDENTIALS_FILE");
  if (!file.empty())
    return file;
  const std::string home = getenv_text("HOME");
  if (home.empty())
    throw usage_error("--s3-profile: HOME is not set, so there is no ~/.aws/credentials. valid: "
                      "set AWS_SHARED_CREDENTIALS_FILE to the credentials file");
  return home + "/.aws/credentials";
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

void complete_settings(settings& s) {
  if (s.endpoints.empty())
    s.endpoints = split_endpoints(getenv_text("AWS_ENDPOINT_URL"));
  if (s.endpoints.empty())
    throw usage_error("--s3-endpoint: an s3:// dataset needs an endpoint. valid: --s3-endpoint "
                      "https://HOST[:PORT][,URL...] (http:// only when written so), or "
                      "AWS_ENDPOINT_URL in the environment");
  for (const std::string& e : s.endpoints)
    check_endpoint(e);
  try {
    check_region(s.region);
  } catch (const usage_error& e) {
    throw usage_error(fmt::format("--s3-region: {}", e.what()));
  }
  if (!s.ca_bundle.empty() && access(s.ca_bundle.c_str(), R_OK) != 0)
    throw usage_error(fmt::format("--s3-ca-bundle: cannot read the CA bundle: {}. file: {}; "
                                  "valid: a readable PEM file of CA certificates",
                                  errno_text(errno), s.ca_bundle));
}

credentials profile_credentials(std::string_view text, std::string_view profile,
                                std::string_view file) {
  std::istringstream in{std::string(text)};
  std::string line, section;
  std::vector<std::string> profiles;
  credentials c;
  bool found = false;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string_view t = trim_blank(line);
    // Blank lines, comments, and indented continuation lines of nested settings.
    if (t.empty() || t.front() == '#' || t.front() == ';' || line.front() == ' ' ||
        line.front() == '\t')
      continue;
    if (t.front() == '[' && t.back() == ']') {
      section = std::string(trim_blank(t.substr(1, t.size() - 2)));
      profiles.push_back(section);
      found = found || section == profile;
      continue;
    }
    const std::size_t eq = t.find('=');
    // The line itself is never quoted: it may hold a key.
    if (eq == std::string_view::npos)
      throw usage_error(fmt::format("--s3-profile: line {} of the credentials file is neither "
                                    "[PROFILE] nor NAME = VALUE. file: {}",
                                    number, file));
    if (section != profile)
      continue;
    const std::string_view name = trim_blank(t.substr(0, eq)), value = trim_blank(t.substr(eq + 1));
    if (name == "aws_access_key_id")
      c.access_key = std::string(value);
    else if (name == "aws_secret_access_key")
      c.secret_key = std::string(value);
    else if (name == "aws_session_token")
      c.session_token = std::string(value);
  }
  if (!found)
    throw usage_error(fmt::format(
        "--s3-profile: no profile '{}' in the credentials file. file: "
        "{}; valid: {}",
        profile, file, profiles.empty() ? "(none)" : fmt::format("{}", fmt::join(profiles, ", "))));
  for (const auto& [name, value] :
       {std::pair<const char*, const std::string&>{"aws_access_key_id", c.access_key},
        {"aws_secret_access_key", c.secret_key}})
    if (value.empty())
      throw usage_error(
          fmt::format("--s3-profile: profile '{}' has no {}. file: {}", profile, name, file));
  return c;
}

credentials resolve_credentials(const settings& s) {
  if (s.profile.empty()) {
    try {
      return credentials::from_environment();
    } catch (const usage_error& e) {
      throw usage_error(
          fmt::format("{}, or name a profile of ~/.aws/credentials with --s3-profile", e.what()));
    }
  }
  const std::string file = credentials_file();
  std::ifstream in(file);
  if (!in)
    throw usage_error(fmt::format("--s3-profile: cannot read the credentials file: {}. file: {}; "
                                  "valid: a profile of AWS_SHARED_CREDENTIALS_FILE or "
                                  "~/.aws/credentials",
                                  errno_text(errno), file));
  std::ostringstream text;
  text << in.rdbuf();
  return profile_credentials(text.str(), s.profile, file);
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
