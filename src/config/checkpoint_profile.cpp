#include "config/checkpoint_profile.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_checks.hpp"

namespace dlsize::config {
namespace {

constexpr std::uint64_t kMaxRanks = 1u << 20;

// bytes given in the block, or parameters × per-parameter; a given figure must agree with the
// product, so that a typo in either is caught.
std::uint64_t total_of(const nlohmann::json& b, const core::json_checker& c, const char* key,
                       std::uint64_t parameters, double per_parameter) {
  const double product = static_cast<double>(parameters) * per_parameter;
  if (!b.contains(key))
    return static_cast<std::uint64_t>(std::llround(product));
  const std::uint64_t given = c.integer(b, "checkpoint", key, 0, UINT64_MAX / 4);
  if (std::fabs(static_cast<double>(given) - product) > 0.05 * product)
    c.fail(fmt::format("checkpoint.{}", key),
           fmt::format("{} differs from parameters × bytes per parameter ({:.0f}) by more than "
                       "5 %; fix one of them",
                       given, product));
  return given;
}

// T split over n ranks as evenly as bytes allow: the first T % n ranks take one byte more.
std::uint64_t split(std::uint64_t total, std::uint64_t n, std::uint64_t r) {
  return total / n + (r < total % n ? 1 : 0);
}

std::uint64_t scaled(std::uint64_t bytes, double scale) {
  return scale == 1 ? bytes
                    : static_cast<std::uint64_t>(std::floor(static_cast<double>(bytes) * scale));
}

} // namespace

checkpoint_profile parse_checkpoint(const nlohmann::json& b, const core::json_checker& c) {
  c.only_keys(b, "checkpoint",
              {"parameters", "parameters_source", "model_bytes_per_parameter",
               "optimizer_bytes_per_parameter", "model_bytes", "optimizer_bytes", "bytes_source",
               "tensor_parallel", "pipeline_parallel", "data_parallel", "zero_stage", "estimate",
               "published", "source"});
  checkpoint_profile p;
  p.parameters = c.integer(b, "checkpoint", "parameters", 1, 100'000'000'000'000ull);
  p.model_bytes_per_parameter = c.number(b, "checkpoint", "model_bytes_per_parameter", 0.125, 64);
  p.optimizer_bytes_per_parameter =
      c.number(b, "checkpoint", "optimizer_bytes_per_parameter", 0, 64);
  p.model_bytes = total_of(b, c, "model_bytes", p.parameters, p.model_bytes_per_parameter);
  p.optimizer_bytes =
      total_of(b, c, "optimizer_bytes", p.parameters, p.optimizer_bytes_per_parameter);
  auto degree = [&](const char* key) {
    return static_cast<unsigned>(c.integer_or(b, "checkpoint", key, 1, kMaxRanks, 1));
  };
  p.tensor_parallel = degree("tensor_parallel");
  p.pipeline_parallel = degree("pipeline_parallel");
  p.data_parallel = degree("data_parallel");
  if (std::uint64_t{p.tensor_parallel} * p.pipeline_parallel * p.data_parallel > kMaxRanks)
    c.fail("checkpoint.data_parallel",
           fmt::format("tensor × pipeline × data parallel is over {} ranks", kMaxRanks));
  p.zero_stage = static_cast<unsigned>(c.integer(b, "checkpoint", "zero_stage", 0, 3));
  if (b.contains("estimate")) {
    if (!b.at("estimate").is_boolean())
      c.fail("checkpoint.estimate", "must be true or false");
    p.estimate = b.at("estimate").get<bool>();
  }
  p.published = b.contains("published") ? c.string(b, "checkpoint", "published") : "";
  p.source = c.string(b, "checkpoint", "source");
  return p;
}

std::uint64_t checkpoint_layout::bytes() const {
  std::uint64_t total = 0;
  for (const auto& s : shares)
    total += s.bytes();
  return total;
}

checkpoint_layout checkpoint_shares(const checkpoint_profile& p, unsigned ranks,
                                    const share_options& opt) {
  if (!(opt.scale > 0 && opt.scale <= 1))
    throw usage_error(fmt::format("--scale: {} is outside (0, 1]. valid: a fraction such as 0.01 "
                                  "(every rank's share times it)",
                                  opt.scale));
  const unsigned mp = p.model_parallel();
  checkpoint_layout l;
  l.tensor_parallel = p.tensor_parallel;
  l.pipeline_parallel = p.pipeline_parallel;
  if (opt.subset) {
    if (ranks > p.job_ranks())
      throw usage_error(fmt::format(
          "--subset: {} ranks are more than the {} ranks of the full job. valid: at most {} "
          "ranks, or no --subset to re-lay the job on the ranks launched",
          ranks, p.job_ranks(), p.job_ranks()));
    l.data_parallel = p.data_parallel;
  } else {
    if (ranks % mp != 0)
      throw usage_error(fmt::format(
          "checkpoint: {} ranks cannot hold the layout of tensor parallel {} × pipeline "
          "parallel {}: data parallel would be {}/{}. valid: a multiple of {} ranks, or "
          "--subset to write the shares of the full job's first ranks",
          ranks, p.tensor_parallel, p.pipeline_parallel, ranks, mp, mp));
    l.data_parallel = ranks / mp;
  }
  l.job_ranks = mp * l.data_parallel;
  const std::uint64_t n = l.job_ranks;
  for (unsigned r = 0; r < ranks; ++r) {
    rank_share s;
    if (p.zero_stage == 0) {
      if (r == 0)
        s = {p.model_bytes, p.optimizer_bytes};
    } else if (p.zero_stage == 3) {
      s = {split(p.model_bytes, n, r), split(p.optimizer_bytes, n, r)};
    } else {
      // The first data-parallel replica (ranks 0 … TP·PP − 1) also saves the model.
      s.optimizer_bytes = split(p.optimizer_bytes, n, r);
      s.model_bytes = r < mp ? split(p.model_bytes, mp, r) : 0;
    }
    l.shares.push_back({scaled(s.model_bytes, opt.scale), scaled(s.optimizer_bytes, opt.scale)});
  }
  return l;
}

nlohmann::json to_json(const checkpoint_profile& p) {
  return {{"parameters", p.parameters},
          {"model_bytes_per_parameter", p.model_bytes_per_parameter},
          {"optimizer_bytes_per_parameter", p.optimizer_bytes_per_parameter},
          {"model_bytes", p.model_bytes},
          {"optimizer_bytes", p.optimizer_bytes},
          {"bytes", p.total_bytes()},
          {"tensor_parallel", p.tensor_parallel},
          {"pipeline_parallel", p.pipeline_parallel},
          {"data_parallel", p.data_parallel},
          {"zero_stage", p.zero_stage},
          {"estimate", p.estimate},
          {"published", p.published},
          {"source", p.source}};
}

} // namespace dlsize::config
