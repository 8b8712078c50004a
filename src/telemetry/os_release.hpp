#pragma once
// The operating system of a host, from os-release (freedesktop.org): what a reader of a report
// a year later needs to rebuild the client.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "telemetry/host_facts.hpp"

namespace dlsize::telemetry {

// KEY=value lines, values unquoted ("…" or '…', backslash escapes inside double quotes);
// comments and malformed lines are passed over.
std::map<std::string, std::string> parse_os_release(std::string_view text);

// NAME, VERSION_ID and PRETTY_NAME from ROOT/etc/os-release, else ROOT/usr/lib/os-release; a
// field the file lacks is null, and all are null when neither file can be read.
os_facts os_of(const std::filesystem::path& root);

} // namespace dlsize::telemetry
