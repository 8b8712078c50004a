// A library that the missing-dependency module needs and cannot find when it loads.
extern "C" __attribute__((visibility("default"))) int dlsize_test_dep_value() {
  return 7;
}
