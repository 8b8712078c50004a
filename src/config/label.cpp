#include "config/label.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::config {

void check_label(const std::string& label, const std::string& option) {
  const auto allowed = [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  };
  const bool ok = !label.empty() && label.size() <= kMaxLabelLength &&
                  std::all_of(label.begin(), label.end(), allowed);
  if (!ok)
    throw usage_error(fmt::format("{}: '{}' is not a valid label. valid: 1 to {} letters, digits, "
                                  "'.', '_' or '-' (e.g. nfs-a or weka_8nodes)",
                                  option, label, kMaxLabelLength));
}

} // namespace dlsize::config
