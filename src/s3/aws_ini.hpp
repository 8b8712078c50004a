#pragma once
// The AWS CLI's shared files (~/.aws/credentials and ~/.aws/config) read as the INI text they
// are, without an AWS SDK: sections `[name]`, settings `name = value` (or `name: value`), full-line
// comments (`#`, `;`), and the nested blocks of a setting with an empty value followed by indented
// `name = value` lines (`s3 =` / `  addressing_style = path`). Names are lowercased as Python's
// configparser (which the AWS CLI uses) does; values are kept as written, trimmed.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dlsize::s3 {

// s without its leading and trailing blanks (spaces, tabs, CR), as INI names and values and
// comma-separated lists are read.
std::string_view trim_blank(std::string_view s);

// One `[section]` of a file and its settings.
struct aws_ini_section {
  std::string name; // as written between the brackets, trimmed: "default", "profile dev"
  int line = 0;     // where it starts, for messages
  std::map<std::string, std::string> values;
  std::map<std::string, std::map<std::string, std::string>> nested; // "s3" -> its indented lines

  // The value of `key`, or nullptr when the section does not set it.
  const std::string* get(std::string_view key) const;
};

// A credentials or config file. A file that does not exist is an empty one (the AWS CLI reads
// none then either).
struct aws_ini {
  std::string file; // its path, for messages (never its content: it may hold keys)
  std::vector<aws_ini_section> sections;

  // The section named exactly `name`, or nullptr.
  const aws_ini_section* find(std::string_view name) const;

  // Parses `text`; throws usage_error naming `file` and the line (never quoting it) for a line
  // that is neither a section, a setting, a comment nor an indented line of a nested block, and
  // for a section or setting given twice (configparser refuses both too).
  static aws_ini parse(std::string_view text, std::string file);
  // Reads and parses `file`; nothing there is an empty file. Throws usage_error naming the file
  // when it exists but cannot be read (a folder, no permission) or is over 1 MiB.
  static aws_ini read(const std::string& file);
};

} // namespace dlsize::s3
