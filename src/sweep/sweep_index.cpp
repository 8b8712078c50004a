#include "sweep/sweep_index.hpp"

#include <sys/stat.h>

#include <cstdio>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/json_input.hpp"
#include "core/output_file.hpp"
#include "report/report_io.hpp"

namespace dlsize::sweep {
namespace fs = std::filesystem;
namespace {

point_record record_of(const sweep_point& p) {
  point_record r;
  r.id = p.id;
  if (p.accelerators)
    r.accelerators = p.accelerators;
  r.ranks = p.ranks;
  if (!p.dataset.empty())
    r.dataset = p.dataset;
  r.cache = p.cache;
  r.repeat = p.repeat;
  if (p.seeded)
    r.seed = p.seed;
  return r;
}

// Whether a report file exists and says its run completed.
bool complete_report(const fs::path& p) {
  std::error_code ec;
  if (!fs::exists(p, ec))
    return false;
  const auto s = read_point_summary(p);
  return s && s->complete();
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
    m_doc.created_at = report::utc_now();
    m_doc.tool = report::tool_json();
    m_doc.command_line = command_line;
    m_doc.config_source = config.source;
    m_doc.config = config.given;
    for (const auto& p : points)
      m_doc.points.push_back(record_of(p));
    save();
    return;
  }
  m_doc = from_json(core::read_json_file(index, core::kIndexJson), index.string());
  m_written = identity_of(index);
  if (m_doc.config != config.given)
    throw usage_error(fmt::format("--config: the sweep in '{}' was made from another config ('{}' "
                                  "differs). valid: the same config to resume it, or a new --out",
                                  dir.string(), first_difference(m_doc.config, config.given)));
  if (m_doc.points.size() != points.size())
    throw usage_error(fmt::format("{}: {} points, the config makes {}", index.string(),
                                  m_doc.points.size(), points.size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    auto& e = m_doc.points[i];
    if (e.id != points[i].id)
      throw usage_error(fmt::format("{}: point {} is '{}', the config makes '{}'", index.string(),
                                    i, e.id, points[i].id));
    const bool has_report = e.report && complete_report(dir / *e.report);
    if (e.status == point_status::done && !has_report)
      e.status = point_status::pending;
    else if (e.status == point_status::running && has_report)
      e.status = point_status::done; // the run ended after the sweep that started it was killed
  }
  m_doc.resumed_at = report::utc_now();
  set_status(sweep_status::running);
  save();
}

sweep_index::~sweep_index() = default;

void sweep_index::begin_attempt(std::size_t i) {
  auto& e = point(i);
  const std::uint64_t attempt = e.attempts + 1;
  const std::string stem = attempt == 1 ? e.id : fmt::format("{}.try{}", e.id, attempt);
  e.attempts = attempt;
  e.report = "reports/" + stem + ".json";
  e.log = "logs/" + stem + ".log";
  e.argv.reset();
  e.status = point_status::running;
  e.exit_code.reset();
  e.signal.reset();
  e.started_at = report::utc_now();
  e.ended_at.reset();
  e.wall_s.reset();
  e.summary.reset();
}

void sweep_index::set_status(sweep_status status, const std::string& reason) {
  m_doc.status = status;
  m_doc.reason = reason.empty() ? std::nullopt : std::optional<std::string>(reason);
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
  m_doc.updated_at = report::utc_now();
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
