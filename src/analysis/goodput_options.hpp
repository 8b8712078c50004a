#pragma once
// The options of the goodput model that plan, size and compare share: the MTTF per accelerator,
// the target loss, the restart overhead and the accelerator counts of the table, as given and
// as resolved. cli/ registers them (cli/goodput_options) and calls parse_goodput_options; every
// rule throws usage_error naming the option and what is valid.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/goodput_curve.hpp"

namespace dlsize::analysis {

// The options as typed, so that messages quote them.
struct goodput_request {
  std::string mttf;                 // empty: kDefaultMttfS
  std::string max_loss;             // a fraction or percent in (0, 1); empty: 5 %
  std::string restart_overhead;     // empty: kDefaultRestartOverheadS
  std::vector<double> accelerators; // empty: default_goodput_counts()
};

// Whether any of them was given.
bool goodput_asked(const goodput_request& r);

// What they resolve to.
struct goodput_options {
  double mttf_s = kDefaultMttfS;
  std::string mttf_source = kDefaultMttfSource;
  double max_loss = 0.05;
  double restart_overhead_s = kDefaultRestartOverheadS;
  std::string restart_overhead_source = kDefaultRestartOverheadSource;
  std::vector<std::uint64_t> counts = default_goodput_counts();

  // Puts the MTTF, the loss and the restart overhead into a setup.
  void apply_to(goodput_setup& s) const;
};

// Throws usage_error for an MTTF or restart overhead that is not a duration (or an MTTF of 0),
// a loss outside (0, 1), and a count that is not a whole number from 1 to 2^20.
goodput_options parse_goodput_options(const goodput_request& r);

} // namespace dlsize::analysis
