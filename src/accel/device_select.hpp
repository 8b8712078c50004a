#pragma once
// Which GPU a rank drives. A rank drives one GPU, chosen by its local rank among the GPUs it
// sees: local_rank % visible, so that a launcher that gives each rank one visible GPU
// (Slurm's --gpus-per-task=1, CUDA_VISIBLE_DEVICES per rank) and one that shows every rank all
// of the host's GPUs both work. Two ranks of a host that end up on the same GPU are refused
// by duplicate_gpu before NCCL would be.
#include <optional>
#include <string>
#include <vector>

namespace dlsize::accel {

// The device index for a rank: local_rank % visible. Throws usage_error when visible < 1 or
// local_rank < 0.
int device_for_local_rank(int local_rank, int visible);

// A GPU driven by two ranks of one host: hosts[r] and pci[r] are rank r's host and its GPU's
// PCI bus id. Returns "ranks A and B on host H both drive GPU P" for the first pair, else none.
std::optional<std::string> duplicate_gpu(const std::vector<std::string>& hosts,
                                         const std::vector<std::string>& pci);

} // namespace dlsize::accel
