#include "dataset/index_units.hpp"

#include "core/stop.hpp"

namespace dlsize::dataset {

void unit_queue::restore(const index_journal& journal, index_counts& totals, bool list) {
  for (const auto& c : journal.finished()) {
    m_done.insert(c.unit);
    totals.add(c.counts);
  }
  m_stack.clear();
  if (list)
    return;
  if (!m_done.count("dir:"))
    m_stack.emplace_back();
  for (const auto& c : journal.finished())
    for (const auto& d : c.subdirs)
      if (!m_done.count("dir:" + d))
        m_stack.push_back(d);
}

bool unit_queue::take(io::worker_context& io, std::string& dir,
                      const std::function<bool()>& fill_batch) {
  std::unique_lock lk(m_m);
  for (;;) {
    if (stop_requested() || io.halted()) {
      m_interrupted = stop_requested();
      m_cv.notify_all();
      return false;
    }
    if (!m_stack.empty()) {
      dir = std::move(m_stack.back());
      m_stack.pop_back();
      ++m_active;
      return true;
    }
    dir.clear();
    if (fill_batch && fill_batch()) {
      ++m_active;
      return true;
    }
    if (m_active == 0)
      return false;
    m_cv.wait_for(lk, std::chrono::milliseconds(100));
  }
}

void unit_queue::push(std::string dir) {
  std::lock_guard lk(m_m);
  m_stack.push_back(std::move(dir));
  m_cv.notify_one();
}

void unit_queue::finished() {
  std::lock_guard lk(m_m);
  --m_active;
  m_cv.notify_all();
}

void flush_unit(index_journal& journal, std::mutex& write, std::string& buf, index_chunk& chunk,
                index_counts& flushed, bool final) {
  if (buf.empty() && !final)
    return;
  chunk.final = final;
  {
    std::lock_guard lk(write);
    journal.append(buf, chunk);
  }
  flushed.add(chunk.counts);
  buf.clear();
  chunk.counts = {};
  chunk.subdirs.clear();
  chunk.links.clear();
  chunk.followed.clear();
}

} // namespace dlsize::dataset
