#include "cluster/single_communicator.hpp"

#include <unistd.h>

#include <atomic>
#include <mutex>

#include "core/clock.hpp"
#include "core/sysinfo.hpp"

namespace dlsize::cluster {
namespace {

class single_run_link final : public run_link {
public:
  explicit single_run_link(run_link_options opt) : m_opt(std::move(opt)) {}
  std::uint64_t start() override { return now_ns(); }
  sync_result sync(std::uint64_t local_end_ns) override {
    return {local_end_ns, m_halted.load(std::memory_order_acquire)};
  }
  void fail(const std::string& reason) override { halt(reason, true); }
  void stop(const std::string& reason) override { halt(reason, false); }
  job_counters totals() override { return m_opt.counters ? m_opt.counters() : job_counters{}; }
  run_outcome finish(const std::string& payload) override {
    std::lock_guard lk(m_m);
    run_outcome o;
    o.halted = m_halted.load();
    o.failed = m_failed;
    o.reason = m_reason;
    o.origin = o.halted ? 0 : -1;
    o.payloads = {payload};
    return o;
  }

private:
  void halt(const std::string& reason, bool failure) {
    {
      std::lock_guard lk(m_m);
      // A failure outranks an earlier stop; the first of each kind is kept.
      if (m_halted.load() && (m_failed || !failure))
        return;
      m_reason = reason;
      m_failed = failure;
      m_halted.store(true, std::memory_order_release);
    }
    if (m_opt.on_halt)
      m_opt.on_halt(reason, failure);
  }

  run_link_options m_opt;
  std::mutex m_m;
  std::atomic<bool> m_halted{false};
  bool m_failed = false;
  std::string m_reason;
};

class single_communicator final : public communicator {
public:
  single_communicator() {
    m_where.host = sysinfo::hostname();
    m_where.rank_hosts = {m_where.host};
    m_where.rank_nodes = {0};
    m_where.rank_local = {0};
  }
  std::string name() const override { return "single process"; }
  std::vector<std::string> allgather(const std::string& mine) override { return {mine}; }
  std::vector<std::string> gather(const std::string& mine) override { return {mine}; }
  std::string broadcast(const std::string& from_root) override { return from_root; }
  void barrier() override {}
  [[noreturn]] void abort(int exit_code) override { _exit(exit_code); }
  std::unique_ptr<run_link> open_run_link(run_link_options opt) override {
    return std::make_unique<single_run_link>(std::move(opt));
  }
};

} // namespace

std::unique_ptr<communicator> make_single_communicator() {
  return std::make_unique<single_communicator>();
}

} // namespace dlsize::cluster
