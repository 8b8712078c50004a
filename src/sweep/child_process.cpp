#include "sweep/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/stop.hpp"

extern char** environ;

namespace dlsize::sweep {
namespace {

// posix_spawn's attributes and file actions, released on every path.
struct spawn_setup {
  posix_spawn_file_actions_t actions{};
  posix_spawnattr_t attr{};
  spawn_setup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~spawn_setup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  spawn_setup(const spawn_setup&) = delete;
  spawn_setup& operator=(const spawn_setup&) = delete;
};

} // namespace

child_result run_child(const std::vector<std::string>& argv, const std::filesystem::path& log,
                       double grace_s) {
  spawn_setup s;
  const std::string log_path = log.string();
  int rc = posix_spawn_file_actions_addopen(&s.actions, 0, "/dev/null", O_RDONLY, 0);
  if (rc == 0)
    rc = posix_spawn_file_actions_addopen(&s.actions, 1, log_path.c_str(),
                                          O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (rc == 0)
    rc = posix_spawn_file_actions_adddup2(&s.actions, 1, 2);
  // Its own process group: a terminal's Ctrl-C reaches dlsize sweep alone, which forwards it
  // once (a second SIGINT would end a bench before it writes its report).
  if (rc == 0)
    rc = posix_spawnattr_setpgroup(&s.attr, 0);
  sigset_t none;
  sigemptyset(&none);
  if (rc == 0)
    rc = posix_spawnattr_setsigmask(&s.attr, &none);
  if (rc == 0)
    rc = posix_spawnattr_setflags(&s.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  if (rc != 0)
    throw_syscall_error("posix_spawn setup", rc, __FILE__, __LINE__, "log: " + log_path);

  std::vector<char*> args;
  for (const auto& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::uint64_t t0 = now_ns();
  pid_t pid = -1;
  rc = posix_spawnp(&pid, args[0], &s.actions, &s.attr, args.data(), environ);
  if (rc == ENOENT || rc == EACCES || rc == ENOEXEC)
    throw usage_error(fmt::format("cannot start '{}': {}. valid: a program on PATH or a path to "
                                  "one",
                                  argv[0], errno_text(rc)));
  if (rc != 0)
    throw_syscall_error("posix_spawnp", rc, __FILE__, __LINE__, "program: " + argv[0]);

  child_result r;
  std::uint64_t forwarded_at = 0;
  bool killed = false;
  int status = 0;
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid)
      break;
    if (w < 0 && errno != EINTR)
      throw_syscall_error("waitpid", errno, __FILE__, __LINE__, "pid: " + std::to_string(pid));
    if (stop_requested() && !r.forwarded_stop) {
      kill(pid, SIGINT);
      r.forwarded_stop = true;
      forwarded_at = now_ns();
    }
    if (r.forwarded_stop && !killed &&
        static_cast<double>(now_ns() - forwarded_at) * 1e-9 > grace_s) {
      kill(-pid, SIGKILL);
      killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  r.wall_s = static_cast<double>(now_ns() - t0) * 1e-9;
  if (WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status))
    r.signal = WTERMSIG(status);
  return r;
}

} // namespace dlsize::sweep
