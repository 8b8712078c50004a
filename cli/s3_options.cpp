#include "s3_options.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::cli {

void add_s3_options(CLI::App& cmd, s3::settings& s) {
  cmd.add_option_function<std::string>(
      "--s3-endpoint", [&s](const std::string& v) { s.endpoints = s3::split_endpoints(v); },
      "S3 endpoints of an s3:// dataset, http[s]://HOST[:PORT][,URL...], used round-robin per "
      "connection (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, then the profile's "
      "endpoint_url in ~/.aws/config); plain http only when written so");
  cmd.add_option("--s3-region", s.region,
                 "S3 region the requests are signed for (default: AWS_REGION, "
                 "AWS_DEFAULT_REGION, the profile's region in ~/.aws/config, else us-east-1)");
  cmd.add_option_function<std::string>(
      "--s3-addressing",
      [&s](const std::string& v) {
        try {
          s.style = s3::parse_addressing(v);
          s.from.addressing = "--s3-addressing";
        } catch (const usage_error& e) {
          throw usage_error(fmt::format("--s3-addressing: {}", e.what()));
        }
      },
      "S3 addressing: path (http://HOST/BUCKET/KEY) or virtual (http://BUCKET.HOST/KEY) "
      "(default: the profile's s3 addressing_style in ~/.aws/config, else path)");
  cmd.add_option("--s3-profile", s.profile,
                 "Profile of ~/.aws/credentials and ~/.aws/config (or AWS_SHARED_CREDENTIALS_FILE, "
                 "AWS_CONFIG_FILE) whose keys and settings to use (default: AWS_ACCESS_KEY_ID, "
                 "AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, else AWS_PROFILE's or the default "
                 "profile)");
  cmd.add_option("--s3-ca-bundle", s.ca_bundle,
                 "PEM file of the CA certificates that verify the endpoint's TLS certificate "
                 "(default: AWS_CA_BUNDLE, the profile's ca_bundle, else the system's)");
  cmd.add_option("--s3-max-retries", s.max_retries,
                 "Tries of a failed S3 request after the first (500, 502, 503, 504, resets, "
                 "timeouts, cut bodies), with capped exponential backoff and jitter")
      ->capture_default_str();
  cmd.add_option_function<std::string>(
         "--s3-retry-budget",
         [&s](const std::string& v) {
           s.retry_budget_s = units::parse_duration(v, "--s3-retry-budget");
         },
         "Time a failing S3 request may be retried, from its first try; a run whose every "
         "request fails this long ends")
      ->default_str(fmt::format("{:g}s", s.retry_budget_s));
}

std::optional<s3::location> s3_dataset(std::string_view dataset, std::string_view option,
                                       s3::settings& s) {
  return s3::dataset_location(dataset, option, s);
}

} // namespace dlsize::cli
