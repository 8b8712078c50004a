#pragma once
// The sizing model's results as the JSON of a sizing report (dlsize.sizing/1): numbers in SI
// units, null where a figure does not exist (no interval with two runs, no knee).
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/linear_fit.hpp"
#include "analysis/projection.hpp"
#include "analysis/scaling_model.hpp"

namespace dlsize::analysis {

// A number, or null when it is NaN or infinite.
nlohmann::json number_or_null(double v);

// slope, intercept, r2, residual_stdev, standard errors, t975, their 95 % intervals, n,
// mean_x, sxx; with curve_to > 0 also "curve": the fit and both bands from 0 to curve_to, each
// point's count under x_key.
nlohmann::json fit_json(const analysis::linear_fit& f, double curve_to = 0,
                        const char* x_key = "accelerators");
nlohmann::json count_row_json(const analysis::count_row& r);
nlohmann::json knee_json(const analysis::scaling_analysis& a);
// The knee test against a count: unit is its noun ("accelerator", "rank"); the breakpoint of a
// chosen knee is under unit + "s".
nlohmann::json knee_json(const analysis::knee_test& k, const std::string& unit);
nlohmann::json projection_json(const analysis::projection& p);

} // namespace dlsize::analysis
