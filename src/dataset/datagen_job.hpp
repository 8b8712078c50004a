#pragma once
// Dataset generation by every rank of a job (mpiexec -np N dlsize datagen ...): rank 0 checks
// the folder and writes the state file, every rank writes its share of the files (f % ranks ==
// rank), rank 0 writes the one manifest, and every rank checks it sees it (the dataset must be
// on storage the ranks share). The ranks agree after each phase, so a failure on one rank ends
// every rank the same way. With one rank it is generate_dataset.
#include <string>

#include "cluster/communicator.hpp"
#include "config/workload.hpp"
#include "dataset/datagen.hpp"

namespace dlsize::dataset {

// Throws cluster::job_error (or, with one rank, the phase's own error) as generate_dataset does.
datagen_result generate_dataset_job(const datagen_options& opt, cluster::communicator& comm);

// What bench --generate asks for: a dataset of the profile made at dir on first use.
struct first_use_request {
  std::string dir;
  std::string size; // --generate's text (2GiB, 5x-ram); empty: nothing is generated
  std::uint64_t seed = 0;
  bool progress = false; // rank 0 alone shows it
  double stall_timeout_s = 0;
};

// Generates the dataset when dir has no manifest yet (rank 0 decides, every rank writes its
// share), as the embedded default does; says so on rank 0's stderr. Throws usage_error for a size
// that does not parse, and cluster::job_error (exit 1) when the generation was interrupted.
void generate_on_first_use(const first_use_request& r, const config::workload_profile& profile,
                           cluster::communicator& comm);

} // namespace dlsize::dataset
