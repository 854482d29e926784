// weft-peer-tbb: the compare workloads on oneTBB (tbb_par.hpp).
#include "tools/peers/peer_cli.hpp"
#include "tools/peers/tbb_par.hpp"

int main(int argc, char** argv) {
  // TbbPar owns a task_arena and a global_control, neither movable: made in place.
  return peers::peer_main(
      "tbb", argc, argv,
      [](int workers, std::string_view loops, peers::LoopSchedule schedule) -> kernels::TbbPar {
        return kernels::TbbPar(workers, loops, schedule);
      });
}
