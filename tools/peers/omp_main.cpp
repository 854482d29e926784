// weft-peer-gomp and weft-peer-libomp: the compare workloads on OpenMP tasks. One source and
// one set of objects (compiled by GCC with -fopenmp); CMake links them once against GCC's
// libgomp and once against LLVM's libomp, which implements the GOMP_* entry points GCC
// emits. So the two programs differ in the runtime only, and each takes its peer name from
// its own file name.
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include "tools/peers/omp_par.hpp"
#include "tools/peers/peer_cli.hpp"

int main(int argc, char** argv) {
  // The deep UTS trees (B: depth 6,974; T3L: 17,844) recurse a frame per level and overflow
  // the OpenMP threads' default stacks; weft's workers get 64 MiB, so these do too. libgomp
  // reads OMP_STACKSIZE before main, so when it is unset: set it and start again.
  if (std::getenv("OMP_STACKSIZE") == nullptr) {
    setenv("OMP_STACKSIZE", "64M", 1);
    execv("/proc/self/exe", argv);  // returns only on failure: then run with the default
  }
  std::string_view name = argc > 0 ? argv[0] : "openmp";
  name = name.substr(name.rfind('/') + 1);  // npos + 1 == 0: no slash
  if (name.starts_with("weft-peer-")) name.remove_prefix(std::string_view("weft-peer-").size());
  return peers::peer_main(name, argc, argv,
                          [](int workers, std::string_view loops, peers::LoopSchedule schedule) {
                            return kernels::OmpPar(workers, loops, schedule);
                          });
}
