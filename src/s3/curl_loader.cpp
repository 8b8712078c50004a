// libcurl, loaded when the first S3 call needs it (dlopen of libcurl.so.4) instead of at every
// process's start. Linked, libcurl and the ~20 libraries it pulls in (TLS, Kerberos, LDAP, SSH,
// IDN, HTTP/2, ...) cost every dlsize process about 17 ms of the dynamic loader's time (measured:
// 2.6 ms for an empty program, 19.8 ms with -lcurl), though most commands never make a request;
// and a host without libcurl could not run dlsize on files at all. This file defines the curl
// functions dlsize calls (declared by <curl/curl.h>, which is all the build takes of libcurl):
// each forwards to the library's own, looked up once. A host without libcurl.so.4 gets a
// run_error naming the package at its first S3 call.
//
// curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic; their one argument is
// read by the option's type range, as libcurl reads it itself (a long below
// CURLOPTTYPE_OBJECTPOINT, a pointer, a function pointer, a curl_off_t, a blob pointer), and passed
// on as that type. The names are defined in parentheses: <curl/typecheck-gcc.h> makes some of them
// macros.
#include <curl/curl.h>
#include <dlfcn.h>

#include <cstdarg>
#include <cstdlib>
#include <mutex>
#include <string>

#include "core/error.hpp"

namespace dlsize::s3 {
namespace {

using any_function = void (*)();

struct curl_api {
  CURLcode (*global_init)(long);
  CURL* (*easy_init)();
  void (*easy_cleanup)(CURL*);
  void (*easy_reset)(CURL*);
  CURLcode (*easy_perform)(CURL*);
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...);
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...);
  const char* (*easy_strerror)(CURLcode);
  CURLcode (*easy_pause)(CURL*, int);
  curl_slist* (*slist_append)(curl_slist*, const char*);
  void (*slist_free_all)(curl_slist*);
  CURLM* (*multi_init)();
  CURLMcode (*multi_cleanup)(CURLM*);
  CURLMcode (*multi_add_handle)(CURLM*, CURL*);
  CURLMcode (*multi_remove_handle)(CURLM*, CURL*);
  CURLMcode (*multi_setopt)(CURLM*, CURLMoption, ...);
  CURLMcode (*multi_assign)(CURLM*, curl_socket_t, void*);
  CURLMcode (*multi_socket_action)(CURLM*, curl_socket_t, int, int*);
  CURLMcode (*multi_perform)(CURLM*, int*);
  CURLMcode (*multi_poll)(CURLM*, curl_waitfd[], unsigned, int, int*);
  CURLMsg* (*multi_info_read)(CURLM*, int*);
  const char* (*multi_strerror)(CURLMcode);
  curl_version_info_data* (*version_info)(CURLversion);
};

// DLSIZE_LIBCURL names another library file (a libcurl outside the loader's path).
std::string library_name() {
  const char* given = std::getenv("DLSIZE_LIBCURL");
  return given && *given ? given : "libcurl.so.4";
}

curl_api load() {
  const std::string name = library_name();
  void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    throw run_error(std::string("the S3 client needs libcurl: ") + dlerror() +
                    ". valid: install it (Debian: apt-get install libcurl4), or name its file "
                    "in DLSIZE_LIBCURL");
  curl_api a{};
  std::string missing;
  auto sym = [&](auto& fn, const char* symbol) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, symbol));
    if (!fn)
      missing += std::string(missing.empty() ? "" : ", ") + symbol;
  };
  sym(a.global_init, "curl_global_init");
  sym(a.easy_init, "curl_easy_init");
  sym(a.easy_cleanup, "curl_easy_cleanup");
  sym(a.easy_reset, "curl_easy_reset");
  sym(a.easy_perform, "curl_easy_perform");
  sym(a.easy_setopt, "curl_easy_setopt");
  sym(a.easy_getinfo, "curl_easy_getinfo");
  sym(a.easy_strerror, "curl_easy_strerror");
  sym(a.easy_pause, "curl_easy_pause");
  sym(a.slist_append, "curl_slist_append");
  sym(a.slist_free_all, "curl_slist_free_all");
  sym(a.multi_init, "curl_multi_init");
  sym(a.multi_cleanup, "curl_multi_cleanup");
  sym(a.multi_add_handle, "curl_multi_add_handle");
  sym(a.multi_remove_handle, "curl_multi_remove_handle");
  sym(a.multi_setopt, "curl_multi_setopt");
  sym(a.multi_assign, "curl_multi_assign");
  sym(a.multi_socket_action, "curl_multi_socket_action");
  sym(a.multi_perform, "curl_multi_perform");
  sym(a.multi_poll, "curl_multi_poll");
  sym(a.multi_info_read, "curl_multi_info_read");
  sym(a.multi_strerror, "curl_multi_strerror");
  sym(a.version_info, "curl_version_info");
  if (!missing.empty())
    throw run_error(std::string("the S3 client: ") + name + " lacks " + missing +
                    ". valid: libcurl 7.85 or newer (Debian 12: libcurl4)");
  return a;
}

