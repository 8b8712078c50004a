#pragma once
// A sweep folder's index (index.json, "schema": "dlsize.sweep/1"): the config, the command,
// and every point with its state, so that an interrupted or failed sweep resumes where it
// stopped and `dlsize size DIR` reads the reports of the points that are done.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/folder_lock.hpp"
#include "sweep/sweep_config.hpp"
#include "sweep/sweep_document.hpp"

namespace dlsize::sweep {

class sweep_index {
public:
  // Opens a sweep folder: creates it with a new index, or loads its index to resume. A point
  // left running, interrupted or failed is run again (its earlier attempt's files stay); a
  // point whose current attempt left a complete report is taken as done. Throws usage_error
  // for a folder of files that are not a sweep, an index of another config, or a sweep that
  // another dlsize is running (a lock on the folder).
  sweep_index(const std::filesystem::path& dir, const sweep_config& config,
              const std::vector<sweep_point>& points, const nlohmann::json& command_line);
  ~sweep_index();
  sweep_index(const sweep_index&) = delete;
  sweep_index& operator=(const sweep_index&) = delete;

  std::size_t size() const { return m_doc.points.size(); }
  point_record& point(std::size_t i) { return m_doc.points.at(i); }
  bool done(std::size_t i) const { return m_doc.points.at(i).status == point_status::done; }
  // Starts a new attempt of point i: new report and log names (relative to the folder, so that
  // an earlier attempt's files stay), state "running".
  void begin_attempt(std::size_t i);
  std::filesystem::path path_of(const std::string& relative) const { return m_dir / relative; }
  // status of the whole sweep: running, complete or incomplete (with a reason).
  void set_status(sweep_status status, const std::string& reason = "");
  // Writes the index atomically, never over a file this sweep did not write: when index.json
  // cannot be written (the folder is gone or unwritable, the disk is full, another program put
  // a file there), the index goes under a new name beside it or in the current folder
  // (core's write_under_new_name, said on stderr) and later saves update that file; when no
  // file can be written, saves go on trying and the caller prints the index at the end.
  // Never throws: the sweep goes on measuring whatever happens to its index.
  void save();
  // Where the last save put the index: index.json, the file it fell back to, or empty when it
  // could write none.
  const std::filesystem::path& saved_at() const { return m_saved_at; }
  bool fell_back() const { return m_saved_at != m_dir / kSweepIndexName; }
  std::string text() const { return to_json(m_doc).dump(2) + "\n"; }

private:
  // Which file a save last wrote (device and inode), to tell it from one another program put in
  // its place; nothing before the first save of a new sweep.
  struct file_identity {
    unsigned long long dev = 0, ino = 0;
    bool operator==(const file_identity&) const = default;
  };
  static std::optional<file_identity> identity_of(const std::filesystem::path& p);
  void write_to(const std::filesystem::path& target, const std::string& text);

  std::filesystem::path m_dir;
  sweep_document m_doc;
  std::unique_ptr<core::folder_lock> m_lock;
  std::filesystem::path m_saved_at;       // empty: the last save wrote no file
  std::filesystem::path m_fallback;       // the file saves go to after a fallback
  std::optional<file_identity> m_written; // of the file saves go to
  bool m_said_nowhere = false;
};

} // namespace dlsize::sweep
