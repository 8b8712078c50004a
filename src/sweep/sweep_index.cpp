#include "sweep/sweep_index.hpp"

#include <sys/stat.h>

#include <cstdio>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "core/output_file.hpp"
#include "report/bench_report.hpp"
#include "report/report_io.hpp"

namespace dlsize::sweep {
namespace fs = std::filesystem;
namespace {

nlohmann::json point_entry(const sweep_point& p) {
  return {
      {"id", p.id},
      {"accelerators", p.accelerators ? nlohmann::json(p.accelerators) : nlohmann::json(nullptr)},
      {"ranks", p.ranks},
      {"dataset", p.dataset.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.dataset)},
      {"cache", p.cache.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.cache)},
      {"repeat", p.repeat},
      {"seed", p.seeded ? nlohmann::json(p.seed) : nlohmann::json(nullptr)},
      {"status", "pending"},
      {"attempts", 0},
      {"report", nullptr},
      {"log", nullptr},
      {"argv", nullptr},
      {"exit_code", nullptr},
      {"signal", nullptr},
      {"started_at", nullptr},
      {"ended_at", nullptr},
      {"wall_s", nullptr},
      {"summary", nullptr}};
}

// Whether a report file exists and says its run completed.
bool complete_report(const fs::path& p) {
  std::error_code ec;
  if (!fs::exists(p, ec))
    return false;
  try {
    const auto j = core::read_json_file(p, core::kReportJson);
    if (j.is_object() && j.value("kind", nlohmann::json()) == "checkpoint")
      return j.value("status", nlohmann::json()) == "complete";
    return report::is_bench_report(j) && report::bench_report::from_json(j).complete();
  } catch (const usage_error&) {
    return false;
  }
}

std::string first_difference(const nlohmann::json& a, const nlohmann::json& b) {
  for (const auto& [k, v] : a.items())
    if (!b.contains(k) || b[k] != v)
      return k;
  for (const auto& [k, v] : b.items())
    if (!a.contains(k))
      return k;
  return "";
}

} // namespace

std::vector<std::string> done_reports(const nlohmann::json& index) {
  std::vector<std::string> out;
  for (const auto& p : index.value("points", nlohmann::json::array()))
    if (p.value("status", "") == "done" && p["report"].is_string())
      out.push_back(p["report"]);
  return out;
}