const curl_api& loaded_curl() {
  static const curl_api a = load(); // thread-safe; a failed load throws again at the next call
  return a;
}

// A variadic setopt's one argument, read by the option's type range and passed on as read.
template <class Setopt, class Handle, class Option>
auto forward_option(Setopt setopt, Handle* h, Option option, va_list& ap) {
  const long type = option;
  if (type < CURLOPTTYPE_OBJECTPOINT)
    return setopt(h, option, va_arg(ap, long));
  if (type < CURLOPTTYPE_FUNCTIONPOINT)
    return setopt(h, option, va_arg(ap, void*));
  if (type < CURLOPTTYPE_OFF_T)
    return setopt(h, option, va_arg(ap, any_function));
  if (type < CURLOPTTYPE_BLOB)
    return setopt(h, option, va_arg(ap, curl_off_t));
  return setopt(h, option, va_arg(ap, void*));
}

} // namespace
} // namespace dlsize::s3

using dlsize::s3::loaded_curl;

// The two variadic setopts, of an easy and of a multi handle: va_start and va_end must be in
// the variadic function itself, so the forwarding is written once here.
#define DLSIZE_CURL_SETOPT(name, result, handle, option_type, member)                              \
  result(name)(handle * h, option_type option, ...) {                                              \
    va_list ap;                                                                                    \
    va_start(ap, option);                                                                          \
    const result rc = dlsize::s3::forward_option(loaded_curl().member, h, option, ap);             \
    va_end(ap);                                                                                    \
    return rc;                                                                                     \
  }

extern "C" {

CURLcode(curl_global_init)(long flags) {
  return loaded_curl().global_init(flags);
}
CURL*(curl_easy_init)() {
  return loaded_curl().easy_init();
}
void(curl_easy_cleanup)(CURL* h) {
  loaded_curl().easy_cleanup(h);
}
void(curl_easy_reset)(CURL* h) {
  loaded_curl().easy_reset(h);
}
CURLcode(curl_easy_perform)(CURL* h) {
  return loaded_curl().easy_perform(h);
}
DLSIZE_CURL_SETOPT(curl_easy_setopt, CURLcode, CURL, CURLoption, easy_setopt)
CURLcode(curl_easy_getinfo)(CURL* h, CURLINFO info, ...) {
  va_list ap;
  va_start(ap, info);
  void* out = va_arg(ap, void*); // every CURLINFO takes a pointer to where the answer goes
  va_end(ap);
  return loaded_curl().easy_getinfo(h, info, out);
}
const char*(curl_easy_strerror)(CURLcode rc) {
  return loaded_curl().easy_strerror(rc);
}
CURLcode(curl_easy_pause)(CURL* h, int bitmask) {
  return loaded_curl().easy_pause(h, bitmask);
}
curl_slist*(curl_slist_append)(curl_slist* list, const char* text) {
  return loaded_curl().slist_append(list, text);
}
void(curl_slist_free_all)(curl_slist* list) {
  loaded_curl().slist_free_all(list);
}
CURLM*(curl_multi_init)() {
  return loaded_curl().multi_init();
}
CURLMcode(curl_multi_cleanup)(CURLM* m) {
  return loaded_curl().multi_cleanup(m);
}
CURLMcode(curl_multi_add_handle)(CURLM* m, CURL* h) {
  return loaded_curl().multi_add_handle(m, h);
}
CURLMcode(curl_multi_remove_handle)(CURLM* m, CURL* h) {
  return loaded_curl().multi_remove_handle(m, h);
}
DLSIZE_CURL_SETOPT(curl_multi_setopt, CURLMcode, CURLM, CURLMoption, multi_setopt)
CURLMcode(curl_multi_assign)(CURLM* m, curl_socket_t s, void* p) {
  return loaded_curl().multi_assign(m, s, p);
}
CURLMcode(curl_multi_socket_action)(CURLM* m, curl_socket_t s, int mask, int* running) {
  return loaded_curl().multi_socket_action(m, s, mask, running);
}
CURLMcode(curl_multi_perform)(CURLM* m, int* running) {
  return loaded_curl().multi_perform(m, running);
}
CURLMcode(curl_multi_poll)(CURLM* m, curl_waitfd fds[], unsigned n, int timeout_ms, int* ready) {
  return loaded_curl().multi_poll(m, fds, n, timeout_ms, ready);
}
CURLMsg*(curl_multi_info_read)(CURLM* m, int* left) {
  return loaded_curl().multi_info_read(m, left);
}
const char*(curl_multi_strerror)(CURLMcode rc) {
  return loaded_curl().multi_strerror(rc);
}
curl_version_info_data*(curl_version_info)(CURLversion v) {
  return loaded_curl().version_info(v);
}

} // extern "C"
