#pragma once
// What both engines share: options, the file set, the keep-open table, how uncached mode is
// done, and the checks of a job's range against the file's size.
#include <memory>
#include <string>

#include "io/engine.hpp"
#include "io/file_table.hpp"
#include "io/inflight_board.hpp"
#include "io/reader_pool.hpp"

namespace dlsize::io {

class basic_engine : public engine {
public:
  basic_engine(const engine_options& opt, const file_set& files);
  std::string uncached_method() const override;
  std::string stuck_read(std::uint64_t min_age_ns) const override;
  double open_s() const override { return m_open_s; }

protected:
  // The aligned range [begin, end) to read for a job: O_DIRECT needs block alignment; the end
  // never passes the (aligned) end of the file.
  void read_range(const read_job& job, std::uint64_t& begin, std::uint64_t& end) const;
  bool direct() const { return m_opt.cache == cache_mode::direct; }
  bool fadvise_fallback() const { return m_opt.cache == cache_mode::uncached && !m_dontcache; }
  int rw_flags() const {
    return m_opt.cache == cache_mode::uncached && m_dontcache ? kRwfDontcache : 0;
  }
  // With a change watch: whether a job's samples are skipped because its file changed since it
  // was indexed, checked at the job's open (fd, or the open's errno when fd < 0; keep-open
  // files were checked when the table opened them). Throws run_error naming the file when a
  // change stops the run (the descriptor is closed first).
  bool skip_changed(std::uint32_t file, int fd, int open_errno) const;
  // Drops a whole file from the page cache through a fresh descriptor (per-sample opens).
  void drop_file(std::uint32_t file) const;
  // The engine's result from the pool's: the first reader error, and what each abandoned
  // reader was stuck on.
  void finish_result(const pool_result& pr, engine_result& res) const;

  engine_options m_opt;
  const file_set& m_files;
  int m_flags = 0;
  bool m_dontcache = false;
  std::unique_ptr<file_table> m_table;
  double m_open_s = 0;       // the table's opens (--open keep)
  inflight_board m_inflight; // readers × queue depth slots
};

} // namespace dlsize::io