sweep_index::sweep_index(const fs::path& dir, const sweep_config& config,
                         const std::vector<sweep_point>& points, const nlohmann::json& command_line)
    : m_dir(dir) {
  std::error_code ec;
  const fs::path index = dir / kSweepIndexName;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw usage_error(fmt::format("--out: '{}' is a file. valid: a new or empty folder, or a "
                                  "sweep folder to resume",
                                  dir.string()));
  const bool resume = fs::exists(index, ec);
  if (!resume && fs::exists(dir, ec) && !fs::is_empty(dir, ec))
    throw usage_error(fmt::format("--out: '{}' holds files but no sweep index ({}); dlsize never "
                                  "writes into a folder of files it did not make. valid: a new or "
                                  "empty folder, or a sweep folder to resume",
                                  dir.string(), kSweepIndexName));
  fs::create_directories(dir / "reports", ec);
  if (!ec)
    fs::create_directories(dir / "logs", ec);
  if (ec)
    throw run_error(fmt::format("cannot create the sweep folder. path: {}; error: {}", dir.string(),
                                ec.message()));

  m_lock = std::make_unique<core::folder_lock>(dir, "--out", "sweep");

  if (!resume) {
    m_index = {{"schema", kSweepSchema},
               {"created_at", report::utc_now()},
               {"tool", report::tool_json()},
               {"command_line", command_line},
               {"config_source", config.source},
               {"config", config.given},
               {"status", "running"},
               {"points", nlohmann::json::array()}};
    for (const auto& p : points)
      m_index["points"].push_back(point_entry(p));
    save();
    return;
  }
  m_index = core::read_json_file(index, core::kIndexJson);
  m_written = identity_of(index);
  if (!m_index.is_object() || m_index.value("schema", "") != kSweepSchema)
    throw usage_error(
        fmt::format("{}: not a dlsize sweep index (schema {})", index.string(), kSweepSchema));
  if (m_index["config"] != config.given)
    throw usage_error(fmt::format("--config: the sweep in '{}' was made from another config ('{}' "
                                  "differs). valid: the same config to resume it, or a new --out",
                                  dir.string(), first_difference(m_index["config"], config.given)));
  auto& entries = m_index["points"];
  if (entries.size() != points.size())
    throw usage_error(fmt::format("{}: {} points, the config makes {}", index.string(),
                                  entries.size(), points.size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    auto& e = entries[i];
    if (e.value("id", "") != points[i].id)
      throw usage_error(fmt::format("{}: point {} is '{}', the config makes '{}'", index.string(),
                                    i, e.value("id", ""), points[i].id));
    const bool has_report =
        e["report"].is_string() && complete_report(dir / e["report"].get<std::string>());
    if (e["status"] == "done" && !has_report) {
      e["status"] = "pending";
    } else if (e["status"] != "done" && has_report && e["status"] == "running") {
      e["status"] = "done"; // the run ended after the sweep that started it was killed
    }
  }
  m_index["resumed_at"] = report::utc_now();
  m_index["status"] = "running";
  m_index.erase("reason");
  save();
}

sweep_index::~sweep_index() = default;

void sweep_index::begin_attempt(std::size_t i) {
  auto& e = point(i);
  const int attempt = e.value("attempts", 0) + 1;
  const std::string id = e["id"];
  const std::string stem = attempt == 1 ? id : fmt::format("{}.try{}", id, attempt);
  e["attempts"] = attempt;
  e["report"] = "reports/" + stem + ".json";
  e["log"] = "logs/" + stem + ".log";
  e["argv"] = nullptr;
  e["status"] = "running";
  e["exit_code"] = nullptr;
  e["signal"] = nullptr;
  e["started_at"] = report::utc_now();
  e["ended_at"] = nullptr;
  e["wall_s"] = nullptr;
  e["summary"] = nullptr;
}

void sweep_index::set_status(const std::string& status, const std::string& reason) {
  m_index["status"] = status;
  if (reason.empty())
    m_index.erase("reason");
  else
    m_index["reason"] = reason;
}

std::optional<sweep_index::file_identity> sweep_index::identity_of(const fs::path& p) {
  struct stat st {};
  if (lstat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return std::nullopt;
  return file_identity{st.st_dev, st.st_ino};
}

void sweep_index::write_to(const fs::path& target, const std::string& text) {
  struct stat st {};
  const bool there = lstat(target.c_str(), &st) == 0;
  if (there && (!m_written || identity_of(target) != m_written))
    throw run_error("it is not the file this sweep wrote (another program put it there); dlsize "
                    "never overwrites a file it did not write");
  write_file_atomic(target, text, true);
  m_written = identity_of(target);
}

void sweep_index::save() {
  m_index["updated_at"] = report::utc_now();
  const std::string content = text();
  const fs::path index = m_dir / kSweepIndexName;
  std::string why;
  try {
    write_to(m_fallback.empty() ? index : m_fallback, content);
    m_saved_at = m_fallback.empty() ? index : m_fallback;
    return;
  } catch (const std::exception& e) {
    why = e.what();
  }
  if (auto p = write_under_new_name(index, content, "sweep index", why)) {
    std::fprintf(stderr,
                 "sweep: the points' reports and logs stay in %s; the index that lists them is "
                 "'%s' (to resume or size the sweep, move it to %s)\n",
                 m_dir.c_str(), p->c_str(), index.c_str());
    m_fallback = *p;
    m_written = identity_of(*p);
    m_saved_at = *p;
    return;
  }
  m_saved_at.clear();
  if (!m_said_nowhere)
    std::fprintf(stderr,
                 "dlsize: sweep index '%s' could not be written (%s); the sweep goes on and "
                 "prints the index when it ends\n",
                 index.c_str(), why.c_str());
  m_said_nowhere = true;
}

} // namespace dlsize::sweep
