// Unit tests for the host-fact parsers of src/telemetry (os_release, mounts, block_device,
// cgroups, host_provenance) on fixture trees built here, and for src/report/provenance: the
// top-level facts and the warnings when hosts differ.
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "core/sysinfo.hpp"
#include "report/provenance.hpp"
#include "telemetry/block_device.hpp"
#include "telemetry/cgroups.hpp"
#include "telemetry/host_provenance.hpp"
#include "telemetry/mounts.hpp"
#include "telemetry/os_release.hpp"

using namespace dlsize;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

// The facts as a report holds them (report/bench_report_json.cpp writes them).
nlohmann::json os_json(const fs::path& root) {
  return report::section_to_json(telemetry::os_of(root));
}

nlohmann::json mount_json(const sysinfo::mount_info& m) {
  return report::section_to_json(telemetry::mount_facts_of(m));
}

nlohmann::json block_device_json(const fs::path& sys, unsigned major, unsigned minor) {
  const auto d = telemetry::block_device_of(sys, major, minor);
  return d ? report::section_to_json(*d) : nlohmann::json(nullptr);
}

nlohmann::json cgroup_limits_json(std::string_view proc_self_cgroup, const fs::path& root) {
  return report::section_to_json(telemetry::cgroup_limits_of(proc_self_cgroup, root));
}

void put(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

void link(const fs::path& at, const fs::path& target) {
  fs::create_directories(at.parent_path());
  fs::create_directory_symlink(target, at);
}

const char* kMountinfo =
    "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw,errors=remount-ro\n"
    "40 22 0:44 / /mnt/nfs rw,relatime shared:50 - nfs4 filer:/export/r50 "
    "rw,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,nconnect=8,timeo=600,"
    "sec=sys,clientaddr=10.0.0.5,local_lock=none,addr=10.0.0.1\n"
    "41 22 0:45 / /mnt/old rw - nfs filer:/old rw,vers=3,rsize=65536,wsize=65536,proto=udp\n"
    "42 22 8:17 / /mnt/my\\040data rw,noatime - xfs /dev/sdb1 rw,attr2\n";

// A fake sysfs: vda (virtio, partition vda1), sdb (SATA, rotational, partition sdb1),
// dm-0 over nvme0n1, loop0 with a backing file.
fs::path fake_sysfs(const fs::path& root) {
  const fs::path sys = root / "sys";
  const fs::path vda = sys / "devices/pci0000:00/0000:00:04.0/virtio1/block/vda";
  put(vda / "dev", "254:0\n");
  put(vda / "size", "41943040\n");
  put(vda / "queue/rotational", "0\n");
  put(vda / "queue/scheduler", "[mq-deadline] none\n");
  put(vda / "queue/read_ahead_kb", "128\n");
  put(vda / "queue/max_sectors_kb", "1280\n");
  put(vda / "vda1/partition", "1\n");
  put(vda / "vda1/dev", "254:1\n");
  link(sys / "dev/block/254:1", vda / "vda1");
  const fs::path sdb =
      sys / "devices/pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0/block/sdb";
  put(sdb / "dev", "8:16\n");
  put(sdb / "size", "1000\n");
  put(sdb / "device/model", "WDC WD40EFRX-68N\n");
  put(sdb / "device/vendor", "ATA     \n");
  put(sdb / "queue/rotational", "1\n");
  put(sdb / "queue/scheduler", "none [bfq]\n");
  put(sdb / "sdb1/partition", "1\n");
  link(sys / "dev/block/8:17", sdb / "sdb1");
  const fs::path nvme = sys / "devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1";
  put(nvme / "dev", "259:0\n");
  put(nvme / "device/model", "Samsung SSD 980 PRO 1TB\n");
  put(nvme / "queue/scheduler", "[none] mq-deadline\n");
  const fs::path dm = sys / "devices/virtual/block/dm-0";
  put(dm / "dev", "253:0\n");
  link(dm / "slaves/nvme0n1", nvme);
  link(sys / "dev/block/253:0", dm);
  const fs::path loop = sys / "devices/virtual/block/loop0";
  put(loop / "dev", "7:0\n");
  put(loop / "loop/backing_file", "/var/lib/images/disk.img\n");
  link(sys / "dev/block/7:0", loop);
  return sys;
}

} // namespace

