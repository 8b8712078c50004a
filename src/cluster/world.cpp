#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "cluster/communicator.hpp"
#include "cluster/single_communicator.hpp"
#include "core/error.hpp"
#include "dlsize/build_config.hpp"
#if DLSIZE_HAVE_MPI
#include "cluster/mpi_communicator.hpp"
#endif

namespace dlsize::cluster {
namespace {

std::unique_ptr<communicator> g_world;

// An integer from the environment, or -1.
long env_number(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v)
    return -1;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return *end == '\0' ? n : -1;
}

// Set by the process managers that speak PMI (MPICH's hydra, Slurm's pmi2 plugin, PMIx).
bool launched_with_pmi() {
  for (const char* v : {"PMI_RANK", "PMI_SIZE", "PMI_FD", "PMI_PORT", "PMIX_RANK"})
    if (std::getenv(v))
      return true;
  return false;
}

} // namespace

std::string communicator::rank_name(int rank) const {
  const auto& h = m_where.rank_hosts;
  return fmt::format("rank {} (host {})", rank,
                     rank >= 0 && static_cast<std::size_t>(rank) < h.size()
                         ? h[static_cast<std::size_t>(rank)]
                         : "?");
}

communicator& world() {
  if (!g_world)
    g_world = make_single_communicator();
  return *g_world;
}

int launcher_rank() {
  for (const char* v : {"PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"}) {
    const long r = env_number(v);
    if (r >= 0)
      return static_cast<int>(r);
  }
  return 0;
}

void init_world(int& argc, char**& argv) {
  const long ompi = env_number("OMPI_COMM_WORLD_SIZE");
  const long pmi_size = env_number("PMI_SIZE");
  const long slurm_tasks = env_number("SLURM_STEP_NUM_TASKS");
  const bool pmi = launched_with_pmi();
#if DLSIZE_HAVE_MPI
  (void)pmi_size;
  if (ompi > 0)
    throw usage_error(fmt::format(
        "launched by Open MPI's mpirun (OMPI_COMM_WORLD_SIZE={}), but this dlsize is built with "
        "MPICH. valid: MPICH's launcher (mpiexec.mpich -np N dlsize ...) or srun --mpi=pmi2",
        ompi));
  if (pmi) {
    g_world = make_mpi_communicator(argc, argv);
    return;
  }
  if (slurm_tasks > 1)
    throw usage_error(fmt::format(
        "started by srun as task {} of {} without a PMI, so every task would run alone. valid: "
        "srun --mpi=pmi2 dlsize ...",
        launcher_rank(), slurm_tasks));
#else
  (void)argc;
  (void)argv;
  (void)pmi;
  const long n = std::max({ompi, pmi_size, slurm_tasks});
  if (n > 1)
    throw usage_error(fmt::format(
        "launched as rank {} of {} by a parallel launcher, but this dlsize is built without MPI "
        "(dlsize --version: mpi: no), so every process would run alone. valid: run it without "
        "the launcher, or rebuild with MPICH installed (Debian: mpich libmpich-dev)",
        launcher_rank(), n));
#endif
  g_world = make_single_communicator();
}

void await_abort(const communicator& comm) {
  const double wait_s = std::max(10.0, comm.timeout_s());
  std::this_thread::sleep_for(std::chrono::duration<double>(wait_s));
  std::fprintf(stderr, "dlsize: %s: failed: the job did not end within %g s of losing a rank\n",
               comm.rank_name(comm.rank()).c_str(), wait_s);
  _exit(1);
}

void finalize_world(int exit_code) {
#if DLSIZE_HAVE_MPI
  const communicator& w = world();
  finalize_mpi(w.finalize_timeout_s(), exit_code, w.rank_name(w.rank()));
#else
  (void)exit_code;
#endif
}

} // namespace dlsize::cluster
