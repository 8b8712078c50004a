#pragma once
// The rules of datagen's options, in one place: the layout and records per file, exactly one of
// --size and --files, and the ranges of the dataset's shape. cli/ parses the options into a
// datagen_request and calls datagen_params_of; every rule throws usage_error naming the option
// and what is valid.
#include <cstdint>
#include <string>

#include "config/workload.hpp"
#include "dataset/layout.hpp"

namespace dlsize::dataset {

// A datagen request's options as given (the size as typed, so that messages quote it).
struct datagen_request {
  std::string size; // empty: not given
  std::uint64_t files = 0;
  std::uint64_t seed = 0;
  std::string layout; // empty: the profile's
  std::uint64_t records_per_file = 0;
  bool files_given = false; // given as 0 is refused, not taken as "not given"
  bool records_per_file_given = false;
};

// The dataset's parameters for the profile and the request, after checking every rule; ram is
// what "5x-ram" multiplies (every host of the job).
dataset_params datagen_params_of(const datagen_request& r, const config::workload_profile& profile,
                                 std::uint64_t ram);

} // namespace dlsize::dataset
