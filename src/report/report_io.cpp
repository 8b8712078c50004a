#include "report/report_io.hpp"

#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/crc32c.hpp"
#include "dlsize/build_config.hpp"
#include "dlsize/git_commit.hpp"
#include "report/bench_report.hpp"
#include "report/run_id.hpp"
#include "telemetry/host_provenance.hpp"

namespace dlsize::report {

double unix_now_s() {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  return static_cast<double>(ms) / 1e3;
}

std::string tool_commit() {
  return DLSIZE_GIT_COMMIT;
}

tool_section tool_of_build() {
  tool_features f;
  f.io_uring = true;
  f.liburing = std::string(DLSIZE_LIBURING_VERSION);
  f.psync = true;
  f.crc32c = std::string(crc32c_hardware() ? "sse4.2" : "table");
  f.mpi = DLSIZE_HAVE_MPI != 0;
  f.mpi_library =
      DLSIZE_HAVE_MPI ? field<std::string>(DLSIZE_MPI_VERSION) : field<std::string>::null();
  f.cuda = DLSIZE_HAVE_CUDA != 0;
  tool_section t;
  t.name = std::string("dlsize");
  t.version = std::string(DLSIZE_VERSION);
  t.commit = tool_commit();
  t.build_type = std::string(DLSIZE_BUILD_TYPE);
  t.features = f;
  return t;
}

nlohmann::json tool_json() {
  return to_json(tool_of_build());
}

bench_report new_bench_report(const nlohmann::json& command_line) {
  bench_report r;
  r.run_id = new_run_id();
  r.created_at = utc_now();
  r.created_unix_s = unix_now_s();
  r.tool = tool_of_build();
  r.command_line = command_line.get<std::vector<std::string>>();
  return r;
}

std::vector<std::string> feature_lines(const std::string& uring_unusable) {
  return {
      uring_unusable.empty()
          ? std::string("io_uring: yes (liburing ") + DLSIZE_LIBURING_VERSION + ")"
          : fmt::format("io_uring: no (liburing {} built in, but {}; bench falls back to psync)",
                        DLSIZE_LIBURING_VERSION, uring_unusable),
      "psync: yes",
      fmt::format("crc32c: {}", crc32c_hardware() ? "sse4.2" : "table"),
      DLSIZE_HAVE_MPI ? fmt::format("mpi: yes ({}; launch with mpiexec.mpich or srun --mpi=pmi2)",
                                    DLSIZE_MPI_VERSION)
                      : "mpi: no (not built; install mpich and libmpich-dev, then reconfigure)",
      DLSIZE_HAVE_CUDA ? "cuda: yes"
                       : "cuda: no (not built; configure with the CUDA toolkit, cuDNN and NCCL)",
      DLSIZE_HAVE_S3
          ? fmt::format("s3: yes (built on libcurl {}, loaded at the first S3 call; --dataset "
                        "s3://BUCKET/PREFIX)",
                        DLSIZE_CURL_VERSION)
          : "s3: no (not built; install libcurl4-openssl-dev, then reconfigure)",
  };
}

nlohmann::json command_line_json(int argc, const char* const* argv) {
  nlohmann::json a = nlohmann::json::array();
  for (int i = 0; i < argc; ++i)
    a.push_back(argv[i]);
  return a;
}

telemetry::host_facts host_of(std::vector<telemetry::gpu_device> gpus, telemetry::nvml_status nvml,
                              std::optional<telemetry::host_provenance_facts> provenance) {
  telemetry::host_facts host = telemetry::this_host(std::move(provenance));
  host.gpus = std::move(gpus);
  host.nvml = std::move(nvml);
  return host;
}

system_section system_of(std::vector<telemetry::host_facts> hosts) {
  system_section s;
  s.hosts = std::move(hosts);
  return s;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void write_report(const std::filesystem::path& path, const nlohmann::json& report) {
  write_file_atomic(path, report.dump(2) + "\n");
}

} // namespace dlsize::report
