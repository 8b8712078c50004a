#pragma once
// The watch over the files a command reads before its run (dataset manifest, index, config,
// workload profile, report, calibration): the same stop handling as the run's reads. A read of
// a file on a hung NFS or FUSE server never returns, and a thread the kernel holds so cannot be
// woken by a signal; so the read runs on a helper thread while the caller waits, and a signal
// (SIGINT, SIGTERM), --stall-timeout (no byte for that long) or --time-limit (counted from the
// process's start) ends the wait: the helper is abandoned to the kernel, touching only state of
// its own when it wakes, and the caller gets input_stopped naming the file.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <sys/stat.h>

#include "core/error.hpp"
#include "core/stop.hpp"

namespace dlsize::core {

// The limits of the command that reads; 0: none. A signal always ends a read.
struct input_limits {
  double stall_timeout_s = 0; // --stall-timeout
  double time_limit_s = 0;    // --time-limit, from the process's start
};

// Sets the limits every later watched read is held to (a command calls it once its options are
// known, again once a config file has changed them).
void watch_inputs(const input_limits& limits);
input_limits watched_limits();

// A watched read ended by a stop before the file was read: "reading 'FILE': no progress for
// 2 s (--stall-timeout); stuck in the kernel: a read of it". A run failure (exit 1).
class input_stopped : public run_error {
public:
  input_stopped(const std::string& what, stop_cause cause) : run_error(what), m_cause(cause) {}
  stop_cause cause() const { return m_cause; }

private:
  stop_cause m_cause;
};

// What a read body reports to the watch: it stores now_ns() whenever a call that may block
// returned (a byte came, the file opened).
using input_progress = std::atomic<std::uint64_t>;

// Runs read(progress) on a helper thread (SIGINT and SIGTERM blocked there, so a signal reaches
// a thread that can act on it) and returns what it returns, or rethrows what it throws. Throws
// input_stopped when a signal, a stall (no progress for the stall timeout) or the time limit
// comes first; the helper is then left to the kernel. Where no thread can be started, read runs
// on the calling thread, unwatched.
std::string watched_read(const std::filesystem::path& path,
                         const std::function<std::string(input_progress&)>& read);

// Marks progress of the watched call running on this thread (a line of an index read, a file
// looked up); a no-op on a thread that runs none. Lets a long body that reads many things (an
// index of a million files, each stat'ed for changes) stay under --stall-timeout without
// passing the progress counter down.
void note_input_progress();

// What a watched call does to the file, for its message: "looking up 'FILE': ...; stuck in the
// kernel: a lookup of it".
struct watched_action {
  const char* doing = "reading";     // "reading", "looking up", "opening"
  const char* call = "a read of it"; // the call the kernel holds
};
inline constexpr watched_action kLookup{"looking up", "a lookup of it"};

// Runs body() under the same watch as watched_read and returns what it returns (body marks its
// progress with note_input_progress). body may outlive this call when it is abandoned: it must
// own what it touches (capture by value), never the caller's locals.
void watched_run(const std::filesystem::path& path, const watched_action& action,
                 const std::function<void()>& body);
template <class Body>
auto watched_call(const std::filesystem::path& path, const watched_action& action, Body body)
    -> decltype(body()) {
  using result = decltype(body());
  auto out = std::make_shared<std::optional<result>>();
  watched_run(path, action, [out, body = std::move(body)] { out->emplace(body()); });
  return std::move(**out);
}

// stat(2) of path under the watch: nullopt where it fails (errno in err when given).
std::optional<struct stat> watched_stat(const std::filesystem::path& path, int* err = nullptr);
inline bool watched_exists(const std::filesystem::path& path) {
  return watched_stat(path).has_value();
}

} // namespace dlsize::core
