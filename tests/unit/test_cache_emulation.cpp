// Unit tests for bench --client-ram's pieces that need no cgroup: finding the process's memory
// cgroup from /proc/self/cgroup and /proc/self/mountinfo (v1, v2, nested, container roots),
// the refusals, and the warm epochs' storage figure from a report's timeseries.
#include <string>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "pipeline/cache_emulation.hpp"
#include "pipeline/warm_storage.hpp"
#include "telemetry/cgroups.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;

namespace {

// This machine's layout: v1 controllers, the memory one nested under process_api, and a v2
// mount without controllers.
const char* kV1Cgroup = "9:name=systemd:/\n"
                        "7:blkio:/\n"
                        "4:memory:/process_api/925be8d0\n"
                        "3:cpuset:/\n"
                        "0::/\n";
const char* kV1Mountinfo =
    "22 1 254:1 / / rw,relatime - ext4 /dev/vda rw\n"
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "38 31 0:35 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

const char* kV2Cgroup = "0::/user.slice/user-1000.slice/session-3.scope\n";
const char* kV2Mountinfo =
    "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
    "30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 "
    "rw,nsdelegate,memory_recursiveprot\n";

} // namespace

TEST_CASE("the v1 memory cgroup is found at its mount point below the nested path",
          "[cgroups][cache_emulation]") {
  const auto loc = telemetry::locate_memory_cgroup(kV1Cgroup, kV1Mountinfo);
  CHECK(loc.version == 1);
  CHECK(loc.cgroup_path == "/process_api/925be8d0");
  CHECK(loc.dir == "/sys/fs/cgroup/memory/process_api/925be8d0");
}

TEST_CASE("the v2 cgroup is found in the cgroup2 mount when no v1 hierarchy holds memory",
          "[cgroups][cache_emulation]") {
  const auto loc = telemetry::locate_memory_cgroup(kV2Cgroup, kV2Mountinfo);
  CHECK(loc.version == 2);
  CHECK(loc.dir == "/sys/fs/cgroup/user.slice/user-1000.slice/session-3.scope");
}

TEST_CASE("a mount whose root is part of the cgroup path gives the rest below its mount point",
          "[cgroups][cache_emulation]") {
  // A container sees its own cgroup mounted from /docker/abc.
  const auto loc = telemetry::locate_memory_cgroup(
      "5:memory:/docker/abc/job\n",
      "35 31 0:32 /docker/abc /sys/fs/cgroup/memory ro,relatime - cgroup cgroup rw,memory\n");
  CHECK(loc.version == 1);
  CHECK(loc.dir == "/sys/fs/cgroup/memory/job");
}

TEST_CASE("a mount point with a blank is unescaped", "[cgroups][cache_emulation]") {
  const auto loc = telemetry::locate_memory_cgroup(
      "0::/a\n", "30 22 0:26 / /sys/fs/my\\040cgroup rw - cgroup2 cgroup2 rw\n");
  CHECK(loc.dir == "/sys/fs/my cgroup/a");
}

