#include "cluster/mpi_communicator.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "cluster/mpi_check.hpp"
#include "cluster/mpi_run_link.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/stop.hpp"
#include "core/sysinfo.hpp"

namespace dlsize::cluster {

void check_mpi(int rc, const char* call, const char* file, int line) {
  if (rc == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw run_error(fmt::format("{} (at {}:{}) failed: {}", call, file, line,
                              std::string(text, static_cast<std::size_t>(len))));
}

void wait_request(MPI_Request& req, double timeout_s, const std::string& what) {
  const bool limited = timeout_s > 0;
  const std::uint64_t deadline =
      limited ? now_ns() + static_cast<std::uint64_t>(timeout_s * 1e9) : 0;
  std::uint64_t stop_deadline = 0;
  for (unsigned spin = 0;; ++spin) {
    int done = 0;
    DLSIZE_MPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    if (done)
      return;
    const std::uint64_t t = now_ns();
    if (limited && t > deadline)
      throw run_error(
          fmt::format("{}: the other ranks did not take part within {:g} s (a rank hung or died). "
                      "valid: --rank-timeout longer than the slowest rank's phase",
                      what, timeout_s));
    // Without a limit, a stop request ends the wait once the others had time to stop too.
    if (!limited && stop_requested()) {
      if (!stop_deadline)
        stop_deadline = t + 30'000'000'000ull;
      if (t > stop_deadline)
        throw run_error(fmt::format("{}: interrupted while waiting for the other ranks", what));
    }
    // Answers within microseconds on one host stay fast; long waits cost little CPU.
    if (spin < 64)
      std::this_thread::yield();
    else
      usleep(spin < 1024 ? 20 : 500);
  }
}

namespace {

class mpi_communicator final : public communicator {
public:
  explicit mpi_communicator(MPI_Comm comm) : m_comm(comm) {
    DLSIZE_MPI(MPI_Comm_rank(m_comm, &m_where.rank));
    DLSIZE_MPI(MPI_Comm_size(m_comm, &m_where.ranks));
    m_where.host = sysinfo::hostname();
    const auto hosts = allgather(m_where.host);
    std::map<std::string, int> node_of, local_count;
    for (int r = 0; r < m_where.ranks; ++r) {
      const auto& h = hosts[static_cast<std::size_t>(r)];
      if (!node_of.count(h))
        node_of.emplace(h, static_cast<int>(node_of.size()));
      m_where.rank_hosts.push_back(h);
      m_where.rank_nodes.push_back(node_of[h]);
      m_where.rank_local.push_back(local_count[h]++);
    }
    m_where.node = m_where.rank_nodes[static_cast<std::size_t>(m_where.rank)];
    m_where.nodes = static_cast<int>(node_of.size());
    m_where.local_rank = m_where.rank_local[static_cast<std::size_t>(m_where.rank)];
    m_where.local_ranks = local_count[m_where.host];
  }

  std::string name() const override {
    char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int len = 0;
    MPI_Get_library_version(text, &len);
    std::string v(text, static_cast<std::size_t>(len));
    v = v.substr(0, v.find('\n'));
    // "MPICH Version:\t4.0.2" → "MPICH 4.0.2"
    const auto colon = v.find(':');
    if (colon != std::string::npos) {
      std::string num = v.substr(colon + 1);
      num.erase(0, num.find_first_not_of(" \t"));
      v = v.substr(0, v.find(' ')) + " " + num;
    }
    return "MPI (" + v + ")";
  }

  std::vector<std::string> allgather(const std::string& mine) override {
    std::vector<long long> lens(static_cast<std::size_t>(m_where.ranks));
    long long len = static_cast<long long>(mine.size());
    MPI_Request req;
    DLSIZE_MPI(MPI_Iallgather(&len, 1, MPI_LONG_LONG, lens.data(), 1, MPI_LONG_LONG, m_comm, &req));
    wait_request(req, m_timeout_s, "allgather of sizes");
    std::vector<int> counts, displs;
    const std::size_t total = layout(lens, counts, displs);
    std::string all(total, '\0');
    DLSIZE_MPI(MPI_Iallgatherv(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(),
                               counts.data(), displs.data(), MPI_CHAR, m_comm, &req));
    wait_request(req, m_timeout_s, "allgather");
    return split(all, counts, displs);
  }

  std::vector<std::string> gather(const std::string& mine) override {
    const bool root = m_where.rank == 0;
    std::vector<long long> lens(root ? static_cast<std::size_t>(m_where.ranks) : 0);
    long long len = static_cast<long long>(mine.size());
    MPI_Request req;
    DLSIZE_MPI(MPI_Igather(&len, 1, MPI_LONG_LONG, lens.data(), 1, MPI_LONG_LONG, 0, m_comm, &req));
    wait_request(req, m_timeout_s, "gather of sizes");
    std::vector<int> counts, displs;
    const std::size_t total = root ? layout(lens, counts, displs) : 0;
    std::string all(total, '\0');
    DLSIZE_MPI(MPI_Igatherv(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(),
                            counts.data(), displs.data(), MPI_CHAR, 0, m_comm, &req));
    wait_request(req, m_timeout_s, "gather");
    return root ? split(all, counts, displs) : std::vector<std::string>{};
  }

  std::string broadcast(const std::string& from_root) override {
    long long len = static_cast<long long>(from_root.size());
    MPI_Request req;
    DLSIZE_MPI(MPI_Ibcast(&len, 1, MPI_LONG_LONG, 0, m_comm, &req));
    wait_request(req, m_timeout_s, "broadcast of a size");
    if (len > INT_MAX)
      throw run_error("broadcast: more than 2 GiB");
    std::string s =
        m_where.rank == 0 ? from_root : std::string(static_cast<std::size_t>(len), '\0');
    DLSIZE_MPI(MPI_Ibcast(s.data(), static_cast<int>(len), MPI_CHAR, 0, m_comm, &req));
    wait_request(req, m_timeout_s, "broadcast");
    return s;
  }

  void barrier() override {
    MPI_Request req;
    DLSIZE_MPI(MPI_Ibarrier(m_comm, &req));
    wait_request(req, m_timeout_s, "barrier");
  }

  [[noreturn]] void abort(int exit_code) override {
    // The launcher forwards a rank's stderr asynchronously and MPI_Abort tears its proxies
    // down: a moment first, so that the message this rank just printed reaches the user.
    std::fflush(stderr);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    MPI_Abort(MPI_COMM_WORLD, exit_code);
    _exit(exit_code);
  }

  std::unique_ptr<run_link> open_run_link(run_link_options opt) override {
    return make_mpi_run_link(m_comm, *this, std::move(opt));
  }

private:
  // Counts and displacements for a v-collective; throws past MPI's int counts.
  static std::size_t layout(const std::vector<long long>& lens, std::vector<int>& counts,
                            std::vector<int>& displs) {
    long long total = 0;
    for (long long l : lens) {
      if (total + l > INT_MAX)
        throw run_error("gather: more than 2 GiB from all ranks together");
      counts.push_back(static_cast<int>(l));
      displs.push_back(static_cast<int>(total));
      total += l;
    }
    return static_cast<std::size_t>(total);
  }
  static std::vector<std::string> split(const std::string& all, const std::vector<int>& counts,
                                        const std::vector<int>& displs) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < counts.size(); ++i)
      out.push_back(
          all.substr(static_cast<std::size_t>(displs[i]), static_cast<std::size_t>(counts[i])));
    return out;
  }

  MPI_Comm m_comm;
};

} // namespace

