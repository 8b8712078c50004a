#include "accel/cuda/allreduce.hpp"

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "accel/cuda/check.hpp"

namespace dlsize::cuda {

grad_allreduce::grad_allreduce(int rank, int nranks,
                               const std::uint8_t id[DLSIZE_CUDA_NCCL_ID_BYTES], int device) {
  if (nranks < 1 || rank < 0 || rank >= nranks)
    throw_bad("rank " + std::to_string(rank) + " of " + std::to_string(nranks));
  int count = 0;
  DLSIZE_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (device >= count)
    throw cuda_failure(DLSIZE_CUDA_NO_DEVICE, "NCCL: no device " + std::to_string(device));
  DLSIZE_CUDA_CHECK(cudaSetDevice(device));
  ncclUniqueId uid;
  static_assert(sizeof uid.internal == DLSIZE_CUDA_NCCL_ID_BYTES, "NCCL's unique id changed size");
  std::memcpy(uid.internal, id, sizeof uid.internal);
  DLSIZE_NCCL_CHECK(ncclCommInitRank(&m_comm, nranks, uid, rank));
  DLSIZE_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
  DLSIZE_CUDA_CHECK(cudaEventCreateWithFlags(&m_done, cudaEventDisableTiming));
}

void grad_allreduce::wait(cudaEvent_t ev) {
  for (unsigned polls = 0;; ++polls) {
    const cudaError_t rc = cudaEventQuery(ev);
    if (rc == cudaSuccess)
      return;
    if (rc != cudaErrorNotReady)
      throw_cuda(rc, "cudaEventQuery(step end)", __FILE__, __LINE__);
    ncclResult_t async = ncclSuccess;
    DLSIZE_NCCL_CHECK(ncclCommGetAsyncError(m_comm, &async));
    if (async != ncclSuccess && async != ncclInProgress) {
      ncclCommAbort(m_comm);
      m_comm = nullptr; // aborted: not destroyed again
      throw_nccl(async, "ncclCommGetAsyncError (the gradient allreduce)", __FILE__, __LINE__);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(polls < 100 ? 20 : 200));
  }
}

grad_allreduce::~grad_allreduce() {
  for (auto e : m_ready)
    DLSIZE_CUDA_WARN(cudaEventDestroy(e));
  if (m_done)
    DLSIZE_CUDA_WARN(cudaEventDestroy(m_done));
  if (m_stream)
    DLSIZE_CUDA_WARN(cudaStreamDestroy(m_stream));
  if (m_comm)
    ncclCommDestroy(m_comm);
}

void grad_allreduce::set_buckets(std::vector<grad_bucket> b, void* h_grads, ncclDataType_t h_type,
                                 float* f_grads) {
  for (auto e : m_ready)
    DLSIZE_CUDA_WARN(cudaEventDestroy(e));
  m_ready.assign(b.size(), nullptr);
  for (auto& e : m_ready)
    DLSIZE_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  m_buckets = std::move(b);
  m_h = h_grads;
  m_h_type = h_type;
  m_f = f_grads;
}

// ncclAvg (NCCL 2.10+) multiplies each rank's part by 1/nranks before the sum on floating-point
// types, as PyTorch's DDP divides before its allreduce: loss-scaled fp16 gradients of many
// ranks cannot overflow in the sum where one rank's did not, and the dynamic loss scale does
// not depend on the number of ranks.
void grad_allreduce::layer_done(int layer, cudaStream_t compute) {
  const std::size_t h_elem = m_h_type == ncclHalf ? 2 : 4;
  for (std::size_t i = 0; i < m_buckets.size(); ++i) {
    const grad_bucket& b = m_buckets[i];
    if (b.lowest_layer != layer)
      continue;
    DLSIZE_CUDA_CHECK(cudaEventRecord(m_ready[i], compute));
    DLSIZE_CUDA_CHECK(cudaStreamWaitEvent(m_stream, m_ready[i], 0));
    DLSIZE_NCCL_CHECK(ncclGroupStart());
    if (b.h_len) {
      void* p = static_cast<char*>(m_h) + b.h_off * h_elem;
      DLSIZE_NCCL_CHECK(ncclAllReduce(p, p, b.h_len, m_h_type, ncclAvg, m_comm, m_stream));
    }
    if (b.f_len)
      DLSIZE_NCCL_CHECK(ncclAllReduce(m_f + b.f_off, m_f + b.f_off, b.f_len, ncclFloat, ncclAvg,
                                      m_comm, m_stream));
    DLSIZE_NCCL_CHECK(ncclGroupEnd());
  }
}

void grad_allreduce::finish(cudaStream_t compute) {
  DLSIZE_CUDA_CHECK(cudaEventRecord(m_done, m_stream));
  DLSIZE_CUDA_CHECK(cudaStreamWaitEvent(compute, m_done, 0));
}

} // namespace dlsize::cuda
