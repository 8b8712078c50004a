// config is below analysis: a call declared by hand, past the include rule, must not link.
namespace dlsize::analysis {
double student_t_quantile(double p, double df);
}

int main() {
  return dlsize::analysis::student_t_quantile(0.975, 10.0) > 2.0 ? 0 : 1;
}
