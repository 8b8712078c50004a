#pragma once
// The S3 options of every command that names a dataset (datagen, verify, bench, and sweep's bench
// block): --s3-endpoint, --s3-region, --s3-addressing, --s3-profile, --s3-ca-bundle,
// --s3-max-retries, --s3-retry-budget. They fill an s3::settings, which holds no secret and so
// may be recorded in a replayable config.
#include <string_view>

#include <CLI/CLI.hpp>

#include "s3/location.hpp"

namespace dlsize::cli {

void add_s3_options(CLI::App& cmd, s3::settings& s);

// For a dataset named s3://…: completes and checks the settings (the options, then the AWS_*
// variables and ~/.aws files; no endpoint is exit 2 naming --s3-endpoint) and returns the location,
// parsed and checked against `option` (the option or positional that named the dataset). nullopt
// for a dataset on a file system.
std::optional<s3::location> s3_dataset(std::string_view dataset, std::string_view option,
                                       s3::settings& s);

} // namespace dlsize::cli
