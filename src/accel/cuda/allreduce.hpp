#pragma once
// Data-parallel gradients: an NCCL communicator made from the id bytes that rank 0 created and
// MPI spread, and an average (ncclAvg) allreduce of the gradients in buckets on a stream of its
// own. A bucket is a run of layers whose gradients lie contiguously in both parameter groups;
// it starts as soon as the backward pass has produced the gradients of its lowest layer, so
// communication overlaps the rest of the backward pass.
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "accel/cuda/bucket_plan.hpp"
#include "accel/cuda_abi.h"

namespace dlsize::cuda {

// Seconds a rank waits for NCCL (the communicator's setup, a step's allreduce) before it
// aborts the communicator and fails naming itself: DLSIZE_NCCL_TIMEOUT_S, 600 by default, as
// PyTorch's NCCL watchdog waits.
double nccl_timeout_s();

class grad_allreduce {
public:
  // Checks the device count first: ncclCommInitRank without a device hangs or fails late. The
  // communicator is non-blocking, so that a peer that never joins cannot hold this rank past
  // the deadline.
  grad_allreduce(int rank, int nranks, const std::uint8_t id[DLSIZE_CUDA_NCCL_ID_BYTES],
                 int device);
  ~grad_allreduce();
  grad_allreduce(const grad_allreduce&) = delete;
  grad_allreduce& operator=(const grad_allreduce&) = delete;

  void set_buckets(std::vector<grad_bucket> b, void* h_grads, ncclDataType_t h_type,
                   float* f_grads);
  // After layer's backward on compute: starts the buckets whose lowest layer it is.
  void layer_done(int layer, cudaStream_t compute);
  // Makes compute wait for every bucket of this step.
  void finish(cudaStream_t compute);
  // Waits on the host for ev (recorded after the step's work), watching NCCL: a peer that died
  // or a network that failed makes the communicator report an error, and a peer that hangs or
  // vanished silently runs into the deadline; either way the communicator is aborted and the
  // error, naming this rank, thrown, instead of leaving the step waiting forever.
  void wait(cudaEvent_t ev);
  std::size_t buckets() const { return m_buckets.size(); }

private:
  // Until the communicator's last call has been taken (ncclInProgress on a non-blocking one);
  // throws, after aborting it, on an error or at the deadline.
  void settle(const char* what);
  // Polls done() and the communicator's error until done, an error, or the deadline.
  void watch(const std::string& what, const std::function<bool()>& done);
  [[noreturn]] void abort_and_throw(const std::string& why);

  int m_rank = 0, m_nranks = 1;
  double m_timeout_s = 600;
  ncclComm_t m_comm = nullptr;
  cudaStream_t m_stream = nullptr;
  cudaEvent_t m_done = nullptr;
  std::vector<cudaEvent_t> m_ready;
  std::vector<grad_bucket> m_buckets;
  void* m_h = nullptr;
  ncclDataType_t m_h_type = ncclFloat;
  float* m_f = nullptr;
};

} // namespace dlsize::cuda
