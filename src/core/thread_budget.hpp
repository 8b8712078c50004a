#pragma once
// The threads a command asks for, checked up front against the limit on processes and threads
// (RLIMIT_NPROC, `ulimit -u`), so that a run does not fail half-way when one cannot start.
#include <cstdint>
#include <string>

namespace dlsize {

// Throws usage_error when `threads` more threads than this process has now exceed the soft
// RLIMIT_NPROC; `what` names the options that ask for them. The limit counts every process
// and thread of the user, so a run can still fail later (it then ends cleanly, exit 1). Root is
// not held to the limit and is not checked.
void check_thread_budget(std::uint64_t threads, const std::string& what);

} // namespace dlsize
