#include "telemetry/block_device.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "telemetry/fact_files.hpp"

namespace dlsize::telemetry {
namespace fs = std::filesystem;
namespace {

field<std::string> text_or_null(const fs::path& f) {
  const auto v = first_line_of(f);
  return v && !v->empty() ? field<std::string>(*v) : field<std::string>::null();
}

field<std::uint64_t> number_or_null(const fs::path& f) {
  return field<std::uint64_t>::of(number_in(f));
}

// "[mq-deadline] kyber none" -> "mq-deadline"; "none" -> "none".
field<std::string> scheduler_of(const fs::path& f) {
  const auto v = first_line_of(f);
  if (!v || v->empty())
    return field<std::string>::null();
  const auto open = v->find('['), close = v->find(']');
  if (open != std::string::npos && close != std::string::npos && close > open)
    return v->substr(open + 1, close - open - 1);
  return *v;
}

// The first device under a stacked one (dm, md): sysfs lists them in "slaves".
std::optional<fs::path> first_slave(const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::path> names;
  for (const auto& e : fs::directory_iterator(dir / "slaves", ec))
    names.push_back(e.path());
  if (names.empty())
    return std::nullopt;
  std::sort(names.begin(), names.end());
  const auto target = fs::canonical(names.front(), ec);
  return ec ? std::nullopt : std::optional<fs::path>(target);
}

field<std::string> transport_of(const fs::path& disk, const std::string& name) {
  const std::string path = disk.string();
  const auto has = [&](const char* s) { return path.find(s) != std::string::npos; };
  if (name.rfind("nvme", 0) == 0 || has("/nvme"))
    return std::string("nvme");
  if (name.rfind("vd", 0) == 0 || has("/virtio"))
    return std::string("virtio");
  if (name.rfind("loop", 0) == 0)
    return std::string("loop");
  if (name.rfind("dm-", 0) == 0)
    return std::string("dm");
  if (name.rfind("md", 0) == 0)
    return std::string("md");
  if (name.rfind("mmcblk", 0) == 0)
    return std::string("mmc");
  if (has("/usb"))
    return std::string("usb");
  if (has("/ata"))
    return std::string("sata");
  if (name.rfind("sd", 0) == 0)
    return std::string("scsi");
  return field<std::string>::null();
}

} // namespace

std::optional<block_device_facts> block_device_of(const fs::path& sys, unsigned major,
                                                  unsigned minor) {
  if (major == 0)
    return std::nullopt;
  std::error_code ec;
  fs::path dir = fs::canonical(sys / "dev/block" / fmt::format("{}:{}", major, minor), ec);
  if (ec)
    return std::nullopt;
  block_device_facts d;
  d.partition = field<std::string>::null();
  if (fs::exists(dir / "partition")) {
    d.partition = dir.filename().string();
    dir = dir.parent_path();
  }
  std::vector<std::string> via;
  for (int depth = 0; depth < 8; ++depth) { // stacks are shallow; a loop in sysfs is not
    const auto under = first_slave(dir);
    if (!under)
      break;
    via.push_back(dir.filename().string());
    dir = *under;
    if (fs::exists(dir / "partition"))
      dir = dir.parent_path();
  }
  d.via = via;
  d.name = dir.filename().string();
  const auto size = number_in(dir / "size");
  const auto rotational = number_in(dir / "queue/rotational");
  d.dev = text_or_null(dir / "dev");
  d.model = text_or_null(dir / "device/model");
  d.vendor = text_or_null(dir / "device/vendor");
  d.transport = transport_of(dir, *d.name);
  d.rotational = rotational ? field<bool>(*rotational != 0) : field<bool>::null();
  d.size_bytes = size ? field<std::uint64_t>(*size * 512) : field<std::uint64_t>::null();
  d.scheduler = scheduler_of(dir / "queue/scheduler");
  d.read_ahead_kb = number_or_null(dir / "queue/read_ahead_kb");
  d.max_sectors_kb = number_or_null(dir / "queue/max_sectors_kb");
  d.backing_file = text_or_null(dir / "loop/backing_file");
  return d;
}

} // namespace dlsize::telemetry
