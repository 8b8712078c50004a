#pragma once
// The options of the commands whose threads each write or read a dataset's files (datagen,
// verify): how many threads, when a hung one ends the run, quiet, and the S3 connection.
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "s3/location.hpp"

namespace dlsize::cli {

// --threads (`worker`: "Writer" or "Reader"), --stall-timeout (`op`: what the threads wait on,
// "write" or "read"), --quiet and add_s3_options, in that order.
void add_worker_options(CLI::App& cmd, unsigned& threads, std::string& stall_timeout, bool& quiet,
                        s3::settings& s3, std::string_view worker, std::string_view op);

} // namespace dlsize::cli
