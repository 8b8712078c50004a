// Uses a module it links (analysis): must build.
#include "analysis/student_t.hpp"

int main() {
  return dlsize::analysis::student_t_quantile(0.975, 10.0) > 2.0 ? 0 : 1;
}
