// The s3 read engine (s3::reader) against the radosgw of scripts/s3-server.sh: objects put with
// s3::client, read back through the engine as whole objects and byte ranges, every byte and
// figure checked. Hidden ([.s3-engine]): integration.test_s3_bench runs them with the fixture's
// endpoint and keys. The figures' merge needs no server.
#include "dlsize/build_config.hpp"

#include <catch2/catch.hpp>

#include "s3/transfer_stats.hpp"

namespace s3 = dlsize::s3;

TEST_CASE("S3 transfer figures merge and travel between ranks without loss", "[s3][engine]") {
  s3::transfer_stats a, b;
  a.requests = 3;
  a.retries = 1;
  a.retries_by_cause["503"] = 1;
  a.latency.record(1'000'000);
  b.requests = 2;
  b.retries_by_cause["503"] = 2;
  b.errors_by_cause["404"] = 1;
  b.server = "Ceph";
  b.latency.record(3'000'000);
  a.merge(b);
  const auto back = s3::transfer_stats::from_json(a.to_json());
  CHECK(back.requests == 5);
  CHECK(back.retries_by_cause.at("503") == 3);
  CHECK(back.errors_by_cause.at("404") == 1);
  CHECK(back.server == "Ceph");
  CHECK(back.latency.count() == 2);
  CHECK(back.latency.max() == 3'000'000);
}

#if DLSIZE_HAVE_S3
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>

#include "io/engine.hpp"
#include "s3/client.hpp"
#include "s3/reader.hpp"
#include "s3_fixture.hpp"

namespace io = dlsize::io;
using dlsize::test::fixture_options;
using dlsize::test::random_bytes;
using dlsize::test::scratch_bucket;

namespace {

class list_source : public io::job_source {
public:
  explicit list_source(std::vector<io::read_job> jobs) : m_jobs(std::move(jobs)) {}
  io::pull_result pull(unsigned, io::read_job& job) override {
    const std::size_t i = m_next.fetch_add(1);
    if (i >= m_jobs.size())
      return io::pull_result::end;
    job = m_jobs[i];
    return io::pull_result::job;
  }

private:
  std::vector<io::read_job> m_jobs;
  std::atomic<std::size_t> m_next{0};
};

// Keeps what each job (by tag) received, checking it comes in order.
class keeping_consumer : public io::job_consumer {
public:
  struct got {
    std::uint64_t first = 0, next = 0;
    std::vector<std::byte> bytes;
    io::job_outcome outcome = io::job_outcome::interrupted;
    std::string error;
    bool in_order = true;
  };
  bool ordered() const override { return true; }
  void on_start(unsigned, const io::read_job& job) override {
    const std::lock_guard lock(m);
    jobs[job.tag].first = jobs[job.tag].next = job.offset;
  }
  void on_data(unsigned, const io::read_job& job, std::uint64_t offset, const std::byte* data,
               std::size_t n) override {
    const std::lock_guard lock(m);
    got& g = jobs[job.tag];
    g.in_order = g.in_order && offset == g.next;
    g.bytes.insert(g.bytes.end(), data, data + n);
    g.next = offset + n;
  }
  void on_done(unsigned, const io::read_job& job, std::uint64_t, std::uint64_t,
               io::job_outcome outcome, const std::string& error) override {
    const std::lock_guard lock(m);
    jobs[job.tag].outcome = outcome;
    jobs[job.tag].error = error;
  }
  std::mutex m;
  std::map<std::uint64_t, got> jobs;
};

} // namespace

