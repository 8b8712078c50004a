#include "core/output_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <ctime>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace dlsize {
namespace fs = std::filesystem;
namespace {

fs::path folder_of(const fs::path& p) {
  return p.parent_path().empty() ? fs::path(".") : p.parent_path();
}

std::string partial_prefix(const fs::path& p) {
  return p.filename().string() + ".partial-";
}

// Whether a partial file is dlsize's own by content: empty (reserved, nothing written yet) or a
// partial report (a dlsize schema, "partial": true: a long run's last state). A final document
// left there by a commit that failed is kept: it may be the only copy.
bool dlsize_partial(const fs::path& p) {
  struct stat st {};
  if (lstat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return false;
  if (st.st_size == 0)
    return true;
  if (st.st_size > (256 << 20))
    return false;
  std::string text;
  try {
    text = read_text_file(p);
  } catch (const std::exception&) {
    return false;
  }
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string())
    return false;
  return j["schema"].get<std::string>().rfind("dlsize.", 0) == 0 && j.contains("partial") &&
         j["partial"] == true;
}

// The pid of a live process that reserved p (NAME.partial-<pid>[.N]), or 0. A partial file of a
// process that is gone (a run killed by SIGKILL) is no obstacle, and is removed when it is
// dlsize's own by content (dlsize_partial); any other file of that name is left alone.
pid_t live_writer(const fs::path& p) {
  const std::string prefix = partial_prefix(p);
  std::error_code ec;
  std::vector<fs::path> stale;
  for (const auto& e : fs::directory_iterator(folder_of(p), ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0)
      continue;
    const std::string rest = name.substr(prefix.size());
    const auto dot = rest.find('.');
    const std::string digits = rest.substr(0, dot);
    const std::string suffix = dot == std::string::npos ? "" : rest.substr(dot + 1);
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos ||
        (dot != std::string::npos &&
         (suffix.empty() || suffix.find_first_not_of("0123456789") != std::string::npos)))
      continue;
    const auto pid = static_cast<pid_t>(std::stol(digits));
    // Our own pid's file cannot be ours yet (nothing is reserved before this check).
    if (pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM))
      return pid;
    stale.push_back(e.path());
  }
  for (const auto& s : stale)
    if (dlsize_partial(s) && unlink(s.c_str()) == 0)
      std::fprintf(stderr, "dlsize: removed '%s', the partial file of a dlsize that is gone\n",
                   s.c_str());
  return 0;
}

void check_free_name(const fs::path& path, const std::string& option) {
  if (path.empty())
    throw usage_error(fmt::format("{}: an empty file name. valid: a new file name", option));
  std::error_code ec;
  const auto st = fs::symlink_status(path, ec);
  if (fs::is_symlink(st) && !fs::exists(path, ec))
    throw usage_error(fmt::format("{}: '{}' is a dangling symlink (to '{}'); dlsize never writes "
                                  "through one. valid: a new file name",
                                  option, path.string(), fs::read_symlink(path, ec).string()));
  if (fs::exists(st))
    throw usage_error(fmt::format("{}: '{}' exists; dlsize never overwrites a file. valid: a new "
                                  "file name",
                                  option, path.string()));
  const fs::path dir = folder_of(path);
  if (!fs::is_directory(dir, ec))
    throw usage_error(fmt::format("{}: folder '{}' does not exist", option, dir.string()));
  if (access(dir.c_str(), W_OK) != 0)
    throw usage_error(fmt::format("{}: folder '{}' is not writable", option, dir.string()));
  if (const pid_t other = live_writer(path))
    throw usage_error(fmt::format("{}: dlsize (pid {}) is writing '{}' now. valid: another name",
                                  option, other, path.string()));
}

fs::path beside_name(const fs::path& path) {
  return fmt::format("{}-{}-{}{}", path.stem().string(), utc_stamp(), getpid(),
                     path.extension().string());
}

} // namespace

