#include "telemetry/block_device.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "telemetry/fact_files.hpp"

namespace dlsize::telemetry {
namespace fs = std::filesystem;
namespace {

nlohmann::json text_or_null(const fs::path& f) {
  const auto v = first_line_of(f);
  return v && !v->empty() ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json number_or_null(const fs::path& f) {
  const auto v = number_in(f);
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// "[mq-deadline] kyber none" -> "mq-deadline"; "none" -> "none".
nlohmann::json scheduler_of(const fs::path& f) {
  const auto v = first_line_of(f);
  if (!v || v->empty())
    return nullptr;
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

nlohmann::json transport_of(const fs::path& disk, const std::string& name) {
  const std::string path = disk.string();
  const auto has = [&](const char* s) { return path.find(s) != std::string::npos; };
  if (name.rfind("nvme", 0) == 0 || has("/nvme"))
    return "nvme";
  if (name.rfind("vd", 0) == 0 || has("/virtio"))
    return "virtio";
  if (name.rfind("loop", 0) == 0)
    return "loop";
  if (name.rfind("dm-", 0) == 0)
    return "dm";
  if (name.rfind("md", 0) == 0)
    return "md";
  if (name.rfind("mmcblk", 0) == 0)
    return "mmc";
  if (has("/usb"))
    return "usb";
  if (has("/ata"))
    return "sata";
  if (name.rfind("sd", 0) == 0)
    return "scsi";
  return nullptr;
}

} // namespace

nlohmann::json block_device_json(const fs::path& sys, unsigned major, unsigned minor) {
  if (major == 0)
    return nullptr;
  std::error_code ec;
  fs::path dir = fs::canonical(sys / "dev/block" / fmt::format("{}:{}", major, minor), ec);
  if (ec)
    return nullptr;
  nlohmann::json partition = nullptr;
  if (fs::exists(dir / "partition")) {
    partition = dir.filename().string();
    dir = dir.parent_path();
  }
  nlohmann::json via = nlohmann::json::array();
  for (int depth = 0; depth < 8; ++depth) { // stacks are shallow; a loop in sysfs is not
    const auto under = first_slave(dir);
    if (!under)
      break;
    via.push_back(dir.filename().string());
    dir = *under;
    if (fs::exists(dir / "partition"))
      dir = dir.parent_path();
  }
  const std::string name = dir.filename().string();
  const auto size = number_in(dir / "size");
  const auto rotational = number_in(dir / "queue/rotational");
  return {{"name", name},
          {"dev", text_or_null(dir / "dev")},
          {"partition", partition},
          {"via", via},
          {"model", text_or_null(dir / "device/model")},
          {"vendor", text_or_null(dir / "device/vendor")},
          {"transport", transport_of(dir, name)},
          {"rotational", rotational ? nlohmann::json(*rotational != 0) : nlohmann::json(nullptr)},
          {"size_bytes", size ? nlohmann::json(*size * 512) : nlohmann::json(nullptr)},
          {"scheduler", scheduler_of(dir / "queue/scheduler")},
          {"read_ahead_kb", number_or_null(dir / "queue/read_ahead_kb")},
          {"max_sectors_kb", number_or_null(dir / "queue/max_sectors_kb")},
          {"backing_file", text_or_null(dir / "loop/backing_file")}};
}

} // namespace dlsize::telemetry
