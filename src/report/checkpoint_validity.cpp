#include "report/checkpoint_validity.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/units.hpp"
#include "report/fs_separation.hpp"

namespace dlsize::report {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string bytes_text(double b) {
  return units::format_bytes_binary(b);
}

validity_rule subset_rule(const checkpoint_facts& f) {
  validity_rule v;
  v.rule = fmt::format("subset mode only for {} on {} accelerators", kSubsetWorkload,
                       kSubsetAccelerators);
  v.source = fmt::format("{}: §4.3.5 checkpointSubsetRunValidation", kV3RulesDoc);
  v.judge = "dlsize checkpoint (--subset, --workload and the launched ranks)";
  if (!f.subset) {
    v.measured = fmt::format("not a subset run: the job's {} ranks laid on {} launched",
                             f.job_ranks, f.ranks);
    v.verdict = rule_verdict::pass;
    return v;
  }
  v.measured = fmt::format("a subset run of {} on {} accelerators", f.workload, f.ranks);
  v.verdict = f.workload == kSubsetWorkload && f.ranks == kSubsetAccelerators ? rule_verdict::pass
                                                                              : rule_verdict::fail;
  return v;
}

validity_rule memory_rule(const checkpoint_facts& f) {
  validity_rule v;
  v.rule = "the simulated accelerators' memory holds the checkpoint";
  v.source = fmt::format("{}: §4.3.4 checkpointAggregateAcceleratorMemory (Table 3: b200 180 GB, "
                         "mi355 288 GB, h100 and a100 80 GB; the GB of Table 2's sizes, GiB)",
                         kV3RulesDoc);
  v.judge = "dlsize checkpoint --accelerator TYPE (the job's ranks, or the launched ones of a "
            "subset run)";
  if (!f.accelerator) {
    v.measured = "no accelerator declared (--accelerator): v3.0 fails a run whose metadata "
                 "records none";
    v.verdict = rule_verdict::fail;
    return v;
  }
  const auto mem = checkpoint_accelerator(*f.accelerator);
  if (!mem) {
    v.measured = fmt::format("{} is not in Table 3", *f.accelerator);
    v.verdict = rule_verdict::fail;
    return v;
  }
  const std::uint64_t n = f.subset ? f.ranks : f.job_ranks;
  const double held = mem->gib * kGiB * static_cast<double>(n);
  const double size = static_cast<double>(f.checkpoint_bytes);
  v.measured = fmt::format("{} × {} ({:g} GB each, {}) hold {}; the checkpoint is {}", n, mem->type,
                           mem->gib, mem->divisions, bytes_text(held), bytes_text(size));
  v.verdict = held >= size ? rule_verdict::pass : rule_verdict::fail;
  return v;
}

// The client whose checkpoint share is the smallest against its RAM.
const checkpoint_facts::host* tightest(const checkpoint_facts& f) {
  const checkpoint_facts::host* t = nullptr;
  for (const auto& h : f.hosts)
    if (!t || static_cast<double>(h.bytes_per_checkpoint) * static_cast<double>(t->ram_bytes) <
                  static_cast<double>(t->bytes_per_checkpoint) * static_cast<double>(h.ram_bytes))
      t = &h;
  return t;
}

validity_rule cache_rule(const checkpoint_facts& f) {
  validity_rule v;
  v.rule = fmt::format("caches cleared before the reads where a client's checkpoint is under "
                       "{:g} × its RAM",
                       kCheckpointCacheRamMultiple);
  v.source = fmt::format("{}: §4.3.1 checkpointDataSizeRatio, §4.7.1 "
                         "checkpointCacheFlushValidation",
                         kV3RulesDoc);
  v.judge = "dlsize checkpoint --drop-caches, --cache direct or --read-shift onto other hosts";
  const auto* h = tightest(f);
  if (f.reads == 0) {
    v.measured = "no reads in this run: the clearing is the read run's to show";
    return v;
  }
  if (!h || h->ram_bytes == 0) {
    v.measured = "the run does not know its clients' RAM";
    return v;
  }
  const double ratio =
      static_cast<double>(h->bytes_per_checkpoint) / static_cast<double>(h->ram_bytes);
  v.measured = fmt::format("{} writes {} of a checkpoint with {} of RAM ({:.2f} ×)", h->name,
                           bytes_text(static_cast<double>(h->bytes_per_checkpoint)),
                           bytes_text(static_cast<double>(h->ram_bytes)), ratio);
  if (ratio >= kCheckpointCacheRamMultiple)
    v.measured += ": no clearing needed";
  else if (f.caches_dropped)
    v.measured += "; caches dropped before every read";
  else if (f.direct_reads)
    v.measured += "; reads with O_DIRECT (--cache direct) bypass the page cache";
  else if (f.reads_other_hosts)
    v.measured += "; every rank reads shards another host wrote (--read-shift)";
  else {
    v.measured += "; the reads may come from the page cache (no --drop-caches, --cache "
                  "direct or --read-shift onto other hosts)";
    v.verdict = rule_verdict::fail;
    return v;
  }
  v.verdict = rule_verdict::pass;
  return v;
}

} // namespace

std::optional<accelerator_memory> checkpoint_accelerator(const std::string& type) {
  for (const auto& m : kCheckpointAcceleratorMemory)
    if (type == m.type)
      return m;
  return std::nullopt;
}

validity checkpoint_validity(const checkpoint_facts& f, rules_edition edition) {
  if (edition != rules_edition::v3) {
    validity_rule none;
    none.rule = "checkpoint rules of this edition";
    none.source = edition == rules_edition::v1
                      ? "MLPerf Storage v1.0 rules: no checkpoint workload"
                      : "MLPerf Storage v2.0: dlsize judged no checkpoint rule of that edition";
    none.measured = "not judged (--rules v3 judges v3.0's)";
    none.judge = "dlsize checkpoint --rules v3";
    return {edition, {none}};
  }
  return {edition,
          {subset_rule(f), memory_rule(f), cache_rule(f),
           fs_separation_rule(f.fs_separation, "checkpoints",
                              fmt::format("{}: §4.4.1 checkpointPathArgs, §4.4.2 "
                                          "checkpointFilesystemCheck",
                                          kV3RulesDoc),
                              "dlsize checkpoint (fs_separation: the devices of --dir and --out)",
                              f.object_store)}};
}

} // namespace dlsize::report
