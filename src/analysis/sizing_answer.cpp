#include "analysis/sizing_answer.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "analysis/sizing_document.hpp"

namespace dlsize::analysis {
namespace {

// A rate for the verdicts: GB/s from 1 GB/s, MB/s below.
std::string gbps(double v) {
  return v >= 1e9 ? fmt::format("{:.3g} GB/s", v / 1e9) : fmt::format("{:.3g} MB/s", v / 1e6);
}

std::string money(double v) {
  return v >= 1e6 ? fmt::format("{:.3g} M", v / 1e6) : fmt::format("{:.0f}", v);
}

std::string growth_text(const std::vector<double>& g) {
  std::vector<std::string> parts;
  for (double f : g)
    parts.push_back(fmt::format("{:g}×", f));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// The series of one load, in document order.
std::vector<const sizing_series*> series_of(const sizing_document& d,
                                            const workload_requirement& r) {
  std::vector<const sizing_series*> out;
  for (const auto& s : d.series)
    if (s.workload == r.workload && s.accelerator == r.accelerator &&
        find_requirement(d.requirements, s.workload, s.accelerator,
                         s.demand_bytes_per_s_per_accelerator) == &r)
      out.push_back(&s);
  return out;
}

// A column's name: the backend, with its dataset where the backend has series of several sizes.
std::vector<std::string> column_names(const std::vector<const sizing_series*>& ss) {
  std::vector<std::string> out;
  for (const auto* s : ss) {
    bool sizes = false;
    for (const auto* o : ss)
      sizes |= o != s && o->backend == s->backend;
    out.push_back(sizes ? fmt::format("{} ({:.3g} GB)", s->backend, s->dataset_bytes / 1e9)
                        : s->backend);
  }
  return out;
}

// The cache the rows assume: the one asked for (--client-ram × --clients), else the smallest of
// the series' (none for direct reads): the requirement should not lean on a cache one backend's
// runs had and another's did not.
void set_cache(projection_options& po, const sizing_document& d,
               const std::vector<const sizing_series*>& ss, std::string& note) {
  double smallest = std::numeric_limits<double>::infinity();
  double hit = std::numeric_limits<double>::infinity();
  for (const auto* s : ss) {
    smallest = std::min(smallest, s->cache.cache_bytes);
    if (std::isfinite(s->cache.measured_hit_ratio))
      hit = std::min(hit, s->cache.measured_hit_ratio);
  }
  po.cache_model = ss.front()->cache.model;
  for (const auto& c : d.cache_curves)
    if (c.workload == ss.front()->workload && po.cache_model == cache_model_kind::measured)
      po.curve = &c.curve;
  if (d.options.cache_bytes >= 0) {
    po.cache_bytes = d.options.cache_bytes;
    note = fmt::format("a cache of {:.3g} GB in front of the storage (--client-ram × --clients)",
                       po.cache_bytes / 1e9);
    return;
  }
  po.cache_bytes = smallest;
  po.measured_hit_ratio = smallest > 0 && std::isfinite(hit) ? hit : std::nan("");
  note = smallest > 0
             ? fmt::format("the smallest cache the backends' runs had ({:.3g} GB)", smallest / 1e9)
             : "no cache in front of the storage (the runs read direct, or one backend "
               "had none)";
}

// The rows' bandwidth: the load's requirement projected as every series projects it.
std::vector<projection> row_projections(const sizing_document& d, const workload_requirement& r,
                                        const std::vector<const sizing_series*>& ss,
                                        std::string& cache_note) {
  const sizing_series& first = *ss.front();
  projection_options po;
  po.targets = d.options.targets;
  po.growth = d.options.growth;
  po.headroom = d.options.headroom;
  po.limit_bytes_per_s = first.limit_bytes_per_s.value_or(0);
  po.limit_source = first.limit_source;
  po.dataset_bytes = first.dataset_bytes;
  po.demand_per_accelerator = r.planned;
  po.requirement = &r.pooled;
  if (first.scaling)
    po.efficiency = [curve = first.scaling->curve](double n) {
      for (const auto& p : curve)
        if (static_cast<double>(p.accelerators) == n)
          return p.efficiency;
      return 1.0;
    };
  set_cache(po, d, ss, cache_note);
  return project(r.pooled, po);
}

double storage_share(const sizing_series& s) {
  const double h = s.cache.measured_hit_ratio;
  return std::isfinite(h) ? 1 - h : 1.0;
}

backend_answer verdict_of(const sizing_series& s, const std::string& name, double provision) {
  backend_answer b;
  b.backend = name;
  const auto& l = s.limits;
  b.at_least = l.ceiling_lower_bound || !l.ceiling_bytes_per_s;
  b.delivers =
      (b.at_least ? l.best_measured_bytes_per_s : *l.ceiling_bytes_per_s) * storage_share(s);
  if (s.knee.chosen)
    b.knee_accelerators = s.knee.hinge.breakpoint;
  b.most_accelerators = l.modelled_max_accelerators;
  b.clients = l.clients;
  b.margin = provision > 0 ? b.delivers / provision - 1 : std::nan("");
  const std::string clients = fmt::format("{:g} client{}", b.clients, b.clients == 1 ? "" : "s");
  if (b.delivers >= provision) {
    b.kind = holds_kind::holds;
    b.text = fmt::format("holds: {}{}, {:.0f} % margin", b.at_least ? "at least " : "ceiling ",
                         gbps(b.delivers), 100 * b.margin);
  } else if (!b.at_least) {
    b.kind = holds_kind::does_not_hold;
    b.text = fmt::format("does not hold: ceiling {}", gbps(b.delivers));
    if (b.knee_accelerators)
      b.text += fmt::format(", knee at {:.3g} accelerators", *b.knee_accelerators);
    if (b.most_accelerators)
      b.text +=
          fmt::format(" (at most {} at AU ≥ {:.0f} %)", *b.most_accelerators, 100 * s.au_threshold);
  } else {
    b.kind = holds_kind::not_determined;
    b.text = l.client_limited_runs > 0
                 ? fmt::format("not determined: at least {} from {}, client-limited; add clients "
                               "or readers to find its ceiling",
                               gbps(b.delivers), clients)
                 : fmt::format("not determined: at least {} from {}, never saturated up to {:g} "
                               "accelerators; measure more accelerators or clients",
                               gbps(b.delivers), clients,
                               s.measured.empty() ? 0.0 : s.measured.back().row.accelerators);
  }
  return b;
}

// The capacity a row needs: the dataset (--dataset-size, else the runs') × growth, plus one
// checkpoint of the workload where one was measured.
double checkpoint_bytes(const sizing_document& d, const std::string& workload) {
  double most = 0;
  for (const auto& c : d.checkpoint_series)
    if (c.workload == workload && std::isfinite(c.bytes_per_checkpoint))
      most = std::max(most, c.bytes_per_checkpoint);
  return most;
}

void price(backend_answer& b, const backend_prices* p, const answer_row& row) {
  if (!p || !p->priced())
    return;
  answer_cost c;
  const double tb = row.capacity_bytes / 1e12;
  c.bandwidth = p->price_per_gbps ? row.provision / 1e9 * *p->price_per_gbps : 0;
  c.capacity = p->price_per_tb && std::isfinite(tb) ? tb * *p->price_per_tb : 0;
  c.total = c.bandwidth + c.capacity;
  c.per_accelerator = c.total / row.accelerators;
  if (p->usable_tb && std::isfinite(tb))
    c.capacity_fits = tb <= *p->usable_tb;
  b.cost = c;
}

// The cheapest backend that holds the row (and has the capacity, where that is given).
std::string cheapest_of(const answer_row& row) {
  const backend_answer* best = nullptr;
  for (const auto& b : row.backends)
    if (b.kind == holds_kind::holds && b.cost && b.cost->capacity_fits.value_or(true) &&
        (!best || b.cost->total < best->cost->total))
      best = &b;
  return best ? best->backend : "";
}

// Rows of one target whose bandwidth no growth factor changes are one row (unless prices make
// the capacity, and so the cost, differ).
bool same_bandwidth(const projection& a, const projection& b) {
  return a.accelerators == b.accelerators &&
         std::fabs(a.provision - b.provision) <= 1e-9 * std::max(1.0, a.provision) &&
         std::fabs(a.required - b.required) <= 1e-9 * std::max(1.0, a.required);
}

std::string recommendation_of(const sizing_answer& a, const std::string& unit) {
  if (a.rows.empty())
    return "";
  std::vector<std::string> parts;
  const double top = a.rows.back().accelerators;
  // The largest target some backend holds at every growth factor, and by whom.
  for (auto it = a.rows.rbegin(); it != a.rows.rend(); ++it) {
    const answer_row& row = *it;
    const backend_answer* pick = nullptr;
    const std::string cheapest = row.cheapest;
    for (const auto& b : row.backends)
      if (b.kind == holds_kind::holds &&
          (cheapest.empty() ? (!pick || b.margin > pick->margin) : b.backend == cheapest))
        pick = &b;
    if (!pick)
      continue;
    std::string s =
        fmt::format("{} holds {:g} {} with {:.0f} % margin{}", pick->backend, row.accelerators,
                    unit, 100 * pick->margin, pick->at_least ? " (at least)" : "");
    if (!cheapest.empty())
      s += fmt::format(", the cheapest that does ({} in all, {} per accelerator)",
                       money(pick->cost->total), money(pick->cost->per_accelerator));
    if (row.accelerators < top)
      s += fmt::format(", but no backend is shown to hold {:g}", top);
    parts.push_back(s);
    break;
  }
  if (parts.empty())
    parts.push_back(fmt::format("No backend measured here is shown to hold {:g} {}",
                                a.rows.front().accelerators, unit));
  for (const auto& b : a.rows.back().backends) {
    if (b.kind == holds_kind::not_determined)
      parts.push_back(fmt::format("{}'s ceiling was not reached from {:g} client{} (at least {})",
                                  b.backend, b.clients, b.clients == 1 ? "" : "s",
                                  gbps(b.delivers)));
    else if (b.kind == holds_kind::does_not_hold)
      parts.push_back(b.most_accelerators
                          ? fmt::format("{} tops out near {} {} ({})", b.backend,
                                        *b.most_accelerators, unit, gbps(b.delivers))
                          : fmt::format("{} tops out at {}", b.backend, gbps(b.delivers)));
  }
  if (a.rows.back().within_network == false)
    parts.push_back(fmt::format("the clients' NICs cannot carry {:g} {}'s provision",
                                a.rows.back().accelerators, unit));
  return fmt::format("{}.", fmt::join(parts, "; "));
}

sizing_answer answer_of(const sizing_document& d, std::size_t index, const price_list& prices) {
  const workload_requirement& r = d.requirements[index];
  const auto ss = series_of(d, r);
  sizing_answer a;
  a.workload = r.workload;
  a.accelerator = r.accelerator;
  a.requirement = index;
  a.au_threshold = r.au_threshold;
  a.backends = column_names(ss);
  a.provision_rule = fmt::format("provision = {:g} × the upper bound of the requirement's 95 % "
                                 "prediction interval (the estimate where there is none)",
                                 d.options.headroom);
  if (ss.empty())
    return a;
  const auto proj = row_projections(d, r, ss, a.cache_note);
  bool priced = false;
  for (const auto* s : ss)
    if (const auto* p = prices_of(prices, s->backend, s->label))
      priced |= p->priced();
  const double dataset =
      d.options.dataset_bytes > 0 ? d.options.dataset_bytes : ss.front()->dataset_bytes;
  const double checkpoint = checkpoint_bytes(d, r.workload);
  a.capacity_note = fmt::format(
      "the dataset ({:.3g} GB{}) × growth{}", dataset / 1e9,
      d.options.dataset_bytes > 0 ? ", --dataset-size" : ", as measured",
      checkpoint > 0 ? fmt::format(", plus one {:.3g} GB checkpoint", checkpoint / 1e9) : "");
  bool merged = false;
  for (std::size_t i = 0; i < proj.size(); ++i) {
    const projection& p = proj[i];
    if (!a.rows.empty() && !priced && i > 0 && same_bandwidth(proj[i - 1], p)) {
      a.rows.back().growth.push_back(p.growth);
      merged = true;
      continue;
    }
    answer_row row;
    row.accelerators = p.accelerators;
    row.growth = {p.growth};
    row.required = p.required;
    row.required_low = p.required_low;
    row.required_high = p.required_high;
    row.provision = p.provision;
    row.scaling_efficiency = p.scaling_efficiency;
    row.within_network = p.within_limit;
    row.capacity_bytes = dataset * p.growth + checkpoint;
    for (std::size_t k = 0; k < ss.size(); ++k) {
      row.backends.push_back(verdict_of(*ss[k], a.backends[k], row.provision));
      price(row.backends.back(), prices_of(prices, ss[k]->backend, ss[k]->label), row);
    }
    row.cheapest = cheapest_of(row);
    a.rows.push_back(std::move(row));
  }
  if (merged)
    a.cache_note += fmt::format("; data growth {} needs the same bandwidth, so each target is "
                                "one row",
                                growth_text(d.options.growth));
  a.recommendation = recommendation_of(a, r.accelerator);
  return a;
}

} // namespace

std::vector<const sizing_series*> answer_series(const sizing_document& d, const sizing_answer& a) {
  return series_of(d, d.requirements.at(a.requirement));
}

std::vector<sizing_answer> answers_of(const sizing_document& d, const price_list& prices) {
  std::vector<sizing_answer> out;
  for (std::size_t i = 0; i < d.requirements.size(); ++i)
    out.push_back(answer_of(d, i, prices));
  return out;
}

} // namespace dlsize::analysis
