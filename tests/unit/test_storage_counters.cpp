// Unit tests for src/telemetry/storage_counters.hpp: the kernel counter parsers, on fixed text.
#include <catch2/catch.hpp>

#include "telemetry/storage_counters.hpp"

using namespace dlsize::telemetry;

TEST_CASE("diskstats_read_bytes finds the device by major and minor and counts 512-byte sectors") {
  const char* text = "   7       0 loop0 10 0 80 1 0 0 0 0 0 4 1 0 0 0 0 0 0\n"
                     " 253       0 vda 40129 1710 8830618 15436 21862 27541 3126146 64012 0 49920 "
                     "80860 0 0 0 0 0 0\n"
                     " 253       1 vda1 39900 1710 8820000 15400 21862 27541 3126146 64012 0 49900 "
                     "80800 0 0 0 0 0 0\n";
  std::string name;
  CHECK(diskstats_read_bytes(text, 253, 0, &name) == 8830618ull * 512);
  CHECK(name == "vda");
  CHECK(diskstats_read_bytes(text, 253, 1) == 8820000ull * 512);
  CHECK_FALSE(diskstats_read_bytes(text, 8, 0).has_value());
}

TEST_CASE("nfs_server_read_bytes reads the server bytes of the named mount only") {
  const char* text = "device /dev/vda mounted on / with fstype ext4\n"
                     "device nas:/ifs/a mounted on /mnt/a with fstype nfs4 statvers=1.1\n"
                     "\tbytes:\t100 0 200 0 300 0 5 0\n"
                     "device nas:/ifs/b mounted on /mnt/b with fstype nfs4 statvers=1.1\n"
                     "\tbytes:\t1 0 2 0 4096000 0 5 0\n";
  CHECK(nfs_server_read_bytes(text, "/mnt/a") == 300u);
  CHECK(nfs_server_read_bytes(text, "/mnt/b") == 4096000u);
  CHECK_FALSE(nfs_server_read_bytes(text, "/").has_value());
}

TEST_CASE("meminfo_bytes converts kB fields to bytes and matches whole keys") {
  const char* text = "MemTotal:       24576000 kB\nMemFree:        100 kB\nCached:         2048 "
                     "kB\nSwapCached:     7 kB\n";
  CHECK(meminfo_bytes(text, "Cached") == 2048u * 1024);
  CHECK(meminfo_bytes(text, "MemFree") == 100u * 1024);
  CHECK_FALSE(meminfo_bytes(text, "Buffers").has_value());
}
