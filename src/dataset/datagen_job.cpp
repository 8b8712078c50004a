#include "dataset/datagen_job.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "dist/agreement.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;

datagen_result generate_dataset_job(const datagen_options& opt, dist::communicator& comm) {
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
  const auto complete = dist::agree(comm, [&] {
    return root ? nlohmann::json(prepare_dataset_folder(opt)) : nlohmann::json(nullptr);
  });
  if (complete[0].get<bool>()) {
    res.already_complete = true;
    return res;
  }
  // The write phase lasts as long as the slowest share: no time limit, a stop request ends it.
  const double timeout = comm.timeout_s();
  comm.set_timeout_s(0);
  const auto shares = dist::agree(comm, [&] {
    std::error_code ec;
    if (!fs::exists(opt.dir / kStateName, ec))
      throw not_shared(kStateName);
    const datagen_result r = write_dataset_share(opt, static_cast<unsigned>(comm.rank()), ranks);
    return nlohmann::json{r.files_written, r.files_kept, r.bytes_written, r.interrupted};
  });
  comm.set_timeout_s(timeout);
  for (const auto& s : shares) {
    res.files_written += s[0].get<std::uint64_t>();
    res.files_kept += s[1].get<std::uint64_t>();
    res.bytes_written += s[2].get<std::uint64_t>();
    res.interrupted = res.interrupted || s[3].get<bool>();
  }
  if (!res.interrupted) {
    dist::agree(comm, [&] {
      if (root)
        seal_dataset(opt);
      return nlohmann::json(nullptr);
    });
    dist::agree(comm, [&] {
      std::error_code ec;
      if (!fs::exists(opt.dir / kManifestName, ec))
        throw not_shared(kManifestName);
      return nlohmann::json(nullptr);
    });
  }
  res.seconds = now_s() - t0;
  return res;
}

} // namespace dlsize::dataset
