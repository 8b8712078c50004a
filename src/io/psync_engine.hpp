#pragma once
// The fallback engine: each reader thread reads its job with pread (preadv2 for uncached),
// one request at a time, as fio's psync engine does. queue_depth does not apply.
#include "io/basic_engine.hpp"

namespace dlsize::io {

class psync_engine : public basic_engine {
public:
  using basic_engine::basic_engine;
  std::string name() const override { return "psync"; }
  engine_result run(job_source& source, job_consumer& consumer,
                    const std::atomic<bool>& stop) override;
};

} // namespace dlsize::io
