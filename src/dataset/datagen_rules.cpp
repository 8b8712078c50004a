#include "dataset/datagen_rules.hpp"

#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::dataset {

dataset_params datagen_params_of(const datagen_request& r, const config::workload_profile& profile,
                                 std::uint64_t ram) {
  config::require_dataset(profile, "datagen");
  dataset_params p = params_from_profile(profile);
  p.layout = r.layout.empty() ? profile.layout : config::parse_layout(r.layout, "--layout");
  if (r.records_per_file_given)
    check_records_per_file(r.records_per_file, "--records-per-file");
  p.records_per_file = p.layout == config::file_layout::files          ? 1
                       : r.records_per_file_given                      ? r.records_per_file
                       : profile.layout == config::file_layout::shards ? profile.records_per_file
                                                                       : 1024;
  if (p.layout == config::file_layout::files && r.records_per_file > 1)
    throw usage_error("--records-per-file: must be 1 with --layout files");
  p.seed = r.seed;
  if (r.size.empty() == !r.files_given)
    throw usage_error("datagen: give exactly one of --size SIZE or --files N");
  if (r.files_given)
    check_files(r.files, "--files");
  p.files = r.files_given ? r.files : files_for_size(p, units::parse_size(r.size, "--size", ram));
  check_shape(p.files, p.records_per_file, r.files_given ? "--files" : "the files --size makes",
              "--records-per-file");
  return p;
}

} // namespace dlsize::dataset
