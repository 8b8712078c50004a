#include "dataset/datagen_job.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "cluster/agreement.hpp"
#include "cluster/hosts.hpp"
#include "cluster/job_end.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "core/units.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;

namespace {

// Every file of a share is in place with its size; throws usage_error naming the first that is
// not (this rank does not see what another rank wrote).
void check_share(const datagen_options& opt, unsigned share, unsigned ranks) {
  const dataset_layout layout(opt.dir, opt.params);
  for (std::uint64_t f = share; f < layout.files(); f += ranks) {
    std::error_code ec;
    const auto p = layout.file_path(f);
    if (!fs::is_regular_file(p, ec) || fs::file_size(p, ec) != layout.file_bytes(f))
      throw usage_error(fmt::format(
          "--dataset: this host does not see {} (written by rank {}) with its {} bytes: "
          "the dataset must be on storage every rank shares. valid: a shared mount, or "
          "for node-local disks datagen on each node without mpiexec",
          p.string(), share, layout.file_bytes(f)));
  }
}

} // namespace

datagen_result generate_dataset_job(const datagen_options& opt, cluster::communicator& comm) {
  if (comm.size() == 1)
    return generate_dataset(opt);
  const auto t0 = now_s();
  const bool root = comm.rank() == 0;
  const auto ranks = static_cast<unsigned>(comm.size());
  auto not_shared = [&](const char* file) {
    return usage_error(fmt::format(
        "--dataset: '{}' on this host does not show the {} that rank 0 wrote: the dataset "
        "must be on storage every rank shares. valid: a shared mount (NFS, Lustre, "
        "WekaFS, ...), or for node-local disks datagen on each node without mpiexec",
        opt.dir.string(), file));
  };
  datagen_result res;
  // Only rank 0 checks the room and locks the folder: one generation, one holder, however many
  // ranks write into it.
  std::optional<core::folder_lock> lock;
  const auto complete = cluster::agree(comm, [&] {
    if (!root)
      return nlohmann::json(nullptr);
    lock.emplace(claim_dataset_folder(opt));
    return nlohmann::json(prepare_dataset_folder(opt));
  });
  if (complete[0].get<bool>()) {
    res.already_complete = true;
    return res;
  }
  // Every rank sees the state file rank 0 just wrote (its id, not a stale one of its own).
  const std::string generation =
      cluster::agree(comm,
                     [&] {
                       return root ? nlohmann::json(generation_of(opt.dir))
                                   : nlohmann::json(nullptr);
                     })[0]
          .get<std::string>();
  cluster::agree(comm, [&] {
    if (generation_of(opt.dir) != generation)
      throw not_shared(kStateName);
    return nlohmann::json(nullptr);
  });
  // Writing and checking last as long as the slowest share: no time limit, a stop ends them.
  const double timeout = comm.timeout_s();
  comm.set_timeout_s(0);
  const auto shares = cluster::agree(comm, [&] {
    const datagen_result r = write_dataset_share(opt, static_cast<unsigned>(comm.rank()), ranks);
    return nlohmann::json{r.files_written, r.files_kept, r.bytes_written, r.interrupted};
  });
  for (const auto& s : shares) {
    res.files_written += s[0].get<std::uint64_t>();
    res.files_kept += s[1].get<std::uint64_t>();
    res.bytes_written += s[2].get<std::uint64_t>();
    res.interrupted = res.interrupted || s[3].get<bool>();
  }
  if (!res.interrupted) {
    // Each rank checks the next rank's share, so no rank's files are sealed unseen by another.
    cluster::agree(comm, [&] {
      check_share(opt, (static_cast<unsigned>(comm.rank()) + 1) % ranks, ranks);
      return nlohmann::json(nullptr);
    });
  }
  comm.set_timeout_s(timeout);
  if (!res.interrupted) {
    cluster::agree(comm, [&] {
      if (root)
        seal_dataset(opt);
      return nlohmann::json(nullptr);
    });
    cluster::agree(comm, [&] {
      std::error_code ec;
      if (!fs::exists(opt.dir / kManifestName, ec))
        throw not_shared(kManifestName);
      return nlohmann::json(nullptr);
    });
  }
  res.seconds = now_s() - t0;
  return res;
}

void generate_on_first_use(const first_use_request& r, const config::workload_profile& profile,
                           cluster::communicator& comm) {
  if (r.size.empty())
    return;
  const bool missing =
      cluster::agree(comm,
                     [&] { return !core::watched_exists(fs::path(r.dir) / kManifestName); })[0]
          .get<bool>();
  if (!missing)
    return;
  const std::uint64_t ram = cluster::ram_of_hosts(comm);
  dataset_params p = params_from_profile(profile);
  p.seed = r.seed;
  cluster::agree(comm, [&] {
    p.files = files_for_size(p, units::parse_size(r.size, "--generate", ram));
    return nlohmann::json(nullptr);
  });
  if (comm.rank() == 0)
    std::fprintf(stderr,
                 "bench: generating a %s %s dataset in %s (first use; later runs reuse it)\n",
                 r.size.c_str(), profile.name.c_str(), r.dir.c_str());
  datagen_options g;
  g.dir = r.dir;
  g.params = p;
  g.progress = r.progress && comm.rank() == 0;
  g.stall_timeout_s = r.stall_timeout_s;
  if (generate_dataset_job(g, comm).interrupted)
    throw cluster::job_error(1, "dataset generation interrupted; rerun the same command to resume");
}

} // namespace dlsize::dataset
