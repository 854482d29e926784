#include "workloads/kernels/suite.hpp"

namespace kernels {

std::vector<WorkloadInfo> workload_list() {
  return []<class... W>(std::type_identity<std::tuple<W...>>) {
    return std::vector<WorkloadInfo>{WorkloadInfo{W::kName, W::kDefault}...};
  }(std::type_identity<AllWorkloads>{});
}

bool is_loop_workload(std::string_view name) {
  return []<class... W>(std::string_view n, std::type_identity<std::tuple<W...>>) {
    return ((W::kName == n) || ...);
  }(name, std::type_identity<LoopWorkloads>{});
}

Spec parse_spec(std::string_view text) {
  const std::size_t colon = text.find(':');
  Spec spec{std::string(text.substr(0, colon)), ""};
  bool known = visit_workload(spec.name, [&]<class W>(std::type_identity<W>) {
    spec.size = colon == std::string_view::npos ? std::string(W::kDefault)
                                                : std::string(text.substr(colon + 1));
    try {
      (void)W::parse(spec.size);
    } catch (const SizeError& e) {
      throw SizeError(std::string(text) + ": " + e.what());
    }
  });
  if (!known) {
    std::string names;
    for (const WorkloadInfo& info : workload_list())
      names += (names.empty() ? "" : ", ") + std::string(info.name);
    throw SizeError(std::string(text) + ": unknown workload (known: " + names + ")");
  }
  return spec;
}

std::string_view default_specs() {
  return "fib:35,uts:T3,nqueens:13,strassen:1024,sparselu:50x100,fft:2^22,sort:1e7,matmul:1024";
}

}  // namespace kernels
