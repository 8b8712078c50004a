#pragma once
// Dataset generation by every rank of a job (mpiexec -np N dlsize datagen ...): rank 0 checks
// the folder and writes the state file, every rank writes its share of the files (f % ranks ==
// rank), rank 0 writes the one manifest, and every rank checks it sees it (the dataset must be
// on storage the ranks share). The ranks agree after each phase, so a failure on one rank ends
// every rank the same way. With one rank it is generate_dataset.
#include "cluster/communicator.hpp"
#include "dataset/datagen.hpp"

namespace dlsize::dataset {

// Throws cluster::job_error (or, with one rank, the phase's own error) as generate_dataset does.
datagen_result generate_dataset_job(const datagen_options& opt, cluster::communicator& comm);

} // namespace dlsize::dataset
