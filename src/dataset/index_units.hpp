#pragma once
// The work both index scans (a folder's, a bucket's) share out among their threads: folders or
// prefixes to read, found as the scan goes and taken depth first (so the pending ones stay few),
// then batches of a list (--files-from, --keys) read on demand; units an earlier run finished
// (a resume) are known, so that they are not read again.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "dataset/index_journal.hpp"
#include "io/watched_workers.hpp"

namespace dlsize::dataset {

class unit_queue {
public:
  // Takes the finished units of a resumed state: their counts into totals, and the folders they
  // found but that were not read into the queue (the root too, when it was not). With a list,
  // no folder is queued.
  void restore(const index_journal& journal, index_counts& totals, bool list);
  bool done(const std::string& unit) const { return m_done.count(unit) > 0; }
  // The next unit: a folder into dir (true), or, with none queued, a batch the caller's
  // fill_batch makes under the lock (true when it made one; dir is then left empty). Waits
  // while other threads may still find folders; false when all is done or the scan stops.
  bool take(io::worker_context& io, std::string& dir, const std::function<bool()>& fill_batch);
  // A folder found, for any thread.
  void push(std::string dir);
  // The unit taken is done (whole or not).
  void finished();
  // A signal stopped the scan.
  bool interrupted() const { return m_interrupted; }
  // Runs f under the queue's lock (state the threads share besides the queue).
  template <class F> auto locked(F&& f) {
    std::lock_guard lk(m_m);
    return f();
  }

private:
  std::mutex m_m;
  std::condition_variable m_cv;
  std::vector<std::string> m_stack{""};
  std::set<std::string> m_done;
  unsigned m_active = 0;
  bool m_interrupted = false;
};

// A unit's lines so far (buf) as one chunk of the resume state, appended under `write`; final:
// the unit is done. The chunk's counts go to flushed, and buf and the chunk are emptied.
void flush_unit(index_journal& journal, std::mutex& write, std::string& buf, index_chunk& chunk,
                index_counts& flushed, bool final);

} // namespace dlsize::dataset
