// The files a run found changed since its index was made (the report's dataset.index.changed).
#include "io/change_watch.hpp"

namespace dlsize::io {

nlohmann::json change_watch::changed_json() const {
  std::lock_guard lk(m_m);
  return {{"count", m_count}, {"files", m_named}};
}

} // namespace dlsize::io
