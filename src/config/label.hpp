#pragma once
// The rule for a backend's name (--label): what a user may call the storage under test, so
// that the name survives file names, CSV cells and shell commands unquoted.
#include <string>

namespace dlsize::config {

inline constexpr std::size_t kMaxLabelLength = 64;

// Throws usage_error naming `option` and the rule when `label` is empty, longer than 64
// characters or holds a character other than a letter, digit, '.', '_' or '-'.
void check_label(const std::string& label, const std::string& option);

} // namespace dlsize::config
