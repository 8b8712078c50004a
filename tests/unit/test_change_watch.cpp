// Unit tests for src/io/change_watch.hpp: a file checked at open against its indexed size and
// mtime; a change stops the run by name, or (skip) is counted once and named.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "io/change_watch.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using dlsize::io::change_watch;
namespace fs = std::filesystem;

namespace {

std::int64_t mtime_ns(const fs::path& p) {
  struct stat st {};
  REQUIRE(stat(p.c_str(), &st) == 0);
  return std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
}

} // namespace

TEST_CASE("change_watch passes an unchanged file and names a changed one", "[change_watch]") {
  dlsize::test::temp_dir t("dlsize-change-watch");
  const fs::path p = t.path / "a.bin";
  std::ofstream(p) << "0123456789";
  const std::int64_t mt = mtime_ns(p);
  const int fd = open(p.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);

  change_watch same({10}, {mt}, {"a.bin"}, false);
  CHECK_FALSE(same.at_open(fd, 0, p.string()));
  CHECK_FALSE(same.at_open_path(0, p.string()));

  change_watch stop({11}, {mt}, {"a.bin"}, false);
  try {
    stop.at_open(fd, 0, p.string());
    FAIL("a changed size did not stop the run");
  } catch (const dlsize::run_error& e) {
    CHECK_THAT(e.what(), Contains("10 bytes at open, the index says 11") && Contains(p.string()));
  }
  change_watch touched({10}, {mt + 1}, {"a.bin"}, false);
  CHECK_THROWS_AS(touched.at_open_path(0, p.string()), dlsize::run_error);

  change_watch skip({11, 10}, {mt, mt}, {"a.bin", "b.bin"}, true);
  CHECK(skip.at_open(fd, 0, p.string()));
  CHECK(skip.at_open(fd, 0, p.string())); // asked again: still skipped, counted once
  CHECK(skip.skipped(0));
  CHECK_FALSE(skip.skipped(1));
  CHECK(skip.at_failed_open(ENOENT, 1, (t.path / "b.bin").string()));
  CHECK_FALSE(skip.at_failed_open(EACCES, 1, (t.path / "b.bin").string()));
  const auto seen = skip.changes_seen();
  CHECK(seen.count == 2);
  REQUIRE(seen.files.size() == 2);
  CHECK_THAT(seen.files[0], Contains("a.bin: 10 bytes at open"));
  CHECK_THAT(seen.files[1], Contains("b.bin: gone at open"));
  close(fd);
}
