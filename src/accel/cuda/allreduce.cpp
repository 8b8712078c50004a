#include "accel/cuda/allreduce.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <utility>

#include "accel/cuda/check.hpp"

namespace dlsize::cuda {

double nccl_timeout_s() {
  const char* env = std::getenv("DLSIZE_NCCL_TIMEOUT_S");
  if (env == nullptr || *env == '\0')
    return 600;
  char* end = nullptr;
  const double s = std::strtod(env, &end);
  if (end == env || *end != '\0' || !(s > 0))
    throw_bad(std::string("DLSIZE_NCCL_TIMEOUT_S=") + env + ": valid: seconds above 0");
  return s;
}

grad_allreduce::grad_allreduce(int rank, int nranks,
                               const std::uint8_t id[DLSIZE_CUDA_NCCL_ID_BYTES], int device)
    : m_rank(rank), m_nranks(nranks), m_timeout_s(nccl_timeout_s()) {
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
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  const ncclResult_t rc = ncclCommInitRankConfig(&m_comm, nranks, uid, rank, &config);
  if (rc != ncclSuccess && rc != ncclInProgress) {
    if (m_comm)
      ncclCommAbort(std::exchange(m_comm, nullptr));
    throw_nccl(rc, "ncclCommInitRankConfig", __FILE__, __LINE__);
  }
  settle("ncclCommInitRankConfig (joining the other ranks)");
  DLSIZE_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
  DLSIZE_CUDA_CHECK(cudaEventCreateWithFlags(&m_done, cudaEventDisableTiming));
}

void grad_allreduce::abort_and_throw(const std::string& why) {
  if (m_comm)
    ncclCommAbort(std::exchange(m_comm, nullptr)); // aborted: not destroyed again
  throw cuda_failure(DLSIZE_CUDA_FAILED, "rank " + std::to_string(m_rank) + " of " +
                                             std::to_string(m_nranks) + ": " + why +
                                             "; the NCCL communicator was aborted");
}

void grad_allreduce::watch(const std::string& what, const std::function<bool()>& done) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(m_timeout_s);
  for (unsigned polls = 0;; ++polls) {
    if (done())
      return;
    ncclResult_t async = ncclSuccess;
    const ncclResult_t rc = ncclCommGetAsyncError(m_comm, &async);
    if (rc != ncclSuccess)
      async = rc;
    if (async != ncclSuccess && async != ncclInProgress)
      abort_and_throw(what + " failed: " + ncclGetErrorString(async) +
                      " (last NCCL error: " + ncclGetLastError(m_comm) + ")");
    if (std::chrono::steady_clock::now() > deadline)
      abort_and_throw(what + " did not finish within " + std::to_string(m_timeout_s) +
                      " s (DLSIZE_NCCL_TIMEOUT_S): a peer rank failed, hung or never joined");
    std::this_thread::sleep_for(std::chrono::microseconds(polls < 100 ? 20 : 200));
  }
}

void grad_allreduce::settle(const char* what) {
  watch(what, [this] {
    ncclResult_t state = ncclInProgress;
    return ncclCommGetAsyncError(m_comm, &state) == ncclSuccess && state == ncclSuccess;
  });
}

void grad_allreduce::wait(cudaEvent_t ev) {
  watch("the step's gradient allreduce", [ev] {
    const cudaError_t rc = cudaEventQuery(ev);
    if (rc == cudaSuccess)
      return true;
    if (rc != cudaErrorNotReady)
      throw_cuda(rc, "cudaEventQuery(step end)", __FILE__, __LINE__);
    // cudaErrorNotReady is also left as the thread's last error, which the next launch check
    // would then throw; PyTorch clears it after its event queries too.
    cudaGetLastError();
    return false;
  });
}

grad_allreduce::~grad_allreduce() {
  for (auto e : m_ready)
    DLSIZE_CUDA_WARN(cudaEventDestroy(e));
  if (m_done)
    DLSIZE_CUDA_WARN(cudaEventDestroy(m_done));
  if (m_stream)
    DLSIZE_CUDA_WARN(cudaStreamDestroy(m_stream));
  if (!m_comm)
    return;
  // A non-blocking communicator finalizes in the background; one that does not finish soon (a
  // peer gone) is aborted rather than waited for at exit.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(std::min(m_timeout_s, 30.0));
  ncclResult_t state = ncclCommFinalize(m_comm);
  while (state == ncclInProgress && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    if (ncclCommGetAsyncError(m_comm, &state) != ncclSuccess)
      break;
  }
  if (state == ncclSuccess)
    ncclCommDestroy(m_comm);
  else
    ncclCommAbort(m_comm);
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
    // Inside a group a non-blocking communicator may answer ncclInProgress: taken, not failed.
    auto enqueued = [](ncclResult_t rc, const char* call) {
      if (rc != ncclSuccess && rc != ncclInProgress)
        throw_nccl(rc, call, __FILE__, __LINE__);
    };
    if (b.h_len) {
      void* p = static_cast<char*>(m_h) + b.h_off * h_elem;
      enqueued(ncclAllReduce(p, p, b.h_len, m_h_type, ncclAvg, m_comm, m_stream),
               "ncclAllReduce (half gradients)");
    }
    if (b.f_len)
      enqueued(ncclAllReduce(m_f + b.f_off, m_f + b.f_off, b.f_len, ncclFloat, ncclAvg, m_comm,
                             m_stream),
               "ncclAllReduce (fp32 gradients)");
    // A non-blocking communicator may still be taking the group when ncclGroupEnd returns.
    const ncclResult_t rc = ncclGroupEnd();
    enqueued(rc, "ncclGroupEnd (a gradient bucket)");
    if (rc == ncclInProgress)
      settle("the gradient bucket's ncclGroupEnd");
  }
}

void grad_allreduce::finish(cudaStream_t compute) {
  DLSIZE_CUDA_CHECK(cudaEventRecord(m_done, m_stream));
  DLSIZE_CUDA_CHECK(cudaStreamWaitEvent(compute, m_done, 0));
}

} // namespace dlsize::cuda
