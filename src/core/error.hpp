#pragma once
// Errors with context. A usage_error is the user's to fix (exit 2); a run_error is a failure
// while running (exit 1). Messages read "what failed. key: value; key: value".
#include <cerrno>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace dlsize {

class usage_error : public std::runtime_error {
public:
  explicit usage_error(const std::string& what) : std::runtime_error(what) {}
};

class run_error : public std::runtime_error {
public:
  explicit run_error(const std::string& what) : std::runtime_error(what) {}
};

// Text of an errno value, thread-safe.
std::string errno_text(int err);

// Throws run_error for a failed system call: "CALL (at file:line) failed: strerror; CONTEXT".
[[noreturn]] void throw_syscall_error(const char* call, int err, const char* file, int line,
                                      const std::string& context);

} // namespace dlsize

// Checks a system call that returns -1 and sets errno on failure. Evaluates to the result.
#define DLSIZE_SYSCALL(call, context)                                                              \
  ([&]() {                                                                                         \
    auto dlsize_rc_ = (call);                                                                      \
    if (dlsize_rc_ == -1)                                                                          \
      ::dlsize::throw_syscall_error(#call, errno, __FILE__, __LINE__, (context));                  \
    return dlsize_rc_;                                                                             \
  }())

// Checks a liburing call that returns -errno on failure. Evaluates to the result.
#define DLSIZE_URING(call, context)                                                                \
  ([&]() {                                                                                         \
    auto dlsize_rc_ = (call);                                                                      \
    if (dlsize_rc_ < 0)                                                                            \
      ::dlsize::throw_syscall_error(#call, -dlsize_rc_, __FILE__, __LINE__, (context));            \
    return dlsize_rc_;                                                                             \
  }())
