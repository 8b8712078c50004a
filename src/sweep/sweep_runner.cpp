#include "sweep/sweep_runner.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_input.hpp"
#include "core/stop.hpp"
#include "core/units.hpp"
#include "report/report_io.hpp"
#include "sweep/child_process.hpp"
#include "sweep/sweep_config.hpp"
#include "sweep/sweep_index.hpp"

namespace dlsize::sweep {
namespace {

// A command as one line a shell user could paste (arguments with spaces quoted).
std::string shown(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty())
      out += ' ';
    out += a.find_first_of(" \t'\"$") == std::string::npos ? a : "'" + a + "'";
  }
  return out;
}

// The last lines of a point's log, for the message of a point that failed.
std::string log_tail(const std::filesystem::path& log, std::size_t lines = 5) {
  std::ifstream in(log);
  std::vector<std::string> all;
  for (std::string l; std::getline(in, l);)
    all.push_back(l);
  std::string out;
  for (std::size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i)
    out += "    " + all[i] + "\n";
  return out;
}

std::string summary_text(const std::optional<point_summary>& s) {
  if (!s)
    return "no report";
  const auto mb = [](const std::optional<double>& rate) { return *rate / 1e6; };
  std::string out;
  if (s->checkpoint) { // a checkpoint run: write, then restore
    if (s->write_bytes_per_s)
      out += fmt::format("write {:.1f} MB/s", mb(s->write_bytes_per_s));
    if (s->read_bytes_per_s)
      out += fmt::format("{}restore {:.1f} MB/s", out.empty() ? "" : ", ", mb(s->read_bytes_per_s));
    return out;
  }
  if (s->accelerator_utilization)
    out += fmt::format("AU {:.3f}, ", *s->accelerator_utilization);
  if (s->read_bytes_per_s)
    out += fmt::format("{:.1f} MB/s", mb(s->read_bytes_per_s));
  return out;
}

// Checks every point's options as its command would, before any point runs: each distinct
// point (repeats differ only in their seed) is given to `dlsize bench --check-only RANKS` (or
// checkpoint's), started
// directly (a launcher only places the ranks), its messages in a temporary log. Throws
// usage_error naming the point and the bench's message when one refuses its options.
void check_points(const sweep_config& c, const std::vector<sweep_point>& points,
                  const std::string& self) {
  sweep_config direct = c;
  direct.launcher.clear();
  char tmpl[] = "/tmp/dlsize-sweep-check-XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd < 0)
    throw_syscall_error("mkstemp", errno, __FILE__, __LINE__, "the log of a point's check");
  close(fd);
  const std::filesystem::path log = tmpl;
  struct remove_log {
    const std::filesystem::path& p;
    ~remove_log() { unlink(p.c_str()); }
  } cleanup{log};
  for (const auto& p : points) {
    if (p.repeat > 1 || stop_requested())
      continue;
    auto argv = point_argv(direct, p, self, "/dev/null");
    argv.insert(argv.end(), {"--check-only", std::to_string(p.ranks)});
    const child_result r = run_child(argv, log, 5);
    if (r.exit_code == 0)
      continue;
    const std::string why = r.signal ? fmt::format("ended by signal {}", r.signal)
                                     : fmt::format("exit {}", r.exit_code);
    throw usage_error(fmt::format("sweep: point {} cannot run: dlsize {} refuses its options "
                                  "({}):\n{}no point was run. valid: options that dlsize {} "
                                  "accepts at every point",
                                  p.id, c.command, why, log_tail(log), c.command));
  }
}

void print_dry_run(const sweep_config& c, const std::vector<sweep_point>& points,
                   const sweep_options& o, const std::filesystem::path& dir) {
  for (const auto& p : points)
    std::printf(
        "%s: %s\n", p.id.c_str(),
        shown(point_argv(c, p, o.self, (dir / "reports" / (p.id + ".json")).string())).c_str());
  std::printf("%zu points in the order %s (%s%s); nothing run (--dry-run)\n", points.size(),
              c.order.c_str(),
              c.order == "points" ? "each point's repeats back to back"
                                  : "every point once before the next repeat",
              c.order_source == "config" ? ", as the config asks"
              : c.order == "points"      ? ": the default with 6 repeats or more under "
                                           "MLPerf Storage v3.0 rules, whose runs of a point must "
                                           "be consecutive"
                                         : ": the default");
}

enum class point_outcome { done, interrupted, failed };