std::unique_ptr<communicator> make_mpi_communicator(int& argc, char**& argv) {
  int provided = 0;
  DLSIZE_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided));
  if (provided < MPI_THREAD_SERIALIZED)
    throw run_error(
        fmt::format("MPI_Init_thread: the MPI library gives thread level {}, dlsize needs "
                    "MPI_THREAD_SERIALIZED ({})",
                    provided, MPI_THREAD_SERIALIZED));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm comm;
  DLSIZE_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  DLSIZE_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
  return std::make_unique<mpi_communicator>(comm);
}

void finalize_mpi(double timeout_s, int exit_code, const std::string& who) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (!init || fin)
    return;
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread watchdog;
  if (timeout_s > 0)
    watchdog = std::thread([&] {
      std::unique_lock lk(m);
      if (cv.wait_for(lk, std::chrono::duration<double>(timeout_s), [&] { return done; }))
        return;
      std::fprintf(stderr,
                   "dlsize: %s: MPI_Finalize did not return within %g s; the "
                   "job had ended (its outcome agreed, its report written where it has one), so "
                   "this rank exits with code %d without it\n",
                   who.c_str(), timeout_s, exit_code);
      std::fflush(stderr);
      _exit(exit_code);
    });
  MPI_Finalize();
  {
    std::lock_guard lk(m);
    done = true;
  }
  cv.notify_all();
  if (watchdog.joinable())
    watchdog.join();
}

} // namespace dlsize::cluster