TEST_CASE("the s3 engine reads whole objects and byte ranges, every byte in order",
          "[.s3-engine]") {
  s3::client c(fixture_options(), s3::credentials::from_environment());
  scratch_bucket b(c, "engine");
  const std::vector<std::vector<std::byte>> data = {
      random_bytes((3u << 20) + 123, 1), random_bytes(4096, 2), random_bytes(300'000, 3)};
  io::file_set files;
  for (std::size_t i = 0; i < data.size(); ++i) {
    files.paths.push_back(fmt::format("train/obj {}+{}.bin", i, i));
    files.sizes.push_back(data[i].size());
    c.put_object(b.name, files.paths.back(), data[i]);
  }
  files.paths.push_back("train/missing.bin");
  files.sizes.push_back(1000);
  std::vector<io::read_job> jobs = {
      {.file = 0, .offset = 0, .length = data[0].size(), .tag = 0}, // whole
      {.file = 1, .offset = 0, .length = 4096, .tag = 1},           // whole
      {.file = 2, .offset = 0, .length = 300'000, .tag = 2},        // whole
      {.file = 0, .offset = 1000, .length = 5000, .tag = 3},        // a record
      {.file = 2, .offset = 299'000, .length = 5000, .tag = 4},     // past the end: what is there
      {.file = 3, .offset = 0, .length = 1000, .tag = 5},           // no such object
  };
  for (std::uint64_t t = 6; t < 30; ++t)
    jobs.push_back({.file = 1, .offset = t * 64, .length = 100, .tag = t});
  const io::engine_options opt{.engine = "s3", .queue_depth = 4, .readers = 2};
  s3::reader eng(opt, files,
                 {.bucket = b.name,
                  .endpoints = {fixture_options()},
                  .keys = s3::credentials::from_environment(),
                  .retry = {}});
  list_source src(jobs);
  keeping_consumer got;
  const std::atomic<bool> stop{false};
  const io::engine_result res = eng.run(src, got, stop);
  CHECK(res.error.empty());

  for (const auto& j : jobs) {
    INFO("job " << j.tag);
    const auto& g = got.jobs.at(j.tag);
    CHECK(g.in_order);
    if (j.file == 3) {
      CHECK(g.outcome == io::job_outcome::failed);
      CHECK_THAT(g.error, Catch::Contains("HTTP 404") && Catch::Contains("train/missing.bin"));
      continue;
    }
    REQUIRE(g.outcome == io::job_outcome::done);
    const auto& d = data[j.file];
    const std::size_t end = std::min<std::size_t>(j.offset + j.length, d.size());
    REQUIRE(g.bytes.size() == end - j.offset);
    CHECK(std::equal(g.bytes.begin(), g.bytes.end(), d.begin() + static_cast<long>(j.offset)));
  }
  const s3::transfer_stats st = eng.stats();
  CHECK(st.requests == jobs.size()); // one GET per job, none retried
  CHECK(st.retries == 0);
  CHECK(st.errors == 1);
  CHECK(st.errors_by_cause.at("404") == 1);
  std::uint64_t bytes = 0;
  for (const auto& [tag, g] : got.jobs)
    bytes += g.bytes.size();
  CHECK(st.bytes == bytes);
  // Kept-alive connections: at most one per slot, far fewer than requests.
  CHECK(st.connections >= 1);
  CHECK(st.connections <= 8);
  CHECK(st.first_byte.count() == jobs.size());
  CHECK(st.latency.count() == jobs.size());
  CHECK(st.latency.max() >= st.first_byte.min());
  // radosgw (beast) sends no Server header: the figure stays empty (test_s3_bench checks one).
  std::uint64_t io_requests = 0;
  for (const auto& r : res.readers)
    io_requests += r.requests;
  CHECK(io_requests == jobs.size());
  CHECK(eng.stuck_read(0).empty()); // nothing in flight after the run
}

TEST_CASE("the s3 engine under a rate cap and a stop", "[.s3-engine]") {
  s3::client c(fixture_options(), s3::credentials::from_environment());
  scratch_bucket b(c, "engine-cap");
  const auto data = random_bytes(1u << 20, 4);
  io::file_set files{.paths = {"big.bin"}, .sizes = {data.size()}, .watch = {}};
  c.put_object(b.name, "big.bin", data);
  // 2 MB/s: the 1 MiB object comes as range GETs of about 40 KiB, in about half a second.
  const io::engine_options opt{
      .engine = "s3", .queue_depth = 2, .readers = 1, .max_read_rate = 2e6};
  s3::reader eng(opt, files,
                 {.bucket = b.name,
                  .endpoints = {fixture_options()},
                  .keys = s3::credentials::from_environment(),
                  .retry = {}});
  list_source src({{.file = 0, .offset = 0, .length = data.size(), .tag = 0}});
  keeping_consumer got;
  const std::atomic<bool> stop{false};
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(eng.run(src, got, stop).error.empty());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(s > 0.3);
  REQUIRE(got.jobs.at(0).outcome == io::job_outcome::done);
  CHECK(got.jobs.at(0).bytes == data);
  CHECK(got.jobs.at(0).in_order);
  CHECK(eng.stats().requests > 10);

  // A stop set before the run: the job is abandoned unread, not failed.
  list_source again({{.file = 0, .offset = 0, .length = data.size(), .tag = 1}});
  const std::atomic<bool> stopped{true};
  const auto res = eng.run(again, got, stopped);
  CHECK(res.error.empty());
  CHECK(got.jobs.count(1) == 0); // never started
}
#endif
