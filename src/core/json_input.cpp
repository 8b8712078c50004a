#include "core/json_input.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "core/stop.hpp"
#include "core/units.hpp"

namespace dlsize::core {
namespace fs = std::filesystem;
namespace {

using json = nlohmann::json;

std::string file_type_text(mode_t mode) {
  if (S_ISDIR(mode))
    return "a folder";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a regular file";
}

[[noreturn]] void over_limit(const fs::path& path, const json_limits& l, const std::string& size) {
  throw usage_error(fmt::format("'{}' is {}, over the {} limit for a {}. valid: a {} of at most "
                                "{} bytes",
                                path.string(), size,
                                units::format_bytes_binary(double(l.max_bytes)), l.kind, l.kind,
                                l.max_bytes));
}

// Closes the descriptor on every path out of read_input_file.
struct fd_guard {
  int fd;
  ~fd_guard() { ::close(fd); }
};

// Waits for a pipe to have bytes or an end; throws once it has been idle past the limit.
void wait_for_pipe(int fd, const fs::path& path, const json_limits& l) {
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(l.pipe_idle.count()));
    if (rc > 0)
      return;
    if (rc == 0)
      throw usage_error(fmt::format("'{}': the pipe gave no byte for {} ms. valid: a pipe whose "
                                    "writer sends the {} and closes it",
                                    path.string(), l.pipe_idle.count(), l.kind));
    if (errno != EINTR)
      throw_syscall_error("poll", errno, __FILE__, __LINE__, path.string());
    if (stop_requested())
      throw run_error(fmt::format("reading '{}': stopped by a signal", path.string()));
  }
}

// Builds the document from the parser's events (the parser itself keeps no recursion), so that
// the depth limit and duplicate keys are caught as they come, with the key path they are at.
class bounded_builder {
public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  bounded_builder(const std::string& source, const json_limits& limits)
      : m_source(source), m_limits(limits) {}

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(number_integer_t v) { return put(v); }
  bool number_unsigned(number_unsigned_t v) { return put(v); }
  bool number_float(number_float_t v, const string_t&) { return put(v); }
  bool string(string_t& v) { return put(std::move(v)); }
  bool binary(binary_t& v) { return put(json::binary(std::move(v))); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(string_t& k) {
    m_key = std::move(k);
    if (m_stack.back()->contains(m_key))
      fail(fmt::format("the key \"{}\" is given twice in one object. valid: each key once (a "
                       "reader would keep only one of them)",
                       m_key));
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) {
    fail("not valid JSON: " + json_error_text(ex));
  }

  json take() { return std::move(m_root); }

private:
  [[noreturn]] void fail(const std::string& what) const {
    throw usage_error(fmt::format("{}: {}: {}", m_source, path_here(), what));
  }

  // The path of the value the parser is at: the open containers and the pending key or index.
  std::string path_here() const {
    std::string out;
    for (std::size_t i = 1; i < m_path.size(); ++i)
      out += "/" + m_path[i];
    if (!m_stack.empty())
      out += "/" +
             (m_stack.back()->is_array() ? std::to_string(m_stack.back()->size()) : escaped(m_key));
    return out.empty() ? "/" : out;
  }

  static std::string escaped(const std::string& key) {
    std::string out;
    for (char c : key)
      out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return out;
  }

  bool put(json&& v) {
    place(std::move(v));
    return true;
  }

  json* place(json&& v) {
    if (m_stack.empty()) {
      m_root = std::move(v);
      return &m_root;
    }
    json& top = *m_stack.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    return &(top[m_key] = std::move(v));
  }

  bool open(json&& container) {
    if (m_stack.size() >= m_limits.max_depth)
      fail(fmt::format("nested deeper than {} levels. valid: a {} nested at most {} deep",
                       m_limits.max_depth, m_limits.kind, m_limits.max_depth));
    m_path.push_back(m_stack.empty()              ? ""
                     : m_stack.back()->is_array() ? std::to_string(m_stack.back()->size())
                                                  : escaped(m_key));
    m_stack.push_back(place(std::move(container)));
    return true;
  }

  bool close() {
    m_stack.pop_back();
    m_path.pop_back();
    return true;
  }

  const std::string& m_source;
  const json_limits& m_limits;
  json m_root;
  std::vector<json*> m_stack;
  std::vector<std::string> m_path; // each open container's key or index in its parent
  std::string m_key;
};

} // namespace

std::string json_error_text(const std::exception& e) {
  const std::string_view w = e.what();
  if (w.rfind("[json.exception.", 0) == 0) {
    const auto end = w.find("] ");
    if (end != std::string_view::npos)
      return std::string(w.substr(end + 2));
  }
  return std::string(w);
}

namespace {

// read_input_file's body, on the watch's helper thread: progress is stamped whenever a call
// that may block returns.
std::string read_unwatched(const fs::path& path, const json_limits& l, input_progress& progress) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw usage_error(fmt::format("cannot read '{}': {}", path.string(), errno_text(errno)));
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
    throw usage_error(fmt::format("'{}' is {}, not a {} file. valid: a regular file or a pipe "
                                  "(such as <(jq ...))",
                                  path.string(), file_type_text(st.st_mode), l.kind));
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > l.max_bytes)
    over_limit(path, l, fmt::format("{} bytes", st.st_size));
  // O_NONBLOCK: opening a pipe without a writer must not block; reads are waited for by poll.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    throw usage_error(fmt::format("cannot read '{}': {}", path.string(), errno_text(errno)));
  fd_guard guard{fd};
  // The path may have been replaced between stat and open.
  if (::fstat(fd, &st) != 0 || (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)))
    throw usage_error(fmt::format("'{}' changed while it was opened. valid: a regular file or a "
                                  "pipe",
                                  path.string()));
  const bool pipe = S_ISFIFO(st.st_mode);
  std::string text;
  std::vector<char> buf(64 * 1024);
  for (;;) {
    if (pipe)
      wait_for_pipe(fd, path, l);
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (n < 0)
      throw usage_error(fmt::format("cannot read '{}': {}", path.string(), errno_text(errno)));
    progress.store(now_ns(), std::memory_order_release);
    if (n == 0)
      break;
    if (text.size() + static_cast<std::uint64_t>(n) > l.max_bytes)
      over_limit(path, l, pipe ? "more than that (read from a pipe)" : "more than that");
    text.append(buf.data(), static_cast<std::size_t>(n));
  }
  return text;
}

} // namespace

std::string read_input_file(const fs::path& path, const json_limits& l) {
  // By value: the helper may outlive this call when the read is abandoned.
  return watched_read(path, [path, l](input_progress& p) { return read_unwatched(path, l, p); });
}

json parse_json(std::string_view text, const std::string& source, const json_limits& limits) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw usage_error(fmt::format("{}: empty. valid: a JSON {}", source, limits.kind));
  bounded_builder b(source, limits);
  json::sax_parse(text.begin(), text.end(), &b);
  return b.take();
}

json read_json_file(const fs::path& path, const json_limits& limits) {
  return parse_json(read_input_file(path, limits), path.string(), limits);
}

} // namespace dlsize::core