TEST_CASE("os-release gives name, version and pretty name, quotes removed", "[provenance]") {
  const auto kv = telemetry::parse_os_release(
      "# comment\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME='Debian GNU/Linux'\n"
      "VERSION_ID=\"12\"\nID=debian\nbroken line\nHOME_URL=\"https://x/\\\"q\\\"\"\n");
  CHECK(kv.at("NAME") == "Debian GNU/Linux");
  CHECK(kv.at("ID") == "debian");
  CHECK(kv.at("HOME_URL") == "https://x/\"q\"");
  test::temp_dir t;
  put(t.path / "usr/lib/os-release", "NAME=Fedora\nVERSION_ID=40\n");
  const auto os = os_json(t.path); // no etc/os-release: the usr/lib one
  CHECK(os["name"] == "Fedora");
  CHECK(os["version_id"] == "40");
  CHECK(os["pretty_name"].is_null());
  put(t.path / "etc/os-release", "PRETTY_NAME=\"Ubuntu 24.04 LTS\"\n");
  CHECK(os_json(t.path)["pretty_name"] == "Ubuntu 24.04 LTS");
}

TEST_CASE("the dataset's mount is the longest prefix, with NFS options parsed out",
          "[provenance]") {
  const auto nfs = mount_json(sysinfo::mount_in(kMountinfo, "/mnt/nfs/r50/data"));
  CHECK(nfs["mount_point"] == "/mnt/nfs");
  CHECK(nfs["source"] == "filer:/export/r50");
  CHECK(nfs["fs_type"] == "nfs4");
  CHECK(nfs["options"] == "rw,relatime");
  CHECK(nfs["dev"] == "0:44");
  CHECK(nfs["nfs"] == nlohmann::json{{"vers", "4.2"},
                                     {"proto", "tcp"},
                                     {"nconnect", 8},
                                     {"rsize", 1048576},
                                     {"wsize", 1048576}});
  // NFSv3 over UDP, no nconnect listed: the kernel's default of one connection.
  const auto old = mount_json(sysinfo::mount_in(kMountinfo, "/mnt/old"));
  CHECK(old["nfs"]["vers"] == "3");
  CHECK(old["nfs"]["proto"] == "udp");
  CHECK(old["nfs"]["nconnect"] == 1);
  CHECK(old["nfs"]["rsize"] == 65536);
  const auto root = mount_json(sysinfo::mount_in(kMountinfo, "/mnt/nfsother"));
  CHECK(root["mount_point"] == "/");
  CHECK(root["fs_type"] == "ext4");
  CHECK(root["nfs"].is_null());
  const auto spaced = sysinfo::mount_in(kMountinfo, "/mnt/my data/x");
  CHECK(spaced.mount_point == "/mnt/my data");
  CHECK(spaced.major == 8);
  CHECK(spaced.minor == 17);
}

TEST_CASE("a partition's facts are its disk's, read from sysfs", "[provenance]") {
  test::temp_dir t;
  const fs::path sys = fake_sysfs(t.path);
  const auto vda = block_device_json(sys, 254, 1);
  CHECK(vda["name"] == "vda");
  CHECK(vda["partition"] == "vda1");
  CHECK(vda["dev"] == "254:0");
  CHECK(vda["transport"] == "virtio");
  CHECK(vda["rotational"] == false);
  CHECK(vda["size_bytes"] == 41943040ull * 512);
  CHECK(vda["scheduler"] == "mq-deadline");
  CHECK(vda["read_ahead_kb"] == 128);
  CHECK(vda["max_sectors_kb"] == 1280);
  CHECK(vda["model"].is_null());
  const auto sdb = block_device_json(sys, 8, 17);
  CHECK(sdb["name"] == "sdb");
  CHECK(sdb["model"] == "WDC WD40EFRX-68N");
  CHECK(sdb["vendor"] == "ATA");
  CHECK(sdb["transport"] == "sata");
  CHECK(sdb["rotational"] == true);
  CHECK(sdb["scheduler"] == "bfq");
  CHECK(sdb["read_ahead_kb"].is_null());
}

