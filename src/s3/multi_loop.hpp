#pragma once
// A curl multi handle whose sockets are watched by epoll and driven by
// curl_multi_socket_action: a wake-up runs only the transfers whose socket is ready
// (curl_multi_perform would check every one). The s3 engine's readers and its writer each own
// one; one thread uses it.
#include <cstdint>
#include <string>

#include <curl/curl.h>

namespace dlsize::s3 {

class multi_loop {
public:
  // Throws run_error naming `owner` when curl or epoll cannot start.
  explicit multi_loop(const std::string& owner);
  ~multi_loop();
  multi_loop(const multi_loop&) = delete;
  multi_loop& operator=(const multi_loop&) = delete;

  CURLM* multi() const { return m_multi; }
  // Waits up to timeout_ms (less when curl's timer is due sooner) for a socket to be ready, then
  // lets curl run the transfers of the ready sockets and of a due timer. Throws run_error when
  // epoll or curl fails.
  void wait(long timeout_ms, std::uint64_t now);

  // curl's callbacks (CURLMOPT_SOCKETFUNCTION, CURLMOPT_TIMERFUNCTION).
  static int watch_socket(CURL*, curl_socket_t fd, int what, void* user, void* watched);
  static int set_timer(CURLM*, long timeout_ms, void* user);

private:
  void socket_action(curl_socket_t fd, int mask);

  CURLM* m_multi = nullptr;
  int m_epfd = -1;
  std::uint64_t m_deadline_ns = UINT64_MAX; // curl's timer
};

} // namespace dlsize::s3
