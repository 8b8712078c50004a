// config is below analysis: this include must not be found.
#include "analysis/student_t.hpp"

int main() {
  return 0;
}
