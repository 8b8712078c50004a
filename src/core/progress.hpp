#pragma once
// One live status line on stderr, redrawn at most a few times a second, and only when stderr is
// a terminal (and not --quiet): logs and CI output stay clean.
#include <cstdint>
#include <string>

namespace dlsize {

class progress {
public:
  explicit progress(bool enabled);
  ~progress();
  // Redraws the line if enough time has passed since the last draw (or force).
  void update(const std::string& line, bool force = false);
  // Ends the line (newline) if one was drawn.
  void finish();
  bool enabled() const { return m_enabled; }

private:
  bool m_enabled;
  bool m_drawn = false;
  std::uint64_t m_last_ns = 0;
};

} // namespace dlsize