output_file::output_file(fs::path path, std::string option, bool make_folder)
    : m_path(std::move(path)), m_option(std::move(option)) {
  std::error_code ec;
  if (make_folder && !fs::exists(folder_of(m_path), ec)) {
    if (!fs::create_directory(folder_of(m_path), ec) || ec)
      throw usage_error(fmt::format("{}: the folder '{}' cannot be made: {}. valid: --out FILE",
                                    m_option, folder_of(m_path).string(), ec.message()));
    m_made_folder = true;
  }
  check_free_name(m_path, m_option);
  // O_EXCL: two commands given the same name never share a partial file. Our own pid's name can
  // only be left by a dead process that had it; a file there that is not dlsize's is kept and
  // the next name taken.
  for (int n = 0;; ++n) {
    m_partial = folder_of(m_path) / (partial_prefix(m_path) + std::to_string(getpid()) +
                                     (n ? fmt::format(".{}", n) : std::string()));
    const int fd = open(m_partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      close(fd);
      return;
    }
    if (errno != EEXIST || n == 100)
      throw_syscall_error("open", errno, __FILE__, __LINE__,
                          fmt::format("{}: reserving '{}'", m_option, m_partial.string()));
  }
}

output_file::output_file(output_file&& other) noexcept
    : m_path(std::move(other.m_path)), m_partial(std::move(other.m_partial)),
      m_option(std::move(other.m_option)), m_done(other.m_done),
      m_made_folder(other.m_made_folder) {
  other.m_done = true;
}

output_file::~output_file() {
  if (m_done)
    return;
  unlink(m_partial.c_str());
  if (m_made_folder)
    rmdir(folder_of(m_path).c_str()); // only if empty: never what others wrote there
}

void output_file::write_partial(std::string_view content) {
  write_file_atomic(m_partial, content, true);
}

output_place output_file::commit(std::string_view content) {
  m_done = true;
  std::string why;
  try {
    write_file_atomic(m_partial, content, true);
    const int err = move_no_replace(m_partial, m_path);
    if (err == 0)
      return {m_path, false};
    why = err == EEXIST ? "appeared during the run" : errno_text(err);
  } catch (const std::exception& e) {
    why = e.what();
  }
  if (auto p = write_under_new_name(m_path, content, m_option, why)) {
    unlink(m_partial.c_str());
    return {*p, true};
  }
  std::fprintf(stderr,
               "dlsize: %s '%s' could not be written (%s); written to stdout instead (the "
               "partial file '%s' is kept)\n",
               m_option.c_str(), m_path.c_str(), why.c_str(), m_partial.c_str());
  std::fwrite(content.data(), 1, content.size(), stdout);
  std::fflush(stdout);
  return {{}, true};
}

std::optional<fs::path> write_under_new_name(const fs::path& path, std::string_view content,
                                             const std::string& label, std::string& why) {
  const fs::path beside = folder_of(path) / beside_name(path);
  for (const fs::path& p : {beside, fs::path(".") / beside.filename()}) {
    try {
      write_file_atomic(p, content);
      std::fprintf(stderr, "dlsize: %s '%s' could not be written (%s); written to '%s' instead\n",
                   label.c_str(), path.c_str(), why.c_str(), p.c_str());
      return p;
    } catch (const std::exception& e) {
      why += fmt::format("; '{}': {}", p.string(), e.what());
    }
  }
  return std::nullopt;
}

std::optional<output_file> reserve_if_given(bool given, const fs::path& path,
                                            const std::string& option) {
  std::optional<output_file> f;
  if (given)
    f.emplace(path, option);
  return f;
}

bool commit_output(std::optional<output_file>& f, std::string_view content, std::string_view what) {
  if (!f)
    return false;
  const output_place where = f->commit(content);
  if (!where.path.empty())
    std::printf("%.*s: %s\n", static_cast<int>(what.size()), what.data(), where.path.c_str());
  return where.fell_back;
}

std::string utc_stamp() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

fs::path default_output_path(std::string_view command, std::string_view workload) {
  std::string name(workload);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
      c = '_';
  const fs::path dir = "reports";
  std::error_code ec;
  const std::string stem = fmt::format("{}-{}-{}", command, name, utc_stamp());
  fs::path p = dir / (stem + ".json");
  if (fs::exists(fs::symlink_status(p, ec)))
    p = dir / fmt::format("{}-{}.json", stem, getpid());
  return p;
}

} // namespace dlsize
