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
#include <string>

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

} // namespace dlsize::core
