#include "s3/multi_loop.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"

namespace dlsize::s3 {

multi_loop::multi_loop(const std::string& owner) {
  m_multi = curl_multi_init();
  m_epfd = epoll_create1(EPOLL_CLOEXEC);
  if (m_multi == nullptr || m_epfd < 0) {
    const int err = errno;
    if (m_multi != nullptr)
      curl_multi_cleanup(m_multi);
    if (m_epfd >= 0)
      close(m_epfd);
    throw run_error(fmt::format("{} could not start: {}", owner,
                                m_multi == nullptr ? "curl_multi_init failed (out of memory?)"
                                                   : errno_text(err)));
  }
  curl_multi_setopt(m_multi, CURLMOPT_SOCKETFUNCTION, watch_socket);
  curl_multi_setopt(m_multi, CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(m_multi, CURLMOPT_TIMERFUNCTION, set_timer);
  curl_multi_setopt(m_multi, CURLMOPT_TIMERDATA, this);
}

multi_loop::~multi_loop() {
  curl_multi_cleanup(m_multi);
  if (m_epfd >= 0)
    close(m_epfd);
}

// curl asks for a socket to be watched (or no longer).
int multi_loop::watch_socket(CURL*, curl_socket_t fd, int what, void* user, void* watched) {
  auto* l = static_cast<multi_loop*>(user);
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(l->m_epfd, EPOLL_CTL_DEL, fd, nullptr); // EBADF when curl closed it first: fine
    return 0;
  }
  epoll_event ev{};
  ev.data.fd = fd;
  ev.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
  // curl keeps a pointer per socket (curl_multi_assign): set once the socket is in the set.
  if (watched == nullptr) {
    epoll_ctl(l->m_epfd, EPOLL_CTL_ADD, fd, &ev);
    curl_multi_assign(l->m_multi, fd, l);
  } else {
    epoll_ctl(l->m_epfd, EPOLL_CTL_MOD, fd, &ev);
  }
  return 0;
}

// curl asks to be called back after timeout_ms (-1: no timer).
int multi_loop::set_timer(CURLM*, long timeout_ms, void* user) {
  auto* l = static_cast<multi_loop*>(user);
  l->m_deadline_ns =
      timeout_ms < 0 ? UINT64_MAX : now_ns() + static_cast<std::uint64_t>(timeout_ms) * 1'000'000;
  return 0;
}

void multi_loop::wait(long timeout_ms, std::uint64_t now) {
  if (m_deadline_ns != UINT64_MAX)
    timeout_ms = std::min<long>(
        timeout_ms,
        static_cast<long>((m_deadline_ns - std::min(m_deadline_ns, now) + 999'999) / 1'000'000));
  epoll_event events[16];
  const int n = epoll_wait(m_epfd, events, 16, static_cast<int>(timeout_ms));
  if (n < 0 && errno != EINTR)
    throw run_error(fmt::format("epoll_wait failed: {}", errno_text(errno)));
  for (int i = 0; i < n; ++i) {
    const std::uint32_t e = events[i].events;
    socket_action(events[i].data.fd, ((e & EPOLLIN) ? CURL_CSELECT_IN : 0) |
                                         ((e & EPOLLOUT) ? CURL_CSELECT_OUT : 0) |
                                         ((e & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0));
  }
  if (now_ns() >= m_deadline_ns) {
    m_deadline_ns = UINT64_MAX;
    socket_action(CURL_SOCKET_TIMEOUT, 0);
  }
}

void multi_loop::socket_action(curl_socket_t fd, int mask) {
  int running = 0;
  const CURLMcode mc = curl_multi_socket_action(m_multi, fd, mask, &running);
  if (mc != CURLM_OK)
    throw run_error(fmt::format("curl_multi_socket_action failed: {}", curl_multi_strerror(mc)));
}

} // namespace dlsize::s3
