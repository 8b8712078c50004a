#pragma once
// What --accelerator names: `none` (storage only), `emulated:TYPE` with TYPE an accelerator of
// the workload profile or a calibration file (JSON written by `dlsize calibrate` or by hand),
// or `cuda` (the real GPU backend: the model's training step; its compute time is measured, so
// the preset holds only the batch size). Overrides from the command line apply on top.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "config/calibration_document.hpp"
#include "config/workload.hpp"

namespace dlsize::config {

enum class accelerator_kind { none, emulated, cuda };

struct accelerator_spec {
  accelerator_kind kind = accelerator_kind::none;
  std::string type;          // "h100", or the calibration's accelerator name
  accelerator_preset preset; // batch size and compute time in effect
  std::string origin;        // "workload resnet50" or the calibration file
};

// Command-line overrides of the preset; unset ones keep the profile's value.
struct preset_overrides {
  std::optional<std::uint64_t> batch_size;
  std::optional<double> compute_time_s;
  std::optional<double> compute_time_stdev_s;
};

// Resolves spec against the workload. Throws usage_error naming --accelerator and listing the
// valid types when TYPE is unknown, or naming the calibration file and key when it is bad.
// For `cuda`, require_device runs first (config knows no GPUs: the caller passes the backend's
// check, so that what is missing, the module, its libraries, the driver or the device, is named
// before any option error).
accelerator_spec resolve_accelerator(const std::string& spec, const workload_profile& w,
                                     const preset_overrides& over,
                                     const std::function<void()>& require_device = {});

// Throws usage_error, listing the profiles that have one, when w has no model.layers.
void require_trainable(const workload_profile& w);

// Parses a calibration file's text; source names it in errors.
accelerator_preset parse_calibration(const std::string& json_text, const std::string& source,
                                     const std::string& workload);

} // namespace dlsize::config
