#pragma once
// The AWS CLI's conventions for where an S3 setting comes from, in the order its documentation
// gives: the command's options first, then the AWS_* environment variables, then the profile's
// settings in the shared files (~/.aws/credentials, ~/.aws/config; AWS_SHARED_CREDENTIALS_FILE
// and AWS_CONFIG_FILE name others), then a default (docs/s3.md, "Settings and their precedence").
// Only static keys are read: a profile that gets its keys another way (credential_process, IAM
// Identity Center, an assumed role) is refused, saying how to export keys instead.
#include <map>
#include <string>

#include "s3/credentials.hpp"

namespace dlsize::s3 {

struct settings;

// Where each setting came from, for reports: an option ("--s3-region"), a variable
// ("AWS_REGION"), a file's profile and key ("/home/u/.aws/config [profile dev] region") or
// "default"; empty: not used (no CA bundle). Never a value.
struct setting_sources {
  std::string profile, endpoints, region, addressing, ca_bundle, credentials;

  // {setting: source} of the settings that have one, as reports hold them
  // (storage.s3.settings_from).
  std::map<std::string, std::string> as_map() const;
};

// Fills what the options left unset (an empty value, or for addressing an empty
// `from.addressing`) by the precedence above and records each source in s.from; a setting whose
// source is already recorded is kept. The credentials' source is found, their keys not kept.
// Throws usage_error naming the option, variable or file (and its line or profile) that is
// wrong: a profile named by --s3-profile or AWS_PROFILE that neither file holds, a line that is
// not INI, a setting of the profile dlsize does not support. No value of a file is quoted in an
// error but region, endpoint and CA bundle paths, which are not secrets.
void resolve_aws_settings(settings& s, const environment& env);

// The keys: --s3-profile's; else AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and
// AWS_SESSION_TOKEN) when either is set; else the profile's (AWS_PROFILE or default) of the
// credentials file, then of the config file. Throws usage_error naming where keys were looked
// for when there are none, never a key.
credentials resolve_aws_credentials(const settings& s, const environment& env);

} // namespace dlsize::s3
