#pragma once
// A sweep folder's index (index.json, "schema": "dlsize.sweep/1"): the config, the command,
// and every point with its state, so that an interrupted or failed sweep resumes where it
// stopped and `dlsize size DIR` reads the reports of the points that are done.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/folder_lock.hpp"
#include "sweep/sweep_config.hpp"

namespace dlsize::sweep {

inline constexpr const char* kSweepSchema = "dlsize.sweep/1";
inline constexpr const char* kSweepIndexName = "index.json";

// Report paths (relative to the folder) of the points an index lists as done.
std::vector<std::string> done_reports(const nlohmann::json& index);

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

  std::size_t size() const { return m_index["points"].size(); }
  nlohmann::json& point(std::size_t i) { return m_index["points"][i]; }
  bool done(std::size_t i) const { return m_index["points"][i]["status"] == "done"; }
  // Starts a new attempt of point i: new report and log names (relative to the folder, so that
  // an earlier attempt's files stay), state "running".
  void begin_attempt(std::size_t i);
  std::filesystem::path path_of(const std::string& relative) const { return m_dir / relative; }
  // status of the whole sweep: "running", "complete" or "incomplete" (with reason).
  void set_status(const std::string& status, const std::string& reason = "");
  // Writes the index atomically.
  void save();

private:
  std::filesystem::path m_dir;
  nlohmann::json m_index;
  std::unique_ptr<core::folder_lock> m_lock;
};

} // namespace dlsize::sweep