TEST_CASE("device-mapper and loop devices lead to the device under them", "[provenance]") {
  test::temp_dir t;
  const fs::path sys = fake_sysfs(t.path);
  const auto dm = block_device_json(sys, 253, 0);
  CHECK(dm["name"] == "nvme0n1");
  CHECK(dm["via"] == nlohmann::json{"dm-0"});
  CHECK(dm["transport"] == "nvme");
  CHECK(dm["model"] == "Samsung SSD 980 PRO 1TB");
  CHECK(dm["scheduler"] == "none");
  const auto loop = block_device_json(sys, 7, 0);
  CHECK(loop["name"] == "loop0");
  CHECK(loop["transport"] == "loop");
  CHECK(loop["backing_file"] == "/var/lib/images/disk.img");
  CHECK(block_device_json(sys, 0, 44).is_null()); // NFS: no block device
  CHECK(block_device_json(sys, 9, 9).is_null());  // not in sysfs
}

TEST_CASE("cgroup v2 limits are the lowest along the path from memory.max and io.max",
          "[provenance]") {
  test::temp_dir t;
  const fs::path cg = t.path / "cgroup";
  put(cg / "system.slice/memory.max", "8589934592\n");
  put(cg / "system.slice/io.max", "254:0 rbps=104857600 wbps=max riops=max wiops=max\n");
  put(cg / "system.slice/job.scope/memory.max", "max\n");
  put(cg / "system.slice/job.scope/io.max",
      "254:0 rbps=209715200 wbps=max riops=5000 wiops=max\n8:16 wbps=1000\n");
  const auto j = cgroup_limits_json("0::/system.slice/job.scope\n", cg);
  CHECK(j["version"] == 2);
  CHECK(j["path"] == "/system.slice/job.scope");
  CHECK(j["memory_max_bytes"] == 8589934592ull);
  REQUIRE(j["io_max"].size() == 2);
  CHECK(j["io_max"][0] == nlohmann::json{{"device", "254:0"},
                                         {"rbps", 104857600},
                                         {"wbps", nullptr},
                                         {"riops", 5000},
                                         {"wiops", nullptr}});
  CHECK(j["io_max"][1]["wbps"] == 1000);
  const auto none = cgroup_limits_json("0::/\n", t.path / "empty");
  CHECK(none["memory_max_bytes"].is_null());
  CHECK(none["io_max"].empty());
}

TEST_CASE("cgroup v1 limits come from memory.limit_in_bytes and blkio.throttle files",
          "[provenance]") {
  test::temp_dir t;
  const fs::path cg = t.path / "cgroup";
  put(cg / "memory/batch/memory.limit_in_bytes", "4294967296\n");
  put(cg / "memory/memory.limit_in_bytes", "9223372036854771712\n"); // v1's "no limit"
  put(cg / "blkio/batch/blkio.throttle.read_bps_device", "8:16 52428800\n");
  put(cg / "blkio/batch/blkio.throttle.read_iops_device", "8:16 300\n");
  put(cg / "blkio/batch/blkio.throttle.write_bps_device", "");
  const auto j = cgroup_limits_json(
      "12:blkio:/batch\n11:cpu,cpuacct:/batch\n4:memory:/batch\n0::/batch\n", cg);
  CHECK(j["version"] == 1);
  CHECK(j["memory_max_bytes"] == 4294967296ull);
  REQUIRE(j["io_max"].size() == 1);
  CHECK(j["io_max"][0]["device"] == "8:16");
  CHECK(j["io_max"][0]["rbps"] == 52428800);
  CHECK(j["io_max"][0]["riops"] == 300);
  CHECK(j["io_max"][0]["wbps"].is_null());
  // Inside a container the path may not exist under the namespace's root: the root's limits.
  put(cg / "memory/memory.limit_in_bytes", "1073741824\n");
  CHECK(cgroup_limits_json("4:memory:/docker/abc\n", cg)["memory_max_bytes"] == 1073741824ull);
}

