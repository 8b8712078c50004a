#include "render/answer_render.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "render/human_number.hpp"

namespace dlsize::render {
namespace {

using analysis::backend_answer;
using analysis::holds_kind;

// Columns of a terminal: code points, not bytes (the tables hold ≥, –, ×).
std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

std::string growth_cell(const std::vector<double>& g) {
  std::vector<std::string> parts;
  for (double f : g)
    parts.push_back(fmt::format("{:g}×", f));
  return fmt::format("{}", fmt::join(parts, ", "));
}

bool shows_growth(const analysis::sizing_answer& a) {
  for (const auto& r : a.rows)
    if (r.growth.size() > 1 || r.growth.front() != 1)
      return true;
  return false;
}

bool modelled_allreduce(const analysis::sizing_answer& a) {
  for (const auto& r : a.rows)
    if (r.scaling_efficiency != 1)
      return true;
  return false;
}

bool priced(const analysis::sizing_answer& a) {
  for (const auto& r : a.rows)
    for (const auto& b : r.backends)
      if (b.cost)
        return true;
  return false;
}

// A backend's verdict at a row, its figures in the table's unit.
std::string verdict_cell(const backend_answer& b, const rate_unit& u, double au_threshold) {
  const std::string delivers = (b.at_least ? "≥ " : "") + in_unit(b.delivers, u);
  switch (b.kind) {
  case holds_kind::holds:
    return fmt::format("holds: {} ({:+.0f} %)", delivers, 100 * b.margin);
  case holds_kind::does_not_hold: {
    std::string cell = fmt::format("does not hold: ceiling {}", delivers);
    if (b.knee_accelerators)
      cell += fmt::format(", knee {:.2g}", *b.knee_accelerators);
    if (b.most_accelerators)
      cell += fmt::format(" (≤ {} at AU {:.0f} %)", *b.most_accelerators, 100 * au_threshold);
    return cell;
  }
  default:
    return fmt::format("not determined: {} from {:g} client{}", delivers, b.clients,
                       b.clients == 1 ? "" : "s");
  }
}

std::vector<double> rates_of(const analysis::sizing_answer& a) {
  std::vector<double> v;
  for (const auto& r : a.rows) {
    v.push_back(r.provision);
    for (const auto& b : r.backends)
      v.push_back(b.delivers);
  }
  return v;
}

std::string money(double v) {
  return std::isfinite(v) ? human(v) : "–";
}

} // namespace

rate_unit unit_for(const std::vector<double>& bytes_per_s) {
  double most = 0;
  for (double v : bytes_per_s)
    if (std::isfinite(v))
      most = std::max(most, v);
  return most >= 1e9 ? rate_unit{1e9, "GB/s"} : rate_unit{1e6, "MB/s"};
}

std::string in_unit(double v, const rate_unit& u) {
  if (!std::isfinite(v))
    return "–";
  const double x = v / u.scale;
  return x >= 100 ? fmt::format("{:.0f}", x) : fmt::format("{:.3g}", x);
}

std::string answer_title(const analysis::sizing_answer& a) {
  std::vector<std::string> targets;
  for (const auto& r : a.rows)
    if (targets.empty() || targets.back() != fmt::format("{:g}", r.accelerators))
      targets.push_back(fmt::format("{:g}", r.accelerators));
  return fmt::format("{} on {}: what {} {} need from storage", a.workload, a.accelerator,
                     fmt::join(targets, ", "), a.accelerator);
}

std::vector<std::string> requirement_lines(const analysis::workload_requirement& r) {
  const rate_unit u{1e6, "MB/s"};
  const auto pair = [&](double at_100, double at_threshold) {
    return fmt::format("{} MB/s at AU 100 % ({} at AU {:.0f} %)", in_unit(at_100, u),
                       in_unit(at_threshold, u), 100 * r.au_threshold);
  };
  std::vector<std::string> out;
  std::string line = fmt::format("Requirement per {}: planned {} (the profile)", r.accelerator,
                                 pair(r.planned, r.planned_at_threshold));
  if (std::isfinite(r.measured))
    line += fmt::format("; measured {} over {} runs on {} backend{}, {:+.1f} %",
                        pair(r.measured, r.measured_at_threshold), r.runs - r.client_limited_runs,
                        r.backends.size(), r.backends.size() == 1 ? "" : "s", 100 * r.difference);
  out.push_back(line + ". The bandwidths below are " + r.basis() + ".");
  for (const auto& reason : r.reasons)
    out.push_back("Measured and planned differ by more than 5 %: " + reason + ".");
  return out;
}

text_table answer_table(const analysis::sizing_answer& a) {
  const rate_unit u = unit_for(rates_of(a));
  const bool growth = shows_growth(a), cost = priced(a), allreduce = modelled_allreduce(a);
  text_table t;
  t.header.push_back("accelerators");
  if (growth)
    t.header.push_back("data growth");
  if (allreduce)
    t.header.push_back("scaling efficiency");
  t.header.push_back(fmt::format("required {} (95 % PI)", u.name));
  t.header.push_back(fmt::format("provision {}", u.name));
  for (const auto& b : a.backends)
    t.header.push_back(b);
  if (cost)
    t.header.push_back("cheapest that holds");
  for (const auto& r : a.rows) {
    std::vector<std::string> row = {fmt::format("{:g}", r.accelerators)};
    if (growth)
      row.push_back(growth_cell(r.growth));
    if (allreduce)
      row.push_back(fmt::format("{:.3f}", r.scaling_efficiency));
    row.push_back(std::isfinite(r.required_low)
                      ? fmt::format("{} ({}–{})", in_unit(r.required, u),
                                    in_unit(r.required_low, u), in_unit(r.required_high, u))
                      : in_unit(r.required, u));
    row.push_back(in_unit(r.provision, u) +
                  (r.within_network == false ? " (over the clients' NICs)" : ""));
    for (const auto& b : r.backends)
      row.push_back(verdict_cell(b, u, a.au_threshold));
    if (cost)
      row.push_back(r.cheapest.empty() ? "none" : r.cheapest);
    t.rows.push_back(std::move(row));
  }
  return t;
}

text_table cost_table(const analysis::sizing_answer& a) {
  text_table t;
  t.header = {"accelerators", "data growth", "backend",         "capacity TB",  "bandwidth",
              "capacity",     "total",       "per accelerator", "capacity fits"};
  for (const auto& r : a.rows)
    for (const auto& b : r.backends)
      if (b.cost)
        t.rows.push_back({fmt::format("{:g}", r.accelerators), growth_cell(r.growth), b.backend,
                          fmt::format("{:.3g}", r.capacity_bytes / 1e12), money(b.cost->bandwidth),
                          money(b.cost->capacity), money(b.cost->total),
                          money(b.cost->per_accelerator),
                          b.cost->capacity_fits ? (*b.cost->capacity_fits ? "yes" : "no") : "–"});
  return t;
}

std::vector<std::string> answer_notes(const analysis::sizing_answer& a) {
  std::vector<std::string> out = {
      "Required: what the storage must deliver for the target at AU 100 %, from the "
      "requirement above; the 95 % prediction interval is symmetric on a log scale (it cannot "
      "reach zero).",
      a.provision_rule[0] == 'p' ? "P" + a.provision_rule.substr(1) + "." : a.provision_rule,
      "Holds: the backend's ceiling (or, marked ≥, what it delivered at least) is at or above "
      "the provision; not determined: its runs never reached its ceiling and what they "
      "delivered is below the provision.",
      "Assumed: " + a.cache_note + "."};
  if (priced(a))
    out.push_back("Capacity: " + a.capacity_note +
                  ". Costs are the buyer's prices (--backend, "
                  "backends.json): bandwidth × price per GB/s + capacity × price per TB.");
  return out;
}

std::string answer_markdown(const analysis::sizing_answer& a,
                            const analysis::workload_requirement& r) {
  std::string out = "### " + answer_title(a) + "\n\n";
  for (const auto& l : requirement_lines(r))
    out += l + "\n\n";
  out += markdown_table(answer_table(a)) + "\n";
  for (const auto& n : answer_notes(a))
    out += "- " + n + "\n";
  if (const auto costs = cost_table(a); !costs.rows.empty())
    out += "\n" + markdown_table(costs);
  return out + "\n**Recommendation:** " + a.recommendation + "\n\n";
}

void add_answer_html(html_page& page, const analysis::sizing_answer& a,
                     const analysis::workload_requirement& r) {
  page.heading(3, answer_title(a));
  for (const auto& l : requirement_lines(r))
    page.paragraph(l);
  page.table(answer_table(a));
  page.paragraph("Recommendation: " + a.recommendation);
  if (const auto costs = cost_table(a); !costs.rows.empty())
    page.table(costs);
  page.list(answer_notes(a));
}

std::string answer_terminal(const analysis::sizing_answer& a,
                            const analysis::workload_requirement& r) {
  std::string out = answer_title(a) + "\n";
  for (const auto& l : requirement_lines(r))
    out += "  " + l + "\n";
  out += aligned_table(answer_table(a));
  out += "  " + a.provision_rule + "; " + a.cache_note + ".\n";
  if (const auto costs = cost_table(a); !costs.rows.empty())
    out += aligned_table(costs);
  return out + "  Recommendation: " + a.recommendation + "\n";
}

std::string aligned_table(const text_table& t, const std::string& indent) {
  std::vector<std::size_t> width(t.header.size(), 0);
  const auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], display_width(row[i]));
  };
  measure(t.header);
  for (const auto& r : t.rows)
    measure(r);
  const auto line = [&](const std::vector<std::string>& row) {
    std::string out = indent;
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i) {
      out += row[i];
      if (i + 1 < row.size())
        out += std::string(width[i] - display_width(row[i]) + 2, ' ');
    }
    return out + "\n";
  };
  std::string out = line(t.header);
  for (const auto& r : t.rows)
    out += line(r);
  return out;
}

} // namespace dlsize::render
