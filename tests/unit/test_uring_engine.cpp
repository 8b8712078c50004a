// Unit tests for src/io/uring_engine.hpp (and psync beside it): error accounting on real files
// (a sample whose open fails is one error, however the engine opens it) and the RAM check.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "io/engine.hpp"
#include "io/uring_engine.hpp"

namespace {

using namespace dlsize;

// Hands out one job per file, once.
class list_source : public io::job_source {
public:
  explicit list_source(std::uint32_t files) : m_files(files) {}
  io::pull_result pull(unsigned, io::read_job& job) override {
    const std::uint32_t f = m_next.fetch_add(1);
    if (f >= m_files)
      return io::pull_result::end;
    job = io::read_job{f, 0, 4096, f};
    return io::pull_result::job;
  }

private:
  std::uint32_t m_files;
  std::atomic<std::uint32_t> m_next{0};
};

class counting_consumer : public io::job_consumer {
public:
  void on_start(unsigned, const io::read_job&) override {}
  void on_data(unsigned, const io::read_job&, std::uint64_t, const std::byte*,
               std::size_t) override {}
  void on_done(unsigned, const io::read_job&, std::uint64_t, std::uint64_t, io::job_outcome outcome,
               const std::string&) override {
    (outcome == io::job_outcome::done ? ok : failed)++;
  }
  int ok = 0, failed = 0;
};

} // namespace

TEST_CASE("a per-sample open that fails counts as one error, not also a failed close",
          "[io][uring]") {
  std::string why;
  if (!io::uring_engine::available(why)) {
    WARN("io_uring unavailable: " << why);
    return;
  }
  const auto dir =
      std::filesystem::temp_directory_path() / ("dlsize-engine-errors-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  io::file_set files;
  for (int i = 0; i < 4; ++i) {
    const auto p = dir / ("f" + std::to_string(i));
    if (i != 1)
      std::ofstream(p) << std::string(4096, 'x');
    files.paths.push_back(p.string());
    files.sizes.push_back(4096);
  }
  io::engine_options opt;
  opt.engine = "io_uring";
  opt.cache = io::cache_mode::buffered;
  opt.keep_open = false;
  opt.queue_depth = 4;
  opt.request_size = 4096;
  std::string fallback;
  auto eng = io::make_engine(opt, files, fallback);
  list_source source(4);
  counting_consumer consumer;
  const std::atomic<bool> stop{false};
  const io::engine_result r = eng->run(source, consumer, stop);
  std::filesystem::remove_all(dir);
  REQUIRE(r.readers.size() == 1);
  CHECK(eng->name() == "io_uring");
  CHECK(consumer.ok == 3);
  CHECK(consumer.failed == 1);
  CHECK(r.readers[0].errors == 1);
  CHECK(r.readers[0].opens == 4);
  CHECK(r.readers[0].first_error.find("open failed") != std::string::npos);
}

TEST_CASE("queue depth × request size × readers past the host's RAM is refused before any "
          "buffer",
          "[io][limits]") {
  io::engine_options opt;
  opt.queue_depth = 4096;
  opt.request_size = 64u << 20;
  opt.readers = 256;
  CHECK_THROWS_AS(io::check_engine_options(opt), usage_error);
  CHECK_THROWS_WITH(io::check_engine_options(opt),
                    Catch::Contains("--queue-depth 4096") && Catch::Contains("64.00 TiB"));
  opt.queue_depth = 16;
  opt.request_size = 1u << 20;
  opt.readers = 4;
  CHECK_NOTHROW(io::check_engine_options(opt));
}