TEST_CASE("a host's provenance gathers OS, mount, device, NUMA, environment and limits",
          "[provenance]") {
  test::temp_dir t;
  telemetry::fact_roots roots;
  roots.root = t.path;
  roots.sys = fake_sysfs(t.path);
  roots.cgroup = t.path / "cgroup";
  put(t.path / "etc/os-release", "NAME=Debian\nVERSION_ID=12\nPRETTY_NAME=\"Debian 12\"\n");
  put(t.path / "proc/self/mountinfo", kMountinfo);
  put(t.path / "proc/self/cgroup", "0::/\n");
  put(t.path / "cgroup/io.max", "254:0 rbps=1000000 wbps=max riops=max wiops=max\n");
  put(roots.sys / "devices/system/node/node0/cpulist", "0-3\n");
  put(roots.sys / "devices/system/node/node0/meminfo", "Node 0 MemTotal:       1024 kB\n");
  put(roots.sys / "devices/system/node/node1/cpulist", "4-7\n");
  std::string e1 = "NCCL_IB_HCA=mlx5_0", e2 = "UCX_TLS=rc", e3 = "PATH=/bin";
  char* env[] = {e1.data(), e2.data(), e3.data(), nullptr};
  roots.environment = env;
  // Any path under / that exists here: the fixture mountinfo puts it on /dev/vda1.
  telemetry::host_facts host;
  host.provenance = telemetry::host_provenance(fs::temp_directory_path(), roots);
  const auto h = report::section_to_json(host);
  CHECK(h["os"]["pretty_name"] == "Debian 12");
  CHECK(h["mount"]["source"].is_string());
  CHECK(h["numa_nodes"].size() == 2);
  CHECK(h["numa_nodes"][0] ==
        nlohmann::json{{"node", 0}, {"cpus", "0-3"}, {"memory_bytes", 1048576}});
  CHECK(h["environment"] == nlohmann::json{{"NCCL_IB_HCA", "mlx5_0"}, {"UCX_TLS", "rc"}});
  CHECK(h["cgroup"]["io_max"].size() == 1);
  CHECK(h.contains("mpi_library"));
}

TEST_CASE("a report gets system.os, storage.mount, device and limits, and warns where hosts "
          "differ",
          "[provenance]") {
  const nlohmann::json mount = {{"source", "filer:/export"},
                                {"fs_type", "nfs4"},
                                {"super_options", "vers=4.2,nconnect=8"},
                                {"dev", "0:44"}};
  nlohmann::json other_mount = mount;
  other_mount["super_options"] = "vers=4.2";
  const nlohmann::json cgroup = {
      {"memory_max_bytes", nullptr},
      {"io_max", {{{"device", "0:44"}, {"rbps", 1000}}, {{"device", "8:0"}, {"rbps", 5}}}}};
  auto host = [&](const char* name, const nlohmann::json& m) {
    return nlohmann::json{{"hostname", name},
                          {"os", {{"pretty_name", "Debian 12"}}},
                          {"mount", m},
                          {"device", nullptr},
                          {"cgroup", cgroup},
                          {"numa_nodes", {nlohmann::json::object()}},
                          {"mpi_library", "MPICH 4.0"},
                          {"environment", nlohmann::json::object()}};
  };
  nlohmann::json r = {
      {"config", {{"label", "filer-a"}}},
      {"dataset", {{"path", "/mnt/nfs"}, {"fs_type", "nfs4"}}},
      {"io", {{"cache_mode", "direct"}, {"max_read_rate", nullptr}}},
      {"storage", {{"counter", nullptr}}},
      {"system", {{"hosts", {host("n1", mount), host("n2", other_mount), host("n3", mount)}}}},
      {"warnings", nlohmann::json::array()}};
  auto typed = report::bench_report::fields_of(r, "report");
  report::add_provenance(typed);
  r = typed.to_json();
  CHECK(r["system"]["os"]["pretty_name"] == "Debian 12");
  CHECK(r["storage"]["mount"]["source"] == "filer:/export");
  CHECK(r["storage"]["device"].is_null());
  CHECK(r["storage"]["io_limits"] == nlohmann::json{{{"device", "0:44"}, {"rbps", 1000}}});
  CHECK(r["storage"]["counter"].is_null()); // what was there stays
  REQUIRE(r["warnings"].size() == 1);
  CHECK_THAT(r["warnings"][0].get<std::string>(),
             Contains("hosts differ in the dataset's mount: filer:/export nfs4 vers=4.2,nconnect=8 "
                      "on n1, n3; filer:/export nfs4 vers=4.2 on n2"));
  CHECK(r["backend"]["label"] == "filer-a");
  CHECK_THAT(r["backend"]["identity"].get<std::string>(),
             Contains("source=filer:/export;device=;io_limits=[{\"device\":\"0:44\""));
}