TEST_CASE("no memory cgroup says what was tried", "[cgroups][cache_emulation]") {
  SECTION("v1 memory listed but not mounted, and no v2 line") {
    const auto loc = telemetry::locate_memory_cgroup("4:memory:/x\n", kV2Mountinfo);
    CHECK(loc.version == 0);
    CHECK(loc.dir.empty());
    REQUIRE(loc.tried.size() == 2);
    CHECK_THAT(loc.tried[0], Contains("v1 memory hierarchy of cgroup /x: not mounted"));
    CHECK_THAT(loc.tried[1], Contains("no 0:: line"));
  }
  SECTION("a mount that does not hold the cgroup") {
    const auto loc = telemetry::locate_memory_cgroup(
        "0::/elsewhere\n", "30 22 0:26 /mine /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
    CHECK(loc.version == 0);
    REQUIRE(loc.tried.size() == 2);
    CHECK_THAT(loc.tried[1], Contains("does not hold the cgroup"));
  }
}

TEST_CASE("the cgroup parser keeps v1 controllers and the v2 path and drops named hierarchies",
          "[cgroups]") {
  const auto m = telemetry::parse_proc_self_cgroup("9:name=systemd:/\n4:cpu,cpuacct:/c\n0::/v2\n");
  CHECK(m.v2_path == "/v2");
  CHECK(m.v1_paths.size() == 2);
  CHECK(m.v1_paths.at("cpuacct") == "/c");
  CHECK(m.v1_paths.count("name=systemd") == 0);
}

TEST_CASE("the cache emulation refuses direct reads and a cache too small", "[cache_emulation]") {
  io::engine_options io;
  io.cache = io::cache_mode::buffered;
  io.readers = 2;
  io.queue_depth = 16;
  io.request_size = 1 << 20;
  CHECK(pipeline::minimum_client_ram(io) == 64ull << 20);
  CHECK_NOTHROW(pipeline::check_cache_emulation(64ull << 20, io));
  CHECK_THROWS_WITH(pipeline::check_cache_emulation(63ull << 20, io),
                    Contains("--client-ram: 63.00 MiB is too small") &&
                        Contains("64.00 MiB or more"));
  io.cache = io::cache_mode::direct;
  CHECK_THROWS_AS(pipeline::check_cache_emulation(1ull << 30, io), usage_error);
  io.readers = 1;
  io.queue_depth = 1;
  io.cache = io::cache_mode::buffered;
  CHECK(pipeline::minimum_client_ram(io) == 32ull << 20);
}

TEST_CASE("ranks of one host share its cgroup, and ranks of one host in different cgroups are "
          "refused",
          "[cache_emulation]") {
  cluster::placement w;
  w.rank_hosts = {"a", "a", "b", "b"};
  w.rank_nodes = {0, 0, 1, 1};
  w.rank_local = {0, 1, 0, 1};
  // Hosts may differ from each other: each has a child of its own.
  CHECK_NOTHROW(pipeline::check_host_cgroups({"/job", "/job", "/other", "/other"}, w));
  CHECK_THROWS_AS(pipeline::check_host_cgroups({"/job", "/job", "/t0", "/t1"}, w), usage_error);
  CHECK_THROWS_WITH(pipeline::check_host_cgroups({"/job", "/job", "/t0", "/t1"}, w),
                    Contains("ranks of host b are in different memory cgroups") &&
                        Contains("rank 2: /t0; rank 3: /t1") && Contains("valid:"));
}

namespace {

// The warm epochs' figures of a report written as JSON (bench_report::fields_of types it).
report::field<report::warm_epochs_section> warm_storage_of(const nlohmann::json& r) {
  return pipeline::warm_storage(report::bench_report::fields_of(r, "report"));
}

} // namespace

TEST_CASE("the warm epochs' storage is what the counter saw after the first epoch ended",
          "[cache_emulation][warm_storage]") {
  // 100 bytes/s for the first second (the cold epoch ends at 1.5 s), nothing after 2 s, and a
  // tail of 30 bytes after the last point.
  nlohmann::json r = {{"epochs",
                       {{{"epoch", 0}, {"end_s", 1.5}, {"read_bytes", 200}},
                        {{"epoch", 1}, {"end_s", 3.0}, {"read_bytes", 200}}}},
                      {"timeseries",
                       {{{"t_s", 1.0}, {"storage_read_bytes_per_s", 100.0}},
                        {{"t_s", 2.0}, {"storage_read_bytes_per_s", 100.0}},
                        {{"t_s", 2.5}, {"storage_read_bytes_per_s", 0.0}}}},
                      {"storage", {{"read_bytes", 230}}},
                      {"summary", {{"wall_s", 3.0}}},
                      {"topology", {{"nodes", 1}}}};
  const auto w = warm_storage_of(r);
  REQUIRE(w.has_value());
  CHECK(*w->from_s == 1.5);
  CHECK(*w->read_bytes == 200.0);
  CHECK(*w->storage_read_bytes == Approx(80.0)); // 50 of the 2nd second + 30
  CHECK(*w->hit_ratio == Approx(0.6));
  CHECK(*w->storage_per_read_byte == Approx(0.4));

  SECTION("a training run's untimed first epoch ends where the second starts") {
    r["epochs"][0]["end_s"] = nullptr;
    r["epochs"][1]["start_s"] = 1.0;
    CHECK(*warm_storage_of(r)->storage_read_bytes == Approx(130.0));
  }
  SECTION("one epoch, no counter or several nodes give none") {
    auto one = r;
    one["epochs"].erase(1);
    CHECK_FALSE(warm_storage_of(one).has_value());
    auto none = r;
    none["storage"]["read_bytes"] = nullptr;
    CHECK_FALSE(warm_storage_of(none).has_value());
    auto nodes = r;
    nodes["topology"]["nodes"] = 2;
    CHECK_FALSE(warm_storage_of(nodes).has_value());
  }
}
