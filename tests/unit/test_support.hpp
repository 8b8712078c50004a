#pragma once
// Helpers shared by the unit tests.
#include <string>

#include "core/error.hpp"

namespace dlsize::test {

// Runs f and returns the message of the usage_error it throws; a marker string otherwise.
template <typename F>
std::string usage_error_message(F&& f) {
  try {
    f();
  } catch (const dlsize::usage_error& e) {
    return e.what();
  } catch (...) {
    return "<an exception other than usage_error>";
  }
  return "<no exception>";
}

}  // namespace dlsize::test
