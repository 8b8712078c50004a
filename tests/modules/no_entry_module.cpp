// A shared library that is not a dlsize CUDA module: it lacks the entry function.
extern "C" __attribute__((visibility("default"))) int not_dlsize() {
  return 1;
}
