#pragma once
// The io_uring engine: one ring per reader thread, queue_depth requests in flight, registered
// buffers and files, batched submission and completion (one io_uring_enter per loop), short
// reads requeued, -EAGAIN retried. With per-sample opens the open and close are io_uring
// operations too (direct descriptors), so a loader's open-read-close costs no extra syscalls.
#include "io/basic_engine.hpp"

namespace dlsize::io {

class uring_engine : public basic_engine {
public:
  uring_engine(const engine_options& opt, const file_set& files);
  std::string name() const override { return "io_uring"; }
  engine_result run(job_source& source, job_consumer& consumer,
                    const std::atomic<bool>& stop) override;
  // False, with the reason, when this kernel or sandbox cannot make a ring.
  static bool available(std::string& why);
};

} // namespace dlsize::io
