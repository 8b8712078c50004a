#pragma once
// Where a dataset lives in S3 (`s3://BUCKET/PREFIX`) and how to reach it: the endpoints, region,
// addressing, credentials' source and CA bundle a command was given. Settings hold no secret (a
// profile is named, never read into them), so they may be written to reports and replayable
// configs; the keys are read when a client is made, by resolve_credentials.
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "s3/aws_settings.hpp"
#include "s3/client.hpp"
#include "s3/credentials.hpp"
#include "s3/request.hpp"

namespace dlsize::s3 {

// s3://BUCKET/PREFIX: the prefix has no leading or trailing '/', and may be empty.
struct location {
  std::string bucket;
  std::string prefix;

  // PREFIX/relative (relative alone when there is no prefix).
  std::string key(std::string_view relative) const;
  // s3://BUCKET/PREFIX (s3://BUCKET without a prefix).
  std::string url() const;
};

// Whether text names an S3 location (starts with "s3://").
bool is_s3_url(std::string_view text);

// Parses s3://BUCKET[/PREFIX[/]]; throws usage_error naming `option` (and what would be valid)
// for a bucket outside S3's rules or a prefix with an empty, "." or ".." segment or a control
// character.
location parse_location(std::string_view text, std::string_view option);

// How to reach a bucket. The options fill it first; complete_settings fills the rest by the AWS
// CLI's precedence (s3/aws_settings.hpp) and records each setting's source in `from`.
struct settings {
  std::vector<std::string> endpoints;  // --s3-endpoint URL[,URL...], round-robin per connection
  std::string region;                  // --s3-region (empty until completed; default us-east-1)
  addressing style = addressing::path; // --s3-addressing path|virtual
  std::string profile;                 // --s3-profile; completed: the profile in use
  std::string ca_bundle;               // --s3-ca-bundle FILE (empty: the system's CA store)
  unsigned max_retries = retry_policy{}.max_retries;                           // --s3-max-retries
  double retry_budget_s = static_cast<double>(retry_policy{}.budget_ns) / 1e9; // --s3-retry-budget
  setting_sources from; // where each came from (the CLI sets from.addressing)
};

// Splits --s3-endpoint's comma-separated URLs (empty items dropped).
std::vector<std::string> split_endpoints(std::string_view text);

// Makes settings ready for a dataset in S3: what the options left unset from the environment
// and the AWS CLI's files (resolve_aws_settings); then each endpoint must be http[s]://HOST[:PORT]
// with its scheme written out (plain http only when given so), the region a-z 0-9 '-', and the
// CA bundle a readable file. Throws usage_error naming where the wrong value came from (an
// option, variable or file) and never echoing a URL's user info.
void complete_settings(settings& s, const environment& env = process_environment());

// The keys (resolve_aws_credentials): --s3-profile's, else the environment's, else the
// profile's of the shared files. Throws usage_error naming the option, file, profile or variable
// that is wrong, never a key.
credentials resolve_credentials(const settings& s, const environment& env = process_environment());

// For a dataset named s3://…: completes and checks the settings (complete_settings; an endpoint
// from --s3-endpoint or AWS_ENDPOINT_URL) and returns the location, parsed and checked against
// `option` (the option or positional that named the dataset). nullopt for a dataset on a file
// system. Throws usage_error naming `option` in a dlsize built without the S3 client.
std::optional<location> dataset_location(std::string_view dataset, std::string_view option,
                                         settings& s);

// Refuses the first option of `given` (long option names, "--s3-region") that starts with
// "--s3-": such options mean nothing without a bucket. `place` names the folder the command was
// given instead ("--dataset '/data/r50'"). Throws usage_error naming the option.
void refuse_s3_options(const std::set<std::string>& given, std::string_view place);

// The options of connection `endpoint_index`: endpoints are taken round-robin; the retry
// policy of --s3-max-retries and --s3-retry-budget, and a try that moves no byte for the
// budget fails (curl's low-speed limit).
client_options client_options_for(const settings& s, std::size_t endpoint_index);

} // namespace dlsize::s3