// Runs point i as a child dlsize, records its attempt, summary and verdict in the index (saved
// before and after), and prints them.
point_outcome run_point(sweep_index& index, const sweep_config& c,
                        const std::vector<sweep_point>& points, std::size_t i,
                        const sweep_options& o, child_result& r) {
  index.begin_attempt(i);
  auto& e = index.point(i);
  const auto report = index.path_of(*e.report);
  const auto log = index.path_of(*e.log);
  const auto argv = point_argv(c, points[i], o.self, report.string());
  e.argv = argv;
  index.save();
  std::printf("[%zu/%zu] %s: %s\n", i + 1, points.size(), points[i].id.c_str(),
              shown(argv).c_str());
  std::fflush(stdout);

  r = run_child(argv, log);
  e.ended_at = report::utc_now();
  e.wall_s = r.wall_s;
  e.exit_code = r.exit_code >= 0 ? std::optional<std::int64_t>(r.exit_code) : std::nullopt;
  e.signal = r.signal ? std::optional<std::int64_t>(r.signal) : std::nullopt;
  e.summary = read_point_summary(report);
  std::string verdict;
  point_outcome outcome;
  if (r.exit_code == 0 && e.summary && e.summary->complete()) {
    e.status = point_status::done;
    outcome = point_outcome::done;
    verdict = fmt::format("done in {:.1f} s: {}", r.wall_s, summary_text(e.summary));
  } else if (r.forwarded_stop || stop_requested()) {
    e.status = point_status::interrupted;
    outcome = point_outcome::interrupted;
    verdict = "interrupted";
  } else {
    e.status = point_status::failed;
    outcome = point_outcome::failed;
    verdict = r.signal ? fmt::format("failed: ended by signal {}", r.signal)
                       : fmt::format("failed: exit {}", r.exit_code);
    verdict += fmt::format("; log {}\n{}", log.string(), log_tail(log));
  }
  index.save();
  std::printf("[%zu/%zu] %s: %s\n", i + 1, points.size(), points[i].id.c_str(), verdict.c_str());
  std::fflush(stdout);
  return outcome;
}

// The index's final status, saved, and what to do next; returns the sweep's exit code.
int finish_sweep(sweep_index& index, std::size_t done, std::size_t points, bool interrupted,
                 std::size_t failed, int exit_code, const std::filesystem::path& dir) {
  if (done == points) {
    index.set_status(sweep_status::complete);
  } else {
    std::string why = interrupted      ? fmt::format("interrupted by signal {}", stop_signal())
                      : exit_code == 2 ? "a point's options were refused (exit 2)"
                                       : fmt::format("{} points failed", failed);
    index.set_status(sweep_status::incomplete, why);
    if (exit_code == 0)
      exit_code = 1;
  }
  index.save();
  if (index.saved_at().empty()) {
    std::fputs(index.text().c_str(), stdout);
    std::printf("sweep: %zu of %zu points done; index printed above (no file could take it); "
                "reports and logs in %s\n",
                done, points, dir.c_str());
  } else {
    std::printf("sweep: %zu of %zu points done; index %s\n", done, points,
                index.saved_at().c_str());
  }
  if (index.fell_back() && exit_code == 0)
    exit_code = 1; // the results are safe, but not where they were asked for
  if (index.fell_back())
    std::printf("sweep: the index is not at %s: put it there (in place of what holds the name), "
                "then resume or size the sweep\n",
                index.path_of(kSweepIndexName).c_str());
  else if (done != points)
    std::printf("sweep: run the same command again to resume the points not done\n");
  else
    std::printf("sweep: next: dlsize size %s --out PREFIX\n", dir.c_str());
  return exit_code;
}

} // namespace

int run_sweep(const sweep_options& o) {
  const nlohmann::json given = core::read_json_file(o.config_file, core::kConfigJson);
  const sweep_config c = parse_sweep_config(given, o.config_file, o.bench_keys, o.checkpoint_keys);
  const std::vector<sweep_point> points = expand_points(c);
  const std::filesystem::path dir = o.out_dir;
  check_points(c, points, o.self);
  if (o.dry_run) {
    print_dry_run(c, points, o, dir);
    return 0;
  }

  sweep_index index(dir, c, points, o.command_line);
  std::size_t done = 0;
  for (std::size_t i = 0; i < points.size(); ++i)
    done += index.done(i) ? 1 : 0;
  if (done)
    std::printf("sweep: resuming %s: %zu of %zu points done\n", dir.c_str(), done, points.size());

  std::size_t failed = 0;
  bool interrupted = false;
  int exit_code = 0;
  for (std::size_t i = 0; i < points.size() && !interrupted; ++i) {
    if (index.done(i))
      continue;
    if (stop_requested()) {
      interrupted = true;
      break;
    }
    child_result r;
    switch (run_point(index, c, points, i, o, r)) {
    case point_outcome::done:
      ++done;
      break;
    case point_outcome::interrupted:
      interrupted = true;
      break;
    case point_outcome::failed:
      ++failed;
      break;
    }
    if (r.exit_code == 2) {
      exit_code = 2; // the bench refused its options: every other point would too
      break;
    }
  }
  return finish_sweep(index, done, points.size(), interrupted, failed, exit_code, dir);
}

} // namespace dlsize::sweep
